"""The decision API agrees with the solved tables and refuses impossible situations."""

from __future__ import annotations

import pytest

from gamenight.games.decathlon.solver import (
    ExpectedScore,
    FreezeSituation,
    HeightSituation,
    HurdlesSituation,
    LongJumpSituation,
    NoDecisionError,
    Objective,
    ShotPutSituation,
    SprintSituation,
    Target,
    best_option,
    option_values,
    situation_value,
    solve_event,
)
from gamenight.solve.dice import multisets, probability, sub_multisets

OBJECTIVES: list[Objective] = [ExpectedScore(), Target(18), Target(24, strict=True)]


def opening_value(event: str, objective: Objective) -> float:
    """One attempt: the best option's value averaged over the opening throw."""
    total = 0.0
    for dice in multisets(6 if event == "javelin" else 5):
        situation: LongJumpSituation | FreezeSituation
        if event == "long-jump":
            situation = LongJumpSituation("run-up", (), dice)
        else:
            situation = FreezeSituation((), dice)
        try:
            best = situation_value(event, situation, objective, attempts=1)
        except NoDecisionError:
            best = 0.0  # no allowed die: an invalid single attempt is worth 0
        total += probability(dice) * best
    return total


@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize("event", ["discus", "javelin", "long-jump"])
def test_opening_throw_averages_to_the_solution(event: str, objective: Objective) -> None:
    expected = solve_event(event, objective, attempts=1).value
    assert opening_value(event, objective) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_three_attempt_long_jump_opening(objective: Objective) -> None:
    total = sum(
        probability(dice)
        * situation_value("long-jump", LongJumpSituation("run-up", (), dice), objective)
        for dice in multisets(5)
    )
    assert total == pytest.approx(solve_event("long-jump", objective).value, abs=1e-12)


@pytest.mark.parametrize("objective", OBJECTIVES)
@pytest.mark.parametrize(("event", "size"), [("100m", 4), ("400m", 2), ("1500m", 1)])
def test_sprint_opening(event: str, size: int, objective: Objective) -> None:
    total = sum(
        probability(dice) * situation_value(event, SprintSituation(0, 5, dice), objective)
        for dice in multisets(size)
    )
    assert total == pytest.approx(solve_event(event, objective).value, abs=1e-12)


@pytest.mark.parametrize("objective", OBJECTIVES)
def test_shot_put_and_heights_openings(objective: Objective) -> None:
    opening = option_values("shot-put", ShotPutSituation(()), objective)
    assert list(opening) == ["throw"]
    assert opening["throw"] == pytest.approx(solve_event("shot-put", objective).value, abs=1e-12)
    for event in ("high-jump", "pole-vault"):
        value = situation_value(event, HeightSituation(10), objective)
        assert value == pytest.approx(solve_event(event, objective).value, abs=1e-12)


def test_every_legal_freeze_is_offered() -> None:
    thrown = (2, 2, 3, 6, 6)
    values = option_values("discus", FreezeSituation((), thrown))
    assert set(values) == set(sub_multisets((2, 2, 6, 6)))  # even dice only (D10)
    run_up = option_values("long-jump", LongJumpSituation("run-up", (), thrown))
    assert set(run_up) == set(sub_multisets(thrown))
    # Freezing more high dice is better in the discus than fewer, other things equal.
    assert values[(6, 6)] > values[(2, 2)]


def test_later_attempts_use_the_best_so_far() -> None:
    low = option_values("discus", FreezeSituation((6,), (), attempt=3, best=None))
    high = option_values("discus", FreezeSituation((6,), (), attempt=3, best=28))
    # Last attempt, best 28: stopping at 6 keeps 28; rethrowing can only help.
    assert high["stop"] == 28.0 and high["rethrow"] >= 28.0
    assert low["stop"] == 6.0
    target = option_values("discus", FreezeSituation((6,), (), attempt=2, best=20), Target(20))
    assert target == {"stop": 1.0, "rethrow": 1.0}


def test_best_option_breaks_target_ties_by_points() -> None:
    # Target already reached (best 14 >= 12): every option succeeds, so the choice
    # follows the expected score.
    situation = HeightSituation(16, best=14)
    assert set(option_values("high-jump", situation, Target(12)).values()) == {1.0}
    expected = option_values("high-jump", situation)
    assert best_option("high-jump", situation, Target(12)) == max(
        expected, key=expected.__getitem__
    )


def test_forced_moves_have_one_option() -> None:
    assert list(option_values("100m", SprintSituation(1, 0, (1, 2, 3, 4), 10))) == ["freeze"]
    assert list(option_values("110m-hurdles", HurdlesSituation(0, (1, 1, 1, 1, 1)))) == ["freeze"]
    all_frozen = LongJumpSituation("run-up", (1, 1, 1, 2, 2), ())
    assert list(option_values("long-jump", all_frozen)) == ["jump"]


@pytest.mark.parametrize(
    ("event", "situation"),
    [
        ("discus", FreezeSituation((), (1, 3, 5, 5, 1))),  # no even die: invalid
        ("discus", FreezeSituation((2, 2, 4, 4, 6), ())),  # all frozen: over
        ("javelin", FreezeSituation((), ())),  # must throw first
        ("long-jump", LongJumpSituation("run-up", (5, 4), ())),  # stepped over
        ("long-jump", LongJumpSituation("jump", (6,), ())),  # rethrow is forced
        ("shot-put", ShotPutSituation((4, 1))),  # a 1 is invalid
        ("shot-put", ShotPutSituation((2,) * 8)),  # all 8 thrown
        ("high-jump", HeightSituation(12, committed=True)),  # just jumps
    ],
)
def test_no_decision(event: str, situation: object) -> None:
    with pytest.raises(NoDecisionError):
        option_values(event, situation)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("event", "situation", "error"),
    [
        ("discus", ShotPutSituation(()), TypeError),
        ("100m", HurdlesSituation(5, (1, 2, 3, 4, 5)), TypeError),
        ("100m", SprintSituation(2, 5, (1, 2, 3, 4)), ValueError),  # only sets 0, 1
        ("100m", SprintSituation(0, 6, (1, 2, 3, 4)), ValueError),
        ("400m", SprintSituation(0, 5, (1, 2, 3, 4)), ValueError),  # sets of 2
        ("discus", FreezeSituation((3,), (2, 2, 2, 2)), ValueError),  # odd frozen
        ("discus", FreezeSituation((), (2, 7, 2, 2, 2)), ValueError),  # not a face
        ("javelin", FreezeSituation((), (1, 2, 3), attempt=4), ValueError),
        ("javelin", FreezeSituation((), (1,) * 6, attempt=1, best=12), ValueError),
        ("pole-vault", HeightSituation(11), ValueError),
        ("pole-vault", HeightSituation(20, best=20), ValueError),
        ("pole-vault", HeightSituation(20, committed=True, jumps_used=3), ValueError),
    ],
)
def test_impossible_situations_are_refused(
    event: str, situation: object, error: type[Exception]
) -> None:
    with pytest.raises(error):
        option_values(event, situation)  # type: ignore[arg-type]
