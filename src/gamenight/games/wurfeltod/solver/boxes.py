"""Which boxes a solved game has, and how a set of used boxes becomes a state number.

The full game has 20 boxes (W1): 18 categories with one box and Face Value
Total with two. Tests solve smaller games over a subset of the categories with
the same code, so the box set is a value rather than a constant.

A *state* is the set of used boxes at the start of a turn, numbered
``face_value_used << len(singles) | mask`` where bit ``i`` of ``mask`` says
``singles[i]`` is used. The turn number is implied: it is the number of used
boxes plus one. The full game has ``3 * 2**18 = 786,432`` states.

>>> FULL_GAME.state_count, FULL_GAME.turns
(786432, 20)
>>> s = FULL_GAME.state_of({Category.ANY_PAIR: 1, Category.FACE_VALUE: 2})
>>> s == 2 << 18 | 1, FULL_GAME.used_of(s)[Category.FACE_VALUE]
(True, 2)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from gamenight.games.wurfeltod.categories import BOXES_PER_CATEGORY, CATEGORIES, Category

__all__ = ["FULL_GAME", "BoxSet", "UsedBoxes"]

UsedBoxes = Mapping[Category, int]
"""How many boxes of each category are used; missing categories count 0."""


@dataclass(frozen=True)
class BoxSet:
    """The boxes of a (possibly reduced) solitaire game."""

    singles: tuple[Category, ...]
    """Categories with one box, in score-sheet order; never Face Value Total."""
    face_value_boxes: int = BOXES_PER_CATEGORY[Category.FACE_VALUE]

    def __post_init__(self) -> None:
        if Category.FACE_VALUE in self.singles:
            raise ValueError("Face Value Total is counted by face_value_boxes, not singles")
        if list(self.singles) != sorted(set(self.singles), key=CATEGORIES.index):
            raise ValueError("singles must be distinct and in score-sheet order")
        if not 0 <= self.face_value_boxes <= BOXES_PER_CATEGORY[Category.FACE_VALUE]:
            raise ValueError("face_value_boxes must be 0, 1 or 2")
        if self.turns == 0:
            raise ValueError("a game needs at least one box")

    @property
    def turns(self) -> int:
        """Turns in a game: one per box (W1)."""
        return len(self.singles) + self.face_value_boxes

    @property
    def state_count(self) -> int:
        return (self.face_value_boxes + 1) << len(self.singles)

    @property
    def categories(self) -> tuple[Category, ...]:
        """Categories with at least one box, in score-sheet order."""
        face = (Category.FACE_VALUE,) if self.face_value_boxes else ()
        return self.singles + face

    def boxes(self, category: Category) -> int:
        """How many boxes ``category`` has in this game."""
        if category is Category.FACE_VALUE:
            return self.face_value_boxes
        return 1 if category in self.singles else 0

    def state_of(self, used: UsedBoxes) -> int:
        """The state number of a set of used boxes; refuses impossible counts."""
        mask = 0
        for category, count in used.items():
            category = Category(category)
            if not 0 <= count <= self.boxes(category):
                raise ValueError(
                    f"{category.value}: {count} boxes used, but the game has {self.boxes(category)}"
                )
            if category is not Category.FACE_VALUE and count:
                mask |= 1 << self.singles.index(category)
        return used.get(Category.FACE_VALUE, 0) << len(self.singles) | mask

    def used_of(self, state: int) -> dict[Category, int]:
        """The used boxes of a state number (every category of the game, counts 0 included)."""
        if not 0 <= state < self.state_count:
            raise ValueError(f"state {state} is outside 0..{self.state_count - 1}")
        used = {c: state >> i & 1 for i, c in enumerate(self.singles)}
        if self.face_value_boxes:
            used[Category.FACE_VALUE] = state >> len(self.singles)
        return used

    def open_categories(self, state: int) -> tuple[Category, ...]:
        """Categories with a box still open in ``state``."""
        used = self.used_of(state)
        return tuple(c for c in self.categories if used[c] < self.boxes(c))

    def used_count(self, state: int) -> int:
        return sum(self.used_of(state).values())

    def after_booking(self, state: int, category: Category) -> int:
        """The state after booking (or scratching) one open box of ``category``."""
        if category not in self.open_categories(state):
            raise ValueError(f"{category.value} has no open box")
        if category is Category.FACE_VALUE:
            return state + (1 << len(self.singles))
        return state | 1 << self.singles.index(category)

    def describe(self) -> dict[str, object]:
        """A JSON-ready description, stored in value-table headers."""
        return {
            "singles": [c.value for c in self.singles],
            "face_value_boxes": self.face_value_boxes,
        }


FULL_GAME = BoxSet(singles=tuple(c for c in CATEGORIES if c is not Category.FACE_VALUE))
