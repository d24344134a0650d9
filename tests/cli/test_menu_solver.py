"""The menu offers to build a missing solver table instead of ending with an error."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from rich.console import Console

from gamenight.cli.menu import main_menu
from gamenight.terminal.ui import Prompter

WURFELTOD = "3"


@pytest.fixture(autouse=True)
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A machine that has never built the Wurfeltod value table."""
    monkeypatch.setenv("GAMENIGHT_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr("platformdirs.user_data_dir", lambda *_args: str(tmp_path / "data"))
    return tmp_path / "cache"


def run_menu(monkeypatch: pytest.MonkeyPatch, *keys: str) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(k + "\n" for k in keys)))
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    with contextlib.suppress(EOFError):
        main_menu(console, Prompter(console))
    return out.getvalue()


def test_declining_the_build_asks_for_other_players(monkeypatch: pytest.MonkeyPatch) -> None:
    keys = [WURFELTOD, "bot:optimal", "1", "n", "bot:greedy", "2", "q"]
    shown = run_menu(monkeypatch, *keys)
    assert "no Wurfeltod value table" in shown
    assert "Build it now?" in shown
    assert shown.count("Players, e.g.") == 2  # asked again, the menu still runs
    assert "a: play again" in shown


@pytest.mark.slow
def test_optimal_bot_builds_its_table_and_plays(
    monkeypatch: pytest.MonkeyPatch, empty_cache: Path
) -> None:
    """About 10 s: the one test that really solves Wurfeltod from the menu."""
    shown = run_menu(monkeypatch, WURFELTOD, "bot:optimal", "1", "", "q")
    assert "Build it now?" in shown and "Built in" in shown
    assert "a: play again" in shown  # the game was played after the build
    assert any(empty_cache.iterdir())  # the table is kept for next time
