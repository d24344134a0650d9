"""The interactive menu, driven through the real console input with scripted keys."""

from __future__ import annotations

import contextlib
import io
import json
import os
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from gamenight.cli.menu import main_menu
from gamenight.core import registry
from gamenight.terminal.ui import Prompter

CliRunner = Callable[[list[str]], tuple[int, str, str]]  # the `cli` fixture
# each game's number in the menu: the registry's order (plug-ins listed after the shelf)
GAMES = {entry.id: str(n) for n, entry in enumerate(registry.available(), start=1)}


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr("platformdirs.user_data_dir", lambda *_args: str(tmp_path))
    return tmp_path


def run_menu(monkeypatch: pytest.MonkeyPatch, *keys: str) -> str:
    """Everything the menu showed (prompts included) for ``keys``; ends at end of input."""
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(k + "\n" for k in keys)))
    out = io.StringIO()
    console = Console(file=out, width=120, color_system=None)
    with contextlib.suppress(EOFError):
        main_menu(console, Prompter(console))
    return out.getvalue()


def test_menu_shows_defaults_and_seats_in_words(monkeypatch: pytest.MonkeyPatch) -> None:
    shown = run_menu(monkeypatch, GAMES["decathlon"], "", "", "bot:greedy", "", "q")
    assert "[points]:" in shown  # Rich used to swallow "[points]"
    assert "[100m,long-jump," in shown
    assert "Seed (a whole number; Enter for a random one) [random]:" in shown
    row = next(line for line in shown.splitlines() if "The Decades" in line)
    assert "2 teams" in row and "2-2" not in row


def test_play_again_back_to_the_menu_and_quit(monkeypatch: pytest.MonkeyPatch) -> None:
    keys = [GAMES["wurfeltod"], "bot:greedy,bot:random", "abc", "5", "a", "6", "m", "q"]
    shown = run_menu(monkeypatch, *keys)
    assert "'abc' is not a whole number" in shown  # asked again, not silently replaced
    assert shown.count("a: play again") == 2
    assert shown.count("number: play that game") == 2  # the menu came back once
    assert shown.rstrip().endswith(">")  # quit at the menu prompt, nothing after it


def test_quit_after_a_game(monkeypatch: pytest.MonkeyPatch) -> None:
    shown = run_menu(monkeypatch, GAMES["wurfeltod"], "bot:greedy", "1", "q", "never read")
    assert shown.count("a: play again") == 1
    assert shown.count("number: play that game") == 1


def test_bots_are_described_before_the_players_are_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    shown = run_menu(monkeypatch, GAMES["wurfeltod"])
    assert "bot:optimal" in shown and "9,070 points" in shown


def test_rules_from_the_menu(monkeypatch: pytest.MonkeyPatch) -> None:
    shown = run_menu(monkeypatch, "r", "9", GAMES["dice-duel"], "q")
    assert f"type a number from 1 to {len(GAMES)}" in shown
    assert len(shown) > 2000


def test_markup_typed_or_named_in_the_menu_is_shown_as_typed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    keys = [GAMES["decathlon"], "[/]", "[red]x[/blue]", "", "[/]", "",
            "[/]:bot:greedy,[bold red]Ann[/]:bot:random,Ann:Bob", "[/],[/]"]  # fmt: skip
    shown = run_menu(monkeypatch, *keys)
    assert "'[/]' is not one of points, championship" in shown
    assert "'[red]x[/blue]' is not one of" in shown
    assert "'[/]' is not one of 100m," in shown
    assert "'Ann:Bob' names a team, and this game has no teams" in shown
    assert "two seats are named '[/]'" in shown


def test_unknown_menu_choice_is_asked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    shown = run_menu(monkeypatch, "[/]", "0", "q")
    assert shown.count(f"type a game number from 1 to {len(GAMES)}, r, s or q") == 2


def test_resume_a_saved_game_from_the_menu(
    monkeypatch: pytest.MonkeyPatch,
    data_dir: Path,
    cli: CliRunner,
) -> None:
    shown = run_menu(monkeypatch, "s", "q")
    assert "No saved unfinished games" in shown
    saves = data_dir / "saves"
    saves.mkdir()
    record = saves / "wurfeltod-1.jsonl"
    code, _, err = cli(["play", "wurfeltod", "--players", "bot:random", "--seed", "5",
                        "--record", str(saves / "done.jsonl")])  # fmt: skip
    assert code == 0, err  # a finished game: not offered
    code, _, err = cli(["play", "wurfeltod", "--players", "bot:greedy,bot:random", "--seed", "5",
                        "--record", str(record)])  # fmt: skip
    assert code == 0, err
    lines = record.read_text().splitlines()
    assert json.loads(lines[-1])["type"] == "results"
    record.write_text("\n".join(lines[:-10]) + "\n")  # cut short: an unfinished game
    (saves / "broken.jsonl").write_text("not json\n")
    os.mkfifo(saves / "fifo.jsonl")  # never opened, never waited on
    os.utime(record, (1, 1))

    # Issue 25: the list is `gamenight saves`'s: players and actions; finished and damaged
    # games are not offered.
    shown = run_menu(monkeypatch, "s", "x", "2", "s", "1", "s", "", "q")
    assert "type a number from 1 to 1, or press Enter" in shown
    assert "broken.jsonl" not in shown and "fifo.jsonl" not in shown
    assert "done.jsonl" not in shown
    assert "Greedy 1, Random 2" in shown
    assert shown.count("number: play that game") == 4  # back at the menu after each
    assert "Resumed Wurfeltod" in shown and "Final standings" in shown  # on the menu's console
    assert json.loads(record.read_text().splitlines()[-1])["type"] == "results"
