"""A terminal game session: agents for humans, narration, saving and resuming."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import platformdirs
from rich.console import Console
from rich.rule import Rule

from gamenight.cli.players import SeatSpec
from gamenight.core.agents import Agent, Decision
from gamenight.core.errors import IllegalActionError
from gamenight.core.events import Event
from gamenight.core.game import Results
from gamenight.core.record import RecordWriter, SeatInfo
from gamenight.core.registry import GameEntry
from gamenight.core.runner import Match
from gamenight.core.seeds import derive
from gamenight.terminal import ui_for
from gamenight.terminal.ui import Prompter, Table, TerminalUI


class HumanAgent:
    """A human at this terminal; the game's UI turns keystrokes into actions."""

    label = "human"

    def __init__(self, ui: TerminalUI, prompter: Prompter, table: Table, hidden: bool) -> None:
        self.ui, self.prompter, self.table, self.hidden = ui, prompter, table, hidden

    def act(self, decision: Decision[Any, Any]) -> Any:
        console = self.prompter.console
        name = self.table.names[decision.seat]
        if self.hidden:
            # Hot seat with secrets: clear, hand over, and clear again afterwards.
            console.clear()
            self.prompter.ask(f"Pass the terminal to {name}, then press Enter ")
        console.print(Rule(f"{name} to act"))
        self.ui.show(console, decision.view, decision.seat, self.table)
        while True:
            action = self.ui.ask(
                self.prompter, decision.view, decision.legal, decision.seat, self.table
            )
            if action in decision.legal:
                break
            self.prompter.error("that is not a legal choice here; try again")
        if self.hidden:
            console.clear()
        return action

    def observe(self, seat: int, events: Sequence[Event]) -> None:
        return None


@dataclass
class Session:
    entry: GameEntry
    seats: list[SeatSpec]
    options: dict[str, Any]
    seed: int
    console: Console
    prompter: Prompter
    record_path: Path | None = None
    narrate: bool | None = None  # default: narrate when a human plays

    def build(self, *, append: bool = False) -> Match:
        game = self.entry.game
        ui: TerminalUI = ui_for(self.entry)
        humans = frozenset(i for i, s in enumerate(self.seats) if s.bot is None)
        table = Table([s.name for s in self.seats], humans)
        hidden = bool(game.info.hidden_info) and len(humans) > 1
        agents: list[Agent[Any, Any]] = []
        for index, seat in enumerate(self.seats):
            if seat.bot is None:
                agents.append(HumanAgent(ui, self.prompter, table, hidden))
            else:
                agents.append(self.entry.make_bot(seat.bot, derive(self.seed, "bot", index)))
        if self.record_path is None and humans:
            if game.info.hidden_info:
                # A record is the referee's log: its seed and actions reveal every secret,
                # so a file the players could open mid-game would break T7. Opt-in only.
                self.console.print(
                    "[dim]No autosave: a record would reveal hidden choices to anyone who "
                    "opens it. Use --record FILE to keep a referee's log.[/]"
                )
            else:
                self.record_path = autosave_path(game.info.id)
        writer = None
        if self.record_path is not None:
            opener = RecordWriter.append_to if append else RecordWriter.create
            writer = opener(self.record_path)
        seat_infos = [SeatInfo(s.name, s.agent) for s in self.seats]
        match = Match(game, self.options, self.seed, seat_infos, agents, record=writer)
        narrate = bool(humans) if self.narrate is None else self.narrate
        if narrate:
            match.observers.append(lambda _seq, events: ui.show_events(self.console, events, table))
        self._ui, self._table = ui, table
        return match

    def finish(self, match: Match) -> Results:
        """Play ``match`` to the end and show the standings."""
        if match.state is None:
            match.begin()
        results = match.run()
        view = match.game.view(match.state, None)
        self.console.print(Rule("Final standings"))
        self._ui.show_results(self.console, results, view, self._table)
        return results


def autosave_path(game_id: str) -> Path:
    folder = Path(platformdirs.user_data_dir("gamenight")) / "saves"
    folder.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    for n in itertools.count():
        path = folder / f"{game_id}-{stamp}{'-' + str(n) if n else ''}.jsonl"
        if not path.exists():
            return path
    raise AssertionError("unreachable")


def restore(match: Match, actions: Sequence[tuple[int, Any]]) -> None:
    """Re-apply already recorded actions (for resume), without re-recording them."""
    try:
        decoded = [(seat, match.game.decode_action(raw)) for seat, raw in actions]
        match.begin(replayed=decoded)
    except IllegalActionError as exc:  # pragma: no cover - replay checked first
        raise IllegalActionError(f"cannot resume: {exc}") from None
