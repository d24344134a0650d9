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

HJ_BARS = tuple(range(10, 31, 2))


@cache
def hj_clear(height: int) -> float:
    throws = list(itertools.product(range(1, 7), repeat=5))
    return sum(1 for t in throws if sum(t) >= height) / len(throws)


def end_value(t0: int, t1: int) -> float:
    return 1.0 if t0 > t1 else 0.5 if t0 == t1 else 0.0


Next = Callable[[int, int, tuple[int, int]], float]  # totals, last order -> seat 0's value


def pick(seat: int, values: list[float]) -> float:
    return max(values) if seat == 0 else min(values)


def next_order(t0: int, t1: int, last: tuple[int, int]) -> tuple[int, int]:
    if t0 == t1:
        return last
    return (0, 1) if t0 > t1 else (1, 0)


def race_1500m(t0: int, t1: int, order: tuple[int, int], after: Next) -> float:
    """The 1500 m (D4): 8 sets of one die, 5 shared rethrows; seat by seat in ``order``."""
    first, second = order

    @cache
    def run(who: int, i: int, r: int, score: int, before: int) -> float:
        # ``before``: the first runner's result once they are done (who = 1)
        if i == 8:
            if who == 0:
                return run(1, 0, 5, 0, score)
            res = [0, 0]
            res[first], res[second] = before, score
            totals = (t0 + res[0], t1 + res[1])
            return after(totals[0], totals[1], order)
        seat = order[who]
        total = 0.0
        for face in range(1, 7):
            points = -6 if face == 6 else face
            keep = run(who, i + 1, r, score + points, before)
            options = [keep]
            if r > 0:
                options.append(run(who, i, r - 1, score, before))
            total += pick(seat, options)
        return total / 6

    return run(0, 0, 5, 0, 0)


def shot_put(t0: int, t1: int, order: tuple[int, int], after: Next) -> float:
    """The Shot Put (D7) with three interleaved attempts (D3)."""

    @cache
    def half(h: int, best: tuple[int, int]) -> float:
        # best by seat, 0 = no valid result
        if h == 6:
            totals = (t0 + best[0], t1 + best[1])
            return after(totals[0], totals[1], order)
        return throw(h, best, 0, 0)

    @cache
    def throw(h: int, best: tuple[int, int], n: int, x: int) -> float:
        seat = order[h % 2]
        total = 0.0
        for face in range(1, 7):
            if face == 1:
                total += half(h + 1, best)
                continue
            total += settle(h, best, n + 1, x + face)
        return total / 6

    def result(h: int, best: tuple[int, int], x: int) -> float:
        seat = order[h % 2]
        new = list(best)
        new[seat] = max(new[seat], x)
        return half(h + 1, (new[0], new[1]))

    @cache
    def settle(h: int, best: tuple[int, int], n: int, x: int) -> float:
        seat = order[h % 2]
        options = [result(h, best, x)]
        if n < 8:
            options.append(throw(h, best, n, x))
        return pick(seat, options)

    return half(0, (0, 0))


def high_jump(t0: int, t1: int, order: tuple[int, int], after: Next) -> float:
    """The High Jump (D8): at each bar every seat still in, in order, jumps, skips or
    retires; a jumper takes up to 3 jumps before the next seat acts."""

    @cache
    def at(bar: int, turn: int, best: tuple[int, int], live: tuple[bool, bool]) -> float:
        if turn == 2:
            bar, turn = bar + 1, 0
        if bar == len(HJ_BARS) or not any(live):
            totals = (t0 + best[0], t1 + best[1])
            return after(totals[0], totals[1], order)
        seat = order[turn]
        if not live[seat]:
            return at(bar, turn + 1, best, live)
        out = list(live)
        out[seat] = False
        retire = at(bar, turn + 1, best, (out[0], out[1]))
        skip = at(bar, turn + 1, best, live)
        return pick(seat, [jump(bar, turn, best, live, 0), skip, retire])

    def jump(bar: int, turn: int, best: tuple[int, int], live: tuple[bool, bool], used: int) -> float:
        seat = order[turn]
        if used == 3:
            out = list(live)
            out[seat] = False
            return at(bar, turn + 1, best, (out[0], out[1]))
        p = hj_clear(HJ_BARS[bar])
        new = list(best)
        new[seat] = HJ_BARS[bar]
        cleared = at(bar, turn + 1, (new[0], new[1]), live)
        return p * cleared + (1 - p) * jump(bar, turn, best, live, used + 1)

    return at(0, 0, (0, 0), (True, True))


EVENTS = {"1500m": race_1500m, "shot-put": shot_put, "high-jump": high_jump}


def game_value(events: tuple[str, ...]) -> Callable[[int, int, tuple[int, int]], float]:
    """Seat 0's win probability at the start of ``events[0]`` with totals ``t0, t1`` and
    the previous order ``last`` (the order of this event follows from them, D2)."""

    @cache
    def value(k: int, t0: int, t1: int, last: tuple[int, int]) -> float:
        if k == len(events):
            return end_value(t0, t1)
        order = next_order(t0, t1, last)

        def after(a: int, b: int, played: tuple[int, int]) -> float:
            # only the difference of the totals matters for the end and the order (D2)
            return value(k + 1, a - b, 0, played)

        return EVENTS[events[k]](t0, t1, order, after)

    return lambda t0, t1, last: value(0, t0 - t1, 0, last)
