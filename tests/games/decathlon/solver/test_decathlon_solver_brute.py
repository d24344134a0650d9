"""The solver against independent brute force (decathlon_brute), to 1e-9."""

from __future__ import annotations

import decathlon_brute as brute
import pytest

from gamenight.games.decathlon.solver import solve_event, target_probabilities

TOL = 1e-9


@pytest.mark.parametrize(
    ("event", "sets", "size"), [("100m", 2, 4), ("400m", 4, 2), ("1500m", 8, 1)]
)
def test_sprint_ev(event: str, sets: int, size: int) -> None:
    assert solve_event(event).ev == pytest.approx(brute.sprint_ev(sets, size), abs=TOL)


def test_hurdles_ev_and_every_target() -> None:
    assert solve_event("110m-hurdles").ev == pytest.approx(brute.hurdles(brute.points), abs=TOL)
    for t, p in target_probabilities("110m-hurdles").items():
        assert p == pytest.approx(brute.hurdles(brute.reaches(t)), abs=TOL), t


def test_single_long_jump() -> None:
    assert solve_event("long-jump", attempts=1).ev == pytest.approx(
        brute.long_jump(brute.points), abs=TOL
    )
    single = target_probabilities("long-jump", attempts=1)
    for t in (6, 20, 27):
        assert single[t] == pytest.approx(brute.long_jump(brute.reaches(t)), abs=TOL)


def discus(reward: brute.Reward) -> float:
    return brute.freeze_event(5, (2, 4, 6), reward)


def test_single_discus() -> None:
    assert solve_event("discus", attempts=1).ev == pytest.approx(discus(brute.points), abs=TOL)
    single = target_probabilities("discus", attempts=1)
    for t in (2, 18, 24, 30):
        assert single[t] == pytest.approx(discus(brute.reaches(t)), abs=TOL)


def test_single_javelin() -> None:
    expected = brute.freeze_event(6, (1, 3, 5), brute.points)
    assert solve_event("javelin", attempts=1).ev == pytest.approx(expected, abs=TOL)


def test_shot_put_one_two_and_three_attempts() -> None:
    assert solve_event("shot-put", attempts=1).ev == pytest.approx(
        brute.shot_put(brute.points), abs=TOL
    )
    for attempts in (2, 3):
        expected = brute.best_of_attempts(brute.shot_put, attempts)
        assert solve_event("shot-put", attempts=attempts).ev == pytest.approx(expected, abs=TOL)
    three = target_probabilities("shot-put")
    for t in (2, 15, 20, 30):
        expected = brute.best_of_attempts(brute.shot_put, 3, brute.reaches(t))
        assert three[t] == pytest.approx(expected, abs=TOL)


@pytest.mark.slow
def test_three_attempt_discus() -> None:
    # A few seconds: one brute-force attempt per (attempt, best so far).
    assert solve_event("discus").ev == pytest.approx(brute.best_of_attempts(discus, 3), abs=TOL)


HIGH = list(range(10, 31, 2))
POLE = list(range(10, 49, 2))


def test_high_jump() -> None:
    assert solve_event("high-jump").ev == pytest.approx(
        brute.height_event(HIGH, [5], False, brute.points), abs=TOL
    )
    for t, p in target_probabilities("high-jump").items():
        assert p == pytest.approx(brute.height_event(HIGH, [5], False, brute.reaches(t)), abs=TOL)


def test_pole_vault() -> None:
    counts = list(range(1, 9))
    assert solve_event("pole-vault").ev == pytest.approx(
        brute.height_event(POLE, counts, True, brute.points), abs=TOL
    )
    for t, p in target_probabilities("pole-vault").items():
        expected = brute.height_event(POLE, counts, True, brute.reaches(t))
        assert p == pytest.approx(expected, abs=TOL)
