"""Saved games (``gamenight saves``, ``resume --last``) and ``replay --as SEAT``."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.rule import Rule
from rich.table import Table as RichTable
from rich.text import Text

from gamenight.cli.session import saves_folder
from gamenight.core.errors import RecordError
from gamenight.core.frames import Frame, Step
from gamenight.core.game import to_json
from gamenight.core.i18n import _
from gamenight.core.record import Record, RecordMovedError, RecordSeat, read_record
from gamenight.core.registry import GameEntry
from gamenight.terminal import ui_for
from gamenight.terminal.ui import Seating


@dataclass(frozen=True)
class SavedGame:
    path: Path
    game: str
    when: datetime  # last written
    players: tuple[str, ...]
    actions: int
    moved_to: str | None = None  # saved elsewhere after a failed write: go on there


def list_saves(folder: Path | None = None) -> list[SavedGame]:
    """The unfinished games in the saves folder, newest first (damaged files and anything
    but regular files skipped; a game moved elsewhere is listed with where it went)."""
    folder = saves_folder() if folder is None else folder
    found = []
    try:
        paths = list(folder.glob("*.jsonl"))
    except OSError:
        return []
    for path in paths:
        try:
            when = datetime.fromtimestamp(path.stat().st_mtime)
            record = read_record(path, repair_tail=True)
        except RecordMovedError as moved:
            found.append(SavedGame(path, "", when, (), 0, moved_to=moved.to))
            continue
        except (RecordError, OSError):
            continue
        if record.finished:
            continue
        names = tuple(s.name for s in record.seats)
        found.append(SavedGame(path, record.game, when, names, len(record.actions)))
    return sorted(found, key=lambda s: (s.when, s.path.name), reverse=True)


def newest_unfinished(folder: Path | None = None) -> Path | None:
    saves = [s for s in list_saves(folder) if s.moved_to is None]
    return saves[0].path if saves else None


def show_saves(console: Console, saves: Sequence[SavedGame]) -> None:
    for save in saves:
        if save.moved_to is not None:
            console.print(
                Text(
                    _("{name} was moved to {to} (resume it there)").format(
                        name=save.path.name, to=save.moved_to
                    )
                ),
                style="dim",
                soft_wrap=True,
            )
    saves = [s for s in saves if s.moved_to is None]
    if not saves:
        console.print(_("No saved unfinished games."))
        return
    table = saves_table(saves)
    if console.is_terminal:
        console.print(table)
    else:  # piped: a path is one line, however long, for the next program to read
        Console(file=console.file, width=10_000, color_system=None).print(table)
    console.print(
        Text(_("Resume one with: gamenight resume PATH (the newest: --last)"), style="dim")
    )


def saves_table(saves: Sequence[SavedGame], *, numbered: bool = False) -> RichTable:
    """The saved games as ``gamenight saves`` and the menu list them: game, when,
    players, actions and path (``numbered``: a first column to pick one by)."""
    headers = [_("game"), _("when"), _("players"), _("actions")]
    table = RichTable(*(["#"] if numbered else []), *headers, box=None)
    table.add_column(_("path"), overflow="fold")
    for n, save in enumerate(saves, start=1):
        table.add_row(
            *([str(n)] if numbered else []),
            save.game,
            save.when.strftime("%Y-%m-%d %H:%M"),
            Text(", ".join(save.players)),
            str(save.actions),
            Text(str(save.path)),
        )
    return table


# ----- replay --as SEAT -----------------------------------------------------------------
def resolve_seat(text: str, seats: Sequence[RecordSeat]) -> int | None:
    """A seat by number (from 1) or name; ``spectator`` is ``None``.

    >>> seats = [RecordSeat("Ann", "human"), RecordSeat("Bob", "bot:greedy")]
    >>> resolve_seat("2", seats), resolve_seat("ann", seats), resolve_seat("spectator", seats)
    (1, 0, None)
    """
    wanted = text.strip()
    if wanted.isascii() and wanted.isdigit() and 1 <= int(wanted) <= len(seats):
        return int(wanted) - 1
    for index, seat in enumerate(seats):
        if seat.name.casefold() == wanted.casefold():
            return index
    if wanted.lower() == "spectator":
        return None
    names = ", ".join(s.name for s in seats)
    raise RecordError(
        "--as {text}: no such seat (give 1 to {n}, a name ({names}) or spectator)",
        text=repr(text),
        n=len(seats),
        names=names,
    )


@dataclass
class SeatView:
    """A replay visitor: collects one seat's frame of every step (its events and each
    action in the form it had for that seat at the time)."""

    viewer: int | None
    frames: list[Frame] = field(default_factory=list)

    def __call__(self, step: Step) -> None:
        self.frames.append(step.frame(self.viewer))


def show_as(console: Console, entry: GameEntry, record: Record, seen: SeatView) -> None:
    """Print the game as ``seen.viewer`` saw it, with the game's own narration."""
    ui = ui_for(entry)
    names = [s.name for s in record.seats]
    seating = Seating(names, frozenset(i for i, s in enumerate(record.seats) if s.agent == "human"))
    if seen.viewer is None:
        title = _("What a spectator saw")
    else:
        title = _("What {name} saw").format(name=names[seen.viewer])
    console.print(Rule(Text(title)))
    for frame in seen.frames:
        if frame.seat is not None:
            what = _("(hidden)") if frame.action is None else describe(frame.action)
            console.print(Text(f"{frame.seq}. {names[frame.seat]}: {what}", "dim"))
        if frame.events:
            ui.show_events(console, list(frame.events), seating)
    console.print(Rule())


def describe(action: Any) -> str:
    """An action in one line: its kind and its fields.

    >>> import msgspec
    >>> class Keep(msgspec.Struct, tag="keep"):
    ...     dice: tuple[int, ...]
    >>> describe(Keep((1, 6)))
    'keep dice=[1, 6]'
    """
    raw = to_json(action)
    if not isinstance(raw, dict):
        return json.dumps(raw)
    kind = raw.pop("type", None) or type(action).__name__
    rest = " ".join(f"{key}={json.dumps(value)}" for key, value in raw.items())
    return f"{kind} {rest}".strip()
