"""The score sheet's fast readings (issue 29) against the plain ones they replaced.

``ScoreCard.next_box`` and ``open_categories`` ran for every view and every list of
legal actions; they now read per-category box tables and one C pass. These
properties pin them to a scan of every box, on any pattern of booked boxes, and the
legal actions to the ones the rules describe (W2: bookings, scratches on the first
roll, then every proper non-empty subset of the dice just rolled).
"""

from __future__ import annotations

import itertools

from hypothesis import given
from hypothesis import strategies as st

from gamenight.core.dice import SeededDice
from gamenight.games.wurfeltod.categories import CATEGORIES, Category
from gamenight.games.wurfeltod.rules import (
    BOXES,
    Book,
    Entry,
    ScoreCard,
    Scratch,
    SetAside,
    WurfeltodState,
    legal_actions,
    start,
)

booked_boxes = st.sets(st.integers(0, len(BOXES) - 1))


def sheet(booked: set[int]) -> ScoreCard:
    card = ScoreCard()
    for box in sorted(booked):
        card = card.with_entry(box, Entry(BOXES[box], 0, False, True, (), (1,) * 6, 1))
    return card


def plain_next_box(card: ScoreCard, category: Category) -> int | None:
    return next((i for i, c in enumerate(BOXES) if c is category and card.boxes[i] is None), None)


@given(booked=booked_boxes)
def test_next_box_is_the_first_open_box_of_its_category(booked: set[int]) -> None:
    card = sheet(booked)
    for category in CATEGORIES:
        assert card.next_box(category) == plain_next_box(card, category)


@given(booked=booked_boxes)
def test_open_categories_are_those_with_an_open_box_in_sheet_order(booked: set[int]) -> None:
    card = sheet(booked)
    expected = tuple(c for c in CATEGORIES if plain_next_box(card, c) is not None)
    assert card.open_categories() == expected


@given(booked=booked_boxes, roll=st.integers(1, 3), rolled=st.integers(1, 6), seed=st.integers())
def test_legal_actions_are_bookings_scratches_then_every_proper_subset(
    booked: set[int], roll: int, rolled: int, seed: int
) -> None:
    first = start(1, {}, SeededDice(seed=seed)).state
    state = WurfeltodState(
        first.dice, (sheet(booked),), roll=roll, aside=(1,) * (6 - rolled), rolled=(2,) * rolled
    )
    open_categories = [c for c in CATEGORIES if plain_next_box(state.cards[0], c) is not None]
    expected: list[object] = [Book(c) for c in open_categories]
    if roll == 1:
        expected += [Scratch(c) for c in open_categories]
    for size in range(1, rolled):
        expected += [SetAside(d) for d in itertools.combinations(range(rolled), size)]
    got = legal_actions(state, 0)
    assert got == expected
    got.append(Book(CATEGORIES[0]))  # a caller may change its list, never the next one
    assert legal_actions(state, 0) == expected
