"""The Wurfeltod terminal UI, driven with a scripted keyboard."""

from __future__ import annotations

import io
from collections.abc import Iterator

from rich.console import Console

from gamenight.core.dice import ScriptedDice
from gamenight.games.wurfeltod.categories import Category
from gamenight.games.wurfeltod.game import GAME, WurfeltodView
from gamenight.games.wurfeltod.rules import Book, Scratch, SetAside, WurfeltodState
from gamenight.terminal.ui import Prompter, Seating
from gamenight.terminal.wurfeltod import UI, box_label, open_box_rows

TABLE = Seating(names=("Ann", "Bob"), humans=frozenset({0}))
EXAMPLE = (1, 1, 2, 3, 4, 4, 4, 5, 3) + (6,) * 12


def console() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=120, color_system=None), out


def keyboard(*lines: str) -> Prompter:
    con, _ = console()
    feed: Iterator[str] = iter(lines)
    return Prompter(console=con, reader=lambda prompt: next(feed))


def example_state() -> WurfeltodState:
    state: WurfeltodState = GAME.start(2, GAME.parse_options(), ScriptedDice(EXAMPLE)).state
    state = GAME.apply(state, 0, SetAside((0, 1, 4, 5))).state
    return GAME.apply(state, 0, SetAside((0,))).state


def test_open_box_rows_show_points_and_wurfeltod_warnings() -> None:
    rows = {
        key: (points, wurfeltod)
        for key, _, points, wurfeltod in open_box_rows(GAME.view(example_state(), 0))
    }
    assert rows["p"] == (50, True)
    assert rows["pp"] == (50, True)
    assert rows["4"] == (100, True)
    assert rows["f"] == (170, False)
    assert rows["s"] == (0, True)
    assert len(rows) == 19


def test_show_keeps_aside_and_rolled_apart_and_warns() -> None:
    con, out = console()
    UI().show(con, GAME.view(example_state(), 0), 0, TABLE)
    text = out.getvalue()
    assert "Set aside:   1 1 4 4 4" in text
    assert "Just rolled: 1:3" in text
    assert "☠ -250" in text
    rows = {line.split("│")[2].strip(): line for line in text.splitlines() if line.count("│") > 3}
    assert rows["Face Value Total ×10 (1)"].split("│")[1].strip() == "f"
    assert rows["Face Value Total ×10 (1)"].split("│")[3].strip() == "170"
    assert rows["4-4-4"].split("│")[3].strip() == "100 ☠ -250"
    assert "book a box now" in text
    assert "Ann" in text and "Bob" in text and "Wurfeltods" in text


def test_show_mentions_the_scratch_on_the_first_roll() -> None:
    con, out = console()
    state: WurfeltodState = GAME.start(2, GAME.parse_options(), ScriptedDice(EXAMPLE)).state
    UI().show(con, GAME.view(state, 0), 0, TABLE)
    assert "scratch" in out.getvalue()


def test_ask_reasks_on_typos_and_prints_help() -> None:
    prompter = keyboard("zz", "a 9", "?", "b qq", "a 1 2 5 6")
    state: WurfeltodState = GAME.start(2, GAME.parse_options(), ScriptedDice(EXAMPLE)).state
    view: WurfeltodView = GAME.view(state, 0)
    action = UI().ask(prompter, view, GAME.legal_actions(state, 0), 0, TABLE)
    assert action == SetAside((0, 1, 4, 5))
    text = prompter.console.file.getvalue()  # type: ignore[attr-defined]
    assert "unknown command" in text and "no die 9" in text and "no box 'qq'" in text
    assert "Commands" in text  # the help
    assert text.count("✗") == 3


def test_ask_books_and_scratches() -> None:
    state = example_state()
    legal = GAME.legal_actions(state, 0)
    assert UI().ask(keyboard("x f", "b f"), GAME.view(state, 0), legal, 0, TABLE) == Book(
        Category.FACE_VALUE
    )
    first: WurfeltodState = GAME.start(2, GAME.parse_options(), ScriptedDice(EXAMPLE)).state
    legal = GAME.legal_actions(first, 0)
    assert UI().ask(keyboard("x 6k"), GAME.view(first, 0), legal, 0, TABLE) == Scratch(
        Category.SIX_OF_A_KIND
    )


def test_events_are_narrated() -> None:
    state = example_state()
    step = GAME.apply(state, 0, Book(Category.TRIPLE_FOURS))
    con, out = console()
    UI().show_events(con, step.events, TABLE)
    text = out.getvalue()
    assert "Ann books 4-4-4: 100 and a Wurfeltod ☠ -250 (total -150)" in text
    assert "Turn 1: Bob" in text and "Bob rolls 6 6 6 6 6 6" in text


def test_results_show_standings_and_shared_wins() -> None:
    state: WurfeltodState = GAME.start(2, GAME.parse_options(), ScriptedDice((6,) * 240)).state
    while not state.finished:
        category = GAME.view(state, state.current).open_boxes[0]
        state = GAME.apply(state, state.current, Scratch(category)).state
    con, out = console()
    UI().show_results(con, GAME.results(state), GAME.view(state, None), TABLE)
    text = out.getvalue()
    assert "Ann and Bob share the win." in text
    assert "Game over" not in text and "0 x" in text


def test_box_labels_number_the_face_value_boxes() -> None:
    assert box_label(0) == "Any Pair"
    assert box_label(18) == "Face Value Total ×10 (1)"
    assert box_label(19) == "Face Value Total ×10 (2)"
