"""Option queries: which options are legal (W2) and how bookings are valued (W3)."""

from __future__ import annotations

import numpy as np
import pytest

from gamenight.games.wurfeltod.booking import evaluate
from gamenight.games.wurfeltod.categories import Category
from gamenight.games.wurfeltod.solver import (
    FULL_GAME,
    Book,
    BoxSet,
    Scratch,
    SetAside,
    ValueTable,
    best_option,
    option_values,
    state_value,
)

C = Category


@pytest.fixture(scope="module")
def full_table() -> ValueTable:
    # Arbitrary values: the query logic does not care whether they are optimal.
    rng = np.random.default_rng(7)
    values = rng.uniform(0, 5000, FULL_GAME.state_count)
    values[-1] = 0.0
    return ValueTable(FULL_GAME, values)


def test_option_names() -> None:
    assert str(Book(C.SUM_25)) == "book sum-25"
    assert str(Scratch(C.TRIPLE_ONES)) == "scratch 1-1-1"
    assert str(SetAside((1, 1, 4))) == "set aside 1-1-4"


def test_first_roll_options(full_table: ValueTable) -> None:
    used = {C.ANY_PAIR: 1, C.FACE_VALUE: 1}
    got = option_values(full_table, used, (), (1, 1, 2, 3, 4, 4), first_roll=True)
    books = {o for o in got if isinstance(o, Book)}
    scratches = {o for o in got if isinstance(o, Scratch)}
    asides = {o for o in got if isinstance(o, SetAside)}
    open_categories = set(Category) - {C.ANY_PAIR}
    assert {o.category for o in books} == open_categories == {o.category for o in scratches}
    # Sub-multisets of 1-1-2-3-4-4: 3*2*2*3 = 36, minus the empty one and the whole roll.
    assert len(asides) == 34
    assert SetAside((1, 1, 4, 4)) in asides
    after = full_table.boxes.after_booking(full_table.boxes.state_of(used), C.TWO_PAIR)
    assert got[Scratch(C.TWO_PAIR)] == full_table.values[after]
    assert got[Book(C.TWO_PAIR)] == full_table.values[after] + 50 - 250  # four dice unused


def test_later_roll_options(full_table: ValueTable) -> None:
    used: dict[Category, int] = {}
    got = option_values(full_table, used, (1, 1, 4, 4, 4), (3,), first_roll=False)
    assert not any(isinstance(o, Scratch | SetAside) for o in got)  # last die: must book
    bookings = evaluate((1, 1, 4, 4, 4), (3,))
    for option, value in got.items():
        assert isinstance(option, Book)
        after = FULL_GAME.after_booking(0, option.category)
        assert value == pytest.approx(bookings[option.category].score + full_table.values[after])
    got = option_values(full_table, used, (1, 1, 4, 4), (4, 5), first_roll=False)
    assert {o for o in got if isinstance(o, SetAside)} == {SetAside((4,)), SetAside((5,))}


def test_best_option_is_the_maximum(full_table: ValueTable) -> None:
    used = {C.SIX_STRAIGHT: 1}
    option, value = best_option(full_table, used, (2,), (2, 3, 3, 5, 6), first_roll=False)
    values = option_values(full_table, used, (2,), (2, 3, 3, 5, 6), first_roll=False)
    assert value == max(values.values()) == values[option]


def test_state_value_reads_the_table(full_table: ValueTable) -> None:
    used = {C.FACE_VALUE: 2, C.ANY_PAIR: 1}
    assert state_value(full_table, used) == full_table.values[2 << 18 | 1]


@pytest.mark.parametrize(
    ("aside", "rolled", "first_roll", "message"),
    [
        ((), (1, 2, 3, 4, 5), True, "6 dice"),
        ((1, 2, 3, 4, 5, 6), (), False, "6 dice"),
        ((1,), (1, 2, 3, 4, 5), True, "first roll"),
        ((), (1, 2, 3, 4, 5, 6), False, "first roll"),
    ],
)
def test_bad_positions_are_refused(
    full_table: ValueTable,
    aside: tuple[int, ...],
    rolled: tuple[int, ...],
    first_roll: bool,
    message: str,
) -> None:
    with pytest.raises(ValueError, match=message):
        option_values(full_table, {}, aside, rolled, first_roll)


def test_used_boxes_are_checked(full_table: ValueTable) -> None:
    with pytest.raises(ValueError, match="face-value: 3 boxes used"):
        option_values(full_table, {C.FACE_VALUE: 3}, (), (1, 2, 3, 4, 5, 6), True)
    small = BoxSet(singles=(C.ANY_PAIR,), face_value_boxes=0)
    with pytest.raises(ValueError, match="two-pair: 1 boxes used, but the game has 0"):
        small.state_of({C.TWO_PAIR: 1})
    everything = {c: FULL_GAME.boxes(c) for c in Category}
    with pytest.raises(ValueError, match="game is over"):
        option_values(full_table, everything, (), (1, 2, 3, 4, 5, 6), True)
