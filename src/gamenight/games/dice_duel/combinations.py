"""The seven chip combinations, the Kniffel and the dice colours (K1, K2).

This module is pure: it judges five faces and knows the chip values, nothing else.

>>> satisfied((2, 2, 2, 2, 4))
('two-pairs', 'three-of-a-kind', 'flush', 'four-of-a-kind')
>>> satisfied((1, 2, 3, 4, 6))
('small-straight',)
>>> colour(4), colour(3)
('red', 'black')
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Literal

Combination = Literal[
    "two-pairs",
    "three-of-a-kind",
    "small-straight",
    "flush",
    "full-house",
    "four-of-a-kind",
    "large-straight",
]
Colour = Literal["red", "black"]

# K2/K3: the seven chip combinations in ascending chip value; every tuple indexed
# "per combination" in this package follows this order.
COMBINATIONS: tuple[Combination, ...] = (
    "two-pairs",
    "three-of-a-kind",
    "small-straight",
    "flush",
    "full-house",
    "four-of-a-kind",
    "large-straight",
)
VALUES: tuple[int, ...] = (5, 10, 20, 25, 30, 40, 50)
CHIP_VALUE: dict[Combination, int] = dict(zip(COMBINATIONS, VALUES, strict=True))
INDEX: dict[Combination, int] = {c: i for i, c in enumerate(COMBINATIONS)}
LABEL: dict[Combination, str] = {
    "two-pairs": "Two pairs",
    "three-of-a-kind": "Three of a kind",
    "small-straight": "Small straight",
    "flush": "Flush",
    "full-house": "Full house",
    "four-of-a-kind": "Four of a kind",
    "large-straight": "Large straight",
}
CHIPS_PER_COMBINATION = 4  # K3: 28 chips, four of each combination
DICE = 5

_SMALL_RUNS = ({1, 2, 3, 4}, {2, 3, 4, 5}, {3, 4, 5, 6})
_LARGE_RUNS = ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6})


def colour(face: int) -> Colour:
    """K1: colour belongs to the number: even faces are red, odd faces black."""
    return "red" if face % 2 == 0 else "black"


def face_counts(faces: Sequence[int]) -> tuple[int, ...]:
    """How many dice show 1, 2, ..., 6."""
    return tuple(sum(1 for f in faces if f == v) for v in range(1, 7))


def is_kniffel(faces: Sequence[int]) -> bool:
    """K2: five equal dice."""
    return len(faces) == DICE and len(set(faces)) == 1


def satisfies(faces: Sequence[int], combination: Combination) -> bool:
    """Whether the five ``faces`` make ``combination`` (K2; overlaps allowed)."""
    counts = face_counts(faces)
    present = set(faces)
    if combination == "two-pairs":
        # Two disjoint pairs, possibly of one value: four of a kind counts too.
        return sum(c // 2 for c in counts) >= 2
    if combination == "three-of-a-kind":
        return max(counts) >= 3
    if combination == "small-straight":
        return any(run <= present for run in _SMALL_RUNS)
    if combination == "flush":
        # K1: all five the same colour, i.e. all even or all odd.
        return len({f % 2 for f in faces}) == 1
    if combination == "full-house":
        # Three of one value plus two of *another*: a Kniffel is not a full house.
        return sorted(c for c in counts if c) == [2, 3]
    if combination == "four-of-a-kind":
        return max(counts) >= 4
    return any(run == present for run in _LARGE_RUNS)


def satisfied(faces: Sequence[int]) -> tuple[Combination, ...]:
    """Every chip combination the faces make, in chip-value order (K2)."""
    return _satisfied_hand(tuple(sorted(faces)))


@cache
def _satisfied_hand(hand: tuple[int, ...]) -> tuple[Combination, ...]:
    # Only 252 sorted hands exist, so judging each once keeps play fast.
    return tuple(c for c in COMBINATIONS if satisfies(hand, c))
