"""Optimal-play queries on a solved value table: what every legal option is worth.

A value is the expected score still to come (points minus 250 per Wurfeltod,
W5) from this decision to the end of the game, under optimal play; nothing
already booked is added. Within-turn values are recomputed for one state at a
time from the table (one compiled turn DP, about a millisecond) and cached.

>>> from gamenight.games.wurfeltod.solver.boxes import BoxSet
>>> from gamenight.games.wurfeltod.solver.build import solve_values
>>> boxes = BoxSet(singles=(Category.SIX_STRAIGHT,), face_value_boxes=0)
>>> table = ValueTable(boxes, solve_values(boxes))
>>> best_option(table, {}, aside=(), rolled=(1, 2, 3, 4, 5, 6), first_roll=True)
(Book(category=<Category.SIX_STRAIGHT: 'six-straight'>), 2000.0)
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from gamenight.games.wurfeltod.booking import evaluate
from gamenight.games.wurfeltod.categories import CATEGORIES, DICE, FACES, Category
from gamenight.games.wurfeltod.solver import kernel
from gamenight.games.wurfeltod.solver.boxes import UsedBoxes
from gamenight.games.wurfeltod.solver.structure import turn_structure
from gamenight.games.wurfeltod.solver.table import ValueTable
from gamenight.games.wurfeltod.tables import pair_tables
from gamenight.solve.ties import best_key

__all__ = [
    "Book",
    "Option",
    "Scratch",
    "SetAside",
    "TurnValues",
    "best_option",
    "expected_score",
    "option_values",
    "state_value",
    "turn_values",
]


@dataclass(frozen=True)
class Book:
    """Book an open box of ``category`` with the current dice (W3)."""

    category: Category

    def __str__(self) -> str:
        return f"book {self.category.value}"


@dataclass(frozen=True)
class Scratch:
    """First roll only: book 0 in an open box of ``category``, with no Wurfeltod (W2)."""

    category: Category

    def __str__(self) -> str:
        return f"scratch {self.category.value}"


@dataclass(frozen=True)
class SetAside:
    """Set aside these dice (sorted) of the roll and roll the rest (W2)."""

    dice: tuple[int, ...]

    def __str__(self) -> str:
        return "set aside " + "-".join(map(str, self.dice))


Option = Book | Scratch | SetAside


def expected_score(table: ValueTable) -> float:
    """Expected final score of a new solitaire game under optimal play."""
    return float(table.values[0])


def state_value(table: ValueTable, used: UsedBoxes) -> float:
    """Expected score still to come from the start of a turn with these boxes used."""
    return float(table.values[table.boxes.state_of(used)])


@dataclass(frozen=True, eq=False)
class TurnValues:
    """One state's turn, solved: the values every option is made of."""

    state: int
    after_booking: dict[Category, float]
    """Value of the rest of the game after booking (or scratching) each open category."""
    aside_value: npt.NDArray[np.float64]
    """By aside multiset id: expected value of rolling the other dice with that aside."""

    @property
    def value(self) -> float:
        """Value of the whole turn (nothing aside yet, before the first roll)."""
        return float(self.aside_value[0])


@functools.lru_cache(maxsize=64)
def turn_values(table: ValueTable, state: int) -> TurnValues:
    """Solve the turn of one state from the table (cached)."""
    boxes = table.boxes
    after = {
        c: float(table.values[boxes.after_booking(state, c)]) for c in boxes.open_categories(state)
    }
    if not after:
        raise ValueError("the game is over: every box is used")
    column_value = np.full(len(CATEGORIES), kernel.CLOSED)
    for category, value in after.items():
        column_value[CATEGORIES.index(category)] = value
    values = kernel.turn_values(column_value, turn_structure())
    values.setflags(write=False)
    return TurnValues(state=state, after_booking=after, aside_value=values)


def _sub_multisets(dice: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Every non-empty proper sub-multiset of ``dice`` (sorted), each once."""
    counts = [dice.count(f) for f in FACES]
    for take in itertools.product(*(range(n + 1) for n in counts)):
        size = sum(take)
        if 0 < size < len(dice):
            yield tuple(f for f, n in zip(FACES, take, strict=True) for _ in range(n))


def option_values(
    table: ValueTable,
    used: UsedBoxes,
    aside: Sequence[int],
    rolled: Sequence[int],
    first_roll: bool,
) -> dict[Option, float]:
    """The value of every legal option after a roll (W2, W3).

    ``aside`` holds the dice set aside earlier this turn, ``rolled`` the dice
    just rolled (six on the first roll). Options: book any open box; on the
    first roll, scratch any open box; with two or more dice rolled, set aside a
    non-empty proper sub-multiset of them.
    """
    aside_t = tuple(sorted(aside))
    rolled_t = tuple(sorted(rolled))
    if len(aside_t) + len(rolled_t) != DICE or not rolled_t:
        raise ValueError(f"aside and rolled must be {DICE} dice with at least one rolled")
    if first_roll != (not aside_t):
        raise ValueError("the first roll has nothing aside, and every later roll has some")
    turn = turn_values(table, table.boxes.state_of(used))
    bookings = evaluate(aside_t, rolled_t)
    result: dict[Option, float] = {}
    for category, after in turn.after_booking.items():
        result[Book(category)] = bookings[category].score + after
    if first_roll:
        for category, after in turn.after_booking.items():
            result[Scratch(category)] = after
    index = pair_tables().multiset_index
    for kept in _sub_multisets(rolled_t):
        result[SetAside(kept)] = float(turn.aside_value[index[tuple(sorted(aside_t + kept))]])
    return result


def best_option(
    table: ValueTable,
    used: UsedBoxes,
    aside: Sequence[int],
    rolled: Sequence[int],
    first_roll: bool,
) -> tuple[Option, float]:
    """An optimal option and its value; near-ties go to the first in :func:`option_values`
    order (bookings, then scratches, then set-asides): the one tie rule of
    :mod:`gamenight.solve.ties`."""
    values = option_values(table, used, aside, rolled, first_roll)
    best = best_key(values)
    return best, values[best]
