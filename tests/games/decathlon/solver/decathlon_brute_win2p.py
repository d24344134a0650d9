"""An independent game-tree enumeration of the two-player points game played to win.

Shares no code with the solver: it follows the seats themselves (seat 0 maximises its
own win probability, seat 1 minimises it), their running totals and the D2 order
(highest total first, a tie keeps the previous order), and enumerates every die face
one by one (the high jump's five dice: every ordered throw). States are memoised on
the raw facts. Only small games are feasible: the Shot Put alone, the High Jump and
the 1500 m.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from functools import cache

Next = Callable[[int, int, tuple[int, int]], float]  # totals, this order -> seat 0's value
HJ_BARS = tuple(range(10, 31, 2))
AFTERS: list[Next] = []  # per event of the latest game_value: what its end is worth


@cache
def hj_clear(height: int) -> float:
    throws = list(itertools.product(range(1, 7), repeat=5))
    return sum(1 for t in throws if sum(t) >= height) / len(throws)


def end_value(t0: int, t1: int) -> float:
    return 1.0 if t0 > t1 else 0.5 if t0 == t1 else 0.0


def pick(seat: int, values: list[float]) -> float:
    return max(values) if seat == 0 else min(values)


def next_order(t0: int, t1: int, last: tuple[int, int]) -> tuple[int, int]:
    if t0 == t1:
        return last
    return (0, 1) if t0 > t1 else (1, 0)


def race_1500m(t0: int, t1: int, order: tuple[int, int], after: Next) -> float:
    """The 1500 m (D4): 8 sets of one die, 5 shared rethrows; seat by seat in ``order``."""
    return _run(after, order, t0 - t1, 0, 0, 5, 0)


@cache
def _run(
    after: Next, order: tuple[int, int], diff: int, who: int, i: int, r: int, score: int
) -> float:
    """Runner ``who`` (0: first in order) at set ``i``; ``diff`` is seat 0's total minus
    seat 1's, the earlier runner's result included."""
    seat = order[who]
    if i == 8:
        diff += score if seat == 0 else -score
        if who == 0:
            return _run(after, order, diff, 1, 0, 5, 0)
        return after(diff, 0, order)
    total = 0.0
    for face in range(1, 7):
        points = -6 if face == 6 else face
        options = [_run(after, order, diff, who, i + 1, r, score + points)]
        if r > 0:
            options.append(_run(after, order, diff, who, i, r - 1, score))
        total += pick(seat, options)
    return total / 6


def shot_put(t0: int, t1: int, order: tuple[int, int], after: Next) -> float:
    """The Shot Put (D7) with three interleaved attempts (D3)."""
    return _half(after, order, t0 - t1, 0, (0, 0))


@cache
def _half(after: Next, order: tuple[int, int], diff: int, h: int, best: tuple[int, int]) -> float:
    # best by seat, 0 = no valid result
    if h == 6:
        return after(diff + best[0] - best[1], 0, order)
    return _throw(after, order, diff, h, best, 0, 0)


@cache
def _throw(
    after: Next, order: tuple[int, int], diff: int, h: int, best: tuple[int, int], n: int, x: int
) -> float:
    total = 0.0
    for face in range(1, 7):
        if face == 1:  # D7: a 1 spoils the attempt
            total += _half(after, order, diff, h + 1, best)
            continue
        seat = order[h % 2]
        new = list(best)
        new[seat] = max(new[seat], x + face)
        options = [_half(after, order, diff, h + 1, (new[0], new[1]))]
        if n + 1 < 8:
            options.append(_throw(after, order, diff, h, best, n + 1, x + face))
        total += pick(seat, options)
    return total / 6


def high_jump(t0: int, t1: int, order: tuple[int, int], after: Next) -> float:
    """The High Jump (D8): at each bar every seat still in, in order, jumps, skips or
    retires; a jumper takes up to 3 jumps before the next seat acts."""
    return high_jump_at(after, order, t0 - t1, 0, 0, (0, 0), (True, True))


@cache
def high_jump_at(
    after: Next,
    order: tuple[int, int],
    diff: int,
    bar: int,
    turn: int,
    best: tuple[int, int],
    live: tuple[bool, bool],
) -> float:
    """Seat 0's value at ``bar`` before the ``turn``-th seat in order acts."""
    if turn == 2:
        bar, turn = bar + 1, 0
    if bar == len(HJ_BARS) or not any(live):
        return after(diff + best[0] - best[1], 0, order)
    seat = order[turn]
    if not live[seat]:
        return high_jump_at(after, order, diff, bar, turn + 1, best, live)
    out = (False, live[1]) if seat == 0 else (live[0], False)
    retire = high_jump_at(after, order, diff, bar, turn + 1, best, out)
    skip = high_jump_at(after, order, diff, bar, turn + 1, best, live)
    p = hj_clear(HJ_BARS[bar])
    new = (HJ_BARS[bar], best[1]) if seat == 0 else (best[0], HJ_BARS[bar])
    cleared = high_jump_at(after, order, diff, bar, turn + 1, new, live)
    jump = high_jump_at(after, order, diff, bar, turn + 1, best, out)  # three misses: out
    for _ in range(3):
        jump = p * cleared + (1 - p) * jump
    return pick(seat, [jump, skip, retire])


EVENTS = {"1500m": race_1500m, "shot-put": shot_put, "high-jump": high_jump}


def game_value(events: tuple[str, ...]) -> Callable[[int, int, tuple[int, int]], float]:
    """Seat 0's win probability at the start of ``events[0]`` with totals ``t0, t1`` and
    the previous order ``last`` (the order of this event follows from them, D2)."""

    @cache
    def value(k: int, diff: int, last: tuple[int, int]) -> float:
        if k == len(events):
            return end_value(diff, 0)
        order = next_order(diff, 0, last)
        return EVENTS[events[k]](diff, 0, order, afters[k])

    def make_after(k: int) -> Next:
        # only the difference of the totals matters for the end and the order (D2)
        return lambda a, b, played: value(k + 1, a - b, played)

    afters = [make_after(k) for k in range(len(events))]
    AFTERS[:] = afters  # the positions inside an event are reached through these
    return lambda t0, t1, last: value(0, t0 - t1, last)
