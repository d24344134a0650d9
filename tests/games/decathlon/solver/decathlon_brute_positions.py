"""Brute-force result distributions from in-event positions (test oracle).

Each function plays the rest of an event from a position, enumerating every
*ordered* throw (``itertools.product``) and taking every decision from the
solver's decision API (:func:`best_option`, the EV policy the ``optimal`` bot
plays).  It shares nothing with :mod:`solver.positions`' distribution tables: no
reduced throws, no dominance, no forward or backward passes; states are memoised
on the raw dice.  Distributions are dicts ``result -> probability``, ``None``
standing for no valid result.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator
from functools import cache

from decathlon_brute import clear_chance

from gamenight.games.decathlon.solver import (
    FreezeSituation,
    HeightSituation,
    HurdlesSituation,
    LongJumpSituation,
    ShotPutSituation,
    SprintSituation,
    best_option,
)

Dist = dict[int | None, float]


def throws(n: int) -> Iterator[tuple[int, ...]]:
    return itertools.product(range(1, 7), repeat=n)


def add(into: Dist, dist: Dist, weight: float) -> None:
    for result, p in dist.items():
        into[result] = into.get(result, 0.0) + weight * p


def point(result: int | None) -> Dist:
    return {result: 1.0}


def remove(dice: tuple[int, ...], taken: tuple[int, ...]) -> tuple[int, ...]:
    left = Counter(dice)
    left.subtract(taken)
    return tuple(sorted(left.elements()))


# ----- races (D4, D5) -------------------------------------------------------------------
SIZES = {"100m": (2, 4), "400m": (4, 2), "1500m": (8, 1), "110m-hurdles": (1, 5)}


def race_score(event: str, dice: tuple[int, ...]) -> int:
    if event == "110m-hurdles":
        return sum(dice)
    return sum(-6 if d == 6 else d for d in dice)


@cache
def race_throw(event: str, i: int, r: int, so_far: int) -> Dist:
    """Throwing set ``i`` with ``r`` rethrows left and ``so_far`` frozen."""
    sets, size = SIZES[event]
    if i == sets:
        return point(so_far)
    out: Dist = {}
    weight = 1.0 / 6**size
    for dice in throws(size):
        add(out, race_decide(event, i, r, so_far, tuple(sorted(dice))), weight)
    return out


@cache
def race_decide(event: str, i: int, r: int, so_far: int, dice: tuple[int, ...]) -> Dist:
    if event == "110m-hurdles":
        choice = best_option(event, HurdlesSituation(r, dice))
    else:
        choice = best_option(event, SprintSituation(i, r, dice, so_far))
    if choice == "rethrow":
        return race_throw(event, i, r - 1, so_far)
    return race_throw(event, i + 1, r, so_far + race_score(event, dice))


# ----- shot put (D7), all attempts ------------------------------------------------------
def next_attempt(event: str, attempt: int, best: int | None, result: int | None) -> Dist:
    """After an attempt with ``result``: the best so far, then the next attempt."""
    if result is not None and (best is None or result > best):
        best = result
    if attempt == 3:
        return point(best)
    if event == "shot-put":
        return shot_throw(attempt + 1, best, ())
    raise ValueError("only the shot put chains attempts here")


@cache
def shot_throw(attempt: int, best: int | None, dice: tuple[int, ...]) -> Dist:
    """Throw the next shot put die (``dice`` so far, none a 1)."""
    out: Dist = {}
    for face in range(1, 7):
        if face == 1:
            add(out, next_attempt("shot-put", attempt, best, None), 1 / 6)
        else:
            add(out, shot_decide(attempt, best, tuple(sorted((*dice, face)))), 1 / 6)
    return out


@cache
def shot_decide(attempt: int, best: int | None, dice: tuple[int, ...]) -> Dist:
    if len(dice) == 8 or best_option("shot-put", ShotPutSituation(dice, attempt, best)) == "stop":
        return next_attempt("shot-put", attempt, best, sum(dice))
    return shot_throw(attempt, best, dice)


# ----- the last attempt of a freeze event (D6, D10) ------------------------------------
def last(best: int | None, result: int | None) -> Dist:
    if result is None or (best is not None and best >= result):
        return point(best)
    return point(result)


@cache
def discus_throw(event: str, best: int | None, frozen: tuple[int, ...]) -> Dist:
    """Third attempt: throw the unfrozen dice."""
    n, parity = (5, 0) if event == "discus" else (6, 1)
    out: Dist = {}
    m = n - len(frozen)
    for dice in throws(m):
        if not any(d % 2 == parity for d in dice):
            add(out, last(best, None), 1 / 6**m)
            continue
        add(out, discus_freeze(event, best, frozen, tuple(sorted(dice))), 1 / 6**m)
    return out


@cache
def discus_freeze(
    event: str, best: int | None, frozen: tuple[int, ...], thrown: tuple[int, ...]
) -> Dist:
    sub = best_option(event, FreezeSituation(frozen, thrown, 3, best))
    assert isinstance(sub, tuple)
    return discus_settle(event, best, tuple(sorted(frozen + sub)))


@cache
def discus_settle(event: str, best: int | None, frozen: tuple[int, ...]) -> Dist:
    n = 5 if event == "discus" else 6
    if len(frozen) == n or best_option(event, FreezeSituation(frozen, (), 3, best)) == "stop":
        return last(best, sum(frozen))
    return discus_throw(event, best, frozen)


@cache
def run_up_throw(best: int | None, frozen: tuple[int, ...]) -> Dist:
    """Third long jump attempt: throw the unfrozen run-up dice."""
    out: Dist = {}
    m = 5 - len(frozen)
    for dice in throws(m):
        thrown = tuple(sorted(dice))
        sub = best_option("long-jump", LongJumpSituation("run-up", frozen, thrown, 3, best))
        assert isinstance(sub, tuple)
        now = tuple(sorted(frozen + sub))
        if sum(now) > 8:
            add(out, last(best, None), 1 / 6**m)
        else:
            add(out, run_up_settle(best, now), 1 / 6**m)
    return out


@cache
def run_up_settle(best: int | None, frozen: tuple[int, ...]) -> Dist:
    choice = best_option("long-jump", LongJumpSituation("run-up", frozen, (), 3, best))
    if choice == "rethrow":
        return run_up_throw(best, frozen)
    return jump_throw(best, len(frozen), ())


@cache
def jump_throw(best: int | None, k: int, frozen: tuple[int, ...]) -> Dist:
    """The jump with ``k`` dice, ``frozen`` of them frozen."""
    if len(frozen) == k:
        return last(best, sum(frozen))
    m = k - len(frozen)
    out: Dist = {}
    for dice in throws(m):
        thrown = tuple(sorted(dice))
        sub = best_option("long-jump", LongJumpSituation("jump", frozen, thrown, 3, best))
        assert isinstance(sub, tuple)
        add(out, jump_throw(best, k, tuple(sorted(frozen + sub))), 1 / 6**m)
    return out


# ----- heights (D8, D9) ----------------------------------------------------------------
@cache
def clear(event: str, dice: int, height: int) -> float:
    """P(a jump with ``dice`` dice clears ``height``): the whole-event oracle's count."""
    return clear_chance(dice, height, no_ones=event == "pole-vault")


def top(event: str) -> int:
    return 30 if event == "high-jump" else 48


@cache
def height_choose(event: str, height: int, best: int | None) -> Dist:
    if height > top(event):
        return point(best)
    choice = best_option(event, HeightSituation(height, best))
    if choice == "retire":
        return point(best)
    if choice == "skip":
        return height_choose(event, height + 2, best)
    return height_jumps(event, height, best, 0)


@cache
def height_jumps(event: str, height: int, best: int | None, used: int) -> Dist:
    if used == 3:
        return point(best)
    if event == "high-jump":
        dice = 5
    else:
        choice = best_option(event, HeightSituation(height, best, True, used))
        assert isinstance(choice, int)
        dice = choice
    q = clear(event, dice, height)
    out: Dist = {}
    add(out, height_choose(event, height + 2, height), q)
    add(out, height_jumps(event, height, best, used + 1), 1 - q)
    return out
