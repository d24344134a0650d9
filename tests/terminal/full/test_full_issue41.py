"""Issue 41's defects of the full-screen table, each driven as a player meets it
(Textual's pilot): input of any size is bounded before it is echoed or parsed, a
click on a die means the key it stands for, the Decades question stays in view after
the hot-seat curtain, the hint panel shows its best option first and whole, Tab never
takes the keys away from the prompt line."""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import pytest
from full_table import (
    Table,
    answer_until,
    screen_text,
    table_app,
    type_line,
    until,
    view_of_the_one_to_act,
)
from textual import events
from textual.widgets import Input

from gamenight.terminal.full.app import MAX_PENDING_KEYS, TableApp
from gamenight.terminal.ui import MAX_ANSWER


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


PASTED = "k" * 240_000


def test_a_bracketed_paste_too_long_is_refused_and_never_echoed(tmp_path: Path) -> None:
    table = table_app("dice-duel", "Ann,bot:random", tmp_path)
    app = table.app

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.waiting == "line")
            answer = app.query_one("#answer", Input)
            answer.post_message(events.Paste(PASTED))
            await until(pilot, lambda: "too long" in screen_text(app))
            assert answer.value == ""
            assert "k" * 20 not in screen_text(app)  # not above the prompt, not in the log
            await type_line(pilot, "?")  # the table is still there and answers
            await until(pilot, lambda: app.query_one("#hint-pane").has_class("shown"))
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


def test_a_flood_of_keys_is_cut_where_it_arrives(tmp_path: Path) -> None:
    """A paste without bracketed paste is one key event per character: past
    MAX_PENDING_KEYS waiting they are dropped before they are queued (240 KB made
    the app CPU-bound and its memory grow), and the line holds at most MAX_ANSWER."""
    table = table_app("dice-duel", "Ann,bot:random", tmp_path)
    app = table.app

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.waiting == "line")
            taken = [app.post_message(events.Key("k", "k")) for _ in range(5_000)]
            assert sum(taken) <= MAX_PENDING_KEYS
            await until(pilot, lambda: "not taken" in screen_text(app))
            answer = app.query_one("#answer", Input)
            assert 0 < len(answer.value) <= MAX_ANSWER
            assert app.gate.pending == 0  # every key taken was handled: nothing leaks
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


def clickable_dice(app: TableApp[Any]) -> list[int]:
    """The dice on the composed screen, by their click keys (terminal.ui.die_key)."""
    found = []
    for strip in app.screen._compositor.render_strips():
        for segment in strip:
            click = segment.style.meta.get("@click", "") if segment.style is not None else ""
            if click.startswith("app.die("):
                found.append(int(click[len("app.die(") : -1]))
    return sorted(set(found))


@pytest.mark.parametrize(
    ("game", "players", "options"),
    [
        ("wurfeltod", "Ann,bot:greedy", {}),
        ("dice-duel", "Ann,bot:random", {}),
        ("decathlon", "Ann", {"events": "long-jump"}),
    ],
)
def test_a_click_on_a_die_means_its_key(
    game: str, players: str, options: dict[str, str], tmp_path: Path
) -> None:
    """A click on a die and Enter is a move, in every game with dice (Wurfeltod
    answered a click with "unknown command '2'")."""
    table = table_app(game, players, tmp_path, seed=11, options=options)
    app = table.app

    async def run() -> None:
        async with app.run_test(size=(100, 40)) as pilot:
            await until(pilot, lambda: app.waiting == "line")
            await until(pilot, lambda: bool(clickable_dice(app)))
            die = clickable_dice(app)[0]
            app.action_die(die)
            assert app.query_one("#answer", Input).value == str(die)
            asked = app.questions
            await pilot.press("enter")
            await until(pilot, lambda: app.questions > asked or app.worker_done)
            assert not app.query_one("#error").has_class("shown"), screen_text(app)
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


def panel_text(app: TableApp[Any], selector: str) -> str:
    """What the panel ``selector`` shows (inside its borders), its lines joined by spaces."""
    region = app.query_one(selector).content_region
    lines = screen_text(app).splitlines()[region.y : region.bottom]
    return " ".join(" ".join(line[region.x : region.right] for line in lines).split())


@pytest.mark.parametrize("size", [(80, 24), (40, 12)])
def test_the_decades_question_is_in_view_after_the_curtain(
    size: tuple[int, int], tmp_path: Path
) -> None:
    """Hot seat at 80x24: after the curtain the question to answer is on screen (it was
    below the boards, out of view, and the log had been cleared)."""
    made = table_app("decades", "Red:Ann,Blue:Bob", tmp_path, seed=11)
    table = Table(made.app, made.game_id, made.match, frozenset({0, 1}))
    app = table.app
    rng = random.Random(3)

    def asked_question() -> str | None:
        match = table.match[0]
        assert match.table is not None
        seat = match.table.to_act()[0]
        view: Any = match.table.position(seat).view
        return view.questions[view.category].text if view.phase == "answer" else None

    async def run() -> None:
        async with app.run_test(size=size) as pilot:
            for _ in range(40):
                await until(pilot, lambda: app.waiting in ("line", "curtain"))
                if app.waiting == "curtain":
                    asked = app.questions
                    await pilot.press("enter")
                    await until(pilot, lambda: app.questions > asked)  # noqa: B023
                    continue
                question = asked_question()
                if question is not None:
                    await pilot.pause(0.05)
                    shown = panel_text(app, "#board-pane")
                    assert " ".join(question.split()) in shown, shown
                    break
                asked = app.questions
                await type_line(pilot, table.answer(rng))
                await until(pilot, lambda: app.questions > asked)  # noqa: B023
            else:
                raise AssertionError("no question was asked")
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


def test_the_hint_panel_shows_the_best_option_first_and_whole(tmp_path: Path) -> None:
    """At 120x40 the hint's ★ row and the "optimal play" sentence are in view at the
    top of the panel (it used to scroll to its end), each value in one piece (they
    broke over lines in a 32-column panel), and the Championship board says once what
    its win chances mean (two "win:" footnotes contradicted each other)."""
    options = {"events": "100m", "variant": "championship"}
    table = table_app("decathlon", "Ann,bot:greedy", tmp_path, options=options)
    app = table.app

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: app.waiting == "line")
            await until(pilot, lambda: "win:" in screen_text(app))  # the live odds are drawn
            assert screen_text(app).count("win:") == 1
            await pilot.press("f1")
            await until(pilot, lambda: "★" in screen_text(app))
            await until(pilot, lambda: app.waiting == "line")
            await pilot.pause(0.1)
            pane = app.query_one("#hint-pane")
            assert pane.scroll_y == 0
            region = pane.content_region
            lines = [line[region.x : region.right] for line in screen_text(app).splitlines()]
            lines = lines[region.y : region.bottom]
            assert "optimal play" in lines[0]
            (best,) = [line for line in lines if "★" in line and "optimal" not in line]
            values = re.findall(r"[\d.]+%?", best.split("★", 1)[1])
            assert len(values) >= 3 and all(re.fullmatch(r"[\d.]+\.\d+%?", v) for v in values)
            # PgDn scrolls the open hint, not the board
            if pane.max_scroll_y > 0:
                await pilot.press("pagedown")
                await until(pilot, lambda: pane.scroll_y > 0)
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


def test_tab_and_clicks_never_take_the_keys_from_the_prompt(tmp_path: Path) -> None:
    table = table_app("wurfeltod", "Ann,bot:greedy", tmp_path)
    app = table.app

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: app.waiting == "line")
            answer = app.query_one("#answer", Input)
            await pilot.press("tab", "shift+tab")
            await pilot.click("#log")
            await pilot.click("#board-pane", offset=(2, 20))
            assert app.focused is answer
            await pilot.press("?")
            assert answer.value == "?"  # the keystroke reached the prompt line
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


def test_shrinking_mid_question_draws_the_narrow_board(tmp_path: Path) -> None:
    """The Decades board is drawn again for the new width when the screen shrinks (the
    wide board stayed, wrapped); and wide again when it grows."""
    table = table_app("decades", "Red:Ann,Blue:bot:novice", tmp_path, seed=5)
    app = table.app
    rng = random.Random(2)

    async def run() -> None:
        async with app.run_test(size=(120, 40)) as pilot:
            await answer_until(
                pilot, table, rng, lambda: str(view_of_the_one_to_act(table).phase) == "answer"
            )
            await until(pilot, lambda: "x0" in panel_text(app, "#board-pane"))  # the wide grid
            await pilot.resize_terminal(60, 30)
            await until(pilot, lambda: "x0" not in panel_text(app, "#board-pane"))
            assert app.query_one("#board-pane").virtual_size.width <= 60
            await pilot.resize_terminal(120, 40)
            await until(pilot, lambda: "x0" in panel_text(app, "#board-pane"))
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())


def test_leaving_a_game_goes_back_to_the_menu_and_prompts_name_their_keys(
    tmp_path: Path,
) -> None:
    """After Ctrl-C in a game started from the menu, the menu's board comes back (the
    game's board stayed above a bare "> "), and the menu's prompt names its keys."""
    from rich.console import Console

    from gamenight.cli.menu import main_menu
    from gamenight.terminal.ui import Prompter

    def menu(console: Console, prompter: Prompter) -> None:
        main_menu(console, prompter)

    app: TableApp[None] = TableApp(menu)

    async def run() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for line in ("3", "Ann,bot:greedy", "5"):  # Wurfeltod, players, seed
                await until(pilot, lambda: app.waiting == "line")
                asked = app.questions
                await type_line(pilot, line)
                await until(pilot, lambda: app.questions > asked)  # noqa: B023
            await until(pilot, lambda: "Rolled" in screen_text(app))
            await pilot.press("ctrl+c")
            await until(pilot, lambda: "Choose a game" in screen_text(app))
            assert "Rolled" not in screen_text(app)
            prompt = str(app.query_one("#prompt").render())
            assert "q" in prompt and prompt.strip() != ">"
            await pilot.press("ctrl+c")
            await until(pilot, lambda: not app.is_running)

    asyncio.run(run())
