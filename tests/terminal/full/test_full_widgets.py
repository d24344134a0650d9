"""Issue 41, the boards as Textual widgets and the feel (Textual's pilot): score sheets
are DataTables, each die is a widget that a number key toggles as a click does, the
question's choices are listed beside the board (arrow keys, Enter, a click, a key
alone where the choices are every answer), The Decades' own board walks its years by
arrow keys and takes a click on a year, a plug-in's board widget is found by name,
themes switch, and the winner is in view at 80x24 on the end screen."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from full_table import (
    Table,
    answer_until,
    play_out,
    screen_text,
    table_app,
    type_line,
    until,
    view_of_the_one_to_act,
)
from rich.console import Console
from rich.text import Text
from textual.widgets import DataTable, Input, OptionList, RichLog

from gamenight.cli.menu import main_menu
from gamenight.terminal.full.app import TableApp
from gamenight.terminal.full.boards import Board, Die, board_class
from gamenight.terminal.ui import Prompter, Scene


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("wurfeltod", "Ann,bot:greedy", {}),
        ("dice-duel", "Ann,bot:random", {}),
        ("decathlon", "Ann", {"events": "long-jump"}),
    ],
)
def test_dice_are_widgets_a_number_key_toggles_one_as_a_click_does(
    game: str, players: str, options: dict[str, str], tmp_path: Path
) -> None:
    """The score sheet is a DataTable; each die its own widget; its number key picks it
    (highlighted) and again unpicks it, the same as a click (one path: action_die)."""
    app = table_app(game, players, tmp_path, seed=11, options=options).app

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: app.waiting == "line")
            await until(pilot, lambda: bool(app.board.query(Die)))
            assert app.board.query(DataTable), "no score sheet as a table"
            die = sorted(app.board.dice())[0]
            answer = app.query_one("#answer", Input)
            await pilot.press(str(die))
            assert answer.value == str(die)
            await pilot.pause()
            (shown,) = [d for d in app.board.query(Die) if d.number == die]
            assert shown.has_class("picked")
            await pilot.press(str(die))  # the key again: taken back, as a second click
            assert answer.value == ""
            await pilot.pause()
            assert not shown.has_class("picked")
            await pilot.click(shown)  # the click: the same
            assert answer.value == str(die)
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


def log_text(app: TableApp[Any]) -> str:
    """The whole log, its wrapped lines joined by spaces."""
    lines = app.query_one("#log", RichLog).lines
    return " ".join(" ".join("".join(s.text for s in line).split()) for line in lines)


def _menu_app() -> TableApp[None]:
    def menu(console: Console, prompter: Prompter) -> None:
        main_menu(console, prompter)

    return TableApp(menu)


def test_the_menu_lists_its_choices_beside_the_board() -> None:
    """Arrow keys walk the list, Enter takes the highlighted row; a key alone answers
    (the choices are every answer); the list is never in the log."""
    app = _menu_app()

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.waiting == "line")
            moves = app.query_one("#moves", OptionList)
            assert moves.has_class("shown") and moves.option_count >= 7
            keys = [key for key, _ in app.choices]
            assert keys[:4] == ["1", "2", "3", "4"] and {"r", "s", "q"} <= set(keys)
            await pilot.press("down", "down")
            assert moves.highlighted == 1
            asked = app.questions
            await pilot.press("enter")  # the second game, as if "2" was typed
            await until(pilot, lambda: app.questions > asked)
            assert "q > 2" in log_text(app)  # the answer, as if typed
            await pilot.press("ctrl+c")  # back to the menu
            await until(pilot, lambda: "Choose a game" in screen_text(app))
            await until(pilot, lambda: app.waiting == "line")
            await pilot.press("q")  # a key alone: no Enter
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


def test_a_click_on_a_choice_is_its_key(tmp_path: Path) -> None:
    """Dice Duel's choices (roll, the chips the dice make, stop...) beside the board; a
    click on "r" rolls, as typing r and Enter does."""
    table = table_app("dice-duel", "Ann,bot:random", tmp_path, seed=11)
    app = table.app

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: app.waiting == "line" and bool(app.choices))
            prompt = str(app.query_one("#prompt").render())
            assert "r roll" in prompt and "?" in prompt  # the keys in the prompt
            keys = [key for key, _ in app.choices]
            assert "r" in keys
            moves = app.query_one("#moves", OptionList)
            asked = app.questions
            await until(pilot, lambda: moves.option_count == len(keys) and moves.region.height > 0)
            moves.highlighted = keys.index("r")
            moves.action_select()  # what a click on the row (or Enter on it) ends in
            await until(pilot, lambda: app.questions > asked)
            assert "(? help) > r" in log_text(app)  # answered r, as if typed
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


def test_decades_years_by_arrow_keys_and_clicks(tmp_path: Path) -> None:
    """The Decades ships its own board widget (UI.board_widget): while a year is asked
    the arrow keys walk the years onto the prompt line, and a click on a year of the
    player's own grid puts it there too."""
    made = table_app("decades", "Red:Ann,Blue:bot:novice", tmp_path, seed=5)
    table = Table(made.app, made.game_id, made.match, frozenset({0}))
    app = table.app
    rng = random.Random(2)

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await answer_until(
                pilot, table, rng, lambda: str(view_of_the_one_to_act(table).phase) == "answer"
            )
            await until(pilot, lambda: type(app.board).__name__ == "DecadesBoard")
            answer = app.query_one("#answer", Input)
            await pilot.press("down")
            assert answer.value == "1980"
            await pilot.press("down", "down", "up")
            assert answer.value == "1981"
            app.action_answer("1995")  # what a click on the year 95 runs (answer_key)
            assert answer.value == "1995"
            asked = app.questions
            await pilot.press("enter")
            await until(pilot, lambda: app.questions > asked)
            assert not app.query_one("#error").has_class("shown"), screen_text(app)
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


def _year_cell(screen: str, year: int) -> tuple[int, int]:
    """Where ``year`` sits on the team's own grid (the first grid drawn): its screen
    column and row, found from the decade row's name and the year's two digits."""
    lines = screen.splitlines()
    start = next(i for i, line in enumerate(lines) if "your board" in line)
    for row in range(start, len(lines)):
        line = lines[row]
        label = f"{year - year % 10}s"
        if label in line:
            at = line.index(label) + len(label)
            column = line.index(f"{year % 100:02d}", at)
            return column, row
    raise AssertionError(f"no {year} on the own grid:\n{screen}")


def test_decades_tokens_placed_by_clicks_on_the_grid(tmp_path: Path) -> None:
    """While tokens are asked, a real mouse click on a year of the own grid places the
    shortest token that may start there, a second click makes it longer, and the years
    it would cover are marked; Enter places it (issue 41: placement by mouse)."""
    made = table_app("decades", "Red:Ann,Blue:bot:novice", tmp_path, seed=5)
    table = Table(made.app, made.game_id, made.match, frozenset({0}))
    app = table.app
    rng = random.Random(2)

    def view() -> Any:
        match = table.match[0]
        assert match.table is not None
        return match.table.position(match.table.to_act()[0]).view

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            for _ in range(60):
                await until(pilot, lambda: app.waiting == "line")
                if view().phase == "extend" and view().teams[0].answers:
                    break
                asked = app.questions
                await type_line(pilot, table.answer(rng))
                await until(pilot, lambda: app.questions > asked)  # noqa: B023
            else:
                raise AssertionError("no token question in 60 questions")
            year = view().teams[0].answers[0]
            await until(pilot, lambda: f"{year - year % 10}s" in screen_text(app))
            column, row = _year_cell(screen_text(app), year)
            answer = app.query_one("#answer", Input)
            await pilot.click(offset=(column, row))
            assert answer.value == f"2@{year}", screen_text(app)
            await pilot.click(offset=(column, row))
            assert answer.value == f"3@{year}" or year % 10 > 7, answer.value
            marks = app.board.marked(answer.value)
            assert f"app.answer('{year}')" in marks and f"app.answer('{year + 1}')" in marks
            asked = app.questions
            await pilot.press("enter")
            await until(pilot, lambda: app.questions > asked)
            assert not app.query_one("#error").has_class("shown"), screen_text(app)
            match = table.match[0]
            assert match.table is not None
            last: Any = [a for s, a in match.table.moves() if s == 0][-1]
            assert any(t.start == year for t in last.tokens), last  # what was clicked
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


class OwnBoard(Board):
    """A plug-in's own board widget (found by its name, as a game's UI names it)."""


def test_a_game_ships_its_own_board_widget_by_name() -> None:
    assert board_class(f"{__name__}:OwnBoard") is OwnBoard
    assert board_class(None) is Board
    assert board_class("no.such.module:Board") is Board  # a plug-in's mistake: generic
    app = _menu_app()

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.waiting == "line")
            app.show_board(Text("own"), [Text("a plug-in's board")], Scene(f"{__name__}:OwnBoard"))
            await until(pilot, lambda: "a plug-in's board" in screen_text(app))
            assert isinstance(app.board, OwnBoard)
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


def test_light_and_dark_themes() -> None:
    def menu(console: Console, prompter: Prompter) -> None:
        main_menu(console, prompter)

    app: TableApp[None] = TableApp(menu, theme="light")

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.waiting == "line")
            assert app.theme == "textual-light"
            await pilot.press("f4")
            assert app.theme == "textual-dark"
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


def test_the_winner_is_in_view_at_80x24_on_the_end_screen(tmp_path: Path) -> None:
    """The final board's title names the winner (the standings' own winner line was
    below the fold at 80x24)."""
    table = table_app("dice-duel", "Ann,bot:random", tmp_path, seed=3)
    app = table.app

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await play_out(pilot, table, random.Random(5))
            await until(pilot, lambda: app.waiting == "close")
            top = screen_text(app).splitlines()[0]
            assert " wins " in top or " share the win " in top, top
            await pilot.press("enter")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())
