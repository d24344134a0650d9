"""Live win odds for the points game: P(finish first) for every seat, ties sharing.

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

The event in progress: a seat that has finished it counts its posted result.
A seat still to finish it is modelled, for now, as its best result so far
against a fresh start of the event (``max(best, X)``); this ignores dice
already frozen or attempts already used, so it is exact at every event
boundary and an approximation inside an event (see docs/solvers-decathlon.md).

>>> from gamenight.games.decathlon.odds import win_shares
>>> import numpy as np
>>> win_shares([np.array([0.5, 0.5]), np.array([0.5, 0.5])], [0, 0])
(0.5, 0.5)
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

import numpy as np
import numpy.typing as npt

from gamenight.games.decathlon.solver import Utility, solve_event
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


def at_least(low: int, pmf: Floats, best: int | None) -> tuple[int, Floats]:
    """The distribution of ``max(best, X)`` (``best`` None: ``X`` itself)."""
    if best is None:
        return low, pmf
    k = best - low
    if k <= 0:
        return low, pmf
    out = pmf.copy()
    out[k] += out[:k].sum()
    out[:k] = 0.0
    return low, out


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


def _current(view: DecathlonView, seat: int) -> tuple[int, Floats]:
    event = view.discipline
    assert event is not None
    best = view.best[seat] if view.best else None
    tries = view.tries[seat] if view.tries else ()
    if view.attempts > 0:
        done = len(tries) >= view.attempts
    else:
        done = bool(view.status) and view.status[seat] in ("out", "retired")
    if done:
        return (0 if best is None else best), np.ones(1)  # no valid result: 0 points
    low, pmf = event_points(event)
    return at_least(low, pmf, best)


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


def win_utility(view: DecathlonView, seat: int) -> Utility:
    """``u(r)``: ``seat``'s share of first place if it scores ``r`` in the current event.

    The others' totals are as in :func:`final_totals`; ``seat``'s events after
    this one are played EV-optimally.  No valid result scores 0 points (D3, D11).
    """
    event = view.discipline
    assert event is not None
    dists = final_totals(view)
    lo, eq = _grid([p for _, p in dists], [low for low, _ in dists])
    curve = _share_curve(eq, seat)
    # Beyond the grid's top every other total is lower: an outright win.
    curve = np.concatenate((curve, np.ones(1)))
    totals = view.totals or (0,) * view.players
    rlow, rest = _rest(view)
    sol = solve_event(event)
    # value[r] = sum_k rest[k] * curve[totals + r + rlow + k - lo]
    padded = np.concatenate((np.zeros(len(rest)), curve, np.ones(len(rest))))

    def u(points: int) -> float:
        start = totals[seat] + points + rlow - lo + len(rest)
        start = min(max(start, 0), len(padded) - len(rest))
        return float(np.dot(rest, padded[start : start + len(rest)]))

    values = tuple(u(r) for r in range(sol.min_score, sol.max_score + 1))
    return Utility(sol.min_score, values, invalid=u(0))
