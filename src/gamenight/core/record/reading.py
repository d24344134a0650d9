"""Reading a record: its lines parsed and checked into a :class:`Record`.

Every malformed line raises :class:`~gamenight.core.errors.RecordError` naming it;
nothing here replays the game (:mod:`gamenight.core.record.replay` does).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import TypeVar

from gamenight.core.errors import Phrase, RecordError
from gamenight.core.files import FileProblem, read_bytes
from gamenight.core.record.format import (
    CONTRIBUTORS,
    FORMAT,
    MAX_DEPTH,
    SUPPORTED_VERSIONS,
    Contribution,
    Json,
    Record,
    RecordMovedError,
    RecordSeat,
)
from gamenight.core.seeds import (
    ENTROPY_SCHEMES,
    MAX_SEED_DIGITS,
    PLAYER_SCHEMES,
    check_contribution,
)

T = TypeVar("T")
Row = dict[str, Json]

_DIGITS = re.compile(rf"[0-9]{{1,{MAX_SEED_DIGITS}}}")  # the one seed limit (core.seeds)
_HEX64 = re.compile(r"[0-9a-f]{64}")


def read_record(path: Path, *, repair_tail: bool = False) -> Record:
    """Parse a record file; malformed input raises :class:`RecordError` naming the line."""
    if path.is_dir():
        raise RecordError("{path} is a folder, not a gamenight record", path=str(path))
    if not path.exists() and not path.is_symlink():
        raise RecordError("no such record file: {path}", path=str(path))
    try:  # regular files only, never waiting on a FIFO, of bounded size
        text = read_bytes(path).decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(
            "{path}: not a text file, so not a gamenight record", path=str(path)
        ) from None
    except FileProblem as exc:
        raise RecordError("record {problem}", problem=exc) from None
    return parse_record(text.splitlines(), str(path), repair_tail=repair_tail)


def parse_record(
    lines: Sequence[str], name: str = "record", *, repair_tail: bool = False
) -> Record:
    """Parse record lines. ``repair_tail`` drops a cut-off last line (a crash mid-write)
    in memory; :func:`~gamenight.core.record.resume_record` repairs the file itself.
    Replay never repairs."""
    if repair_tail and lines and not parses(lines[-1]):
        lines = lines[:-1]
    if not any(line.strip() for line in lines):
        raise RecordError("{name}: empty file, not a gamenight record", name=name)
    _refuse_moved(lines, name)
    rows = _json_lines(lines, name)
    lineno, head = next(rows, (0, {}))
    if head.get("type") != "header" or head.get("format") != FORMAT:
        raise RecordError(
            "{name}: not a gamenight record (line {line} is no record header)",
            name=name,
            line=lineno,
        )
    version = head.get("format_version")
    if (
        not isinstance(version, int)
        or isinstance(version, bool)
        or (version not in SUPPORTED_VERSIONS)
    ):
        raise RecordError(
            "{where}: record format version {version} is not supported "
            "(this gamenight reads {supported})",
            where=_line(name, lineno),
            version=repr(version),
            supported=", ".join(map(str, SUPPORTED_VERSIONS)),
        )
    record = _header(head, version, name, lineno)
    revealed = False
    for lineno, row in rows:
        if revealed:
            raise RecordError("{where}: data after the reveal line", where=_line(name, lineno))
        if row.get("type") == "reveal" and version >= 2:
            seed = _seed(row.get("seed"), name, lineno)
            if record.seed is not None and record.seed != seed:
                raise RecordError(
                    "{where}: the revealed seed is not the header's", where=_line(name, lineno)
                )
            record.seed, revealed = seed, True
        elif record.results is not None:
            raise RecordError("{where}: data after the results line", where=_line(name, lineno))
        else:
            _body_line(record, row, _line(name, lineno))
    return record


def _body_line(record: Record, row: Row, where: Phrase) -> None:
    """One line after the header and before any reveal: the start, an action or the
    results, added to ``record``."""
    kind = row.get("type")
    if kind == "start":
        record.start_events = _field(row, "events", list, where)
    elif kind == "action":
        seat = _field(row, "seat", int, where)
        events = _field(row, "events", list, where)
        if "action" not in row:
            raise RecordError("{where}: action line without 'action'", where=where)
        record.actions.append((seat, row["action"], events))
    elif kind == "results":
        record.results = row.get("results")
        if record.results is None:
            raise RecordError("{where}: results line without results", where=where)
    else:
        raise RecordError("{where}: unknown line type {kind}", where=where, kind=repr(kind))


def _refuse_moved(lines: Sequence[str], name: str) -> None:
    """A record whose game was saved elsewhere ends with ``{"type": "moved", "to": PATH}``
    (:meth:`RecordWriter.relocate`): it is refused, pointing to the new place."""
    last = next((line for line in reversed(lines) if line.strip()), "")
    if '"moved"' not in last or len(last) > 1 << 16:
        return
    try:
        row = json.loads(last)
    except (ValueError, RecursionError):
        return
    if isinstance(row, dict) and row.get("type") == "moved" and isinstance(row.get("to"), str):
        raise RecordMovedError(
            "{name}: this game was moved to {to} after a failed save; "
            "go on there: gamenight resume {to}",
            name=name,
            to=str(row["to"]),
        )


def _header(head: Row, version: int, name: str, lineno: int) -> Record:
    where = _line(name, lineno)
    record = Record(
        game=_field(head, "game", str, where),
        rules_version=_field(head, "rules_version", str, where),
        options=_field(head, "options", dict, where),
        seed=None,
        seats=_seats(head, where),
        format_version=version,
    )
    if version == 1:
        record.seed = _field(head, "seed", int, where)
        if record.seed < 0:
            raise RecordError("{where}: field 'seed' must be a non-negative integer", where=where)
        return record
    digest = head.get("commitment")
    if not isinstance(digest, str) or not _HEX64.fullmatch(digest):
        raise RecordError("{where}: field 'commitment' must be 64 hex digits", where=where)
    record.commitment = digest
    attachments = head.get("attachments", {})
    if not isinstance(attachments, dict):
        raise RecordError("{where}: field 'attachments' must be dict", where=where)
    record.attachments = attachments
    if "seed" in head:
        record.seed = _seed(head["seed"], name, lineno)
    record.seed_chosen = head.get("seed_chosen") is True
    if version >= 4:
        _entropy(record, head, where)
    started = head.get("started")
    record.started = started if isinstance(started, str) else None
    return record


def _seats(head: Row, where: Phrase) -> list[RecordSeat]:
    """The header's seats: a list of ``{"name": ..., "agent": ...}``."""
    rows = head.get("seats")
    if not isinstance(rows, list):
        raise RecordError("{where}: bad header field 'seats'", where=where)
    seats = []
    for row in rows:
        if not isinstance(row, dict) or "name" not in row or "agent" not in row:
            raise RecordError(
                "{where}: bad header field 'seats': each needs a name and agent", where=where
            )
        seats.append(RecordSeat(str(row["name"]), str(row["agent"])))
    return seats


def _entropy(record: Record, head: Row, where: Phrase) -> None:
    """A format-4 header's ``entropy`` scheme and, under player entropy, the
    ``contributions`` (none otherwise)."""
    entropy = head.get("entropy")
    if not isinstance(entropy, str) or entropy not in ENTROPY_SCHEMES:
        raise RecordError(
            "{where}: field 'entropy' must be one of {schemes}",
            where=where,
            schemes=", ".join(ENTROPY_SCHEMES),
        )
    record.entropy = entropy
    if entropy in PLAYER_SCHEMES:
        record.contributions = _contributions(head, len(record.seats), where)
    elif "contributions" in head:
        raise RecordError("{where}: contributions in a game without them", where=where)


def _contributions(head: Row, seats: int, at: Phrase) -> list[Contribution]:
    """The header's ``contributions``: one per seat in seat order, each a player's or
    the server's string, or a bot seat's null."""
    rows = head.get("contributions")
    if not isinstance(rows, list) or len(rows) != seats:
        raise RecordError("{where}: contributions must be a list with one entry per seat", where=at)
    out: list[Contribution] = []
    for index, row in enumerate(rows):
        if not isinstance(row, dict) or row.get("seat") != index:
            shape = f"{{'seat': {index}, ...}}"
            raise RecordError(
                "{where}: contributions: entry {index} must be {shape}",
                where=at,
                index=index,
                shape=shape,
            )
        by, value = row.get("by"), row.get("value")
        if not isinstance(by, str) or by not in CONTRIBUTORS:
            raise RecordError(
                "{where}: contributions: seat {index}: 'by' must be one of {kinds}",
                where=at,
                index=index,
                kinds=", ".join(CONTRIBUTORS),
            )
        if (by == "bot") != (value is None):
            raise RecordError(
                "{where}: contributions: seat {index}: only a bot seat has no value",
                where=at,
                index=index,
            )
        if value is not None:
            if not isinstance(value, str):
                raise RecordError(
                    "{where}: contributions: seat {index}: 'value' must be a string or null",
                    where=at,
                    index=index,
                )
            try:
                if check_contribution(value) != value:
                    raise ValueError("a contribution is stored NFC-normalised")
            except ValueError as exc:
                raise RecordError(
                    "{where}: contributions: seat {index}: {reason}",
                    where=at,
                    index=index,
                    reason=exc,
                ) from None
        out.append(Contribution(index, by, value))
    return out


def _line(name: str, lineno: int) -> Phrase:
    """Where in a record: ``NAME line N``, said in the player's language."""
    return Phrase("{name} line {line}", name=name, line=lineno)


def _seed(value: Json, name: str, lineno: int) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, str) and _DIGITS.fullmatch(value):
        return int(value)
    raise RecordError(
        "{where}: the seed must be a non-negative whole number", where=_line(name, lineno)
    )


def parses(line: str | bytes) -> bool:
    """Whether ``line`` is one whole JSON object (a complete record line)."""
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(obj, dict)


def _depth(value: Json) -> int:
    """How deeply ``value`` nests (without recursion)."""
    deepest = 0
    stack: list[tuple[Json, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            item = list(item.values())
        if isinstance(item, list):
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                break
            stack.extend((child, depth + 1) for child in item)
    return deepest


def _json_lines(lines: Sequence[str], name: str) -> Iterator[tuple[int, dict[str, Json]]]:
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj: Json = json.loads(line)
        except json.JSONDecodeError as exc:
            # the reason is the json module's own English (third-party text, not translated)
            raise RecordError(
                "{where}: invalid JSON ({reason})", where=_line(name, lineno), reason=exc.msg
            ) from None
        except RecursionError:
            raise RecordError(
                "{where}: JSON nested too deeply", where=_line(name, lineno)
            ) from None
        if not isinstance(obj, dict):
            if lineno == 1 or not any(ln.strip() for ln in lines[: lineno - 1]):
                raise RecordError(
                    "{name}: not a gamenight record (line {line} is no header)",
                    name=name,
                    line=lineno,
                )
            raise RecordError("{where}: expected a JSON object", where=_line(name, lineno))
        if _depth(obj) > MAX_DEPTH:
            raise RecordError("{where}: JSON nested too deeply", where=_line(name, lineno))
        yield lineno, obj


def _field(row: Row, key: str, kind: type[T], where: Phrase) -> T:
    value = row.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(
            "{where}: field '{key}' must be {kind}", where=where, key=key, kind=kind.__name__
        )
    return value
