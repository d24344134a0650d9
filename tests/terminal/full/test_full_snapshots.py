"""SVG snapshots of the full-screen table's main screens (pytest-textual-snapshot) at
80x24 and 40x12: each game's first question, the hot-seat curtain, the menu and the hint
panel (solo, so no live odds: its picture depends on nothing run before it; issue 41).
Deterministic: fixed seeds, chosen seeds
shown (no commitment), an empty cache (no solver table) and no clock on screen.
``--snapshot-update`` rewrites them after a deliberate change; look at the SVGs before
committing them."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from full_table import screen_text, settled, table_app, until
from rich.console import Console
from textual.pilot import Pilot
from textual.widgets import RichLog

from gamenight.cli.menu import main_menu
from gamenight.terminal.full.app import TableApp
from gamenight.terminal.ui import Prompter

SnapCompare = Callable[..., bool]
SIZES = {"80x24": (80, 24), "40x12": (40, 12)}
GAMES = {
    "decathlon": ("Ann,bot:greedy", {"events": "100m,long-jump"}),
    "dice-duel": ("Ann,bot:random", {}),
    "wurfeltod": ("Ann,bot:greedy", {}),
    "decades": ("Red:Ann,Blue:bot:novice", {}),
}


@pytest.fixture(autouse=True)
def quiet_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


RunBefore = Callable[[Pilot[None]], Awaitable[None]]


def waiting_for(app: TableApp[Any], state: str, *then: str) -> RunBefore:
    """Let the app run until it waits in ``state``, after pressing ``then``."""

    async def run_before(pilot: Pilot[None]) -> None:
        await until(pilot, lambda: app.waiting == state)
        for key in then:
            asked = app.questions
            await pilot.press(key)
            await until(pilot, lambda: app.questions > asked or app.waiting == state)  # noqa: B023
        await settled(pilot, app)
        # the log follows its last line, but a write may land after the settling: end it
        # where the player sees it, so the picture never depends on the timing
        app.query_one("#log", RichLog).scroll_end(animate=False)
        await settled(pilot, app)

    return run_before


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("game", list(GAMES))
def test_first_question(game: str, size: str, tmp_path: Path, snap_compare: SnapCompare) -> None:
    players, options = GAMES[game]
    app = table_app(game, players, tmp_path, options=options).app
    assert snap_compare(app, terminal_size=SIZES[size], run_before=waiting_for(app, "line"))


@pytest.mark.parametrize("size", list(SIZES))
def test_hot_seat_curtain(size: str, tmp_path: Path, snap_compare: SnapCompare) -> None:
    app = table_app("decades", "Red:Ann,Blue:Bob", tmp_path, seed=11).app
    assert snap_compare(app, terminal_size=SIZES[size], run_before=waiting_for(app, "curtain"))


@pytest.mark.parametrize("size", list(SIZES))
def test_menu(size: str, snap_compare: SnapCompare) -> None:
    def menu(console: Console, prompter: Prompter) -> None:
        main_menu(console, prompter)

    app: TableApp[None] = TableApp(menu)
    assert snap_compare(app, terminal_size=SIZES[size], run_before=waiting_for(app, "line"))


@pytest.mark.parametrize("size", list(SIZES))
def test_hint_panel(size: str, tmp_path: Path, snap_compare: SnapCompare) -> None:
    """The hint panel under the board, its best option and sentence at the top (issue 41)."""
    app = table_app("decathlon", "Ann", tmp_path, options={"events": "100m"}).app

    async def run_before(pilot: Pilot[None]) -> None:
        await until(pilot, lambda: app.waiting == "line")
        asked = app.questions
        await pilot.press("f1")
        await until(pilot, lambda: app.questions > asked and app.waiting == "line")
        await until(pilot, lambda: "★" in screen_text(app))
        await settled(pilot, app)
        app.query_one("#log", RichLog).scroll_end(animate=False)
        await settled(pilot, app)

    assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)
