"""Pure parsing of Wurfeltod keyboard commands."""

from __future__ import annotations

import pytest

from gamenight.core.dice import ScriptedDice
from gamenight.games.wurfeltod.categories import CATEGORIES, Category
from gamenight.games.wurfeltod.game import GAME, WurfeltodView
from gamenight.games.wurfeltod.rules import Action, Book, Scratch, SetAside, WurfeltodState
from gamenight.terminal.wurfeltod import BOX_KEYS, find_category, parse_command

DICE = (1, 1, 2, 3, 4, 4, 4, 5, 3, 6, 6, 6, 6, 6, 6)


def position(*aside: tuple[int, ...]) -> tuple[WurfeltodView, list[Action]]:
    state: WurfeltodState = GAME.start(1, GAME.parse_options(), ScriptedDice(DICE)).state
    for positions in aside:
        state = GAME.apply(state, 0, SetAside(positions)).state
    return GAME.view(state, 0), GAME.legal_actions(state, 0)


@pytest.mark.parametrize(
    ("text", "action"),
    [
        ("a 1 3", SetAside((0, 2))),
        ("a13", SetAside((0, 2))),
        ("A 3,1", SetAside((0, 2))),
        ("aside 1 2 5 6", SetAside((0, 1, 4, 5))),
        ("b pp", Book(Category.TWO_PAIR)),
        ("bpp", Book(Category.TWO_PAIR)),
        ("b 4", Book(Category.TRIPLE_FOURS)),
        ("b4k", Book(Category.FOUR_OF_A_KIND)),
        ("book f", Book(Category.FACE_VALUE)),
        ("b two-pair", Book(Category.TWO_PAIR)),
        ("b Sum Total 25+", Book(Category.SUM_25)),
        ("x 6k", Scratch(Category.SIX_OF_A_KIND)),
        ("scratch 6s", Scratch(Category.SIX_STRAIGHT)),
    ],
)
def test_commands_on_the_first_roll(text: str, action: Action) -> None:
    view, legal = position()
    assert parse_command(text, view, legal) == action


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "type a command"),
        ("zz", "unknown command"),
        ("a", "say which dice"),
        ("a 7", "no die 7"),
        ("a 0", "no die 0"),
        ("a 1 1", "listed twice"),
        ("a 1 q", "not a die number"),
        ("a \u00b2", "not a die number"),  # '²' passes str.isdigit() but not int()
        ("a 1\u0663", "not a die number"),  # an Arabic-Indic 3 is not a die number either
        ("a 123456", "leave at least one die"),
        ("b", "say which box"),
        ("b qq", "no box 'qq'"),
        ("x", "say which box"),
    ],
)
def test_typos_on_the_first_roll_get_a_helpful_message(text: str, message: str) -> None:
    view, legal = position()
    result = parse_command(text, view, legal)
    assert isinstance(result, str) and message in result


def test_scratch_after_the_first_roll_is_refused() -> None:
    view, legal = position((0, 1, 4, 5))
    assert view.rolled == (4, 5)
    result = parse_command("x p", view, legal)
    assert isinstance(result, str) and "only right after the first roll" in result
    assert parse_command("a 1", view, legal) == SetAside((0,))
    result = parse_command("a 12", view, legal)
    assert isinstance(result, str) and "leave at least one die" in result


def test_only_bookings_after_the_last_die() -> None:
    view, legal = position((0, 1, 4, 5), (0,))
    assert view.must_book
    result = parse_command("a 1", view, legal)
    assert isinstance(result, str) and "must book" in result
    assert parse_command("b f", view, legal) == Book(Category.FACE_VALUE)


def test_booked_boxes_are_refused_by_name() -> None:
    state: WurfeltodState = GAME.start(1, GAME.parse_options(), ScriptedDice(DICE)).state
    state = GAME.apply(state, 0, Scratch(Category.ANY_PAIR)).state
    view, legal = GAME.view(state, 0), GAME.legal_actions(state, 0)
    result = parse_command("b p", view, legal)
    assert isinstance(result, str) and "Any Pair is already booked" in result


def test_every_category_has_a_distinct_key_found_by_key_id_and_label() -> None:
    assert set(BOX_KEYS) == set(CATEGORIES)
    assert len(set(BOX_KEYS.values())) == len(CATEGORIES)
    for category, key in BOX_KEYS.items():
        assert find_category(key) is category
        assert find_category(category.value.upper()) is category
    assert find_category("Four of a Kind + a Pair") is Category.FOUR_AND_PAIR
    assert find_category("nothing") is None
