"""Tournaments: every line-up of K seats drawn from the bots, seat order changing.

Each line-up (a set of K different bots, or with repeats when there are fewer
bots than seats) plays ``games`` games; game ``j`` of every line-up uses the same
dice (``derive(seed, "game", j)``), so bots are compared on the same luck, and in
seat order ``j`` mod B of :func:`gamenight.sim.design.seat_orders` (all K! orders up
to 4 seats, a balanced Latin square beyond), so that no bot gains from its seat or
from whom it follows.

The report gives each bot's win share and mean score with 95% intervals, the
head-to-head win-share matrix (how often the row bot finished ahead of the
column bot when both played; ties count one half), an order-independent batch
fit (Bradley-Terry by maximum likelihood, :mod:`gamenight.sim.batch`; the
standings are sorted by it) and openskill Plackett-Luce ratings (mu, sigma and
the ordinal mu - 3 sigma), which depend on the order the games are rated in.

>>> lineups(["a", "b", "c"], 2)
[('a', 'b'), ('a', 'c'), ('b', 'c')]
>>> [seated(("a", "b", "c"), j) for j in range(3)]
[('a', 'b', 'c'), ('b', 'c', 'a'), ('c', 'a', 'b')]
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from gamenight.core.errors import OptionsError
from gamenight.core.options import Options
from gamenight.core.registry import GameEntry
from gamenight.core.threads import usable_cores
from gamenight.sim.batch import Strength, batch_fit
from gamenight.sim.design import seat_orders, seated
from gamenight.sim.engine import GameRow, Job, run_jobs
from gamenight.sim.ratings import Rating, rate_games
from gamenight.sim.series import check_lineup, deal_mean_se, mean_se

Z95 = 1.959963984540054


@dataclass(frozen=True)
class BotStanding:
    bot: str
    games: int
    win_share: float
    win_low: float  # 95% interval
    win_high: float
    mean_score: float
    score_low: float
    score_high: float
    rating: Rating  # openskill, game by game in game order
    strength: Strength  # the batch fit of all the games at once (order-independent)


@dataclass(frozen=True)
class TournamentReport:
    game: str
    bots: list[str]
    seats: int
    games_per_lineup: int
    seed: int
    options: Options
    lineups: list[tuple[str, ...]]
    standings: list[BotStanding]  # strongest in the batch fit first
    # ahead[a][b]: share of games with both a and b in which a finished ahead of b
    ahead: list[list[float]]
    ahead_low: list[list[float]]
    ahead_high: list[list[float]]
    pairs: list[list[int]]  # games in which both played
    seconds: float
    asked: int
    partial: bool = False
    jobs: int = 1
    backend: str = "local"
    worker_peak_mb: list[float] = field(default_factory=list)
    rows: list[GameRow] = field(default_factory=list, repr=False)
    # neighbours in the standings whose strength intervals overlap: their order is not
    # established by these games (the table says so)
    overlaps: list[tuple[str, str]] = field(default_factory=list)


def overlapping(standings: Sequence[BotStanding]) -> list[tuple[str, str]]:
    """Each pair of neighbours in ``standings`` (strongest first) whose 95% strength
    intervals overlap."""
    return [
        (a.bot, b.bot)
        for a, b in itertools.pairwise(standings)
        if a.strength.low <= b.strength.high
    ]


def lineups(bots: Sequence[str], seats: int) -> list[tuple[str, ...]]:
    """Every line-up of ``seats`` bots: distinct bots when there are enough, else with repeats."""
    if len(bots) >= seats:
        return list(itertools.combinations(bots, seats))
    return list(itertools.combinations_with_replacement(bots, seats))


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion (fractional successes allowed).

    >>> low, high = wilson(50, 100)
    >>> round(low, 3), round(high, 3)
    (0.404, 0.596)
    """
    if n == 0:
        return math.nan, math.nan
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def effective_n(values: Sequence[float], deals: Sequence[int]) -> int:
    """The number of independent games ``values`` are worth, the deal as the unit:
    n divided by the design effect (the squared ratio of the deal-clustered standard
    error to the one of independent games), at most n, at least the number of deals.

    >>> effective_n([1.0, 1.0, 0.0, 0.0], [0, 0, 1, 1])  # two deals, each played alike
    2
    >>> effective_n([1.0, 0.0, 1.0, 0.0], [0, 0, 1, 1])  # independent of the deal
    4
    """
    n = len(values)
    _, independent = mean_se(values)
    _, clustered = deal_mean_se(values, deals)
    if n < 2 or independent == 0 or clustered == 0:
        return n
    return max(len(set(deals)), min(n, round(n * (independent / clustered) ** 2)))


def run_tournament(
    entry: GameEntry,
    bots: Sequence[str],
    *,
    seats: int,
    games: int,
    seed: int = 0,
    options: Options | None = None,
    progress: Callable[[int, int], None] | None = None,
    jobs: int | None = None,
    backend: str = "local",
    address: str | None = None,
    worker_memory_mb: float | None = None,
) -> TournamentReport:
    """Play ``games`` games of every line-up (seat order changing game by game)."""
    names = list(dict.fromkeys(bots))
    if len(names) < 2:
        raise OptionsError("--bots: a tournament needs at least two different bots")
    if games < 1:
        raise OptionsError("--games: play at least one game per line-up")
    options = options if options is not None else entry.game.parse_options()
    for name in names:
        check_lineup(entry, [name] * seats, options)  # known bots, a seat count it takes
    if jobs is None:
        jobs = 0 if backend == "ray" else usable_cores()
    elif jobs < 1:
        raise OptionsError("--jobs: use at least one worker")
    plan = lineups(names, seats)
    work: list[Job] = []
    for lineup in plan:
        orders = len(seat_orders(len(lineup)))
        for j in range(games):
            turn = j % orders
            bots = seated(lineup, turn)
            work.append(Job(entry.id, bots, dict(options), seed, j, len(work), turn))
    started = time.perf_counter()
    outcome = run_jobs(
        work,
        jobs=jobs,
        backend=backend,
        address=address,
        progress=progress,
        worker_memory_mb=worker_memory_mb,
    )
    rows = sorted(outcome.rows, key=lambda r: r.key)
    return summarise_tournament(
        entry.id,
        names,
        seats,
        games,
        rows,
        seed=seed,
        options=options,
        plan=plan,
        seconds=time.perf_counter() - started,
        asked=len(work),
        partial=outcome.partial,
        jobs=outcome.jobs,
        backend=backend,
        worker_peak_mb=outcome.worker_peak_mb,
    )


def summarise_tournament(
    game: str,
    names: list[str],
    seats: int,
    games: int,
    rows: Sequence[GameRow],
    *,
    seed: int,
    options: Options,
    plan: list[tuple[str, ...]],
    seconds: float,
    asked: int,
    partial: bool,
    jobs: int,
    backend: str,
    worker_peak_mb: Sequence[float],
) -> TournamentReport:
    n = len(names)
    index = {b: i for i, b in enumerate(names)}
    shares: list[list[float]] = [[] for _ in names]
    scores: list[list[float]] = [[] for _ in names]
    deals: list[list[int]] = [[] for _ in names]  # game j of every line-up: one deal
    ahead = [[0.0] * n for _ in names]
    pairs = [[0] * n for _ in names]
    for row in rows:
        for s, bot in enumerate(row.bots):
            shares[index[bot]].append(row.share(s))
            scores[index[bot]].append(row.scores[s])
            deals[index[bot]].append(row.index)
        for s, t in itertools.permutations(range(len(row.bots)), 2):
            a, b = index[row.bots[s]], index[row.bots[t]]
            if a == b:
                continue
            pairs[a][b] += 1
            if row.ranks[s] < row.ranks[t]:
                ahead[a][b] += 1
            elif row.ranks[s] == row.ranks[t]:
                ahead[a][b] += 0.5
    ratings = rate_games(names, rows)
    fit = batch_fit(names, rows)
    standings = []
    for i, bot in enumerate(names):
        count = len(shares[i])
        share = sum(shares[i]) / count if count else math.nan
        n_eff = effective_n(shares[i], deals[i])  # the deal is the unit, not the game
        low, high = wilson(share * n_eff, n_eff) if count else (math.nan, math.nan)
        mean, se = deal_mean_se(scores[i], deals[i])
        standings.append(
            BotStanding(
                bot,
                count,
                share,
                low,
                high,
                mean,
                mean - Z95 * se,
                mean + Z95 * se,
                ratings[bot],
                fit[bot],
            )
        )
    # by the batch fit: openskill's order in game order can differ from shuffle to shuffle
    standings.sort(key=lambda s: (-s.strength.elo, s.bot))
    share_m = [
        [ahead[a][b] / pairs[a][b] if pairs[a][b] else math.nan for b in range(n)] for a in range(n)
    ]
    bounds = [[wilson(ahead[a][b], pairs[a][b]) for b in range(n)] for a in range(n)]
    return TournamentReport(
        game,
        names,
        seats,
        games,
        seed,
        options,
        plan,
        standings,
        share_m,
        [[lo for lo, _ in r] for r in bounds],
        [[hi for _, hi in r] for r in bounds],
        pairs,
        seconds,
        asked,
        partial,
        jobs,
        backend,
        list(worker_peak_mb),
        list(rows),
        overlapping(standings),
    )
