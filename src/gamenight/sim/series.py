"""Seeded series of all-bot games: win shares, mean scores and standard errors.

Game ``i`` of a series is a pure function of the series seed, ``i`` and the
line-up. Seats change over the same dice: with B seat orders
(:func:`gamenight.sim.design.seat_orders`: all K! for K <= 4 seats, a balanced Latin
square beyond), game ``i`` plays deal ``i // B`` (dice seed ``derive(seed, "game",
i // B)``) in seat order ``i mod B``, so every deal is played once in every seat order
and a bot's figures are not confounded with its seat or its neighbours
(``rotate=False``, ``--fixed-seats``: game ``i`` plays deal ``i`` in the line-up's
order, to measure seat bias). Standard errors take the deal as the unit
(:func:`deal_mean_se`). Seat ``s``'s bot
seed is ``derive(game_seed, "bot", s)``. So a series gives the same rows whether it
runs on one core, on every core (``jobs``) or on a Ray cluster, and two line-ups
can be compared on the same dice (a paired comparison). The report is per entrant
of the line-up (its position in ``--bots``), whatever seat it sat in.

>>> from gamenight.core import registry
>>> report = run_series(registry.get("wurfeltod"), ["greedy", "random"], games=4, seed=1, jobs=1)
>>> [seat.bot for seat in report.seats], round(sum(s.win_share for s in report.seats), 9)
(['greedy', 'random'], 1.0)
>>> report.partial, len(report.rows)
(False, 4)
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from gamenight.core.errors import OptionsError
from gamenight.core.options import Options
from gamenight.core.registry import GameEntry
from gamenight.core.threads import usable_cores
from gamenight.sim.engine import GameRow, Job, Series, play_game, run_jobs

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class SeatReport:
    seat: int  # the entrant's position in the line-up (its seat when seats are fixed)
    bot: str
    win_share: float  # a k-way shared win counts 1/k
    win_share_se: float
    mean_score: float
    score_se: float


@dataclass(frozen=True)
class SeriesReport:
    game: str
    games: int  # games finished (fewer than asked when partial)
    seed: int
    options: Options
    seats: list[SeatReport]
    seconds: float
    asked: int = 0  # games asked for
    partial: bool = False  # stopped early (Ctrl-C): the games finished so far
    jobs: int = 1
    backend: str = "local"
    worker_peak_mb: list[float] = field(default_factory=list)
    rows: list[GameRow] = field(default_factory=list, repr=False)
    rotate: bool = True  # seats rotate over each deal (False: --fixed-seats)

    @property
    def bots(self) -> list[str]:
        return [s.bot for s in self.seats]


def check_lineup(entry: GameEntry, bots: Sequence[str], options: Options | None = None) -> None:
    """Refuse unknown bots and a seat count the game does not take with ``options``
    (parsed; None: the defaults)."""
    unknown = [b for b in bots if b not in entry.bots]
    if unknown:
        raise OptionsError(
            "unknown bot {bot} for {game} (choose from {bots})",
            bot=repr(unknown[0]),
            game=entry.id,
            bots=", ".join(entry.bots),
        )
    parsed = options if options is not None else entry.game.parse_options()
    entry.game.check_setup(len(bots), parsed)


def run_series(
    entry: GameEntry,
    bots: Sequence[str],
    *,
    games: int,
    seed: int = 0,
    options: Options | None = None,
    progress: Progress | None = None,
    jobs: int | None = None,
    backend: str = "local",
    address: str | None = None,
    worker_memory_mb: float | None = None,
    rotate: bool = True,
) -> SeriesReport:
    """Play ``games`` seeded games of the line-up ``bots`` and summarise them per entrant.

    ``rotate``: every deal is played once in each seat order of
    :func:`gamenight.sim.design.seat_orders` (B games per deal; a multiple of B games
    balances the seats exactly); False keeps the seats fixed.

    ``jobs`` worker processes (default: every core; 1 plays in this process).
    ``progress(done, total)`` is called as games finish (front ends draw a bar).
    Ctrl-C stops the series: the report holds the games finished so far and
    says ``partial``.
    """
    if games < 1:
        raise OptionsError("--games: play at least one game")
    options = options if options is not None else entry.game.parse_options()
    check_lineup(entry, bots, options)
    if jobs is None:
        jobs = 0 if backend == "ray" else usable_cores()  # Ray: every CPU of the cluster
    elif jobs < 1:
        raise OptionsError("--jobs: use at least one worker")
    lineup = tuple(bots)
    work = Series(entry.id, lineup, dict(options), seed, games, rotate)
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
    return summarise(
        entry.id,
        lineup,
        rows,
        seed=seed,
        options=options,
        seconds=time.perf_counter() - started,
        asked=games,
        partial=outcome.partial,
        jobs=outcome.jobs,
        backend=backend,
        worker_peak_mb=outcome.worker_peak_mb,
        rotate=rotate,
    )


def by_entrant(
    rows: Sequence[GameRow], entrants: int
) -> tuple[list[list[float]], list[list[float]]]:
    """Each line-up entrant's win shares and scores over ``rows``, whatever its seat."""
    shares: list[list[float]] = [[] for _ in range(entrants)]
    scores: list[list[float]] = [[] for _ in range(entrants)]
    for row in rows:
        for s in range(len(row.bots)):
            shares[row.entrant(s)].append(row.share(s))
            scores[row.entrant(s)].append(row.scores[s])
    return shares, scores


def deals_by_entrant(rows: Sequence[GameRow], entrants: int) -> list[list[int]]:
    """The deal (dice index) of each value :func:`by_entrant` gives, in the same order."""
    deals: list[list[int]] = [[] for _ in range(entrants)]
    for row in rows:
        for s in range(len(row.bots)):
            deals[row.entrant(s)].append(row.index)
    return deals


def summarise(
    game: str,
    bots: Sequence[str],
    rows: Sequence[GameRow],
    *,
    seed: int,
    options: Options,
    seconds: float,
    asked: int,
    partial: bool,
    jobs: int,
    backend: str,
    worker_peak_mb: Sequence[float] = (),
    rotate: bool = True,
) -> SeriesReport:
    """The per-entrant win shares and mean scores of ``rows`` (one line-up)."""
    shares, scores = by_entrant(rows, len(bots))
    deals = deals_by_entrant(rows, len(bots))
    seats = [
        SeatReport(s, b, *deal_mean_se(shares[s], deals[s]), *deal_mean_se(scores[s], deals[s]))
        for s, b in enumerate(bots)
    ]
    return SeriesReport(
        game,
        len(rows),
        seed,
        options,
        seats,
        seconds,
        asked=asked,
        partial=partial,
        jobs=jobs,
        backend=backend,
        worker_peak_mb=list(worker_peak_mb),
        rows=list(rows),
        rotate=rotate,
    )


def mean_se(values: Sequence[float]) -> tuple[float, float]:
    """Mean and its standard error (0 for fewer than two values; NaN mean for none).

    >>> mean_se([1.0, 3.0])
    (2.0, 1.0)
    """
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(variance / n)


def deal_mean_se(values: Sequence[float], deals: Sequence[int]) -> tuple[float, float]:
    """Mean and its standard error with the deal as the unit: the plays of one deal (its
    seat orders; a tournament's line-ups on the same dice) are not independent games.

    This is the cluster-robust (sandwich) standard error with deals as clusters,
    ``sqrt(C / (C - 1) * sum_c R_c**2) / n`` (``R_c``: the sum of deal c's deviations
    from the mean, C deals, n values). With every deal played equally often it is
    exactly the standard error of the deals' means; with one value per deal it is
    :func:`mean_se`. 0 for fewer than two deals, NaN mean for no values.

    >>> deal_mean_se([1.0, 3.0, 5.0, 7.0], [0, 0, 1, 1])  # deal means 2 and 6
    (4.0, 2.0)
    >>> deal_mean_se([1.0, 3.0], [0, 1]) == mean_se([1.0, 3.0])
    True
    """
    n = len(values)
    if n == 0:
        return math.nan, math.nan
    mean = sum(values) / n
    residual: dict[int, float] = {}
    for v, d in zip(values, deals, strict=True):
        residual[d] = residual.get(d, 0.0) + (v - mean)
    c = len(residual)
    if c < 2:
        return mean, 0.0
    return mean, math.sqrt(c / (c - 1) * sum(r * r for r in residual.values())) / n


def play_serial(jobs: Iterable[Job]) -> Iterator[GameRow]:
    """The games one after another in this process (the reference for every backend)."""
    for job in jobs:
        yield play_game(job)


__all__: list[Any] = [
    "GameRow",
    "SeatReport",
    "SeriesReport",
    "by_entrant",
    "check_lineup",
    "deal_mean_se",
    "deals_by_entrant",
    "mean_se",
    "run_series",
    "summarise",
]
