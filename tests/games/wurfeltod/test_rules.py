"""Wurfeltod engine rules with scripted dice (seed 004, rulings W1-W5)."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from gamenight.core.dice import ScriptedDice
from gamenight.core.errors import IllegalActionError, OptionsError
from gamenight.core.game import to_json
from gamenight.games.wurfeltod.categories import CATEGORIES, Category
from gamenight.games.wurfeltod.game import GAME
from gamenight.games.wurfeltod.rules import (
    BOXES,
    Action,
    Book,
    Booked,
    DiceSetAside,
    Rolled,
    Scratch,
    SetAside,
    WurfeltodState,
)

FILLER = (2, 2, 2, 2, 2, 2)  # the next turn's first roll, rolled as soon as a box is booked


def begin(values: Sequence[int], players: int = 1) -> WurfeltodState:
    state: WurfeltodState = GAME.start(
        players, GAME.parse_options(), ScriptedDice(tuple(values))
    ).state
    return state


def kinds(events: Sequence[object]) -> list[str]:
    """The JSON ``kind`` of each event."""
    return [to_json(e)["kind"] for e in events]


def play(state: WurfeltodState, *actions: Action) -> WurfeltodState:
    for action in actions:
        state = GAME.apply(state, state.current, action).state
    return state


# The rulebook's example: 1-1-2-3-4-4, set aside 1-1-4-4, roll 4-5, set aside the 4, roll 3.
EXAMPLE = (1, 1, 2, 3, 4, 4, 4, 5, 3)


def example_final() -> WurfeltodState:
    state = begin(EXAMPLE + FILLER)
    state = play(state, SetAside((0, 1, 4, 5)))
    assert (state.aside, state.rolled, state.roll) == ((1, 1, 4, 4), (4, 5), 2)
    state = play(state, SetAside((0,)))
    assert (state.aside, state.rolled, state.roll) == ((1, 1, 4, 4, 4), (3,), 3)
    return state


@pytest.mark.parametrize(
    ("category", "points"),
    [(Category.ANY_PAIR, 50), (Category.TWO_PAIR, 50), (Category.TRIPLE_FOURS, 100)],
)
def test_worked_example_satisfied_bookings_bring_a_wurfeltod(
    category: Category, points: int
) -> None:
    step = GAME.apply(example_final(), 0, Book(category))
    entry = step.state.cards[0].boxes[BOXES.index(category)]
    assert entry is not None
    assert (entry.points, entry.wurfeltod, entry.scratch) == (points, True, False)
    assert (entry.aside, entry.final_roll) == ((1, 1, 4, 4, 4), (3,))
    card = step.state.cards[0]
    assert (card.points, card.wurfeltods, card.total) == (points, 1, points - 250)
    book = step.events[0]
    assert isinstance(book, Booked) and kinds([book]) == ["book"]
    assert book.points == points and book.wurfeltod is True and book.total == points - 250


def test_worked_example_face_value_scores_170_without_a_wurfeltod() -> None:
    state = play(example_final(), Book(Category.FACE_VALUE))
    entry = state.cards[0].boxes[BOXES.index(Category.FACE_VALUE)]
    assert entry is not None
    assert (entry.points, entry.wurfeltod) == (170, False)
    assert state.cards[0].total == 170


def test_worked_example_unsatisfied_box_scores_zero_with_a_wurfeltod() -> None:
    state = play(example_final(), Book(Category.SUM_25))  # 1+1+4+4+4+3 = 17
    entry = state.cards[0].boxes[BOXES.index(Category.SUM_25)]
    assert entry is not None
    assert (entry.points, entry.wurfeltod) == (0, True)
    assert state.cards[0].total == -250


def test_booking_at_the_second_roll_judges_that_roll() -> None:
    # W3: booking 4-4-4 with final roll 4-5 uses the rolled 4 but not the 5.
    state = play(begin(EXAMPLE + FILLER), SetAside((0, 1, 4, 5)), Book(Category.TRIPLE_FOURS))
    entry = state.cards[0].boxes[BOXES.index(Category.TRIPLE_FOURS)]
    assert entry is not None and (entry.points, entry.wurfeltod) == (100, True)


def test_must_book_after_the_single_last_die() -> None:
    state = begin((1, 2, 3, 4, 5, 6) * 4)
    for _ in range(4):
        state = play(state, SetAside((0,)))
    assert len(state.rolled) == 2 and state.roll == 5
    state = play(state, SetAside((0,)))
    assert len(state.aside) == 5 and len(state.rolled) == 1
    legal = GAME.legal_actions(state, 0)
    assert legal and all(isinstance(a, Book) for a in legal)
    assert GAME.view(state, 0).must_book
    with pytest.raises(IllegalActionError, match="book a box now"):
        GAME.apply(state, 0, SetAside((0,)))
    with pytest.raises(IllegalActionError, match="first roll"):
        GAME.apply(state, 0, Scratch(Category.ANY_PAIR))


def test_first_roll_scratch_scores_zero_without_a_wurfeltod() -> None:
    state = begin((1, 2, 3, 4, 5, 6, *FILLER))
    step = GAME.apply(state, 0, Scratch(Category.SIX_OF_A_KIND))
    entry = step.state.cards[0].boxes[BOXES.index(Category.SIX_OF_A_KIND)]
    assert entry is not None
    assert (entry.points, entry.wurfeltod, entry.scratch) == (0, False, True)
    assert step.state.cards[0].total == 0
    assert kinds(step.events) == ["scratch", "turn", "roll"]


def test_scratch_is_refused_after_the_second_roll() -> None:
    state = play(begin(EXAMPLE + FILLER), SetAside((0,)))
    assert not any(isinstance(a, Scratch) for a in GAME.legal_actions(state, 0))
    with pytest.raises(IllegalActionError, match="only allowed right after the first roll"):
        GAME.apply(state, 0, Scratch(Category.ANY_PAIR))


def test_unsatisfied_booking_on_the_first_roll_brings_a_wurfeltod() -> None:
    state = play(begin((1, 2, 3, 4, 5, 6, *FILLER)), Book(Category.ANY_PAIR))
    card = state.cards[0]
    assert (card.points, card.wurfeltods, card.total) == (0, 1, -250)


def test_first_roll_booking_uses_all_six_dice_as_the_final_roll() -> None:
    straight = play(begin((6, 5, 4, 3, 2, 1, *FILLER)), Book(Category.SIX_STRAIGHT))
    assert straight.cards[0].total == 2000
    four = play(begin((3, 3, 1, 3, 6, 3, *FILLER)), Book(Category.FOUR_OF_A_KIND))
    assert (four.cards[0].points, four.cards[0].wurfeltods) == (750, 1)


def test_forming_dice_are_chosen_to_include_the_final_roll() -> None:
    # W3: aside 5-5-2-2, roll 5-5: the pair, two pair and four of a kind can all use the rolled 5s.
    for category in (Category.ANY_PAIR, Category.TWO_PAIR, Category.FOUR_OF_A_KIND):
        state = begin((5, 5, 2, 2, 1, 3, 5, 5, *FILLER))
        state = play(state, SetAside((0, 1, 2, 3)), Book(category))
        assert state.cards[0].wurfeltods == 0, category
        assert state.cards[0].points > 0


def test_set_aside_keeps_dice_aside_and_rolls_the_rest() -> None:
    state = begin((6, 1, 6, 2, 3, 4, 5, 5, 1, 2, 6))
    step = GAME.apply(state, 0, SetAside((0, 2)))
    assert step.state.aside == (6, 6)
    assert step.state.rolled == (5, 5, 1, 2)
    assert kinds(step.events) == ["set-aside", "roll"]
    assert step.events[0] == DiceSetAside(player=0, positions=(0, 2), dice=(6, 6))
    assert step.events[1] == Rolled(player=0, roll=2, dice=(5, 5, 1, 2), aside=(6, 6))
    assert to_json(step.events[1]) == {
        "kind": "roll",
        "player": 0,
        "roll": 2,
        "dice": [5, 5, 1, 2],
        "aside": [6, 6],
    }
    later = GAME.apply(step.state, 0, SetAside((0, 1, 3))).state
    assert later.aside == (6, 6, 5, 5, 2) and later.rolled == (6,)


@pytest.mark.parametrize(
    ("positions", "message"),
    [
        ((), "at least one"),
        ((0, 1, 2, 3, 4, 5), "leave at least one die"),
        ((6,), "no die 6"),
        ((-1,), "no die -1"),
        ((2, 1), "increasing order"),
        ((1, 1), "increasing order"),
    ],
)
def test_illegal_set_asides_are_refused(positions: tuple[int, ...], message: str) -> None:
    state = begin(EXAMPLE)
    with pytest.raises(IllegalActionError, match=message):
        GAME.apply(state, 0, SetAside(positions))


def test_each_box_is_booked_once_and_face_value_twice() -> None:
    state = begin((1, 2, 3, 4, 5, 6) * 4)
    state = play(state, Book(Category.FACE_VALUE), Book(Category.FACE_VALUE))
    first, second = (BOXES.index(Category.FACE_VALUE), len(BOXES) - 1)
    assert first != second
    assert state.cards[0].boxes[first] is not None and state.cards[0].boxes[second] is not None
    assert Category.FACE_VALUE not in GAME.view(state, 0).open_boxes
    with pytest.raises(IllegalActionError, match="already booked"):
        GAME.apply(state, 0, Book(Category.FACE_VALUE))
    with pytest.raises(IllegalActionError, match="already booked"):
        GAME.apply(state, 0, Scratch(Category.FACE_VALUE))


def test_turns_rotate_through_the_seats() -> None:
    state = begin((1, 2, 3, 4, 5, 6) * 4, players=2)
    assert GAME.to_act(state) == (0,) and state.turn == 1
    state = play(state, Scratch(Category.ANY_PAIR))
    assert GAME.to_act(state) == (1,) and state.turn == 1 and state.roll == 1
    with pytest.raises(IllegalActionError, match="not seat 0's turn"):
        GAME.apply(state, 0, Book(Category.TWO_PAIR))
    state = play(state, Scratch(Category.ANY_PAIR))
    assert GAME.to_act(state) == (0,) and state.turn == 2


def scratch_everything(players: int) -> WurfeltodState:
    state = begin((1, 2, 3, 4, 5, 6) * 20 * players, players)
    for _ in range(20):
        for _ in range(players):
            category = GAME.view(state, state.current).open_boxes[0]
            state = play(state, Scratch(category))
    return state


def test_the_game_ends_after_every_players_twentieth_turn_and_ties_share() -> None:
    state = scratch_everything(2)
    assert state.finished and GAME.to_act(state) == ()
    assert GAME.legal_actions(state, 0) == []
    assert all(card.booked() == 20 for card in state.cards)
    results = GAME.results(state)
    assert results.scores == (0, 0) and results.ranks == (1, 1) and results.winners == (0, 1)
    with pytest.raises(IllegalActionError, match="game is over"):
        GAME.apply(state, 0, Book(Category.ANY_PAIR))


def test_results_are_refused_before_the_end() -> None:
    with pytest.raises(ValueError, match="not over"):
        GAME.results(begin(EXAMPLE))


def test_wurfeltods_have_no_limit_and_scores_go_negative() -> None:
    # Every turn: roll 1-2-3-5-6-6, set the 1 aside, roll 2-3-5-6-6, book the next box.
    state = begin((1, 2, 3, 5, 6, 6, 2, 3, 5, 6, 6) * 20)
    for category in BOXES:
        state = play(state, SetAside((0,)), Book(category))
    assert state.finished
    card = state.cards[0]
    # 1-2-3-5-6-6 holds only Any Pair (with a Wurfeltod) and Face Value Total (230, clean);
    # the 17 other boxes score 0 and each brings a Wurfeltod (W3: no limit).
    assert card.points == 50 + 2 * 230
    assert card.wurfeltods == 18
    assert card.total == 510 - 18 * 250
    assert GAME.results(state).scores == (card.total,)


def test_view_keeps_the_aside_and_the_roll_apart() -> None:
    state = play(begin(EXAMPLE + FILLER), SetAside((0, 1, 4, 5)))
    view = GAME.view(state, 0)
    assert view.aside == (1, 1, 4, 4) and view.rolled == (4, 5)
    assert (view.first_roll, view.must_book, view.roll, view.turn) == (False, False, 2, 1)
    assert view.open_boxes == CATEGORIES
    first = GAME.view(begin(EXAMPLE), None)
    assert first.first_roll and first.aside == () and first.seat is None


def test_a_category_id_string_is_accepted_and_stored_as_a_category() -> None:
    state = play(begin((1, 2, 3, 4, 5, 6, *FILLER)), Book("six-straight"))  # type: ignore[arg-type]
    entry = state.cards[0].boxes[BOXES.index(Category.SIX_STRAIGHT)]
    assert entry is not None and entry.category is Category.SIX_STRAIGHT and entry.points == 2000
    with pytest.raises(IllegalActionError, match="not a Wurfeltod category"):
        GAME.apply(begin(EXAMPLE), 0, Book("seven-of-a-kind"))  # type: ignore[arg-type]


STRAIGHT = (1, 2, 3, 4, 5, 6)


def all_but_one_box_scratched(players: int, keep: Category, tail: Sequence[int]) -> WurfeltodState:
    """Every player scratches 19 boxes, keeping ``keep`` open; ``tail`` is the dice of round 20."""
    state = begin(STRAIGHT * 19 * players + tuple(tail), players)
    for _ in range(19):
        for _ in range(players):
            open_boxes = GAME.view(state, state.current).open_boxes
            state = play(state, Scratch(next(c for c in open_boxes if c is not keep)))
    assert state.turn == 20 and GAME.view(state, 0).open_boxes == (keep,)
    return state


def test_forced_booking_after_the_single_last_die_when_nothing_is_satisfied() -> None:
    # W2/W3: roll 1-2-3-4-5-6, keep one die aside per roll; the last die shows 1. Only
    # Six of a Kind is open and 1-2-3-4-5-1 does not hold it: 0 and a Wurfeltod.
    tail = (*STRAIGHT, 2, 3, 4, 5, 6, 3, 4, 5, 6, 4, 5, 6, 5, 6, 1)
    state = all_but_one_box_scratched(1, Category.SIX_OF_A_KIND, tail)
    for _ in range(5):
        state = play(state, SetAside((0,)))
    assert (state.aside, state.rolled, state.roll) == ((1, 2, 3, 4, 5), (1,), 6)
    assert GAME.legal_actions(state, 0) == [Book(Category.SIX_OF_A_KIND)]
    step = GAME.apply(state, 0, Book(Category.SIX_OF_A_KIND))
    entry = step.state.cards[0].boxes[BOXES.index(Category.SIX_OF_A_KIND)]
    assert entry is not None and (entry.points, entry.wurfeltod) == (0, True)
    assert step.state.finished and kinds(step.events) == ["book", "game-over"]
    assert GAME.results(step.state).scores == (-250,)  # W5: scores go negative


def test_ties_share_also_below_zero() -> None:
    # W5: round 20 of three players, Any Pair left open, every first roll 1-2-3-4-5-6.
    state = all_but_one_box_scratched(3, Category.ANY_PAIR, STRAIGHT * 3)
    state = play(state, Book(Category.ANY_PAIR), Book(Category.ANY_PAIR), Book(Category.ANY_PAIR))
    results = GAME.results(state)
    assert results.scores == (-250, -250, -250)
    assert results.ranks == (1, 1, 1) and results.winners == (0, 1, 2)

    state = all_but_one_box_scratched(3, Category.ANY_PAIR, STRAIGHT * 3)
    state = play(
        state, Book(Category.ANY_PAIR), Scratch(Category.ANY_PAIR), Book(Category.ANY_PAIR)
    )
    results = GAME.results(state)
    assert results.scores == (-250, 0, -250)
    assert results.ranks == (2, 1, 2) and results.winners == (1,)
    assert results.detail == {"points": [0, 0, 0], "wurfeltods": [1, 0, 1]}


@pytest.mark.parametrize("players", [0, 9])
def test_player_counts_outside_one_to_eight_are_refused(players: int) -> None:
    with pytest.raises(OptionsError, match="1 to 8 players"):
        GAME.start(players, GAME.parse_options(), ScriptedDice(STRAIGHT))


def test_eight_players_take_turns_in_seat_order() -> None:
    state = begin(STRAIGHT * 9, players=8)  # W1
    for seat in range(8):
        assert GAME.to_act(state) == (seat,) and state.turn == 1
        state = play(state, Scratch(Category.ANY_PAIR))
    assert GAME.to_act(state) == (0,) and state.turn == 2


def test_unknown_options_are_refused() -> None:
    with pytest.raises(OptionsError, match="no option"):
        GAME.parse_options({"turns": 10})
