"""The solver's general objective ``Utility``: E[u(result)] for any u per integer result.

Checked two ways: it reproduces the two built-in objectives exactly (u(r) = r is
the expected score, a step is a target), and small independent recursions written
here (sharing no code with the solver) give the same values for other utilities.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Mapping
from functools import cache
from typing import Any

import pytest

from gamenight.games.decathlon.competition import honours_utility
from gamenight.games.decathlon.solver import (
    EVENTS,
    ExpectedScore,
    FreezeSituation,
    HeightSituation,
    HurdlesSituation,
    LongJumpSituation,
    ShotPutSituation,
    Situation,
    SprintSituation,
    Target,
    Utility,
    best_option,
    event_spec,
    option_values,
    situation_value,
)

SITUATIONS: dict[str, list[Situation]] = {
    "100m": [SprintSituation(0, 5, (1, 2, 6, 6)), SprintSituation(1, 2, (5, 4, 3, 6), -3)],
    "400m": [SprintSituation(2, 3, (6, 5), 7), SprintSituation(0, 5, (3, 3))],
    "1500m": [SprintSituation(5, 1, (4,), 12), SprintSituation(0, 5, (6,))],
    "110m-hurdles": [HurdlesSituation(3, (1, 2, 3, 4, 6)), HurdlesSituation(1, (6, 6, 5, 4, 2))],
    "long-jump": [
        LongJumpSituation("run-up", (1,), (2, 3, 5, 6), 2, 18),
        LongJumpSituation("run-up", (1, 2), (), 3, None),
        LongJumpSituation("jump", (6,), (2, 3, 5), 1, None),
    ],
    "shot-put": [ShotPutSituation((6, 5, 4), 2, 22), ShotPutSituation((3,), 1, None)],
    "discus": [FreezeSituation((6,), (2, 4, 3, 5), 3, 20), FreezeSituation((4, 2), (), 2, None)],
    "javelin": [FreezeSituation((5,), (), 1, None), FreezeSituation((), (1, 3, 3, 5, 6, 2), 2, 9)],
    "high-jump": [HeightSituation(20, 18), HeightSituation(10)],
    "pole-vault": [HeightSituation(24, 20, True, 1), HeightSituation(30, 16)],
}


def ramp(event: str) -> Utility:
    spec = event_spec(event)
    return Utility(
        spec.min_score, tuple(float(r) for r in range(spec.min_score, spec.max_score + 1))
    )


def close(a: Mapping[Any, float], b: Mapping[Any, float]) -> bool:
    return a.keys() == b.keys() and all(abs(a[k] - b[k]) < 1e-9 for k in a)


@pytest.mark.parametrize("event", EVENTS)
def test_utility_reproduces_expected_score_and_targets(event: str) -> None:
    for where in SITUATIONS[event]:
        assert close(option_values(event, where, ramp(event)), option_values(event, where))
        for t in (12, 20, 25, 29):
            step = Utility(t - 1, (0.0, 1.0))
            assert close(option_values(event, where, step), option_values(event, where, Target(t)))
            strict = Utility(t, (0.0, 1.0))
            assert close(
                option_values(event, where, strict), option_values(event, where, Target(t, True))
            )


def test_utility_call_clamps_and_lines_count_medal_lines() -> None:
    u = Utility(10, (1.0, 2.0, 5.0), invalid=-3.0)
    assert [u(r) for r in (None, -40, 10, 11, 12, 99)] == [-3.0, 1.0, 1.0, 2.0, 5.0, 5.0]
    gold_silver = Utility.lines([26, 12], base=1)  # two others posted 26 and 12
    assert [gold_silver(r) for r in (None, 2, 12, 25, 26)] == [0.0, 1.0, 2.0, 2.0, 3.0]
    assert Utility.lines([], base=3)(7) == 3.0
    with pytest.raises(ValueError, match="at least one value"):
        Utility(0, ())


# ----- independent recursions ----------------------------------------------------------------
def shot_put_value(u: Utility, attempts: int) -> float:
    """E[u(best valid attempt)] of the whole shot put, by plain recursion (D7, D3)."""

    @cache
    def attempt(a: int, best: int | None) -> float:  # before attempt a
        if a > attempts:
            return u(best)
        return throw(a, best, 0, 0)

    @cache
    def after(a: int, best: int | None, result: int | None) -> float:
        if result is not None and (best is None or result > best):
            best = result
        return attempt(a + 1, best)

    @cache
    def throw(a: int, best: int | None, n: int, x: int) -> float:
        value = after(a, best, None)  # a 1: the attempt is invalid
        for face in range(2, 7):
            value += decide(a, best, n + 1, x + face)
        return value / 6

    @cache
    def decide(a: int, best: int | None, n: int, x: int) -> float:
        stop = after(a, best, x)
        return stop if n == 8 else max(stop, throw(a, best, n, x))

    return attempt(1, None)


def high_jump_values(u: Utility, height: int, best: int | None) -> dict[str, float]:
    """Jump/skip/retire values at ``height`` by plain recursion (D8), 5 dice a jump."""
    sums = [sum(d) for d in itertools.product(range(1, 7), repeat=5)]

    def clear(h: int) -> float:
        return sum(s >= h for s in sums) / len(sums)

    @cache
    def choose(h: int, b: int | None) -> float:
        if h > 30:
            return u(b)
        return max(jump(h, b), choose(h + 2, b), u(b))

    def jump(h: int, b: int | None) -> float:
        q, miss = clear(h), u(b)
        for _ in range(3):
            miss = q * choose(h + 2, h) + (1 - q) * miss
        return miss

    return {"jump": jump(height, best), "skip": choose(height + 2, best), "retire": u(best)}


def hurdles_values(u: Utility, dice: tuple[int, ...], left: int) -> dict[str, float]:
    sums = [sum(d) for d in itertools.product(range(1, 7), repeat=5)]
    value = sum(u(s) for s in sums) / len(sums)  # no rethrow left: the throw stands
    for _ in range(left - 1):
        value = sum(max(u(s), value) for s in sums) / len(sums)
    return {"freeze": u(sum(dice)), "rethrow": value}


def random_utility(rng: random.Random, low: int, high: int) -> Utility:
    values = tuple(rng.uniform(-1, 3) for _ in range(low, high + 1))
    return Utility(low, values, invalid=rng.uniform(-2, 1))


@pytest.mark.parametrize("attempts", [1, 3])
def test_shot_put_utility_matches_a_plain_recursion(attempts: int) -> None:
    rng = random.Random(attempts)
    for u in (honours_utility([26, 12]), honours_utility([30]), random_utility(rng, 2, 48)):
        start = ShotPutSituation((), 1, None)
        solved = situation_value("shot-put", start, u, attempts=attempts)
        assert abs(solved - shot_put_value(u, attempts)) < 1e-9


def test_high_jump_utility_matches_a_plain_recursion() -> None:
    rng = random.Random(5)
    for u in (honours_utility([22, 18]), random_utility(rng, 10, 30)):
        for height, best in ((10, None), (20, 16), (28, 26)):
            expected = high_jump_values(u, height, best)
            got = option_values("high-jump", HeightSituation(height, best), u)
            assert close(got, expected)


def test_hurdles_utility_matches_a_plain_recursion() -> None:
    rng = random.Random(7)
    u = random_utility(rng, 5, 30)
    for left in (1, 3, 5):
        dice = (6, 1, 4, 4, 2)
        got = option_values("110m-hurdles", HurdlesSituation(left, dice), u)
        assert close(got, hurdles_values(u, dice, left))


def test_flat_utility_ties_go_to_the_higher_expected_score() -> None:
    # Gold is certain with a best of 30 against a posted 20: every option is worth 3.
    where = ShotPutSituation((6, 6, 6), 3, 30)
    flat = honours_utility([20])
    values = option_values("shot-put", where, flat)
    assert values == {"stop": 3.0, "throw": 3.0}
    points = option_values("shot-put", where, ExpectedScore())
    assert best_option("shot-put", where, flat) == max(points, key=lambda k: points[k])
