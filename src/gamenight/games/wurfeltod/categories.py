"""Wurfeltod categories: what each box needs, what it scores, and when it brings a Wurfeltod.

This module is pure: no game state, no dice source. The engine, the bots and the
solver all judge a booking with :func:`gamenight.games.wurfeltod.booking.evaluate`,
which reads the tables built from this module's shapes (or, in bulk, with those
arrays).

Vocabulary. The six *final dice* are the dice set aside plus the *final roll*
(the dice thrown in the last roll; all six when the player books after the
first roll). The dice that *form* a category are a sub-multiset of the final
dice with the category's shape (W4).

- W4: every category is a set of allowed shapes; groups inside one category have
  different values; "at least" applies (five equal dice also hold a pair).
- W3: a booking scores the category's points if some shape fits in the final
  dice, else 0. It brings a Wurfeltod (-250) when some die of the final roll is
  outside the forming dice, the forming dice chosen to include as many
  final-roll dice as possible. A booking that scores 0 forms nothing, so it
  always brings a Wurfeltod.
- W2: the first-roll *scratch* (book 0 with no Wurfeltod) is an engine rule, not
  a category property; :data:`SCRATCH` is the booking it produces.
"""

from __future__ import annotations

import enum
import itertools
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple

__all__ = [
    "BOXES_PER_CATEGORY",
    "CATEGORIES",
    "CATEGORY_LABELS",
    "FIXED_POINTS",
    "SCRATCH",
    "TOTAL_BOXES",
    "WURFELTOD_PENALTY",
    "Booking",
    "Category",
    "category_points",
    "forming_dice",
    "scratch_booking",
]

FACES = (1, 2, 3, 4, 5, 6)
DICE = 6
WURFELTOD_PENALTY = 250


class Category(enum.StrEnum):
    """The 19 Wurfeltod categories, in score-sheet order (W4). Values are stable ids."""

    ANY_PAIR = "any-pair"
    TWO_PAIR = "two-pair"
    TRIPLE_ONES = "1-1-1"
    TRIPLE_TWOS = "2-2-2"
    TRIPLE_THREES = "3-3-3"
    TRIPLE_FOURS = "4-4-4"
    TRIPLE_FIVES = "5-5-5"
    TRIPLE_SIXES = "6-6-6"
    SUM_25 = "sum-25"
    FOUR_OF_A_KIND = "four-of-a-kind"
    THREE_PAIRS = "three-pairs"
    TWO_TRIPLETS = "two-triplets"
    FOUR_AND_PAIR = "four-and-pair"
    FIVE_OF_A_KIND = "five-of-a-kind"
    FIVE_STRAIGHT = "five-straight"
    SEQUENTIAL_PAIRS = "sequential-pairs"
    SIX_OF_A_KIND = "six-of-a-kind"
    SIX_STRAIGHT = "six-straight"
    FACE_VALUE = "face-value"


CATEGORIES: tuple[Category, ...] = tuple(Category)
"""All categories in score-sheet order; ``CATEGORIES.index(c)`` is the column in the tables."""

CATEGORY_LABELS: dict[Category, str] = {
    Category.ANY_PAIR: "Any Pair",
    Category.TWO_PAIR: "Two Pair",
    Category.TRIPLE_ONES: "1-1-1",
    Category.TRIPLE_TWOS: "2-2-2",
    Category.TRIPLE_THREES: "3-3-3",
    Category.TRIPLE_FOURS: "4-4-4",
    Category.TRIPLE_FIVES: "5-5-5",
    Category.TRIPLE_SIXES: "6-6-6",
    Category.SUM_25: "Sum Total 25+",
    Category.FOUR_OF_A_KIND: "Four of a Kind",
    Category.THREE_PAIRS: "Three Pairs",
    Category.TWO_TRIPLETS: "Two Triplets",
    Category.FOUR_AND_PAIR: "Four of a Kind + a Pair",
    Category.FIVE_OF_A_KIND: "Five of a Kind",
    Category.FIVE_STRAIGHT: "5-Die Straight",
    Category.SEQUENTIAL_PAIRS: "Sequential Pairs",
    Category.SIX_OF_A_KIND: "Six of a Kind",
    Category.SIX_STRAIGHT: "6-Die Straight",
    Category.FACE_VALUE: "Face Value Total ×10",
}

# W1: Face Value Total has two boxes, every other category one; 20 boxes, 20 turns.
BOXES_PER_CATEGORY: dict[Category, int] = {
    c: (2 if c is Category.FACE_VALUE else 1) for c in CATEGORIES
}
TOTAL_BOXES = sum(BOXES_PER_CATEGORY.values())

# W4 points; Face Value Total is the sum of the six dice x 10 and is not listed here.
FIXED_POINTS: dict[Category, int] = {
    Category.ANY_PAIR: 50,
    Category.TWO_PAIR: 50,
    Category.TRIPLE_ONES: 100,
    Category.TRIPLE_TWOS: 100,
    Category.TRIPLE_THREES: 100,
    Category.TRIPLE_FOURS: 100,
    Category.TRIPLE_FIVES: 100,
    Category.TRIPLE_SIXES: 300,
    Category.SUM_25: 500,
    Category.FOUR_OF_A_KIND: 750,
    Category.THREE_PAIRS: 800,
    Category.TWO_TRIPLETS: 850,
    Category.FOUR_AND_PAIR: 900,
    Category.FIVE_OF_A_KIND: 1000,
    Category.FIVE_STRAIGHT: 1000,
    Category.SEQUENTIAL_PAIRS: 1500,
    Category.SIX_OF_A_KIND: 2000,
    Category.SIX_STRAIGHT: 2000,
}


class Booking(NamedTuple):
    """The outcome of booking one box with given final dice (W3).

    ``points`` is the category's points when ``satisfied`` and 0 otherwise;
    ``wurfeltod`` says whether the booking also brings a Wurfeltod (-250).
    """

    satisfied: bool
    points: int
    wurfeltod: bool

    @property
    def score(self) -> int:
        """Points minus the Wurfeltod penalty: the change to the player's score."""
        return self.points - (WURFELTOD_PENALTY if self.wurfeltod else 0)


SCRATCH = Booking(satisfied=False, points=0, wurfeltod=False)
"""The first-roll scratch (W2): 0 points and no Wurfeltod, whatever the dice show."""


def scratch_booking() -> Booking:
    """The booking of a first-roll scratch (W2). The engine decides when it is allowed."""
    return SCRATCH


# --- shapes (W4) -----------------------------------------------------------------------
# A shape is a count vector over faces 1..6: how many dice of each value form the
# category. Groups within one category have different values (W4).

Shape = tuple[int, ...]


def _shape(values: Iterable[int]) -> Shape:
    counts = Counter(values)
    return tuple(counts[f] for f in FACES)


def _kind(size: int) -> tuple[Shape, ...]:
    return tuple(_shape([v] * size) for v in FACES)


def _groups(*sizes: int) -> tuple[Shape, ...]:
    """Shapes made of groups with the given sizes, each group a different value."""
    shapes = {
        _shape(itertools.chain.from_iterable([v] * s for v, s in zip(values, sizes, strict=True)))
        for values in itertools.permutations(FACES, len(sizes))
    }
    return tuple(sorted(shapes))


FIXED_SHAPES: dict[Category, tuple[Shape, ...]] = {
    Category.ANY_PAIR: _kind(2),
    Category.TWO_PAIR: _groups(2, 2),
    Category.TRIPLE_ONES: (_shape([1, 1, 1]),),
    Category.TRIPLE_TWOS: (_shape([2, 2, 2]),),
    Category.TRIPLE_THREES: (_shape([3, 3, 3]),),
    Category.TRIPLE_FOURS: (_shape([4, 4, 4]),),
    Category.TRIPLE_FIVES: (_shape([5, 5, 5]),),
    Category.TRIPLE_SIXES: (_shape([6, 6, 6]),),
    Category.FOUR_OF_A_KIND: _kind(4),
    Category.THREE_PAIRS: _groups(2, 2, 2),
    Category.TWO_TRIPLETS: _groups(3, 3),
    Category.FOUR_AND_PAIR: _groups(4, 2),
    Category.FIVE_OF_A_KIND: _kind(5),
    Category.FIVE_STRAIGHT: (_shape([1, 2, 3, 4, 5]), _shape([2, 3, 4, 5, 6])),
    Category.SEQUENTIAL_PAIRS: tuple(
        _shape([n, n, n + 1, n + 1, n + 2, n + 2]) for n in (1, 2, 3, 4)
    ),
    Category.SIX_OF_A_KIND: _kind(6),
    Category.SIX_STRAIGHT: (_shape(FACES),),
}
"""Shapes of the categories formed by a fixed pattern; Sum Total 25+ and Face Value
Total are formed by all six dice (W4) and are handled by :func:`candidate_shapes`."""

SUM_TOTAL_MINIMUM = 25


def candidate_shapes(category: Category, final_counts: Shape) -> tuple[Shape, ...]:
    """Every shape of ``category`` that fits inside the final dice (given as counts)."""
    if category is Category.FACE_VALUE:
        return (final_counts,)
    if category is Category.SUM_25:
        total = sum(f * n for f, n in zip(FACES, final_counts, strict=True))
        return (final_counts,) if total >= SUM_TOTAL_MINIMUM else ()
    return tuple(
        s
        for s in FIXED_SHAPES[category]
        if all(need <= have for need, have in zip(s, final_counts, strict=True))
    )


def category_points(category: Category, final_dice: Sequence[int]) -> int:
    """The points ``category`` scores when satisfied by ``final_dice`` (W4)."""
    if category is Category.FACE_VALUE:
        return 10 * sum(final_dice)
    return FIXED_POINTS[category]


def check_dice(aside: Sequence[int], final_roll: Sequence[int]) -> None:
    if len(final_roll) == 0:
        raise ValueError("the final roll must contain at least one die")
    if len(aside) + len(final_roll) != DICE:
        raise ValueError(
            f"aside and final roll must hold {DICE} dice together, "
            f"got {len(aside)} + {len(final_roll)}"
        )
    for die in itertools.chain(aside, final_roll):
        if isinstance(die, bool) or not isinstance(die, int) or not 1 <= die <= 6:
            raise ValueError(f"a die shows 1 to 6, got {die!r}")


def forming_dice(
    category: Category, aside: Sequence[int], final_roll: Sequence[int]
) -> tuple[int, ...] | None:
    """The dice that form ``category`` (sorted), or None when it is not satisfied.

    Among the fitting shapes this picks one that includes the most final-roll
    dice (W3), for display; a slow path, not meant for bots.

    >>> forming_dice(Category.ANY_PAIR, aside=(1, 1, 4, 4, 4), final_roll=(3,))
    (1, 1)
    >>> forming_dice(Category.TRIPLE_FOURS, aside=(1, 2, 3), final_roll=(4, 4, 4))
    (4, 4, 4)
    """
    check_dice(aside, final_roll)
    final = _shape([*aside, *final_roll])
    roll = _shape(final_roll)
    shapes = candidate_shapes(category, final)
    if not shapes:
        return None
    best = max(shapes, key=lambda s: sum(min(a, b) for a, b in zip(s, roll, strict=True)))
    return tuple(itertools.chain.from_iterable([f] * n for f, n in zip(FACES, best, strict=True)))
