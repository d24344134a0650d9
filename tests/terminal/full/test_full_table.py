"""The full-screen table's own behaviour: the hot-seat curtain and secret entries,
the hint panel and undo keys, leaving a game, and which front end runs."""

from __future__ import annotations

import asyncio
import io
import random
from pathlib import Path
from typing import Any

import pytest
from full_table import screen_text, settled, table_app, type_line, until
from rich.console import Console
from textual.widgets import Input

from gamenight.cli import app as cli_main
from gamenight.cli.menu import main_menu
from gamenight.terminal.full.app import TableApp
from gamenight.terminal.ui import Prompter


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


def test_hot_seat_hand_over_is_a_curtain_and_secrets_are_never_echoed(tmp_path: Path) -> None:
    table = table_app("decades", "Red:Ann,Blue:Bob", tmp_path, seed=11)
    table = type(table)(table.app, table.game_id, table.match, frozenset({0, 1}))
    app = table.app

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: "Pass to Red" in screen_text(app))
            await pilot.press("enter")
            await until(pilot, lambda: app.waiting == "line")
            # the public start-up text was not wiped by the first hand-over
            assert "Each team draws 7 action" in screen_text(app)
            answer = app.query_one("#answer", Input)
            assert answer.password  # the secret entry is dots on screen
            secret = table.answer(random.Random(1))
            await type_line(pilot, secret)
            await until(pilot, lambda: app.waiting is not None)
            while app.waiting == "line":  # Red's further secret questions, if any
                assert app.query_one("#answer", Input).password
                await type_line(pilot, table.answer(random.Random(1)))
                await until(pilot, lambda: app.waiting is not None)
            assert app.waiting == "curtain"
            await until(pilot, lambda: "Pass to Blue" in screen_text(app))
            shown = screen_text(app)
            assert "Your 7 action cards" not in shown and "Red · " not in shown
            await pilot.press("enter")  # Blue sees a clean table: nothing of Red's
            await until(pilot, lambda: "Your 7 action cards" in screen_text(app))  # Blue's
            assert app.query_one("#answer", Input).password
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


def test_hint_panel_lists_every_option_value(tmp_path: Path) -> None:
    table = table_app("decathlon", "Ann,bot:greedy", tmp_path, options={"events": "100m"})
    app = table.app

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.waiting == "line")
            assert not app.query_one("#hint-pane").has_class("shown")
            await pilot.press("f1")
            # the table of every option's value, in its panel, the best one marked
            await until(pilot, lambda: "★" in screen_text(app))
            assert app.query_one("#hint-pane").has_class("shown")
            await pilot.press("f3")
            assert not app.query_one("#hint-pane").has_class("shown")
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


@pytest.mark.parametrize("undo", [True, False])
def test_undo_key_types_u_only_while_undo_is_offered(undo: bool) -> None:
    """F2 answers ``u`` (the session's undo word, UNDO_WORDS) when the session offers
    undo; otherwise it is greyed out and does nothing."""

    def target(console: Console, prompter: Prompter) -> str:
        prompter.undo = undo
        return prompter.ask("Move? ")

    app: TableApp[str] = TableApp(target)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.waiting == "line")
            await pilot.press("f2")
            if not undo:
                assert app.waiting == "line"
                await type_line(pilot, "x")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())
    assert app.outcome(Console(file=io.StringIO())) == ("u" if undo else "x")


def test_leaving_says_where_the_game_is_saved(tmp_path: Path) -> None:
    table = table_app("dice-duel", "Ann,bot:random", tmp_path)
    app = table.app

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.waiting == "line")
            await type_line(pilot, table.answer(random.Random(2)))
            await until(pilot, lambda: app.waiting == "line")
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())
    printed = io.StringIO()
    with pytest.raises(SystemExit):
        app.outcome(Console(file=printed, width=200))
    assert f"Resume it with: gamenight resume {tmp_path / 'game.jsonl'}" in printed.getvalue()


def test_narrow_screen_plays_too(tmp_path: Path) -> None:
    """At 40x10 the log goes under the board and the game's narrow layout is drawn."""
    table = table_app("wurfeltod", "Ann,bot:greedy", tmp_path)
    app = table.app

    async def run() -> None:
        async with app.run_test(size=(40, 10)) as pilot:
            assert app.screen.has_class("narrow")
            rng = random.Random(4)
            for _ in range(6):
                await until(pilot, lambda: app.waiting == "line")
                # the dice first, where the eye is (once the board has drawn itself)
                assert "Rolled" in await settled(pilot, app)
                asked = app.questions
                await type_line(pilot, table.answer(rng))
                await until(pilot, lambda: app.questions > asked)  # noqa: B023
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


@pytest.mark.parametrize(
    ("argv", "environ", "full"),
    [
        (["play", "decathlon", "--players", "Ann", "--events", "100m"], {}, True),
        (["play", "decathlon", "--players", "Ann", "--events", "100m", "--plain"], {}, False),
        (["--plain", "play", "decathlon", "--players", "Ann", "--events", "100m"], {}, False),
        (["play", "decathlon", "--players", "Ann"], {"GAMENIGHT_PLAIN": "1"}, False),
        (["play", "decathlon", "--players", "Ann"], {"TERM": "dumb"}, False),
    ],
)
def test_the_front_end_is_chosen_by_plain_env_and_terminal(
    argv: list[str], environ: dict[str, str], full: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A terminal gets the full screen unless --plain, GAMENIGHT_PLAIN or TERM=dumb say
    otherwise (pipes, as in every other CLI test, always get the line mode)."""
    import gamenight.terminal.full as full_screen

    class Tty:
        def isatty(self) -> bool:
            return True

    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("GAMENIGHT_PLAIN", raising=False)
    for key, value in environ.items():
        monkeypatch.setenv(key, value)
    monkeypatch.setattr("sys.stdin", Tty())
    monkeypatch.setattr("sys.stdout", Tty())
    ran: list[str] = []

    def fake_full(target: Any, **_: Any) -> None:
        ran.append("full")

    def fake_plain(console: Console, prompter: Prompter) -> None:
        raise AssertionError("unreachable")

    monkeypatch.setattr(full_screen, "run_full", fake_full)
    monkeypatch.setattr(cli_main, "_play", lambda *a, **k: ran.append("plain"))
    with pytest.raises(SystemExit) as exit_info:
        cli_main.app.main(args=argv, standalone_mode=True, prog_name="gamenight")
    assert exit_info.value.code in (0, None)
    assert ran == (["full"] if full else ["plain"])


def test_a_click_on_a_die_types_its_number(tmp_path: Path) -> None:
    """Dice are clickable (terminal.ui.die_key): a click types the die's number at the
    prompt line, a second click takes it out; Enter still sends the line."""
    table = table_app("wurfeltod", "Ann,bot:greedy", tmp_path)
    app = table.app

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.waiting == "line")
            lines = (await settled(pilot, app)).splitlines()  # the board drawn
            (y,) = [n for n, line in enumerate(lines) if "Rolled 1:" in line]
            x = lines[y].index("3:") + 2  # the third die's face
            answer = app.query_one("#answer", Input)
            assert marked_dice(app) == set()
            await pilot.click(offset=(x, y))
            assert answer.value == "3"
            await pilot.click(offset=(lines[y].index("5:") + 2, y))
            assert answer.value == "3 5"
            await until(pilot, lambda: marked_dice(app) == {3, 5})  # picked dice show so
            await pilot.click(offset=(x, y))
            assert answer.value == "5"
            await until(pilot, lambda: marked_dice(app) == {5})
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


def marked_dice(app: TableApp[None]) -> set[int]:
    """The dice shown reversed (picked) on the composed screen, by their click keys."""
    marked = set()
    for strip in app.screen._compositor.render_strips():
        for segment in strip:
            style = segment.style
            click = style.meta.get("@click", "") if style is not None else ""
            if click.startswith("app.die(") and style is not None and style.reverse:
                marked.add(int(click[len("app.die(") : -1]))
    return marked


def test_page_keys_scroll_a_tall_board(tmp_path: Path) -> None:
    """Wurfeltod's sheet is taller than 24 rows: PgDn shows its totals, PgUp the dice
    again; the keys are offered only while the board is taller than its panel."""
    table = table_app("wurfeltod", "Ann,bot:greedy", tmp_path)
    app = table.app

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.waiting == "line")
            await until(pilot, lambda: "Scroll" in screen_text(app))  # in the footer
            assert "Total" not in screen_text(app)
            await pilot.press("pagedown")
            await until(pilot, lambda: "Total" in screen_text(app))
            await pilot.press("pageup")
            await until(pilot, lambda: "Rolled" in screen_text(app))
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


def test_menu_help_and_rules_stay_until_read() -> None:
    """In the menu, ? (F1) opens the help panel; the rules stay on the board until Enter
    (the menu used to redraw over them at once)."""

    def menu(console: Console, prompter: Prompter) -> None:
        main_menu(console, prompter)

    app: TableApp[None] = TableApp(menu)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.waiting == "line")
            await pilot.press("f1")
            await until(pilot, lambda: app.query_one("#hint-pane").has_class("shown"))
            await until(pilot, lambda: "resume a saved game" in hint_text(app))
            await until(pilot, lambda: app.waiting == "line")
            await type_line(pilot, "r")
            await until(pilot, lambda: "Rules of which game" in screen_text(app))
            await type_line(pilot, "1")
            await until(pilot, lambda: "back to the menu" in screen_text(app))
            assert "Rules of" in screen_text(app) and "Choose a game" not in screen_text(app)
            await type_line(pilot, "")
            await until(pilot, lambda: "Choose a game" in screen_text(app))
            await type_line(pilot, "q")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


def hint_text(app: TableApp[None]) -> str:
    """What the hint panel shows, its wrapped lines joined by spaces."""
    region = app.query_one("#hint-pane").content_region
    lines = screen_text(app).splitlines()[region.y : region.bottom]
    return " ".join(" ".join(line[region.x : region.right] for line in lines).split())


def test_undo_on_the_full_screen_takes_the_move_back(tmp_path: Path) -> None:
    """A whole undo through the screen: Ann freezes a die of her run-up (seed 11: no
    dice thrown, so reversible), F2 takes it back, and the board is as before."""
    table = table_app("decathlon", "Ann", tmp_path, seed=11, options={"events": "long-jump"})
    app = table.app

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.waiting == "line")
            assert not app.undo_allowed  # nothing to take back yet
            first = await settled(pilot, app)  # the board draws itself after the question
            asked = app.questions
            await type_line(pilot, "3")  # freeze the third die: no dice thrown, reversible
            await until(pilot, lambda: app.questions > asked and app.waiting == "line")
            assert app.undo_allowed and "Undo" in screen_text(app)
            asked = app.questions
            await pilot.press("f2")
            await until(pilot, lambda: app.questions > asked and app.waiting == "line")
            assert "taken back" in screen_text(app)
            board = app.query_one("#board-pane")
            assert board.border_title and "Ann" in str(board.border_title)
            # the board is the one before the freeze again
            assert _board_lines(await settled(pilot, app)) == _board_lines(first)
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


def _board_lines(screen: str) -> list[str]:
    """The board panel's part of each screen line: its 48 columns at 80 wide (the board
    is a widget with borders of its own, so no border character marks its right edge)."""
    return [line[:48] for line in screen.splitlines()[1:12]]
