"""Box sets and state numbering (W1)."""

from __future__ import annotations

import pytest

from gamenight.games.wurfeltod.categories import Category
from gamenight.games.wurfeltod.solver import FULL_GAME, BoxSet
from gamenight.games.wurfeltod.solver.build import states_by_used_count

C = Category


def test_full_game_has_twenty_boxes() -> None:
    assert FULL_GAME.turns == 20
    assert FULL_GAME.state_count == 3 * 2**18
    assert FULL_GAME.categories == tuple(Category)
    assert FULL_GAME.boxes(C.FACE_VALUE) == 2


def test_state_numbers_round_trip() -> None:
    boxes = BoxSet(singles=(C.ANY_PAIR, C.SUM_25, C.SIX_STRAIGHT), face_value_boxes=2)
    seen = set()
    for state in range(boxes.state_count):
        used = boxes.used_of(state)
        assert boxes.state_of(used) == state
        seen.add(tuple(sorted(used.items())))
        for category in boxes.open_categories(state):
            after = boxes.after_booking(state, category)
            assert boxes.used_count(after) == boxes.used_count(state) + 1
            assert boxes.used_of(after)[category] == used[category] + 1
    assert len(seen) == boxes.state_count


def test_levels_partition_the_states() -> None:
    boxes = BoxSet(singles=(C.ANY_PAIR, C.TWO_PAIR), face_value_boxes=2)
    levels = states_by_used_count(boxes)
    assert len(levels) == boxes.turns + 1
    flat = sorted(s for level in levels for s in level.tolist())
    assert flat == list(range(boxes.state_count))
    for used, level in enumerate(levels):
        assert all(boxes.used_count(s) == used for s in level.tolist())


def test_closed_boxes_cannot_be_booked() -> None:
    state = FULL_GAME.state_of({C.FACE_VALUE: 2, C.ANY_PAIR: 1})
    assert C.FACE_VALUE not in FULL_GAME.open_categories(state)
    with pytest.raises(ValueError, match="no open box"):
        FULL_GAME.after_booking(state, C.ANY_PAIR)


@pytest.mark.parametrize(
    ("singles", "face", "message"),
    [
        ((C.FACE_VALUE,), 1, "face_value_boxes"),
        ((C.TWO_PAIR, C.ANY_PAIR), 0, "score-sheet order"),
        ((C.ANY_PAIR, C.ANY_PAIR), 0, "distinct"),
        ((), 3, "0, 1 or 2"),
        ((), 0, "at least one box"),
    ],
)
def test_bad_box_sets(singles: tuple[Category, ...], face: int, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        BoxSet(singles=singles, face_value_boxes=face)
