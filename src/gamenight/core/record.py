"""Game records in JSON Lines: save, load, replay and verify.

Line 1 is a header (game id, rules version, options, seed, seats); line 2 the
events of the start; then one line per action with the events it caused; a
finished game ends with its results. Lines are flushed as they are written, so
an interrupted game loses nothing and can be resumed.

A record replays exactly because dice come from the seed: replaying re-derives
every roll and compares every event with the recorded one.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from gamenight import __version__
from gamenight.core import registry
from gamenight.core.dice import SeededDice
from gamenight.core.errors import GamenightError, IllegalActionError, OptionsError, RecordError
from gamenight.core.events import LooseEvent as Event
from gamenight.core.game import Game, Results, to_json

FORMAT = "gamenight-record"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class SeatInfo:
    name: str
    agent: str  # "human" or "bot:<name>"


@dataclass
class Record:
    """A parsed record; ``actions`` holds ``(seat, action JSON, events JSON)``."""

    game: str
    rules_version: str
    options: dict[str, Any]
    seed: int
    seats: list[SeatInfo]
    start_events: list[Any] = field(default_factory=list)
    actions: list[tuple[int, Any, list[Any]]] = field(default_factory=list)
    results: Any = None


class RecordWriter:
    """Appends a game to a JSON Lines file as it is played."""

    def __init__(self, stream: IO[str]) -> None:
        self._stream = stream

    @classmethod
    def create(cls, path: Path) -> RecordWriter:
        try:
            return cls(path.open("w", encoding="utf-8"))
        except OSError as exc:
            raise RecordError(f"cannot write record {path}: {exc.strerror}") from None

    @classmethod
    def append_to(cls, path: Path) -> RecordWriter:
        try:
            return cls(path.open("a", encoding="utf-8"))
        except OSError as exc:
            raise RecordError(f"cannot append to record {path}: {exc.strerror}") from None

    def header(
        self, game: Game[Any, Any], options: dict[str, Any], seed: int, seats: Sequence[SeatInfo]
    ) -> None:
        self._line(
            {
                "type": "header",
                "format": FORMAT,
                "format_version": FORMAT_VERSION,
                "game": game.info.id,
                "rules_version": game.info.rules_version,
                "gamenight": __version__,
                "options": options,
                "seed": seed,
                "seats": [{"name": s.name, "agent": s.agent} for s in seats],
            }
        )

    def start(self, events: Sequence[Event]) -> None:
        self._line({"type": "start", "events": [to_json(e) for e in events]})

    def action(self, seat: int, action: Any, events: Sequence[Event]) -> None:
        self._line(
            {
                "type": "action",
                "seat": seat,
                "action": to_json(action),
                "events": [to_json(e) for e in events],
            }
        )

    def results(self, results: Results) -> None:
        self._line({"type": "results", "results": to_json(results)})

    def close(self) -> None:
        self._stream.close()

    def _line(self, obj: dict[str, Any]) -> None:
        self._stream.write(json.dumps(obj, separators=(",", ":")) + "\n")
        self._stream.flush()


def read_record(path: Path, *, repair_tail: bool = False) -> Record:
    """Parse a record file; malformed input raises :class:`RecordError` naming the line."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"no such record file: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(f"cannot read record {path}: {exc}") from None
    return parse_record(text.splitlines(), str(path), repair_tail=repair_tail)


def parse_record(
    lines: Sequence[str], name: str = "record", *, repair_tail: bool = False
) -> Record:
    """Parse record lines. ``repair_tail`` drops a cut-off last line (a crash mid-write),
    so an interrupted game can still be resumed; replay never repairs."""
    if repair_tail and lines and not _parses(lines[-1]):
        lines = lines[:-1]
    rows = list(_json_lines(lines, name))
    if not rows:
        raise RecordError(f"{name}: empty file, expected a gamenight record")
    lineno, head = rows[0]
    if head.get("type") != "header" or head.get("format") != FORMAT:
        raise RecordError(f"{name} line {lineno}: not a gamenight record header")
    if head.get("format_version") != FORMAT_VERSION:
        raise RecordError(
            f"{name} line {lineno}: record format version {head.get('format_version')!r} "
            f"is not supported (expected {FORMAT_VERSION})"
        )
    try:
        seats = [SeatInfo(str(s["name"]), str(s["agent"])) for s in head["seats"]]
        record = Record(
            game=_field(head, "game", str, name, lineno),
            rules_version=_field(head, "rules_version", str, name, lineno),
            options=_field(head, "options", dict, name, lineno),
            seed=_field(head, "seed", int, name, lineno),
            seats=seats,
        )
    except (KeyError, TypeError) as exc:
        raise RecordError(f"{name} line {lineno}: bad header field {exc}") from None
    for lineno, row in rows[1:]:
        kind = row.get("type")
        if record.results is not None:
            raise RecordError(f"{name} line {lineno}: data after the results line")
        if kind == "start":
            record.start_events = _field(row, "events", list, name, lineno)
        elif kind == "action":
            seat = _field(row, "seat", int, name, lineno)
            events = _field(row, "events", list, name, lineno)
            if "action" not in row:
                raise RecordError(f"{name} line {lineno}: action line without 'action'")
            record.actions.append((seat, row["action"], events))
        elif kind == "results":
            record.results = row.get("results")
        else:
            raise RecordError(f"{name} line {lineno}: unknown line type {kind!r}")
    return record


@dataclass
class ReplayReport:
    game: str
    actions: int
    results: Results
    final_state: Any


def replay(record: Record, name: str = "record", *, require_finished: bool = True) -> ReplayReport:
    """Replay ``record`` through the engine, checking every event and the results.

    Raises :class:`RecordError` on the first difference, naming the action.
    """
    try:
        entry = registry.get(record.game)
    except GamenightError as exc:
        raise RecordError(f"{name}: {exc}") from None
    game: Game[Any, Any] = entry.game
    if record.rules_version != game.info.rules_version:
        raise RecordError(
            f"{name}: recorded with {game.info.id} rules version {record.rules_version}, "
            f"this gamenight has {game.info.rules_version}"
        )
    try:
        options = game.parse_options(record.options)
        step = game.start(len(record.seats), options, SeededDice(seed=record.seed))
    except OptionsError as exc:
        raise RecordError(f"{name}: header: {exc}") from None
    _compare(step.events, record.start_events, f"{name}: start of game")
    state = step.state
    for index, (seat, raw_action, raw_events) in enumerate(record.actions, start=1):
        where = f"{name}: action {index}"
        try:
            action = game.decode_action(raw_action)
            step = game.apply(state, seat, action)
        except IllegalActionError as exc:
            raise RecordError(f"{where}: {exc}") from None
        _compare(step.events, raw_events, where)
        state = step.state
    finished = game.is_terminal(state)
    if not finished:
        if require_finished or record.results is not None:
            raise RecordError(
                f"{name}: the game is not finished after {len(record.actions)} actions"
            )
        return ReplayReport(game.info.id, len(record.actions), Results((), (), ()), state)
    results = game.results(state)
    if record.results is None:
        raise RecordError(f"{name}: the game is over but the record has no results line")
    if to_json(results) != record.results:
        where, mine, theirs = first_difference(to_json(results), record.results)
        raise RecordError(
            f"{name}: results differ at {where}: replay gives {mine!r}, record says {theirs!r}"
        )
    return ReplayReport(game.info.id, len(record.actions), results, state)


def _compare(events: Sequence[Event], recorded: list[Any], where: str) -> None:
    produced = [to_json(e) for e in events]
    if produced == recorded:
        return
    for i, (mine, theirs) in enumerate(zip(produced, recorded, strict=False), start=1):
        if mine != theirs:
            at, ours, recorded_value = first_difference(mine, theirs)
            raise RecordError(
                f"{where}: event {i} differs at {at}: replay gives {ours!r}, "
                f"record says {recorded_value!r}"
            )
    raise RecordError(f"{where}: replay gives {len(produced)} events, record has {len(recorded)}")


def first_difference(mine: Any, theirs: Any, at: str = "$") -> tuple[str, Any, Any]:
    """The first place two JSON values differ, as (path, mine, theirs).

    >>> first_difference({"scores": [3, 5]}, {"scores": [3, 6]})
    ('$.scores[1]', 5, 6)
    >>> first_difference({"a": 1}, {"b": 1})
    ('$.a', 1, None)
    """
    if isinstance(mine, dict) and isinstance(theirs, dict):
        for key in [*mine, *(k for k in theirs if k not in mine)]:
            if mine.get(key) != theirs.get(key):
                return first_difference(mine.get(key), theirs.get(key), f"{at}.{key}")
    elif isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs):
        for index, (a, b) in enumerate(zip(mine, theirs, strict=True)):
            if a != b:
                return first_difference(a, b, f"{at}[{index}]")
    return at, mine, theirs


def _parses(line: str) -> bool:
    try:
        json.loads(line)
    except json.JSONDecodeError:
        return False
    return True


def _json_lines(lines: Sequence[str], name: str) -> Iterator[tuple[int, dict[str, Any]]]:
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{name} line {lineno}: invalid JSON ({exc.msg})") from None
        if not isinstance(obj, dict):
            raise RecordError(f"{name} line {lineno}: expected a JSON object")
        yield lineno, obj


def _field(row: dict[str, Any], key: str, kind: type, name: str, lineno: int) -> Any:
    value = row.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{name} line {lineno}: field '{key}' must be {kind.__name__}")
    return value
