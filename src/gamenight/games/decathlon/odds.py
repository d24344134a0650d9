"""Live win odds: P(finish first) for every seat, ties sharing (and Championship ranks).

Every player is assumed to play the remaining events for expected points (the
solver's EV-optimal policy).  Each seat's final total is its running total plus
the independent points of its remaining events, so its distribution is the
convolution of the events' point distributions (no valid result scores 0, D3,
D11).  With ``X_j`` independent, seat ``i``'s share of the win is

    sum_s P(X_i = s) * E[1 / (1 + K_s) * 1{all others <= s}]

where ``K_s`` counts the others exactly at ``s``.  With ``a_j = P(X_j = s)``,
``b_j = P(X_j < s)`` the expectation is the integral over ``z`` in ``[0, 1]`` of
``prod_j (b_j + a_j z)`` (the coefficient of ``z^k`` is ``P(K = k, others <= s)``
and ``integral z^k = 1 / (1 + k)``), computed exactly from the polynomial.

The event in progress is exact: each seat's result distribution comes from its
*current* position inside it (dice frozen, rethrows and attempts used, best so
far, height reached), under the EV policy (:mod:`.solver.positions`).  A seat
that has finished it counts its posted result.

The Championship (D11) has :func:`championship_odds`: the probability of every
final honours rank per seat under the same model (independent EV-optimal
results, ranked per event) -- exact for two players, otherwise by a seeded Monte
Carlo with standard errors.

:func:`live_odds` is the game's ``odds`` capability (what the server sends to a
room with odds on); :func:`win_odds` and :func:`honours_odds` are what the
terminal shows.

>>> from gamenight.games.decathlon.odds import win_shares
>>> import numpy as np
>>> win_shares([np.array([0.5, 0.5]), np.array([0.5, 0.5])], [0, 0])
(0.5, 0.5)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
import numpy.typing as npt

from gamenight.core.odds import Odds
from gamenight.games.decathlon import advisor, win_play
from gamenight.games.decathlon.scoring import MEDALS
from gamenight.games.decathlon.solver import HeightSituation, Utility, event_spec, solve_event
from gamenight.games.decathlon.solver.heights import BARS
from gamenight.games.decathlon.solver.positions import AttemptStart, Position, position_dist
from gamenight.games.decathlon.view import DecathlonView

Floats = npt.NDArray[np.float64]


@cache
def event_points(event: str) -> tuple[int, Floats]:
    """``(low, pmf)``: the EV-optimal points of ``event``, ``pmf[k]`` = P(points = low + k)."""
    sol = solve_event(event)
    low = min(sol.min_score, 0)
    pmf = np.zeros(sol.max_score - low + 1)
    for score, p in sol.pmf.items():
        pmf[score - low] += p
    pmf[-low] += sol.p_invalid
    pmf.setflags(write=False)
    return low, pmf


def _grid(pmfs: Sequence[Floats], lows: Sequence[int]) -> tuple[int, Floats]:
    lo = min(lows)
    hi = max(low + len(p) - 1 for low, p in zip(lows, pmfs, strict=True))
    eq = np.zeros((len(pmfs), hi - lo + 1))
    for i, (low, p) in enumerate(zip(lows, pmfs, strict=True)):
        eq[i, low - lo : low - lo + len(p)] = p
    return lo, eq


def _share_curve(eq: Floats, seat: int) -> Floats:
    """``W[s]``: the seat's share of first place if it totals ``s`` (grid index)."""
    n, size = eq.shape
    below = np.cumsum(eq, axis=1) - eq  # P(X_j < s)
    poly = np.zeros((n, size))  # poly[k, s]: coefficient of z^k
    poly[0] = 1.0
    deg = 0
    for j in range(n):
        if j == seat:
            continue
        nxt = poly * below[j]
        nxt[1 : deg + 2] += poly[: deg + 1] * eq[j]
        poly, deg = nxt, deg + 1
    weights = 1.0 / np.arange(1, deg + 2)
    curve: Floats = weights @ poly[: deg + 1]
    return curve


def win_shares(pmfs: Sequence[Floats], lows: Sequence[int]) -> tuple[float, ...]:
    """Each seat's expected share of first place.

    Seat ``i`` totals ``lows[i] + k`` with probability ``pmfs[i][k]``, independently.
    """
    _, eq = _grid(pmfs, lows)
    return tuple(float(np.dot(eq[i], _share_curve(eq, i))) for i in range(len(pmfs)))


def seat_position(view: DecathlonView, seat: int) -> Position:
    """Where ``seat`` stands in the current event, as a solver position.

    The acting seat is at its decision (:func:`advisor.situation`); a seat
    waiting for an attempt is at :class:`AttemptStart`; in a height event a
    seat still in waits at the current height, or the next one if it has
    already skipped or cleared this one.  A seat done with the event is at
    ``AttemptStart(attempts + 1, best)``.
    """
    event = view.discipline
    assert event is not None
    best = view.best[seat] if view.best else None
    if view.height is not None:  # D8, D9
        status = view.status[seat] if view.status else "in"
        if status != "in":
            return AttemptStart(2, best)
        if seat == view.to_act:
            return advisor.situation(view)
        bars = BARS[event].heights
        height = view.height
        marks = view.marks[seat] if view.marks else ()
        if marks and marks[-1][0] == height:  # already skipped or cleared this height
            i = bars.index(height) + 1
            if i == len(bars):
                return AttemptStart(2, best)
            height = bars[i]
        return HeightSituation(height, best)
    if seat == view.to_act:
        return advisor.situation(view)
    tries = view.tries[seat] if view.tries else ()
    return AttemptStart(min(len(tries), view.attempts) + 1, best)


@lru_cache(maxsize=1 << 14)
def position_points(event: str, position: Position) -> tuple[int, Floats]:
    """``(low, pmf)``: the points ``event`` gives from ``position`` (EV policy; invalid: 0)."""
    dist = position_dist(event, position)
    spec = event_spec(event)
    low = min(spec.min_score, 0)
    pmf = np.zeros(max(spec.max_score, 0) - low + 1)
    pmf[spec.min_score - low : spec.max_score - low + 1] = dist[:-1]
    pmf[-low] += dist[-1]
    nz = np.flatnonzero(pmf)
    first, last = int(nz[0]), int(nz[-1])
    out = pmf[first : last + 1].copy()  # trimmed: cheaper convolutions
    out.setflags(write=False)
    return low + first, out


def _current(view: DecathlonView, seat: int) -> tuple[int, Floats]:
    event = view.discipline
    assert event is not None
    return position_points(event, seat_position(view, seat))


@cache
def rest_points(events: tuple[str, ...]) -> tuple[int, Floats]:
    """``(low, pmf)`` of the points of ``events`` played EV-optimally (convolved)."""
    low, pmf = 0, np.ones(1)
    for event in events:
        elow, epmf = event_points(event)
        pmf = np.convolve(pmf, epmf)
        low += elow
    pmf.setflags(write=False)
    return low, pmf


def _rest(view: DecathlonView) -> tuple[int, Floats]:
    if view.discipline is None:
        return 0, np.ones(1)
    return rest_points(view.disciplines[view.discipline_no + 1 :])


def final_totals(view: DecathlonView) -> list[tuple[int, Floats]]:
    """Per seat, the distribution of the final points total as ``(low, pmf)``."""
    totals = view.totals or (0,) * view.players
    rlow, rest = _rest(view)
    out: list[tuple[int, Floats]] = []
    for seat in range(view.players):
        low, pmf = (0, np.ones(1)) if view.discipline is None else _current(view, seat)
        out.append((low + rlow + totals[seat], np.convolve(pmf, rest)))
    return out


def odds(view: DecathlonView) -> tuple[float, ...]:
    """P(finish first) per seat in the points game, ties sharing the win.

    Once the game is over this is the final result's share of first place.
    """
    totals = final_totals(view)
    return win_shares([p for _, p in totals], [low for low, _ in totals])


def odds_at_start(disciplines: Sequence[str], players: int) -> tuple[float, ...]:
    """P(finish first) per seat before the first die of a points game (all seats alike).

    >>> [round(p, 12) for p in odds_at_start(("100m", "long-jump"), 2)]
    [0.5, 0.5]
    """
    low, pmf = rest_points(tuple(disciplines))
    return win_shares([pmf] * players, [low] * players)


def win_utility(view: DecathlonView, seat: int) -> Utility:
    """``u(r)``: ``seat``'s share of first place if it scores ``r`` in the current event.

    The others' totals are as in :func:`final_totals`; ``seat``'s events after
    this one are played EV-optimally.  No valid result scores 0 points (D3, D11).
    Cached on what it depends on (the others' positions, the totals), so the
    decisions of one turn share one utility.
    """
    event = view.discipline
    assert event is not None
    others = tuple(None if s == seat else seat_position(view, s) for s in range(view.players))
    totals = view.totals or (0,) * view.players
    later = view.disciplines[view.discipline_no + 1 :]
    return _win_utility(event, later, totals, seat, others)


@lru_cache(maxsize=4096)
def _win_utility(
    event: str,
    later: tuple[str, ...],
    totals: tuple[int, ...],
    seat: int,
    others: tuple[Position | None, ...],
) -> Utility:
    rlow, rest = rest_points(later)
    dists: list[tuple[int, Floats]] = []
    for s, where in enumerate(others):
        if where is None:  # the seat itself: its curve never reads its own row
            dists.append((0, np.ones(1)))
            continue
        low, pmf = position_points(event, where)
        dists.append((low + rlow + totals[s], np.convolve(pmf, rest)))
    lo, eq = _grid([p for _, p in dists], [low for low, _ in dists])
    # Below the grid every other total is higher (a loss); above it, an outright win.
    curve = np.concatenate((_share_curve(eq, seat), np.ones(1)))
    padded = np.concatenate((np.zeros(len(rest)), curve, np.ones(len(rest))))
    # win[j] = sum_k rest[k] * padded[j + k]: the share with the later events' points
    win = np.correlate(padded, rest, "valid")
    spec = event_spec(event)
    points = np.arange(spec.min_score, spec.max_score + 1)
    start = totals[seat] + rlow - lo + len(rest)
    index = np.clip(start + points, 0, len(win) - 1)
    invalid = float(win[min(max(start, 0), len(win) - 1)])  # no valid result: 0 points
    return Utility(spec.min_score, tuple(float(v) for v in win[index]), invalid=invalid)


# ----- the Championship (D11) -----------------------------------------------------------
CHAMPIONSHIP_SAMPLES = 20_000
CHAMPIONSHIP_SEED = 15
# No valid result: ranks below every valid one (results run -48..48) and wins nothing.
INVALID = np.iinfo(np.int16).min
Results = npt.NDArray[np.int16]  # (seats, samples): one simulated finish per column
Honours = npt.NDArray[np.int8]  # at most 3 per event, 30 a game


@dataclass(frozen=True)
class HonoursOdds:
    """Championship odds by Monte Carlo: ``ranks[seat][k]`` = P(final rank ``k + 1``).

    Ranks are those of the results: equal honours totals share the better rank,
    so a seat tied for first has rank 1.  ``se`` holds the standard error of
    each probability (``sqrt(p (1 - p) / samples)``).
    """

    ranks: tuple[tuple[float, ...], ...]
    se: tuple[tuple[float, ...], ...]
    samples: int
    seed: int

    @property
    def first(self) -> tuple[float, ...]:
        """P(rank 1) per seat: winning the Championship, alone or tied."""
        return tuple(r[0] for r in self.ranks)


@dataclass(frozen=True)
class _Alias:
    """Walker's alias table of one result distribution: a draw costs a handful of array
    operations whatever the number of results (an inverse-CDF search costs a binary
    search per draw, and the sampling was most of the Championship odds' time)."""

    keep: Floats  # P(keep column k) when column k is drawn
    alias: npt.NDArray[np.intp]  # the result drawn otherwise
    results: Results  # column -> result (INVALID for no valid result)

    def draw(self, rng: np.random.Generator, n: int) -> Results:
        """``n`` independent results.

        >>> table = _alias_table(np.array([0.25, 0.75]), np.array([7, 9], dtype=np.int16))
        >>> draws = table.draw(np.random.default_rng(1), 100_000)
        >>> round(float((draws == 9).mean()), 2)
        0.75
        """
        width = len(self.keep)
        u = rng.random(n) * width
        column = np.minimum(u.astype(np.intp), width - 1)  # u * width may round up to width
        u -= column  # the fraction: a second uniform, independent of the column
        picked = np.where(u < self.keep[column], column, self.alias[column])
        out: Results = self.results[picked]
        return out


def _alias_table(dist: Floats, results: Results) -> _Alias:
    """Vose's construction: every column holds its own result with probability ``keep``
    and one other result (``alias``) with the rest."""
    width = len(dist)
    scaled = dist / dist.sum() * width
    keep, alias = np.ones(width), np.arange(width, dtype=np.intp)
    small = [k for k in range(width) if scaled[k] < 1.0]
    large = [k for k in range(width) if scaled[k] >= 1.0]
    while small and large:
        s, g = small.pop(), large.pop()
        keep[s], alias[s] = scaled[s], g
        scaled[g] -= 1.0 - scaled[s]
        (small if scaled[g] < 1.0 else large).append(g)
    return _Alias(keep, alias, results)  # leftovers keep themselves (rounding dust)


@lru_cache(maxsize=256)
def _sampler(event: str, position: Position) -> _Alias:
    """The alias table of the final result of ``event`` from ``position``."""
    spec = event_spec(event)
    valid = np.arange(spec.min_score, spec.max_score + 1, dtype=np.int16)
    results = np.concatenate((valid, np.array([INVALID], dtype=np.int16)))
    return _alias_table(position_dist(event, position), results)


@lru_cache(maxsize=256)
def _seat_results(
    event: str, position: Position, number: int, seat: int, samples: int, seed: int
) -> Results:
    """Sampled results of one seat in event ``number`` from ``position`` (one row).

    Each seat and event has its own random stream and the row is kept, so after a
    decision only the acting seat's row is drawn again -- and with the same random
    numbers, which keeps a live odds track steady (its moves come from the position,
    not from sampling noise).
    """
    rng = np.random.default_rng([seed, 0, number, seat])
    out = _sampler(event, position).draw(rng, samples)
    out.setflags(write=False)
    return out


def _above(values: npt.NDArray[np.int16]) -> Honours:
    """``[i, s]``: how many seats have a strictly higher value than seat ``i`` in finish ``s``.

    >>> _above(np.array([[5, 1], [5, 2], [4, 3]], dtype=np.int16)).tolist()
    [[0, 2], [0, 1], [2, 0]]
    """
    count = np.zeros(values.shape, dtype=np.int8)
    for row in values:
        count += row > values
    return count


# honours by the number of seats strictly better (0: gold); MEDALS has ranks 1..3
_MEDAL = np.array([MEDALS.get(k + 1, 0) for k in range(len(MEDALS) + 1)], dtype=np.int8)


def _honours(results: Results) -> Honours:
    """D11 honours per seat (rows) and finish (columns) of one event's results."""
    got = _MEDAL[np.minimum(_above(results), len(MEDALS))]
    out: Honours = np.where(results == INVALID, np.int8(0), got)
    return out


@lru_cache(maxsize=64)
def _event_honours(event: str, number: int, players: int, samples: int, seed: int) -> Honours:
    """Sampled honours of event ``number`` played from the start by every seat."""
    rng = np.random.default_rng([seed, 1, number])
    results = _sampler(event, AttemptStart()).draw(rng, players * samples)
    out = _honours(results.reshape(players, samples))
    out.setflags(write=False)
    return out


@lru_cache(maxsize=32)
def _later_honours(
    disciplines: tuple[str, ...], first: int, players: int, samples: int, seed: int
) -> Honours:
    """Sampled honours of events ``first..`` all played from the start.

    Every seat starts these events afresh, so one seeded sample per event serves
    every position before it, and each event is drawn once a game: the sum for the
    next event reuses this one's terms.
    """
    out = np.zeros((players, samples), dtype=np.int8)
    for number in range(first, len(disciplines)):
        out += _event_honours(disciplines[number], number, players, samples, seed)
    out.setflags(write=False)
    return out


@lru_cache(maxsize=16)
def championship_odds(
    view: DecathlonView,
    samples: int = CHAMPIONSHIP_SAMPLES,
    seed: int = CHAMPIONSHIP_SEED,
    *,
    exact: bool = True,
) -> HonoursOdds:
    """P(each final honours rank) per seat in the Championship.

    Model: every seat plays the rest of the current event from its position and
    every later event EV-optimally (independent results, as for the points odds);
    each event's results are ranked for honours (D11: gold 3, silver 2, bronze 1,
    equal results share a medal, no valid result earns none) and the totals are
    ranked.  Two players (with ``exact``) get the exact answer
    (:func:`_two_player_odds`, ``samples`` 0 and standard errors 0); otherwise a
    seeded Monte Carlo of ``samples`` finishes.  The seed is fixed, so the same
    view always gets the same answer.
    """
    players = view.players
    if players == 2 and exact:
        return _two_player_odds(view)
    totals = np.array(view.honour_totals or (0,) * players, dtype=np.int16)[:, None]
    if view.discipline is not None:
        event, number = view.discipline, view.discipline_no
        rows = [
            _seat_results(event, seat_position(view, seat), number, seat, samples, seed)
            for seat in range(players)
        ]
        later = _later_honours(view.disciplines, number + 1, players, samples, seed)
        totals = totals + _honours(np.stack(rows)) + later
    above = _above(np.broadcast_to(totals, (players, samples)))
    # one count of (seat, seats above it) pairs: row i is seat i's rank - 1
    pairs = above + np.arange(0, players * players, players, dtype=np.int8)[:, None]
    counts = np.bincount(pairs.ravel(), minlength=players * players).reshape(players, players)
    p = counts / samples
    ranks = tuple(tuple(float(x) for x in row) for row in p)
    ses = tuple(tuple(float(x) for x in row) for row in np.sqrt(p * (1 - p) / samples))
    return HonoursOdds(ranks, ses, samples, seed)


def _two_player_odds(view: DecathlonView) -> HonoursOdds:
    """Exact Championship odds of two players: the honours *difference* adds up by event.

    Per event (D11) the difference of seat 0's and seat 1's honours is +3 or -3 when
    only one has a valid result (gold against nothing), +1 or -1 when both do and one
    is better (gold against silver), and 0 otherwise (equal valid results share gold;
    two invalid ones win nothing).  The final difference is the convolution over the
    remaining events; seat 0 ranks first iff it is >= 0 (ties share the rank).
    """
    start = view.honour_totals or (0, 0)
    events: list[tuple[str, Position, Position]] = []
    if view.discipline is not None:
        event = view.discipline
        events.append((event, seat_position(view, 0), seat_position(view, 1)))
        events += [
            (e, AttemptStart(), AttemptStart()) for e in view.disciplines[view.discipline_no + 1 :]
        ]
    span = 3 * len(events) + abs(start[0] - start[1])
    diff = np.zeros(2 * span + 1)  # index d + span
    diff[start[0] - start[1] + span] = 1.0
    for event, a, b in events:
        step = _event_difference(event, a, b)  # over -3..3
        diff = np.convolve(diff, step)[3:-3]
    ahead, level = float(diff[span + 1 :].sum()), float(diff[span])
    behind = max(0.0, 1.0 - ahead - level)  # no negative rounding dust
    ranks = ((ahead + level, behind), (behind + level, ahead))
    zero = ((0.0, 0.0), (0.0, 0.0))
    return HonoursOdds(ranks, zero, 0, 0)


def _event_difference(event: str, a: Position, b: Position) -> Floats:
    """P(honours of seat a - honours of seat b = d) for d = -3..3 in one event."""
    pa, pb = position_dist(event, a), position_dist(event, b)
    va, vb = pa[:-1], pb[:-1]  # valid results, same grid
    below_b = np.concatenate(([0.0], np.cumsum(vb)[:-1]))  # P(b valid and < r)
    a_better = float(np.dot(va, below_b))
    b_better = float(np.dot(vb, np.concatenate(([0.0], np.cumsum(va)[:-1]))))
    only_a, only_b = float(va.sum() * pb[-1]), float(vb.sum() * pa[-1])
    step = np.zeros(7)
    step[3 + 3], step[3 - 3] = only_a, only_b
    step[3 + 1], step[3 - 1] = a_better, b_better
    step[3] = max(0.0, 1.0 - step.sum())
    return step


# ----- what the front ends show ------------------------------------------------------------
POINTS_LABEL = "chance to win"
POINTS_PLAY_LABEL = "chance to win, both playing for points"
HONOURS_LABEL = "chance of the most honours (a tie counts for each)"


def honours_odds(view: DecathlonView) -> HonoursOdds | None:
    """The Championship's rank odds with standard errors (None in the points game, solo or
    once the game is over)."""
    if view.variant != "championship" or not view.contested:
        return None
    return championship_odds(view)


def win_odds(view: DecathlonView) -> tuple[float, ...] | None:
    """Each player's chance of winning (None solo or once the game is over).

    The points game: the exact share of first place (ties split). The
    Championship: P(first place in honours, alone or tied), exact for two
    players, otherwise by seeded simulation (:func:`honours_odds` has every rank
    and the standard errors).
    """
    if not view.contested:
        return None
    if view.variant == "championship":
        found = honours_odds(view)
        return None if found is None else found.first
    return odds(view)


def live_odds(view: DecathlonView) -> Odds | None:
    """The ``odds`` capability (:class:`gamenight.core.odds.Odds`): :func:`win_odds`, with
    the standard errors of a simulated Championship (None solo or once the game is over).

    Every fact of the Decathlon is public, so the spectator view gives every seat's odds.
    """
    ranked = honours_odds(view)
    if ranked is not None:
        simulated = ranked.samples > 0
        return Odds(
            win=ranked.first,
            exact=not simulated,
            se=tuple(se[0] for se in ranked.se) if simulated else None,
            label=HONOURS_LABEL,
        )
    chances = win_odds(view)
    if chances is None:
        return None
    played = _win_play(view)
    if played is None:
        return Odds(win=chances, label=POINTS_LABEL)
    return Odds(
        win=chances, label=POINTS_PLAY_LABEL, also=played, also_label=win_play.WIN_PLAY_LABEL
    )


def _win_play(view: DecathlonView) -> tuple[float, float] | None:
    """Both players playing to win (two-player points game, where the table is built)."""
    if not win_play.applies(view) or view.to_act is None:
        return None
    from gamenight.games.decathlon.solver.win2p_file import WinTableCorruptError

    try:
        return win_play.win_play_odds(view, win_play.decision_options(view))
    except WinTableCorruptError:  # odds are an aid: shown as if not built (the bot says why)
        return None
