"""A terminal game session: agents for humans, narration, saving and resuming."""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import IO, Any

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
from gamenight.terminal.ui import (
    Prompter,
    Table,
    TerminalUI,
    UndoRequested,
    clear_screen,
    plain,
)


class HumanAgent:
    """A human at this terminal; the game's UI turns keystrokes into actions.

    ``hidden``: another human shares the terminal and the game has secrets, so the
    terminal is handed over between turns with the screen *and* scrollback
    cleared, and secret entries are not echoed (T7). Against bots nothing is
    hidden. When :func:`attach_undo` gave it the match, the human may take back
    their last action with ``u`` (see :meth:`may_undo`).
    """

    label = "human"

    def __init__(self, ui: TerminalUI, prompter: Prompter, table: Table, hidden: bool) -> None:
        self.ui, self.prompter, self.table, self.hidden = ui, prompter, table, hidden
        self.match: Match | None = None
        self.record_path: Path | None = None

    def act(self, decision: Decision[Any, Any]) -> Any:
        console = self.prompter.console
        seat = decision.seat
        name = self.table.names[seat]
        if self.hidden:
            # Hot seat with secrets: clear, hand over, and clear again afterwards.
            clear_screen(console)
            self.prompter.ask(f"Pass the terminal to {name}, then press Enter ")
        view, legal = decision.view, decision.legal
        while True:
            console.print(Rule(plain(f"{name} to act")))
            self.ui.show(console, view, seat, self.table)
            prompter = self.prompter
            saved = prompter.hide_secrets, prompter.undo
            prompter.hide_secrets, prompter.undo = self.hidden, self.may_undo(seat)
            if prompter.undo:
                prompter.say(plain("u takes back your last move", "dim"))
            try:
                action = self._ask(prompter, view, legal, seat)
            except UndoRequested:
                view, legal = self._undo(seat, view, legal)
                continue
            finally:
                prompter.hide_secrets, prompter.undo = saved
            break
        if self.hidden:
            clear_screen(console)
        return action

    def _ask(self, prompter: Prompter, view: Any, legal: Sequence[Any], seat: int) -> Any:
        while True:
            action = self.ui.ask(prompter, view, legal, seat, self.table)
            if action in legal:
                return action
            prompter.error("that is not a legal choice here; try again")

    def may_undo(self, seat: int) -> bool:
        """Undo is offered when every opponent is a bot and the game calls the last
        action, which was this seat's, reversible (no dice thrown, nothing revealed
        since: Game.reversible)."""
        table = None if self.match is None else self.match.table
        return (
            table is not None
            and not self.hidden
            and len(self.table.humans) == 1
            and table.can_undo(seat)
            and (self.record_path is None or _record_stream(self.match) is not None)
        )

    def _undo(self, seat: int, view: Any, legal: Sequence[Any]) -> tuple[Any, Sequence[Any]]:
        """Take back ``seat``'s last action (table and record); the new view and legal."""
        assert self.match is not None and self.match.table is not None
        table = self.match.table
        if self.record_path is not None:
            stream = _record_stream(self.match)
            if stream is None or not forget_last_action(self.record_path, seat, stream):
                self.prompter.error("the record cannot forget that move, so it stays")
                return view, legal
        table.undo(seat)
        self.prompter.say(plain("Your last move is taken back.", "bold"))
        snap = table.snapshot(seat)
        return snap.view, snap.legal

    def observe(self, seat: int, events: Sequence[Event]) -> None:
        return None


def attach_undo(match: Match, record_path: Path | None) -> None:
    """Let the match's human agents offer undo (they need its table and record)."""
    for agent in match.agents:
        if isinstance(agent, HumanAgent):
            agent.match, agent.record_path = match, record_path


def _record_stream(match: Match | None) -> IO[str] | None:
    """The open record file of ``match``, if it can be cut back (for undo)."""
    stream = getattr(match.record, "_stream", None) if match is not None else None
    return stream if stream is not None and stream.seekable() else None


def forget_last_action(path: Path, seat: int, stream: IO[str] | None = None) -> bool:
    """Cut the record's last line if it is an action of ``seat``: an undo leaves the
    record as if the action had never been made (so replay and resume agree with the
    table). Returns False, changing nothing, when the last line is anything else.
    ``stream``, the writer's open file, is flushed first and then moved to the new
    end, so the next line follows the cut (not a hole where the old line was).

    >>> import json, tempfile
    >>> rows = [{"type": "header"}, {"type": "action", "seat": 0}]
    >>> with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
    ...     _ = f.write("".join(json.dumps(r) + "\\n" for r in rows))
    >>> forget_last_action(Path(f.name), 1), forget_last_action(Path(f.name), 0)
    (False, True)
    >>> Path(f.name).read_text()
    '{"type": "header"}\\n'
    >>> forget_last_action(Path(f.name), 0)
    False
    """
    try:
        if stream is not None:
            stream.flush()
        with path.open("rb+") as file:
            data = file.read()
            if not data.endswith(b"\n"):
                return False
            cut = data.rfind(b"\n", 0, len(data) - 1) + 1
            try:
                row = json.loads(data[cut:])
            except ValueError:
                return False
            if not isinstance(row, dict) or row.get("type") != "action" or row.get("seat") != seat:
                return False
            file.truncate(cut)
            file.flush()
            os.fsync(file.fileno())
        if stream is not None:
            stream.seek(0, os.SEEK_END)
    except OSError:
        return False
    return True


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
        attach_undo(match, self.record_path)
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
