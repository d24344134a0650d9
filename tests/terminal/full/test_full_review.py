"""The full-screen review (issue 42): the decisions table, costly rows only with ``c``,
Enter on a decision shows its position (the game's own board) and every option's value,
Escape goes back. Textual's pilot drives ``gamenight review``'s app on a real record."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from rich.console import Console
from textual.widgets import DataTable, Static

from gamenight.cli.main import run
from gamenight.cli.review import review_app
from gamenight.core.review import review
from gamenight.terminal.full.review import PositionScreen


def _text(widget: Static) -> str:
    console = Console(width=200, record=True, file=io.StringIO())
    console.print(widget.content)
    return console.export_text()


def test_the_table_and_a_position(tmp_path: Path) -> None:
    record = tmp_path / "game.jsonl"
    run(["play", "decathlon", "--players", "bot:random,bot:optimal", "--seed", "5",
         "--record", str(record), "--quiet", "-o", "events=100m,long-jump"])  # fmt: skip
    found = review(record)
    costly = [d for d in found.decisions if d.verdict]
    assert costly
    app = review_app(record, found)

    async def drive() -> None:
        async with app.run_test(size=(100, 32)) as pilot:
            table = app.query_one(DataTable)
            assert table.row_count == len(found.decisions)
            await pilot.press("c")  # the costly ones only
            assert table.row_count == len(costly)
            await pilot.press("enter")
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, PositionScreen)
            body = _text(screen.query_one("#position-body", Static))
            first = costly[0]
            assert screen.heading.startswith(f"Step {first.at - 1}")
            assert "Every option" in body
            for option in first.options:
                assert option.label in body
            assert "100 Metres" in body or "Long Jump" in body  # the game's own board
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, PositionScreen)
            await pilot.press("q")

    asyncio.run(drive())
