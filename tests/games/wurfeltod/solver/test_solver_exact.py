"""The solver on reduced games, checked against an independent brute-force expectimax."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from gamenight.games.wurfeltod.categories import Category
from gamenight.games.wurfeltod.solver import (
    BoxSet,
    ValueTable,
    best_option,
    expected_score,
    option_values,
    solve_values,
    state_value,
)
from gamenight.games.wurfeltod.solver.policy import turn_values
from gamenight.games.wurfeltod.tables import roll_probability

from .brute_force import BruteForce

C = Category

# Small games that still exercise every rule of a turn: Wurfeltod-free and
# Wurfeltod bookings, the floor of unsatisfied bookings, scratches, keeping, and
# Face Value Total's second box.
GAMES = [
    BoxSet(singles=(C.ANY_PAIR, C.FIVE_STRAIGHT), face_value_boxes=1),
    BoxSet(singles=(C.TRIPLE_SIXES,), face_value_boxes=2),
    BoxSet(singles=(C.SUM_25, C.FOUR_OF_A_KIND), face_value_boxes=0),
]


def open_boxes(boxes: BoxSet, state: int) -> tuple[str, ...]:
    used = boxes.used_of(state)
    return tuple(sorted(c.value for c in boxes.categories for _ in range(boxes.boxes(c) - used[c])))


@pytest.fixture(scope="module")
def brute() -> BruteForce:
    return BruteForce()


@pytest.fixture(scope="module", params=GAMES, ids=lambda b: "+".join(b.describe()["singles"]))
def solved(request: pytest.FixtureRequest) -> ValueTable:
    boxes: BoxSet = request.param
    return ValueTable(boxes, solve_values(boxes))


def test_every_state_matches_brute_force(solved: ValueTable, brute: BruteForce) -> None:
    boxes = solved.boxes
    for state in range(boxes.state_count):
        expected = brute.game_value(open_boxes(boxes, state))
        assert solved.values[state] == pytest.approx(expected, rel=1e-12, abs=1e-9), state
    assert expected_score(solved) == pytest.approx(brute.game_value(open_boxes(boxes, 0)))


def test_option_values_match_brute_force(solved: ValueTable, brute: BruteForce) -> None:
    boxes = solved.boxes
    rng = np.random.default_rng(4)
    for state in range(boxes.state_count):
        remaining = open_boxes(boxes, state)
        if not remaining:
            continue
        used = boxes.used_of(state)
        for _ in range(12):
            dice = tuple(int(d) for d in rng.integers(1, 7, size=6))
            kept = int(rng.integers(0, 6))
            aside, rolled = tuple(sorted(dice[:kept])), tuple(sorted(dice[kept:]))
            got = option_values(solved, used, aside, rolled, first_roll=not aside)
            want = brute.options(remaining, aside, rolled)
            assert {str(o) for o in got} == set(want)
            for option, value in got.items():
                assert value == pytest.approx(want[str(option)], rel=1e-12, abs=1e-9), option


def test_single_state_turn_matches_batched_solve(solved: ValueTable) -> None:
    # The batched build (many states per call, padded lanes) and the one-state query
    # path run the same kernel; they must agree on every state.
    for state in range(solved.boxes.state_count - 1):
        assert turn_values(solved, state).value == pytest.approx(solved.values[state], rel=1e-13)


def test_first_roll_best_options_average_to_state_value(solved: ValueTable) -> None:
    used: dict[Category, int] = {}
    total = 0.0
    for dice in itertools.combinations_with_replacement(range(1, 7), 6):
        _, value = best_option(solved, used, (), dice, first_roll=True)
        total += roll_probability(dice) * value
    assert total == pytest.approx(state_value(solved, used), rel=1e-12)


def test_parallel_batches_match_one_state_path() -> None:
    # Enough states per level for several batches on several threads, unlike GAMES.
    boxes = BoxSet(singles=tuple(Category)[:10], face_value_boxes=2)
    table = ValueTable(boxes, solve_values(boxes))
    rng = np.random.default_rng(11)
    for state in rng.choice(boxes.state_count - 1, size=150, replace=False).tolist():
        assert turn_values(table, state).value == pytest.approx(table.values[state], rel=1e-13)


# The full game's expected score as solved before the build moved from a prange kernel
# to threads (issue 29); a change to the kernel or the build must leave it to 1e-9.
FULL_GAME_EXPECTED_SCORE = 9067.576361298623


def test_full_game_expected_score_is_unchanged(full_table: ValueTable) -> None:
    assert abs(expected_score(full_table) - FULL_GAME_EXPECTED_SCORE) <= 1e-9


def test_threads_and_one_thread_solve_the_same_values() -> None:
    boxes = BoxSet(singles=tuple(Category)[:14], face_value_boxes=2)  # several chunks a level
    assert np.array_equal(solve_values(boxes, threads=1), solve_values(boxes, threads=3))
