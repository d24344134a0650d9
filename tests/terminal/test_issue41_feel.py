"""Issue 41's open items that need no screen: ASCII stand-ins as wide as the glyphs
they replace, NO_COLOR marks where colour alone told something, a token example the
team may really place, the keys in every game's prompt, and the choices offered are
all legal."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from rich.cells import cell_len
from rich.console import Console

from gamenight.core import registry
from gamenight.core.dice import SeededDice
from gamenight.core.table import Table
from gamenight.terminal import ui_for
from gamenight.terminal.glyphs import FALLBACK, STAND_INS, fitted
from gamenight.terminal.ui import Prompter, Seating


@pytest.fixture(autouse=True)
def data_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))


@pytest.mark.parametrize("encoding", ["ascii", "latin-1"])
def test_every_stand_in_is_as_wide_as_its_glyph(encoding: str) -> None:
    """In an ISO-8859-1 (or ASCII) locale a board keeps its right border: each glyph's
    stand-in takes its columns exactly ("[1]" for a die face pushed the border out)."""
    for char in STAND_INS:
        assert cell_len(fitted(char, encoding)) == cell_len(char), repr(char)
    board = "│ ⚀ ⚅ … → ≥ ½ ± 🏆 │"
    shown = board.encode(encoding, errors=FALLBACK).decode(encoding)
    assert cell_len(shown) == cell_len(board), shown


def _first_decision(game_id: str, players: int, seed: int, **options: Any) -> tuple[Any, ...]:
    entry = registry.get(game_id)
    table = Table.start(
        entry.game, players, entry.game.parse_options(options), SeededDice(seed=seed)
    )
    seat = table.to_act()[0]
    position = table.position(seat)
    return entry, table, seat, position


def test_no_color_marks_the_red_dice_and_the_penalty(monkeypatch: pytest.MonkeyPatch) -> None:
    """Under NO_COLOR Dice Duel's red dice carry a mark (K1: the colour decides a
    flush) and Wurfeltod's penalty is reversed, not a red that turns grey."""
    from gamenight.terminal.dice_duel import dice_text
    from gamenight.terminal.wurfeltod import describe

    _, _, _, duel = _first_decision("dice-duel", 2, 3)
    coloured = dice_text(duel.view).plain
    monkeypatch.setenv("NO_COLOR", "1")
    marked = dice_text(duel.view)
    assert "*" in marked.plain and "*" not in coloured
    assert cell_len(marked.plain.splitlines()[0]) == cell_len(coloured.splitlines()[0])
    from gamenight.games.wurfeltod.categories import Category
    from gamenight.games.wurfeltod.rules import Book

    _, _, _, wurf = _first_decision("wurfeltod", 2, 3)
    text = describe(Book(Category.FIVE_OF_A_KIND), wurf.view)
    if "-250" in text.plain:
        styles = {str(span.style) for span in text.spans}
        assert "bold reverse" in styles


def test_the_token_example_is_one_the_team_may_place(tmp_path: Path) -> None:
    """Play The Decades to its first token question: the prompt's example parses to a
    legal placement (the fixed "4@1987" was never legal)."""
    from gamenight.terminal.decades import extend_prompt
    from gamenight.terminal.decades_keys import parse_command

    entry = registry.get("decades")
    for seed in range(1, 6):
        table = Table.start(entry.game, 2, entry.game.parse_options({}), SeededDice(seed=seed))
        for _ in range(200):
            seat = table.to_act()[0]
            position = table.position(seat)
            view: Any = position.view
            if view.phase == "extend":
                legal: list[Any] = list(position.legal)
                prompt = extend_prompt(legal)
                assert "4@1987" not in prompt or parse_command("4@1987", view, legal) in legal
                if "e.g." in prompt:
                    example = prompt.split("e.g. ", 1)[1].split(",", 1)[0]
                    action = parse_command(example, view, legal)
                    assert action in legal, (prompt, action)
                break
            table.submit(seat, position.legal[0])
        else:
            pytest.fail("no token question came")


@pytest.mark.parametrize("game_id", ["dice-duel", "wurfeltod", "decathlon"])
def test_every_prompt_names_its_keys_and_offers_only_legal_choices(game_id: str) -> None:
    """No bare "Ann>": the keys are in the prompt; each choice offered beside the board
    is a key the game's parser reads as a legal action."""
    entry = registry.get(game_id)
    players = 1 if game_id == "decathlon" else 2
    _, _table, seat, position = _first_decision(game_id, players, 5)
    ui = ui_for(entry)
    asked: list[tuple[str, tuple[Any, ...]]] = []

    def reader(prompt: str) -> str:
        raise EOFError

    class Recorder(Prompter):
        def ask(self, prompt: str, **kwargs: Any) -> str:
            asked.append((prompt, tuple(kwargs.get("choices", ()))))
            raise EOFError

    prompter = Recorder(Console(file=io.StringIO(), width=100), reader=reader)
    seating = Seating(["Ann", "Bob"][:players], frozenset({0}))
    with pytest.raises(EOFError):
        ui.ask(prompter, position.view, list(position.legal), seat, seating)
    prompt, choices = asked[0]
    assert prompt.strip() not in ("Ann>", "Ann:>") and "?" in prompt, prompt
    for key, _ in choices:
        action = ui.parse_command(key, position.view, list(position.legal))
        assert action in position.legal, (key, action)
