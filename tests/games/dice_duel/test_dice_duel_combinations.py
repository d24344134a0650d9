"""K1/K2: dice colours and every combination, with boundary cases."""

from __future__ import annotations

import pytest

from gamenight.games.dice_duel.combinations import (
    CHIP_VALUE,
    COMBINATIONS,
    Combination,
    colour,
    is_kniffel,
    satisfied,
    satisfies,
)


def test_colour_follows_parity() -> None:
    # K1: even red, odd black, whatever die shows it.
    assert [colour(f) for f in range(1, 7)] == ["black", "red"] * 3


def test_chip_values() -> None:
    assert [CHIP_VALUE[c] for c in COMBINATIONS] == [5, 10, 20, 25, 30, 40, 50]


@pytest.mark.parametrize(
    ("faces", "expected"),
    [
        # The examples.
        ((1, 2, 3, 4, 6), {"small-straight"}),
        ((2, 2, 2, 2, 4), {"four-of-a-kind", "three-of-a-kind", "two-pairs", "flush"}),
        ((3, 3, 3, 5, 5), {"full-house", "three-of-a-kind", "two-pairs", "flush"}),
        # Straights.
        ((1, 2, 3, 4, 5), {"small-straight", "large-straight"}),
        ((6, 5, 4, 3, 2), {"small-straight", "large-straight"}),
        ((3, 4, 5, 6, 1), {"small-straight"}),
        ((2, 3, 4, 5, 5), {"small-straight"}),
        ((1, 1, 2, 3, 4), {"small-straight"}),
        ((1, 2, 3, 5, 6), set()),
        ((1, 3, 4, 5, 6), {"small-straight"}),
        # Pairs, kinds, full house.
        ((1, 1, 2, 2, 3), {"two-pairs"}),
        ((1, 1, 2, 3, 4), {"small-straight"}),
        ((5, 5, 5, 1, 2), {"three-of-a-kind"}),
        ((2, 2, 3, 3, 3), {"two-pairs", "three-of-a-kind", "full-house"}),
        ((6, 6, 6, 6, 1), {"two-pairs", "three-of-a-kind", "four-of-a-kind"}),
        ((1, 1, 1, 1, 3), {"two-pairs", "three-of-a-kind", "four-of-a-kind", "flush"}),
        # Flushes: all even or all odd, any values.
        ((1, 3, 5, 5, 3), {"two-pairs", "flush"}),
        ((2, 4, 6, 6, 2), {"two-pairs", "flush"}),
        ((1, 3, 5, 2, 3), set()),
        ((2, 4, 6, 1, 1), set()),
        # A Kniffel makes everything of "at least" kind, but never a full house.
        ((4, 4, 4, 4, 4), {"two-pairs", "three-of-a-kind", "four-of-a-kind", "flush"}),
    ],
)
def test_satisfied(faces: tuple[int, ...], expected: set[Combination]) -> None:
    made = satisfied(faces)
    assert set(made) == expected
    assert list(made) == [c for c in COMBINATIONS if c in expected]  # chip-value order
    assert all(satisfies(faces, c) == (c in expected) for c in COMBINATIONS)


def test_small_straight_is_not_large() -> None:
    assert satisfies((1, 2, 3, 4, 6), "small-straight")
    assert not satisfies((1, 2, 3, 4, 6), "large-straight")


def test_full_house_needs_two_values() -> None:
    assert satisfies((3, 3, 3, 5, 5), "full-house")
    assert not satisfies((3, 3, 3, 3, 5), "full-house")
    assert not satisfies((3, 3, 3, 3, 3), "full-house")
    assert not satisfies((2, 2, 3, 3, 4), "full-house")


def test_kniffel() -> None:
    assert is_kniffel((6, 6, 6, 6, 6))
    assert not is_kniffel((6, 6, 6, 6, 5))


def test_order_does_not_matter() -> None:
    assert satisfied((4, 2, 2, 2, 2)) == satisfied((2, 2, 2, 2, 4))
