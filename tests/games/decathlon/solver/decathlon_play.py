"""Play one event with random dice, every choice taken from the decision API.

A small stand-alone referee for the tests (the real engine is tested elsewhere):
it follows the rules D4-D10 and asks :func:`best_option` at every decision.
"""

from __future__ import annotations

import numpy as np

from gamenight.games.decathlon.solver import (
    FreezeSituation,
    HeightSituation,
    HurdlesSituation,
    LongJumpSituation,
    Objective,
    ShotPutSituation,
    SprintSituation,
    best_option,
)

Rng = np.random.Generator
SPRINT_SETS = {"100m": (2, 4), "400m": (4, 2), "1500m": (8, 1)}


def roll(rng: Rng, n: int) -> tuple[int, ...]:
    return tuple(int(face) for face in rng.integers(1, 7, size=n))


def freeze_set(option: object) -> tuple[int, ...]:
    assert isinstance(option, tuple), option
    return option


def sprint(event: str, objective: Objective, rng: Rng) -> int:
    sets, size = SPRINT_SETS[event]
    rethrows, total = 5, 0
    for index in range(sets):
        while True:
            dice = roll(rng, size)
            situation = SprintSituation(index, rethrows, dice, total)
            if best_option(event, situation, objective) == "freeze":
                total += sum(-6 if face == 6 else face for face in dice)
                break
            rethrows -= 1
    return total


def hurdles(objective: Objective, rng: Rng) -> int:
    rethrows = 5
    while True:
        dice = roll(rng, 5)
        if best_option("110m-hurdles", HurdlesSituation(rethrows, dice), objective) == "freeze":
            return sum(dice)
        rethrows -= 1


def long_jump_attempt(attempt: int, best: int | None, objective: Objective, rng: Rng) -> int | None:
    frozen: tuple[int, ...] = ()
    while True:
        thrown = roll(rng, 5 - len(frozen))
        situation = LongJumpSituation("run-up", frozen, thrown, attempt, best)
        frozen += freeze_set(best_option("long-jump", situation, objective))
        if sum(frozen) > 8:
            return None
        after = LongJumpSituation("run-up", frozen, (), attempt, best)
        if best_option("long-jump", after, objective) == "jump":
            break
    landed: tuple[int, ...] = ()
    while len(landed) < len(frozen):
        thrown = roll(rng, len(frozen) - len(landed))
        situation = LongJumpSituation("jump", landed, thrown, attempt, best)
        landed += freeze_set(best_option("long-jump", situation, objective))
    return sum(landed)


def shot_put_attempt(attempt: int, best: int | None, objective: Objective, rng: Rng) -> int | None:
    dice: tuple[int, ...] = ()
    while len(dice) < 8:
        if best_option("shot-put", ShotPutSituation(dice, attempt, best), objective) == "stop":
            break
        face = roll(rng, 1)[0]
        if face == 1:
            return None
        dice += (face,)
    return sum(dice)


def freeze_attempt(
    event: str, attempt: int, best: int | None, objective: Objective, rng: Rng
) -> int | None:
    dice, allowed = (5, (2, 4, 6)) if event == "discus" else (6, (1, 3, 5))
    frozen: tuple[int, ...] = ()
    while True:
        thrown = roll(rng, dice - len(frozen))
        if not any(face in allowed for face in thrown):
            return None
        situation = FreezeSituation(frozen, thrown, attempt, best)
        frozen += freeze_set(best_option(event, situation, objective))
        if len(frozen) == dice:
            return sum(frozen)
        if best_option(event, FreezeSituation(frozen, (), attempt, best), objective) == "stop":
            return sum(frozen)


def three_attempts(event: str, objective: Objective, rng: Rng) -> int | None:
    best: int | None = None
    for attempt in (1, 2, 3):
        if event == "long-jump":
            result = long_jump_attempt(attempt, best, objective, rng)
        elif event == "shot-put":
            result = shot_put_attempt(attempt, best, objective, rng)
        else:
            result = freeze_attempt(event, attempt, best, objective, rng)
        if result is not None and (best is None or result > best):
            best = result
    return best


def heights(event: str, objective: Objective, rng: Rng) -> int | None:
    bars = range(10, 31, 2) if event == "high-jump" else range(10, 49, 2)
    best: int | None = None
    for height in bars:
        choice = best_option(event, HeightSituation(height, best), objective)
        if choice == "retire":
            break
        if choice == "skip":
            continue
        for used in range(3):
            count = 5
            if event == "pole-vault":
                option = best_option(event, HeightSituation(height, best, True, used), objective)
                assert isinstance(option, int)
                count = option
            dice = roll(rng, count)
            if sum(dice) >= height and (event == "high-jump" or 1 not in dice):
                best = height
                break
        else:
            return best  # three failures end the event (D8)
    return best


def play(event: str, objective: Objective, rng: Rng) -> int | None:
    """One event's result (``None``: no valid result)."""
    if event in SPRINT_SETS:
        return sprint(event, objective, rng)
    if event == "110m-hurdles":
        return hurdles(objective, rng)
    if event in ("high-jump", "pole-vault"):
        return heights(event, objective, rng)
    return three_attempts(event, objective, rng)
