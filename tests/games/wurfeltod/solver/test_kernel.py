"""The compiled turn DP (issue 29): an independent value, and its checks at the boundary."""

from __future__ import annotations

import dataclasses
import functools
import itertools
from collections.abc import Callable

import numpy as np
import pytest

from gamenight.games.wurfeltod.solver import kernel
from gamenight.games.wurfeltod.solver.boxes import FULL_GAME
from gamenight.games.wurfeltod.solver.build import column_bits
from gamenight.games.wurfeltod.solver.kernel_ir import FACE
from gamenight.games.wurfeltod.solver.structure import turn_structure


@functools.cache
def _best_total(dice: int) -> float:
    """Expected best total of ``dice`` dice: after each roll keep them all, or set
    aside the highest ``j`` (at least one, not all) and roll the rest (W2)."""
    total = 0.0
    for roll in itertools.product(range(1, 7), repeat=dice):
        high = sorted(roll, reverse=True)
        options = [float(sum(roll))]
        options += [sum(high[:j]) + _best_total(dice - j) for j in range(1, dice)]
        total += max(options)
    return total / float(6**dice)


def test_face_value_alone_is_ten_times_the_best_total_of_six_dice() -> None:
    column_value = np.full(kernel.N_COLUMNS, kernel.CLOSED)
    column_value[FACE] = 0.0  # the last box: nothing after it; scratching it scores 0
    values = kernel.turn_values(column_value, turn_structure())
    assert values[0] == pytest.approx(10 * _best_total(6), rel=1e-13)


def test_a_booking_adds_its_value_after_to_every_aside() -> None:
    column_value = np.full(kernel.N_COLUMNS, kernel.CLOSED)
    column_value[FACE] = 0.0
    base = kernel.turn_values(column_value, turn_structure())
    column_value[FACE] = 1000.0
    assert np.allclose(kernel.turn_values(column_value, turn_structure()), base + 1000.0)


def _solve(states: np.ndarray, values: np.ndarray, bits: np.ndarray) -> None:
    n_single, face = len(FULL_GAME.singles), FULL_GAME.face_value_boxes
    kernel.solve_states(states, values, n_single, face, bits, turn_structure())


def test_the_solve_refuses_what_would_read_outside_its_arrays() -> None:
    values = np.zeros(FULL_GAME.state_count)
    bits = column_bits(FULL_GAME)
    with pytest.raises(ValueError, match="out of range"):
        _solve(np.array([FULL_GAME.state_count], dtype=np.int64), values, bits)
    with pytest.raises(ValueError, match="out of range"):
        _solve(np.array([-1], dtype=np.int64), values, bits)
    with pytest.raises(ValueError, match="one value per state"):
        _solve(np.zeros(1, dtype=np.int64), values[:-1], bits)
    with pytest.raises(ValueError, match="a bit or -1"):
        _solve(np.zeros(1, dtype=np.int64), values, np.full(len(bits), len(FULL_GAME.singles)))
    with pytest.raises(TypeError, match="states must be a C-contiguous int64"):
        _solve(np.zeros(1, dtype=np.int32), values, bits)
    with pytest.raises(TypeError, match="states must be a C-contiguous int64"):
        _solve(np.zeros(4, dtype=np.int64)[::2], values, bits)
    assert not values.any()  # nothing was written


def test_no_states_is_a_no_op_and_padding_writes_only_the_states_given() -> None:
    values = np.zeros(FULL_GAME.state_count)
    bits = column_bits(FULL_GAME)
    _solve(np.zeros(0, dtype=np.int64), values, bits)
    assert not values.any()
    every_box_used = FULL_GAME.state_count - 1
    face_open = every_box_used - (1 << len(FULL_GAME.singles))  # one Face Value box left
    _solve(np.array([face_open], dtype=np.int64), values, bits)  # 1 of 16 lanes
    assert values[face_open] == pytest.approx(10 * _best_total(6), rel=1e-13)
    assert np.count_nonzero(values) == 1


@pytest.mark.parametrize(
    ("field", "change"),
    [
        ("succ_pair", lambda a: a + np.uint32(20_000)),  # a successor past the last pair
        ("pair_class", lambda a: a + np.uint32(5_000)),  # a booking class that is not there
        ("class_column", lambda a: np.full_like(a, 19)),  # a column past the last
        ("succ_start", lambda a: a[:-1]),  # one row short
        ("aside_level_start", lambda a: a[::-1].copy()),  # decreasing
    ],
)
def test_a_structure_whose_indices_leave_their_arrays_is_refused(
    field: str, change: Callable[[np.ndarray], np.ndarray]
) -> None:
    structure = turn_structure()
    broken = dataclasses.replace(structure, **{field: change(getattr(structure, field))})
    column_value = np.zeros(kernel.N_COLUMNS)
    with pytest.raises(ValueError, match="indices are inconsistent"):
        kernel.turn_values(column_value, broken)
