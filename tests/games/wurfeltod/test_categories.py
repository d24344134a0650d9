"""Wurfeltod categories (W3, W4): worked example, every category, and a reference check."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamenight.games.wurfeltod.booking import evaluate
from gamenight.games.wurfeltod.categories import (
    BOXES_PER_CATEGORY,
    CATEGORIES,
    CATEGORY_LABELS,
    SCRATCH,
    TOTAL_BOXES,
    Booking,
    Category,
    forming_dice,
    scratch_booking,
)
from gamenight.games.wurfeltod.tables import pair_tables, roll_probability

from . import reference

C = Category


def test_ids_labels_and_boxes() -> None:
    assert [c.value for c in CATEGORIES] == list(reference.IDS)
    assert CATEGORY_LABELS[C.SUM_25] == "Sum Total 25+"
    assert CATEGORY_LABELS[C.FOUR_AND_PAIR] == "Four of a Kind + a Pair"
    assert CATEGORY_LABELS[C.FACE_VALUE] == "Face Value Total ×10"
    assert set(CATEGORY_LABELS) == set(CATEGORIES)
    assert BOXES_PER_CATEGORY[C.FACE_VALUE] == 2
    assert TOTAL_BOXES == 20  # W1


def test_rulebook_worked_example() -> None:
    # First roll 1-1-2-3-4-4, aside 1-1-4-4, roll 4-5, aside the 4, roll the 5: it shows 3.
    result = evaluate(aside=(1, 1, 4, 4, 4), final_roll=(3,))
    for category in (C.ANY_PAIR, C.TWO_PAIR, C.TRIPLE_FOURS):
        assert result[category].satisfied
        assert result[category].wurfeltod
    assert result[C.ANY_PAIR].points == 50
    assert result[C.TRIPLE_FOURS].score == 100 - 250
    assert result[C.FACE_VALUE] == Booking(satisfied=True, points=170, wurfeltod=False)
    assert result[C.SUM_25] == Booking(satisfied=False, points=0, wurfeltod=True)  # sum 17
    satisfied = {c for c, b in result.items() if b.satisfied}
    assert satisfied == {C.ANY_PAIR, C.TWO_PAIR, C.TRIPLE_FOURS, C.FACE_VALUE}


def test_example_before_the_last_roll() -> None:
    # The same turn booked one roll earlier: aside 1-1-4-4, final roll 4-5.
    result = evaluate(aside=(1, 1, 4, 4), final_roll=(4, 5))
    assert result[C.TRIPLE_FOURS] == Booking(True, 100, True)  # the 5 is not used
    assert result[C.TWO_PAIR] == Booking(True, 50, True)


def test_sequential_pairs_roll() -> None:
    result = evaluate(aside=(), final_roll=(3, 3, 4, 4, 5, 5))
    satisfied = {c for c, b in result.items() if b.satisfied}
    assert satisfied == {C.SEQUENTIAL_PAIRS, C.THREE_PAIRS, C.TWO_PAIR, C.ANY_PAIR, C.FACE_VALUE}
    assert not result[C.TWO_TRIPLETS].satisfied
    assert not result[C.SEQUENTIAL_PAIRS].wurfeltod
    assert not result[C.THREE_PAIRS].wurfeltod
    assert result[C.TWO_PAIR].wurfeltod  # a first roll of six dice: two of them are unused


# (category, aside, final roll, expected booking); for every category a satisfied case,
# an unsatisfied near miss and, where one exists, a satisfied case with a Wurfeltod.
CASES: list[tuple[Category, tuple[int, ...], tuple[int, ...], Booking]] = [
    (C.ANY_PAIR, (2, 3, 4, 5, 6), (2,), Booking(True, 50, False)),
    (C.ANY_PAIR, (4, 4, 1, 2), (4, 4), Booking(True, 50, False)),
    (C.ANY_PAIR, (), (1, 2, 3, 4, 5, 6), Booking(False, 0, True)),
    (C.ANY_PAIR, (2, 2, 3, 4, 5), (6,), Booking(True, 50, True)),
    (C.ANY_PAIR, (1, 2, 3), (4, 4, 4), Booking(True, 50, True)),
    (C.TWO_PAIR, (1, 1, 5, 6), (2, 2), Booking(True, 50, False)),
    (C.TWO_PAIR, (1, 5, 6), (1, 5, 5), Booking(True, 50, False)),
    (C.TWO_PAIR, (2, 2, 2, 2, 5), (6,), Booking(False, 0, True)),  # groups must differ
    (C.TWO_PAIR, (1, 1, 2, 2, 5), (6,), Booking(True, 50, True)),
    (C.SUM_25, (), (6, 6, 6, 6, 1, 1), Booking(True, 500, False)),
    (C.SUM_25, (6, 6, 6, 3, 2), (1,), Booking(False, 0, True)),  # 24
    (C.SUM_25, (6, 6, 6, 3, 2), (2,), Booking(True, 500, False)),  # 25: all six form it
    (C.FOUR_OF_A_KIND, (1, 2), (3, 3, 3, 3), Booking(True, 750, False)),
    (C.FOUR_OF_A_KIND, (3, 3, 3, 1, 2), (4,), Booking(False, 0, True)),
    (C.FOUR_OF_A_KIND, (3, 3, 3, 3, 1), (2,), Booking(True, 750, True)),
    (C.FOUR_OF_A_KIND, (1,), (3, 3, 3, 3, 3), Booking(True, 750, True)),  # one 3 unused
    (C.THREE_PAIRS, (), (1, 1, 3, 3, 6, 6), Booking(True, 800, False)),
    (C.THREE_PAIRS, (1, 1, 3), (3, 6, 5), Booking(False, 0, True)),
    (C.THREE_PAIRS, (), (2, 2, 2, 2, 5, 5), Booking(False, 0, True)),  # three values needed
    (C.TWO_TRIPLETS, (2, 2, 2), (5, 5, 5), Booking(True, 850, False)),
    (C.TWO_TRIPLETS, (2, 2, 2, 5, 5), (6,), Booking(False, 0, True)),
    (C.TWO_TRIPLETS, (), (2, 2, 2, 2, 2, 2), Booking(False, 0, True)),  # groups must differ
    (C.FOUR_AND_PAIR, (4, 4, 4, 4), (1, 1), Booking(True, 900, False)),
    (C.FOUR_AND_PAIR, (4, 4, 4, 4, 1), (2,), Booking(False, 0, True)),
    (C.FOUR_AND_PAIR, (), (4, 4, 4, 4, 4, 4), Booking(False, 0, True)),  # pair must differ
    (C.FIVE_OF_A_KIND, (2,), (5, 5, 5, 5, 5), Booking(True, 1000, False)),
    (C.FIVE_OF_A_KIND, (5, 5, 5, 5, 2), (3,), Booking(False, 0, True)),
    (C.FIVE_OF_A_KIND, (5, 5, 5, 5, 5), (2,), Booking(True, 1000, True)),
    (C.FIVE_OF_A_KIND, (), (5, 5, 5, 5, 5, 5), Booking(True, 1000, True)),
    (C.FIVE_STRAIGHT, (1,), (2, 3, 4, 5, 6), Booking(True, 1000, False)),
    (C.FIVE_STRAIGHT, (1, 2, 3, 4, 5), (1,), Booking(True, 1000, False)),  # the rolled 1 forms it
    (C.FIVE_STRAIGHT, (1, 2, 3, 4), (6, 6), Booking(False, 0, True)),
    (C.FIVE_STRAIGHT, (1, 2, 3, 4), (5, 5), Booking(True, 1000, True)),
    (C.FIVE_STRAIGHT, (), (1, 2, 3, 4, 5, 5), Booking(True, 1000, True)),
    (C.SEQUENTIAL_PAIRS, (3, 3, 4, 4), (5, 5), Booking(True, 1500, False)),
    (C.SEQUENTIAL_PAIRS, (3, 3, 4, 4), (6, 6), Booking(False, 0, True)),
    (C.SIX_OF_A_KIND, (6, 6, 6), (6, 6, 6), Booking(True, 2000, False)),
    (C.SIX_OF_A_KIND, (6, 6, 6, 6, 6), (5,), Booking(False, 0, True)),
    (C.SIX_STRAIGHT, (), (6, 5, 4, 3, 2, 1), Booking(True, 2000, False)),
    (C.SIX_STRAIGHT, (1, 2, 3, 4, 5), (5,), Booking(False, 0, True)),
    (C.FACE_VALUE, (), (1, 1, 1, 1, 1, 1), Booking(True, 60, False)),
    (C.FACE_VALUE, (6, 6, 6, 6, 6), (6,), Booking(True, 360, False)),
    (C.FACE_VALUE, (1, 2), (3, 4, 5, 6), Booking(True, 210, False)),
]

for _n, _cat in enumerate(CATEGORIES[2:8], start=1):
    _others = tuple(v for v in (1, 2, 3, 4, 5, 6) if v != _n)
    _points = 300 if _n == 6 else 100
    CASES += [
        (_cat, (_n, _n, *_others[:3]), (_n,), Booking(True, _points, False)),
        (_cat, (_n, *_others[:2]), (_n, _n, _n), Booking(True, _points, False)),
        (_cat, (_n, _n, *_others[:3]), (_others[3],), Booking(False, 0, True)),
        (_cat, (_n, _n, _n, *_others[:2]), (_others[2],), Booking(True, _points, True)),
        (_cat, (*_others[:2],), (_n, _n, _n, _n), Booking(True, _points, True)),
    ]


def test_every_category_has_cases() -> None:
    covered = {c for c, *_ in CASES}
    assert covered == set(CATEGORIES)
    missed = {c for c, _, _, b in CASES if not b.satisfied}
    assert missed == set(CATEGORIES) - {C.FACE_VALUE}  # Face Value Total is always satisfied


@pytest.mark.parametrize(("category", "aside", "final_roll", "expected"), CASES)
def test_category_case(
    category: Category, aside: tuple[int, ...], final_roll: tuple[int, ...], expected: Booking
) -> None:
    assert evaluate(aside, final_roll)[category] == expected
    assert reference.judge(category.value, aside, final_roll) == tuple(expected)


def test_whole_dice_categories_never_bring_a_wurfeltod() -> None:
    tables = pair_tables()
    whole = (C.SUM_25, C.THREE_PAIRS, C.TWO_TRIPLETS, C.FOUR_AND_PAIR, C.SEQUENTIAL_PAIRS)
    for category in (*whole, C.SIX_OF_A_KIND, C.SIX_STRAIGHT, C.FACE_VALUE):
        j = CATEGORIES.index(category)
        assert not (tables.satisfied[:, j] & tables.wurfeltod[:, j]).any(), category
    # An unsatisfied booking always brings a Wurfeltod (W3).
    assert (tables.wurfeltod | tables.satisfied).all()


def test_scratch_is_zero_without_wurfeltod() -> None:
    assert scratch_booking() == SCRATCH == Booking(satisfied=False, points=0, wurfeltod=False)
    assert SCRATCH.score == 0


def test_forming_dice_prefers_final_roll_dice() -> None:
    assert forming_dice(C.ANY_PAIR, (1, 1, 4, 4, 4), (3,)) in ((1, 1), (4, 4))
    assert forming_dice(C.ANY_PAIR, (1, 1, 2, 3, 4), (4,)) == (4, 4)
    assert forming_dice(C.FIVE_STRAIGHT, (2, 3, 4, 5, 6), (1,)) == (1, 2, 3, 4, 5)
    assert forming_dice(C.SUM_25, (1, 1, 1, 1, 1), (1,)) is None
    assert forming_dice(C.FACE_VALUE, (1, 1, 1, 1, 1), (2,)) == (1, 1, 1, 1, 1, 2)


@pytest.mark.parametrize(
    ("aside", "final_roll"),
    [
        ((1, 2, 3), (4, 5)),
        ((), ()),
        ((1, 2, 3, 4, 5, 6), ()),
        ((0, 1, 2, 3, 4), (5,)),
        ((7,), (1,) * 5),
    ],
)
def test_bad_dice_are_refused(aside: tuple[int, ...], final_roll: tuple[int, ...]) -> None:
    with pytest.raises(ValueError, match=r"dice|die"):
        evaluate(aside, final_roll)


def test_table_shape_and_probabilities() -> None:
    tables = pair_tables()
    assert tables.pair_count == 11914
    assert tables.level_start == (0, 462, 1974, 4620, 7756, 10402, 11914)
    assert roll_probability((1, 1)) == pytest.approx(1 / 36)
    assert roll_probability((1, 2)) == pytest.approx(2 / 36)
    for size in range(7):
        ids = [i for i, ms in enumerate(tables.multisets) if len(ms) == size]
        assert tables.multiset_probability[ids].sum() == pytest.approx(1.0)


@st.composite
def dice_splits(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    dice = draw(st.lists(st.integers(1, 6), min_size=6, max_size=6))
    kept = draw(st.integers(0, 5))
    return tuple(dice[:kept]), tuple(dice[kept:])


@settings(max_examples=300, deadline=None)
@given(dice_splits())
def test_tables_agree_with_reference(split: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
    aside, final_roll = split
    result = evaluate(aside, final_roll)
    for category in CATEGORIES:
        assert tuple(result[category]) == reference.judge(category.value, aside, final_roll), (
            category
        )


# W3 worked by hand: (category, aside, final roll, forming dice or None, Wurfeltod?). The
# forming dice are the choice holding the most final-roll dice; a Wurfeltod follows exactly
# when even that choice leaves a die of the final roll out.
HAND_WORKED: list[
    tuple[Category, tuple[int, ...], tuple[int, ...], tuple[int, ...] | None, bool]
] = [
    # Straights with a duplicate: the rolled copy is the one that forms the straight.
    (C.FIVE_STRAIGHT, (2, 3, 4, 5), (5, 6), (2, 3, 4, 5, 6), False),
    (C.FIVE_STRAIGHT, (2, 3, 4, 5, 5), (6,), (2, 3, 4, 5, 6), False),
    (C.FIVE_STRAIGHT, (1, 3, 4, 5), (2, 6), (2, 3, 4, 5, 6), False),  # 2-6 holds both, 1-5 not
    (C.FIVE_STRAIGHT, (1, 2, 3, 4), (4, 5), (1, 2, 3, 4, 5), False),  # the aside 4 stays out
    (C.FIVE_STRAIGHT, (1, 2, 3, 4), (5, 5), (1, 2, 3, 4, 5), True),  # a rolled 5 stays out
    (C.FIVE_STRAIGHT, (), (2, 2, 3, 4, 5, 6), (2, 3, 4, 5, 6), True),
    (C.SIX_STRAIGHT, (1, 2, 3, 4, 5), (6,), (1, 2, 3, 4, 5, 6), False),
    # Four of a Kind + a Pair: both groups may take rolled dice; the groups differ (W4).
    (C.FOUR_AND_PAIR, (3, 3, 3), (3, 5, 5), (3, 3, 3, 3, 5, 5), False),
    (C.FOUR_AND_PAIR, (3, 3, 5), (3, 3, 5), (3, 3, 3, 3, 5, 5), False),
    (C.FOUR_AND_PAIR, (3, 3, 3, 3, 3), (5,), None, True),
    (C.FOUR_OF_A_KIND, (3, 3, 3, 5, 5), (3,), (3, 3, 3, 3), False),
    (C.FOUR_OF_A_KIND, (3, 3, 3), (3, 5, 5), (3, 3, 3, 3), True),
    # Two Triplets and Three Pairs use all six dice.
    (C.TWO_TRIPLETS, (2, 2, 5), (2, 5, 5), (2, 2, 2, 5, 5, 5), False),
    (C.TWO_TRIPLETS, (2, 2, 2), (2, 5, 5), None, True),
    (C.THREE_PAIRS, (1, 1, 4), (4, 6, 6), (1, 1, 4, 4, 6, 6), False),
    (C.THREE_PAIRS, (1, 1, 1), (1, 6, 6), None, True),  # 1-1 twice is one value
    (C.TWO_PAIR, (1, 1, 1), (1, 6, 6), (1, 1, 6, 6), False),  # only aside 1s stay out
    (C.TWO_PAIR, (6,), (1, 1, 1, 6, 6), (1, 1, 6, 6), True),  # a rolled 1 stays out
    (C.TWO_PAIR, (1, 1, 6, 6), (1, 1), (1, 1, 6, 6), False),  # the rolled 1s form a pair
    # Sequential Pairs: three consecutive values, pairs only.
    (C.SEQUENTIAL_PAIRS, (), (4, 4, 5, 5, 6, 6), (4, 4, 5, 5, 6, 6), False),
    (C.SEQUENTIAL_PAIRS, (1, 1, 2, 3), (2, 3), (1, 1, 2, 2, 3, 3), False),
    (C.SEQUENTIAL_PAIRS, (1, 1, 2, 2, 4), (4,), None, True),  # 1-2-4 is not consecutive
    # n-n-n with four or five of that value: up to three rolled copies can be used.
    (C.TRIPLE_FOURS, (4, 4, 1, 2), (4, 4), (4, 4, 4), False),
    (C.TRIPLE_FOURS, (4, 4, 4, 1, 2), (4,), (4, 4, 4), False),
    (C.TRIPLE_FOURS, (4, 4, 1), (4, 4, 4), (4, 4, 4), False),  # five 4s, three rolled
    (C.TRIPLE_FOURS, (4, 4, 4, 1), (4, 4), (4, 4, 4), False),  # five 4s, two rolled
    (C.TRIPLE_FOURS, (1, 2), (4, 4, 4, 4), (4, 4, 4), True),  # four rolled: one left out
    (C.TRIPLE_FOURS, (1,), (4, 4, 4, 4, 4), (4, 4, 4), True),
    (C.TRIPLE_SIXES, (6, 6, 6, 6, 6), (6,), (6, 6, 6), False),  # six 6s, one rolled
    (C.ANY_PAIR, (4, 4, 4, 4), (4, 4), (4, 4), False),  # "at least" (W4)
    (C.ANY_PAIR, (4, 4, 4), (4, 4, 4), (4, 4), True),
    (C.FIVE_OF_A_KIND, (2, 2, 2, 2), (2, 2), (2, 2, 2, 2, 2), False),
    (C.FIVE_OF_A_KIND, (2,), (2, 2, 2, 2, 2), (2, 2, 2, 2, 2), False),
]


@pytest.mark.parametrize(("category", "aside", "final_roll", "forming", "wurfeltod"), HAND_WORKED)
def test_forming_dice_worked_by_hand(
    category: Category,
    aside: tuple[int, ...],
    final_roll: tuple[int, ...],
    forming: tuple[int, ...] | None,
    wurfeltod: bool,
) -> None:
    assert forming_dice(category, aside, final_roll) == forming
    booking = evaluate(aside, final_roll)[category]
    assert booking.satisfied == (forming is not None)
    assert booking.wurfeltod == wurfeltod
    assert reference.judge(category.value, aside, final_roll)[2] == wurfeltod
