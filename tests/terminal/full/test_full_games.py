"""Full games of all four games on the full-screen table, under Textual's pilot.

The human's every answer is typed at the prompt line (keys the game's own parser
reads, :mod:`full_table`); bots play the other seats. The game must end, its record
must replay, and the closed screen prints the standings it showed last.
"""

from __future__ import annotations

import asyncio
import io
import random
from pathlib import Path

import pytest
from full_table import play_out, table_app, until
from rich.console import Console

from gamenight.core.record import read_record, replay

GAMES = [
    ("decathlon", "Ann,bot:greedy", {"events": "100m,long-jump,high-jump"}),
    ("dice-duel", "Ann,bot:random", {}),
    ("wurfeltod", "Ann,bot:greedy", {}),
    ("decades", "Red:Ann,Blue:bot:novice", {"track": "20"}),
]


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))


@pytest.mark.parametrize(("game", "players", "options"), GAMES, ids=[g for g, _, _ in GAMES])
def test_a_full_game_on_the_full_screen(
    game: str, players: str, options: dict[str, str], tmp_path: Path
) -> None:
    table = table_app(game, players, tmp_path, options=options)

    async def run() -> int:
        async with table.app.run_test(size=(80, 24)) as pilot:
            answered = await play_out(pilot, table, random.Random(3))
            assert table.app.waiting == "close"  # the standings stay until Enter
            await pilot.press("enter")
            await until(pilot, lambda: not table.app.is_running)
            return answered

    answered = asyncio.run(run())
    assert answered > 0
    shown = io.StringIO()
    table.app.outcome(Console(file=shown, width=80))
    assert "Seed: 7" in shown.getvalue()  # the reveal, printed once the screen closed
    report = replay(read_record(tmp_path / "game.jsonl"), "game")
    assert report.finished


def test_n_declines_a_chip_on_the_full_screen(tmp_path: Path) -> None:
    """K4 revised: ``n`` at the prompt line ends the turn without the chip the dice earn."""
    from full_table import screen_text, type_line

    from gamenight.games.dice_duel.rules import Roll, Take

    table = table_app("dice-duel", "Ann,bot:random", tmp_path)

    async def run() -> None:
        app = table.app
        async with app.run_test(size=(100, 40)) as pilot:
            for _ in range(200):
                await until(pilot, lambda: app.waiting is not None or app.worker_done)
                assert app.waiting == "line"
                (match,) = table.match
                assert match.table is not None
                position = match.table.position(0)
                asked = app.questions
                if any(isinstance(a, Take) for a in position.legal):
                    await type_line(pilot, "n")
                    await until(pilot, lambda: "takes no chip" in screen_text(app))
                    return
                rolls_left = any(isinstance(a, Roll) for a in position.legal)
                await type_line(pilot, "r" if rolls_left else "s")
                await until(pilot, lambda: app.questions > asked or app.worker_done)  # noqa: B023
            raise AssertionError("the dice earned no chip in 200 answers")

    asyncio.run(run())
