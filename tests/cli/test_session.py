"""Terminal sessions: scripted humans, saving on interrupt, and resuming."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from rich.console import Console

from gamenight.cli.players import parse_players
from gamenight.cli.session import Session, restore
from gamenight.core import registry
from gamenight.core.record import read_record, replay
from gamenight.terminal.ui import Prompter

# Wurfeltod: book one box per turn straight after the first roll.
KEYS = [
    "p",
    "pp",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "s",
    "4k",
    "3p",
    "tt",
    "4p",
    "5k",
    "5s",
    "sp",
    "6k",
    "6s",
    "f",
    "f",
]


def _reader(answers: Iterator[str], stop_after: int | None = None) -> Prompter:
    console = Console(file=io.StringIO(), width=100)
    count = 0

    def read(_prompt: str) -> str:
        nonlocal count
        count += 1
        if stop_after is not None and count > stop_after:
            raise KeyboardInterrupt
        return next(answers)

    return Prompter(console=console, reader=read)


def test_interrupted_game_is_saved_and_resumes(tmp_path: Path) -> None:
    entry = registry.get("wurfeltod")
    seats = parse_players("Ann", list(entry.bots))
    options = entry.game.parse_options({})
    path = tmp_path / "save.jsonl"
    typo_then_keys = iter(["nonsense", *(f"b {k}" for k in KEYS)])
    prompter = _reader(typo_then_keys, stop_after=6)
    session = Session(entry, seats, options, 9, prompter.console, prompter, path)
    match = session.build()
    with pytest.raises(KeyboardInterrupt):
        session.finish(match)
    saved = read_record(path)
    assert len(saved.actions) == 5  # the typo was re-asked, not applied
    assert "✗" in prompter.console.file.getvalue()  # type: ignore[attr-defined]

    rest = iter(f"b {k}" for k in KEYS[5:])
    prompter = _reader(rest)
    assert saved.seed is not None
    session = Session(entry, seats, options, saved.seed, prompter.console, prompter, path)
    match = session.build(append=True)
    restore(match, [(seat, action) for seat, action, _ in saved.actions])
    results = session.finish(match)
    report = replay(read_record(path))
    assert report.results == results
    assert report.actions == 20


class _StubUI:
    """Records what the session asks of a game UI."""

    def __init__(self) -> None:
        self.answers = iter(["illegal", "legal"])

    def show(self, console: Console, view: object, seat: int | None, table: object) -> None:
        console.print(f"VIEW {view}")

    def ask(self, prompter: Prompter, view: object, legal: object, seat: int, table: object) -> Any:
        return next(self.answers)

    def show_events(self, console: Console, events: object, table: object) -> None:
        return None

    def show_results(self, console: Console, results: object, view: object, table: object) -> None:
        return None

    def parse_command(self, text: str, view: object, legal: object) -> Any:
        return text


def test_hidden_entry_hands_over_and_refuses_illegal_choices() -> None:
    from gamenight.cli.session import HumanAgent
    from gamenight.core import Decision
    from gamenight.terminal.ui import Seating

    prompts: list[str] = []
    console = Console(file=io.StringIO(), width=80)

    def read(prompt: str) -> str:
        prompts.append(prompt)
        return ""

    prompter = Prompter(console=console, reader=read)
    agent = HumanAgent(
        _StubUI(), prompter, Seating(["Red", "Blue"], frozenset({0, 1})), hidden=True
    )
    action = agent.act(Decision[Any, Any]("decades", 1, "secret-of-blue", ["legal"]))
    assert action == "legal"
    assert prompts == ["Pass the terminal to Blue, then press Enter "]
    assert "not a legal choice" in console.file.getvalue()  # type: ignore[attr-defined]


def test_hidden_information_games_keep_an_autosave_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 10 item 8: a lost game is worse than a file one must open on purpose to
    peek (T7; the trade-off is in docs/fairness.md), so hot-seat Decades autosaves."""
    monkeypatch.setattr("platformdirs.user_data_dir", lambda *_args: str(tmp_path))
    entry = registry.get("decades")
    prompter = _reader(iter([]))
    seats = parse_players("Red:Ann,Blue:Bob", list(entry.bots))
    session = Session(entry, seats, entry.game.parse_options({}), 1, prompter.console, prompter)
    match = session.build()
    assert session.record_path is not None
    assert session.record_path.parent == tmp_path / "saves"
    match.begin()
    assert session.writer is not None
    session.writer.close()
    wurfeltod = registry.get("wurfeltod")
    other = Session(wurfeltod, parse_players("Ann", ["random"]), {}, 1, prompter.console, prompter)
    other.build()
    assert other.record_path is not None
    assert other.record_path.parent == tmp_path / "saves"
