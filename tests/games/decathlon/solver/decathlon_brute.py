"""Independent brute-force solvers for the Decathlon events (test oracle).

Shares no code with the solver, not even the dice tools: every throw is
enumerated as all ``6**n`` *ordered* outcomes, every freeze as every non-empty
subset of dice *positions*, and values are memoised on the raw state (the frozen
dice themselves, not a reduced summary).  Slow but obviously right.

Each single-attempt game takes ``reward``: the terminal value of a valid result
``s`` (an int) or of an invalid attempt (``None``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from functools import cache

Reward = Callable[[int | None], float]


def points(result: int | None) -> float:
    """Expected-score reward: the result, invalid counting 0 (D3)."""
    return 0.0 if result is None else float(result)


def reaches(t: int) -> Reward:
    """Target reward: 1 if the result is valid and at least ``t``."""
    return lambda result: 0.0 if result is None or result < t else 1.0


def ordered_throws(n: int) -> Iterator[tuple[int, ...]]:
    return itertools.product(range(1, 7), repeat=n)


def subsets(n: int) -> list[tuple[int, ...]]:
    """Every non-empty subset of positions 0..n-1."""
    return [c for size in range(1, n + 1) for c in itertools.combinations(range(n), size)]


def sprint_ev(sets: int, size: int, rethrows: int = 5) -> float:
    """D4 sprint EV: value of throwing set i with r rethrows left."""

    def score(throw: tuple[int, ...]) -> int:
        return sum(-6 if d == 6 else d for d in throw)

    @cache
    def throw_value(i: int, r: int) -> float:
        if i == sets:
            return 0.0
        total = 0.0
        for throw in ordered_throws(size):
            keep = score(throw) + throw_value(i + 1, r)
            total += max(keep, throw_value(i, r - 1)) if r > 0 else keep
        return total / float(6**size)

    return throw_value(0, rethrows)


def hurdles(reward: Reward, rethrows: int = 5) -> float:
    """D5: keep a throw of 5 dice or rethrow all of them."""

    @cache
    def throw_value(r: int) -> float:
        total = 0.0
        for throw in ordered_throws(5):
            keep = reward(sum(throw))
            total += max(keep, throw_value(r - 1)) if r > 0 else keep
        return total / float(6**5)

    return throw_value(rethrows)


@cache
def freezes(
    left: int, frozen: tuple[int, ...], allowed: tuple[int, ...]
) -> list[list[tuple[int, ...]]]:
    """For every ordered throw of ``left`` dice: the frozen dice after each legal freeze.

    Reward-independent, so cached across the many rewards a test solves for.
    """
    return [
        [
            tuple(sorted(frozen + tuple(throw[p] for p in pick)))
            for pick in subsets(left)
            if all(throw[p] in allowed for p in pick)
        ]
        for throw in ordered_throws(left)
    ]


ANY = (1, 2, 3, 4, 5, 6)


def long_jump(reward: Reward) -> float:
    """D6, one attempt: run-up (frozen total <= 8) then the jump."""

    @cache
    def jump(frozen: tuple[int, ...], left: int) -> float:
        # Throw the `left` unfrozen jump dice; freeze at least one; go on.
        if left == 0:
            return reward(sum(frozen))
        total = 0.0
        for after in freezes(left, frozen, ANY):
            total += max(jump(now, left - len(now) + len(frozen)) for now in after)
        return total / float(6**left)

    def after_run_up(now: tuple[int, ...]) -> float:
        if sum(now) > 8:
            return reward(None)  # stepped over
        if len(now) == 5:
            return jump((), 5)
        return max(jump((), len(now)), run_up(now))

    @cache
    def run_up(frozen: tuple[int, ...]) -> float:
        # Throw the unfrozen run-up dice; freeze at least one of them.
        left = 5 - len(frozen)
        total = 0.0
        for after in freezes(left, frozen, ANY):
            total += max(after_run_up(now) for now in after)
        return total / float(6**left)

    return run_up(())


def freeze_event(dice: int, allowed: tuple[int, ...], reward: Reward) -> float:
    """D10, one attempt: freeze allowed dice, stop or rethrow the rest."""

    def after_freeze(now: tuple[int, ...]) -> float:
        stop = reward(sum(now))
        return stop if len(now) == dice else max(stop, throw_value(now))

    @cache
    def throw_value(frozen: tuple[int, ...]) -> float:
        left = dice - len(frozen)
        total = 0.0
        for after in freezes(left, frozen, allowed):
            # No allowed die among those thrown: invalid.
            total += max((after_freeze(now) for now in after), default=reward(None))
        return total / float(6**left)

    return throw_value(())


def shot_put(reward: Reward) -> float:
    """D7, one attempt: dice one at a time, a 1 is invalid, stop after any other."""

    @cache
    def throw_value(dice: tuple[int, ...]) -> float:
        total = 0.0
        for face in range(1, 7):
            if face == 1:
                total += reward(None)
                continue
            now = tuple(sorted((*dice, face)))
            stop = reward(sum(now))
            total += stop if len(now) == 8 else max(stop, throw_value(now))
        return total / 6

    return throw_value(())


def best_of_attempts(
    single: Callable[[Reward], float], attempts: int, final: Reward = points
) -> float:
    """D3: optimal value of ``final`` (the best valid result) after ``attempts`` attempts.

    ``before(a, b)`` = value before attempt ``a`` with best result ``b`` so far.
    """

    @cache
    def before(attempt: int, best: int | None) -> float:
        if attempt > attempts:
            return final(best)

        def reward(result: int | None) -> float:
            if result is None or (best is not None and result <= best):
                return before(attempt + 1, best)
            return before(attempt + 1, result)

        return single(reward)

    return before(1, None)


def clear_chance(dice: int, height: int, no_ones: bool) -> float:
    """One jump's chance to clear, by walking the dice one at a time."""

    @cache
    def ways(left: int, need: int) -> int:
        if left == 0:
            return 1 if need <= 0 else 0
        faces = range(2, 7) if no_ones else range(1, 7)
        return sum(ways(left - 1, need - face) for face in faces)

    return ways(dice, height) / float(6**dice)


def height_event(
    heights: list[int], dice_counts: list[int], no_ones: bool, reward: Reward
) -> float:
    """D8/D9 for one player: jump / skip / retire per height, 3 jumps when jumping."""
    chance = {(n, h): clear_chance(n, h, no_ones) for n in dice_counts for h in heights}

    @cache
    def choose(i: int, best: int | None) -> float:
        if i == len(heights):
            return reward(best)
        return max(committed(i, best, 0), choose(i + 1, best), reward(best))

    @cache
    def committed(i: int, best: int | None, used: int) -> float:
        if used == 3:
            return reward(best)
        return max(
            chance[n, heights[i]] * choose(i + 1, heights[i])
            + (1 - chance[n, heights[i]]) * committed(i, best, used + 1)
            for n in dice_counts
        )

    return choose(0, None)
