"""Game records in JSON Lines: write durably, load, replay and verify.

Format version 4 (``docs/fairness.md`` says why it looks like this; version 3 is
version 2 with dice scheme 2, bound by the commitment; version 4 adds ``entropy``):

1. a header: game id, rules version, options, ``attachments`` (content the
   options name, e.g. a user deck, so the record replays on any machine), the
   seats, the ``commitment`` (:func:`gamenight.core.seeds.commitment` over the
   seed, the game, its rules version and the options) and, in a local record,
   the ``seed`` itself (decimal string) so the game can be resumed; the
   ``entropy`` scheme (:data:`~gamenight.core.seeds.SERVER`: the seed is the dice
   seed; :data:`~gamenight.core.seeds.PLAYERS`: the dice seed is
   :func:`~gamenight.core.seeds.dice_seed` of the seed and the ``contributions``,
   one per seat, each with who made it);
2. the events of the start;
3. one line per action with the events it caused;
4. a finished game's ``results``;
5. optionally a last ``{"type": "reveal", "seed": "..."}`` line: a record written
   by a server keeps the seed out of the header and reveals it only here.

A record replays exactly because dice come from the seed: :func:`replay` checks
that the seed matches the commitment, re-derives every roll and card, and
compares every event with the recorded one. Version 1 records (seed in the
header, no commitment) still replay, without the commitment check.

The :class:`RecordWriter` writes each line with ``os.write`` and ``fsync`` before
the action it records takes effect (:meth:`RecordWriter.on_step` is the table's
durable writer), so an acknowledged action is on disk. One sequence writes every
record: :meth:`RecordWriter.begin`, then :meth:`RecordWriter.on_step` per step
(the action that ends the game carries its results in the same write), live or
after the fact (:func:`write_moves`). :func:`replay` hands the same steps to
visitors (python-chess's pgn visitor is the model), once. The writer holds an
exclusive lock on the file while the game is open; a failed write leaves the file
as it was before it.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import IO, Any

import msgspec
from typing_extensions import TypeVar

from gamenight import __version__
from gamenight.core import registry
from gamenight.core.dice import DICE_SCHEME, SeededDice
from gamenight.core.errors import (
    GamenightError,
    IllegalActionError,
    OptionsError,
    RecordBusyError,
    RecordError,
    RecordWriteError,
)
from gamenight.core.events import Event
from gamenight.core.files import FileProblem, check_regular, read_bytes
from gamenight.core.frames import Step
from gamenight.core.game import AnyGame, Game, Results, to_json
from gamenight.core.options import Options
from gamenight.core.seeds import (
    ENTROPY_SCHEMES,
    MAX_SEED_DIGITS,
    PLAYER_SCHEMES,
    PLAYERS,
    SERVER,
    check_contribution,
    commitment,
    committed_scheme,
    dice_seed,
    fingerprint,
    server_part,
)
from gamenight.core.table import Listener, Table

S = TypeVar("S", bound=msgspec.Struct, default=msgspec.Struct)
A = TypeVar("A", bound=msgspec.Struct, default=msgspec.Struct)
V = TypeVar("V", bound=msgspec.Struct, default=msgspec.Struct)
E = TypeVar("E", bound=Event, default=Event)

FORMAT = "gamenight-record"
FORMAT_VERSION = 4  # 3: dice scheme 2 bound by the commitment; 4: the entropy scheme named
SUPPORTED_VERSIONS = (1, 2, 3, 4)
MAX_DEPTH = 64  # deeper JSON is damage, not a record (and would exhaust the stack)
_DIGITS = re.compile(rf"[0-9]{{1,{MAX_SEED_DIGITS}}}")  # the one seed limit (core.seeds)
_HEX64 = re.compile(r"[0-9a-f]{64}")


@dataclass(frozen=True)
class RecordSeat:
    name: str
    agent: str  # "human" or "bot:<name>"


CONTRIBUTORS = ("player", "server", "bot")


@dataclass(frozen=True)
class Contribution:
    """One seat's part of a game's dice seed (entropy scheme PLAYERS): ``by`` the
    ``"player"`` (their client sent ``value``), the ``"server"`` (it sent none in time)
    or ``"bot"`` (a bot seat contributes nothing: ``value`` is None)."""

    seat: int
    by: str
    value: str | None

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "by": self.by, "value": self.value}


@dataclass
class Record:
    """A parsed record; ``actions`` holds ``(seat, action JSON, events JSON)``.

    ``seed`` is ``None`` while it is secret (a server record before its reveal).
    """

    game: str
    rules_version: str
    options: dict[str, Any]
    seed: int | None
    seats: list[RecordSeat]
    commitment: str | None = None
    attachments: dict[str, Any] = field(default_factory=dict)
    format_version: int = FORMAT_VERSION
    started: str | None = None
    start_events: list[Any] = field(default_factory=list)
    actions: list[tuple[int, Any, list[Any]]] = field(default_factory=list)
    results: Any = None
    entropy: str = SERVER
    contributions: list[Contribution] = field(default_factory=list)
    seed_chosen: bool = False  # the player chose the seed (--seed): not secret

    @property
    def finished(self) -> bool:
        return self.results is not None

    def dice_seed(self) -> int | None:
        """The seed the dice came from (None while the seed is secret)."""
        if self.seed is None or self.entropy == SERVER:
            return self.seed
        return dice_seed(self.seed, [c.value for c in self.contributions])


FailureHandler = Callable[["RecordWriter", RecordWriteError], None]


def _write(fd: int, data: bytes | memoryview) -> int:
    """``os.write`` (one place, so tests can inject faults)."""
    return os.write(fd, data)


def _fsync(fd: int) -> None:
    """``os.fsync`` (one place, so tests can inject faults)."""
    os.fsync(fd)


class RecordWriter:
    """Appends a game to a JSON Lines record as it is played.

    Open a file with :meth:`create` or :func:`resume_record` (both lock it), or
    wrap any text stream (tests, in-memory records). Each line is written and
    synced before the method returns; a failure raises :class:`RecordWriteError`
    after putting the file back as it was, unless ``on_failure`` is set: it is
    called with the error and may :meth:`relocate` the record; when it returns
    the line is tried again, when it raises the error goes up.
    """

    def __init__(self, stream: IO[str] | None = None) -> None:
        self._stream = stream
        self._fd: int | None = None
        self.path: Path | None = None
        self._size = 0  # bytes known to be on disk
        self._dirty = False  # bytes after _size may be on disk (a failed line)
        self._lines: list[bytes] = []
        self.seed_chosen = False  # written into the header: the seed was given, not drawn
        self.actions_saved = 0
        self.on_failure: FailureHandler | None = None

    # ----- opening ------------------------------------------------------------
    @classmethod
    def create(cls, path: Path, *, force: bool = False) -> RecordWriter:
        """A new record at ``path``, locked. An existing file is refused unless
        ``force``, and only an existing gamenight record (or an empty file) is
        ever overwritten."""
        if path.exists() or path.is_symlink():
            if not force:
                raise RecordError(
                    f"{path} already exists; choose another file or add --force to replace it"
                )
            if not path.is_file() or not _looks_like_record(path):
                raise RecordError(
                    f"{path} is not a gamenight record; refusing to overwrite it, even with --force"
                )
            fd = _open(path, os.O_RDWR | os.O_APPEND)
            writer = cls._locked(fd, path)
            try:
                os.ftruncate(fd, 0)
                _fsync(fd)
            except OSError as exc:
                writer.close()
                raise RecordError(f"cannot write record {path}: {exc.strerror}") from None
            return writer
        fd = _open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_EXCL)
        _sync_folder(path)
        return cls._locked(fd, path)

    @classmethod
    def _locked(cls, fd: int, path: Path, size: int = 0) -> RecordWriter:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise RecordBusyError(
                f"{path}: this game is open in another gamenight; finish or quit it there first"
            ) from None
        writer = cls()
        writer._fd, writer.path, writer._size = fd, path, size
        return writer

    # ----- the lines --------------------------------------------------------------
    def header(
        self,
        game: Game[S, A, V, E],
        options: dict[str, Any],
        seed: int,
        seats: Sequence[RecordSeat],
        *,
        seed_in_header: bool = True,
        dice_scheme: int = DICE_SCHEME,
        contributions: Sequence[Contribution] | None = None,
        entropy: str = PLAYERS,
    ) -> None:
        """The header line. ``seed_in_header=False`` keeps the seed secret (write it
        with :meth:`reveal` at the end); local records keep it so they can resume.
        ``dice_scheme`` 1 writes a format-2 record (a game begun before scheme 2).
        ``contributions`` (one per seat): a game with player entropy, whose dice
        seed is :func:`~gamenight.core.seeds.dice_seed` of ``seed`` and them."""
        plain = to_json(options)
        if contributions is None:
            entropy = SERVER
        elif entropy not in PLAYER_SCHEMES:
            raise ValueError(f"contributions take a player entropy scheme, not {entropy}")
        row: dict[str, Any] = {
            "type": "header",
            "format": FORMAT,
            "format_version": FORMAT_VERSION if dice_scheme != 1 else 2,
            "entropy": entropy,
            "game": game.info.id,
            "rules_version": game.info.rules_version,
            "gamenight": __version__,
            "started": datetime.now(UTC).isoformat(timespec="seconds"),
            "options": plain,
            "attachments": to_json(game.attachments(options)),
            "commitment": commitment(
                seed,
                game.info.id,
                game.info.rules_version,
                plain,
                dice=dice_scheme,
                entropy=entropy,
            ),
            "seats": [{"name": s.name, "agent": s.agent} for s in seats],
        }
        if dice_scheme == 1:
            del row["entropy"]  # format 2 has no such field
        if contributions is not None:
            if dice_scheme == 1 or len(contributions) != len(seats):
                raise ValueError("player entropy takes dice scheme 2 and one part per seat")
            row["contributions"] = [c.to_json() for c in contributions]
        if seed_in_header:
            row["seed"] = str(seed)
        if self.seed_chosen:  # so a resumed game says it is not secret, as it began
            row["seed_chosen"] = True
        self._line(row)

    def start(self, events: Sequence[Any]) -> None:
        self._line({"type": "start", "events": [to_json(e) for e in events]})

    def begin(
        self,
        game: Game[S, A, V, E],
        options: Options,
        seed: int,
        seats: Sequence[RecordSeat],
        opening: Step[S, A, V, E],
        *,
        seed_in_header: bool = True,
        dice_scheme: int = DICE_SCHEME,
        contributions: Sequence[Contribution] | None = None,
        entropy: str = PLAYERS,
    ) -> None:
        """The header and the start of the game (step 0): the first two lines."""
        self.header(
            game, options, seed, seats, seed_in_header=seed_in_header,
            dice_scheme=dice_scheme, contributions=contributions, entropy=entropy,
        )  # fmt: skip
        self.start(opening.events)

    def on_step(self, step: Step[S, A, V, E]) -> None:
        """A table's durable writer (:meth:`Table.on_commit`): the action's line and,
        if it ends the game, the results line, in one write (both or neither)."""
        assert step.seat is not None, "step 0 is written by begin"
        rows = [_action_row(step.seat, step.action, step.events)]
        results = step.results()
        if results is not None:
            rows.append({"type": "results", "results": to_json(results)})
        self._line(*rows)
        self.actions_saved += 1

    def action(self, seat: int, action: Any, events: Sequence[Any]) -> None:
        """One action line (tests and repairs; a table's writer is :meth:`on_step`)."""
        self._line(_action_row(seat, action, events))
        self.actions_saved += 1

    def results(self, results: Results) -> None:
        self._line({"type": "results", "results": to_json(results)})

    def reveal(self, seed: int) -> None:
        """The last line of a record whose header keeps the seed secret."""
        self._line({"type": "reveal", "seed": str(seed)})

    # ----- moving and closing ---------------------------------------------------------
    def relocate(self, path: Path, *, force: bool = False) -> None:
        """Write everything saved so far to a new file ``path`` and go on there."""
        new = RecordWriter.create(path, force=force)
        try:
            new._append(b"".join(self._lines))
        except RecordWriteError:
            new.close()
            with contextlib.suppress(OSError):
                path.unlink()
            raise
        new._lines = list(self._lines)
        new.actions_saved, new.on_failure = self.actions_saved, self.on_failure
        self._mark_moved(path)
        self.close()
        self.__dict__.update(new.__dict__)

    def _mark_moved(self, to: Path) -> None:
        """End the old file with a ``moved`` line so it is never played on beside the new
        one (the same dice, already seen). On a full disk the line may not fit: then the
        old file is cut to nothing first (the new file holds all of it, synced) and
        holds the ``moved`` line alone. Best effort: a file that takes neither stays."""
        if self._fd is None:
            return
        line = (json.dumps({"type": "moved", "to": str(to.resolve())}) + "\n").encode()
        for cut in (False, True):
            try:
                if cut or self._dirty:
                    os.ftruncate(self._fd, 0 if cut else self._size)
                view = memoryview(line)
                while view:
                    view = view[_write(self._fd, view) :]
                _fsync(self._fd)
                return
            except OSError:
                continue

    def forget_last_action(self, seat: int) -> bool:
        """Cut the last line if it is an action of ``seat`` (an undo), so the record
        reads as if it had never been made. False, changing nothing, otherwise."""
        if not self._lines:
            return False
        try:
            row = json.loads(self._lines[-1])
        except ValueError:
            return False
        if row.get("type") != "action" or row.get("seat") != seat:
            return False
        size = self._size - len(self._lines[-1])
        if self._fd is not None:
            try:
                os.ftruncate(self._fd, size)
                _fsync(self._fd)
            except OSError:
                return False
        elif self._stream is not None:
            return False
        self._lines.pop()
        self._size = size
        self.actions_saved -= 1
        return True

    def _reload(self) -> None:
        assert self._fd is not None
        data = _read_all(self._fd, self.path or Path("record"))
        keep = data.rfind(b"\n") + 1
        os.ftruncate(self._fd, keep)
        self._lines = [line + b"\n" for line in data[:keep].split(b"\n")[:-1]]
        self._size = keep
        self.actions_saved = sum(b'"type":"action"' in line for line in self._lines)

    def close(self) -> None:
        """Close the file (releasing its lock)."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None
        elif self._stream is not None:
            self._stream.close()

    @property
    def lines_saved(self) -> int:
        return len(self._lines)

    def _line(self, *rows: dict[str, Any]) -> None:
        """Append ``rows`` as lines in one write: all of them or none."""
        lines = [(json.dumps(row, separators=(",", ":")) + "\n").encode() for row in rows]
        data = b"".join(lines)
        while True:
            try:
                self._append(data)
                break
            except RecordWriteError as exc:
                if self.on_failure is None:
                    raise
                self.on_failure(self, exc)
        self._lines.extend(lines)

    def _append(self, data: bytes) -> None:
        if self._fd is None:
            self._append_stream(data)
            return
        fd = self._fd
        try:
            if self._dirty:
                os.ftruncate(fd, self._size)
                self._dirty = False
            elif os.fstat(fd).st_size != self._size:
                self._reload()  # someone cut the file (an undo): follow it
            view = memoryview(data)
            self._dirty = True
            while view:
                view = view[_write(fd, view) :]
            _fsync(fd)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, self._size)  # put the file back as it was, if we can
                self._dirty = False
            reason = exc.strerror or str(exc) or type(exc).__name__
            raise RecordWriteError(f"cannot save to {self.path}: {reason}") from None
        self._size += len(data)
        self._dirty = False

    def _append_stream(self, data: bytes) -> None:
        assert self._stream is not None
        try:
            self._stream.write(data.decode())
            self._stream.flush()
            with contextlib.suppress(AttributeError, io.UnsupportedOperation):
                _fsync(self._stream.fileno())
        except OSError as exc:
            raise RecordWriteError(f"cannot save the record: {exc.strerror or exc}") from None


def _action_row(seat: int, action: Any, events: Sequence[Any]) -> dict[str, Any]:
    return {
        "type": "action",
        "seat": seat,
        "action": to_json(action),
        "events": [to_json(e) for e in events],
    }


def write_moves(
    writer: RecordWriter,
    game: Game[S, A, V, E],
    options: Options,
    seed: int,
    seats: Sequence[RecordSeat],
    moves: Sequence[tuple[int, A]],
    *,
    seed_in_header: bool = True,
    dice_scheme: int = DICE_SCHEME,
    contributions: Sequence[Contribution] | None = None,
    entropy: str = PLAYERS,
) -> Table[S, A, V, E]:
    """Write a game played elsewhere (a server room, an RL episode) from its seed and
    moves: the same sequence as live play (:meth:`RecordWriter.begin`, then the
    writer as the table's durable writer), so the record is checked as it is made.
    ``contributions``: the players' entropy (the dice seed is derived from them), under
    the scheme ``entropy``. Returns the table at the end."""
    dice = seed if contributions is None else dice_seed(seed, [c.value for c in contributions])
    table = Table.start(game, len(seats), options, SeededDice(seed=dice, scheme=dice_scheme))
    writer.begin(
        game, options, seed, seats, table.opening,
        seed_in_header=seed_in_header, dice_scheme=dice_scheme, contributions=contributions,
        entropy=entropy,
    )  # fmt: skip
    table.on_commit(writer.on_step)
    for seat, action in moves:
        table.submit(seat, action)
    return table


def _open(path: Path, flags: int) -> int:
    try:
        return os.open(path, flags | getattr(os, "O_CLOEXEC", 0), 0o644)
    except FileNotFoundError:
        if flags & os.O_CREAT:
            raise RecordError(f"cannot write record {path}: no such folder") from None
        raise RecordError(f"no such record file: {path}") from None
    except FileExistsError:
        raise RecordError(f"{path} already exists; choose another file") from None
    except OSError as exc:
        raise RecordError(f"cannot open record {path}: {exc.strerror or exc}") from None


def _sync_folder(path: Path) -> None:
    """Make a new file's name durable too (best effort)."""
    try:
        fd = os.open(path.parent or Path("."), os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _looks_like_record(path: Path) -> bool:
    """Whether ``path`` is empty or starts with a gamenight record header."""
    try:
        with path.open("rb") as stream:
            first = stream.readline(1 << 20)
    except OSError:
        return False
    if not first.strip():
        return path.stat().st_size == 0
    try:
        head = json.loads(first)
    except (ValueError, RecursionError):
        return False
    return isinstance(head, dict) and head.get("format") == FORMAT


class RecordMovedError(RecordError):
    """The game of this record was saved elsewhere after a failed write; go on there."""

    def __init__(self, name: str, to: str) -> None:
        super().__init__(
            f"{name}: this game was moved to {to} after a failed save; "
            f"go on there: gamenight resume {to}"
        )
        self.to = to


# ----- resuming ---------------------------------------------------------------------------
@dataclass
class Resumed:
    """An unfinished record opened for more play: locked, verified and repaired."""

    writer: RecordWriter
    record: Record
    report: ReplayReport
    backup: Path | None  # where the damaged original was kept, if the tail was repaired


def resume_record(path: Path) -> Resumed:
    """Open the unfinished game at ``path`` to go on playing it.

    Takes the record's lock (:class:`RecordBusyError` if another gamenight has
    it), replays it (:class:`RecordError` if damaged or finished), and repairs a
    cut-off last line ON DISK before anything is appended: the original is kept
    as ``FILE.bak`` and the file truncated to its last complete line.
    """
    fd = _open(path, os.O_RDWR | os.O_APPEND | getattr(os, "O_NONBLOCK", 0))
    try:
        check_regular(fd, path)  # a FIFO or a device is no record (reading it would wait)
    except FileProblem as exc:
        os.close(fd)
        raise RecordError(f"record {exc}") from None
    fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
    writer = RecordWriter._locked(fd, path)
    try:
        data = _read_all(fd, path)
        good = _complete_lines(data)
        try:
            text = good.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError(f"{path}: not a text file, so not a gamenight record") from None
        record = parse_record(text.splitlines(), str(path))
        report = replay(record, str(path), require_finished=False, results_optional=True)
        backup = None
        if good != data:
            backup = path.with_name(path.name + ".bak")
            _keep_backup(backup, data)
            keep = data.rfind(b"\n") + 1
            try:
                os.ftruncate(fd, keep)
                if len(good) > keep:
                    _write(fd, good[keep:])
                _fsync(fd)
            except OSError as exc:
                raise RecordError(f"cannot repair {path}: {exc.strerror or exc}") from None
        writer._size = len(good)
        writer._lines = [line + b"\n" for line in good.split(b"\n")[:-1]]
        writer.actions_saved = len(record.actions)
        if report.finished:
            if record.results is None:  # the game ended but its last line was lost
                writer.results(report.results)
                raise RecordError(
                    f"{path}: that game is already finished (its results are now saved)"
                )
            raise RecordError(f"{path}: that game is already finished")
    except BaseException:
        writer.close()
        raise
    return Resumed(writer, record, report, backup)


def _read_all(fd: int, path: Path) -> bytes:
    chunks = []
    offset = 0
    try:
        while chunk := os.pread(fd, 1 << 20, offset):
            chunks.append(chunk)
            offset += len(chunk)
    except OSError as exc:
        raise RecordError(f"cannot read record {path}: {exc.strerror or exc}") from None
    return b"".join(chunks)


def _complete_lines(data: bytes) -> bytes:
    """``data`` up to its last complete line. A last line without its newline is
    kept (with one added) only if it is a whole JSON object, else dropped.

    >>> _complete_lines(b'{"a":1}\\n{"b":')
    b'{"a":1}\\n'
    >>> _complete_lines(b'{"a":1}\\n{"b":2}')
    b'{"a":1}\\n{"b":2}\\n'
    """
    keep = data.rfind(b"\n") + 1
    tail = data[keep:]
    if tail.strip() and _parses(tail):
        return data + b"\n"
    return data[:keep]


def _keep_backup(backup: Path, data: bytes) -> None:
    try:
        with backup.open("wb") as stream:
            stream.write(data)
            stream.flush()
            _fsync(stream.fileno())
    except OSError as exc:
        raise RecordError(
            f"cannot keep a backup {backup} before repairing: {exc.strerror or exc}"
        ) from None


# ----- reading ---------------------------------------------------------------------------
def read_record(path: Path, *, repair_tail: bool = False) -> Record:
    """Parse a record file; malformed input raises :class:`RecordError` naming the line."""
    if path.is_dir():
        raise RecordError(f"{path} is a folder, not a gamenight record")
    if not path.exists() and not path.is_symlink():
        raise RecordError(f"no such record file: {path}")
    try:  # regular files only, never waiting on a FIFO, of bounded size
        text = read_bytes(path).decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError(f"{path}: not a text file, so not a gamenight record") from None
    except FileProblem as exc:
        raise RecordError(f"record {exc}") from None
    return parse_record(text.splitlines(), str(path), repair_tail=repair_tail)


def parse_record(
    lines: Sequence[str], name: str = "record", *, repair_tail: bool = False
) -> Record:
    """Parse record lines. ``repair_tail`` drops a cut-off last line (a crash mid-write)
    in memory; :func:`resume_record` repairs the file itself. Replay never repairs."""
    if repair_tail and lines and not _parses(lines[-1]):
        lines = lines[:-1]
    if not any(line.strip() for line in lines):
        raise RecordError(f"{name}: empty file, not a gamenight record")
    _refuse_moved(lines, name)
    rows = _json_lines(lines, name)
    lineno, head = next(rows, (0, {}))
    if head.get("type") != "header" or head.get("format") != FORMAT:
        raise RecordError(f"{name}: not a gamenight record (line {lineno} is no record header)")
    version = head.get("format_version")
    if version not in SUPPORTED_VERSIONS or isinstance(version, bool):
        raise RecordError(
            f"{name} line {lineno}: record format version {version!r} is not supported "
            f"(this gamenight reads {', '.join(map(str, SUPPORTED_VERSIONS))})"
        )
    record = _header(head, version, name, lineno)
    revealed = False
    for lineno, row in rows:
        kind = row.get("type")
        if revealed:
            raise RecordError(f"{name} line {lineno}: data after the reveal line")
        if kind == "reveal" and version >= 2:
            seed = _seed(row.get("seed"), name, lineno)
            if record.seed is not None and record.seed != seed:
                raise RecordError(f"{name} line {lineno}: the revealed seed is not the header's")
            record.seed, revealed = seed, True
            continue
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
            if record.results is None:
                raise RecordError(f"{name} line {lineno}: results line without results")
        else:
            raise RecordError(f"{name} line {lineno}: unknown line type {kind!r}")
    return record


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
        raise RecordMovedError(name, row["to"])


def _header(head: dict[str, Any], version: int, name: str, lineno: int) -> Record:
    try:
        seats = [RecordSeat(str(s["name"]), str(s["agent"])) for s in head["seats"]]
    except (KeyError, TypeError) as exc:
        raise RecordError(f"{name} line {lineno}: bad header field {exc}") from None
    record = Record(
        game=_field(head, "game", str, name, lineno),
        rules_version=_field(head, "rules_version", str, name, lineno),
        options=_field(head, "options", dict, name, lineno),
        seed=None,
        seats=seats,
        format_version=version,
    )
    if version == 1:
        record.seed = _field(head, "seed", int, name, lineno)
        if record.seed < 0:
            raise RecordError(f"{name} line {lineno}: field 'seed' must be a non-negative integer")
        return record
    digest = head.get("commitment")
    if not isinstance(digest, str) or not _HEX64.fullmatch(digest):
        raise RecordError(f"{name} line {lineno}: field 'commitment' must be 64 hex digits")
    record.commitment = digest
    record.attachments = head.get("attachments", {})
    if not isinstance(record.attachments, dict):
        raise RecordError(f"{name} line {lineno}: field 'attachments' must be dict")
    if "seed" in head:
        record.seed = _seed(head["seed"], name, lineno)
    record.seed_chosen = head.get("seed_chosen") is True
    if version >= 4:
        record.entropy = head.get("entropy")  # type: ignore[assignment]
        if record.entropy not in ENTROPY_SCHEMES:
            raise RecordError(
                f"{name} line {lineno}: field 'entropy' must be one of {', '.join(ENTROPY_SCHEMES)}"
            )
        if record.entropy in PLAYER_SCHEMES:
            record.contributions = _contributions(head, len(seats), name, lineno)
        elif "contributions" in head:
            raise RecordError(f"{name} line {lineno}: contributions in a game without them")
    started = head.get("started")
    record.started = started if isinstance(started, str) else None
    return record


def _contributions(head: dict[str, Any], seats: int, name: str, lineno: int) -> list[Contribution]:
    """The header's ``contributions``: one per seat in seat order, each a player's or
    the server's string, or a bot seat's null."""
    rows = head.get("contributions")
    where = f"{name} line {lineno}: contributions"
    if not isinstance(rows, list) or len(rows) != seats:
        raise RecordError(f"{where} must be a list with one entry per seat")
    out = []
    for index, row in enumerate(rows):
        if not isinstance(row, dict) or row.get("seat") != index:
            raise RecordError(f"{where}: entry {index} must be {{'seat': {index}, ...}}")
        by, value = row.get("by"), row.get("value")
        if by not in CONTRIBUTORS:
            raise RecordError(f"{where}: seat {index}: 'by' must be one of {CONTRIBUTORS}")
        if (by == "bot") != (value is None):
            raise RecordError(f"{where}: seat {index}: only a bot seat has no value")
        if value is not None:
            try:
                if check_contribution(value) != value:
                    raise ValueError("a contribution is stored NFC-normalised")
            except ValueError as exc:
                raise RecordError(f"{where}: seat {index}: {exc}") from None
        out.append(Contribution(index, by, value))
    return out


def _check_server_parts(record: Record, name: str) -> None:
    """Under :data:`~gamenight.core.seeds.PLAYERS` every part the server made for a
    silent seat is :func:`~gamenight.core.seeds.server_part` of the revealed seed: the
    server could not choose it after seeing the players' parts."""
    if record.entropy != PLAYERS or record.seed is None:
        return
    for part in record.contributions:
        if part.by == "server" and part.value != server_part(record.seed, part.seat):
            raise RecordError(
                f"{name}: seat {part.seat + 1}'s part, made by the server, is not the one "
                "its committed seed gives; this record's dice were changed"
            )


def _seed(value: Any, name: str, lineno: int) -> int:
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    if isinstance(value, str) and _DIGITS.fullmatch(value):
        return int(value)
    raise RecordError(f"{name} line {lineno}: the seed must be a non-negative whole number")


# ----- replaying --------------------------------------------------------------------------
@dataclass
class ReplayReport:
    game: str
    actions: int
    results: Results
    final_state: Any
    finished: bool = True
    committed: bool = False  # the seed was checked against the header's commitment
    table: Table | None = None
    dice_scheme: int = DICE_SCHEME  # the dice the record was played with (core.dice)


def replay(
    record: Record,
    name: str = "record",
    *,
    require_finished: bool = True,
    visitors: Sequence[Listener] = (),
    results_optional: bool = False,
) -> ReplayReport:
    """Replay ``record`` through a :class:`Table`, checking the seed against the
    commitment, every event and the results. Each of ``visitors`` gets every
    :class:`~gamenight.core.frames.Step` once, in order: the start (step 0), then
    each action after it is checked (so a visitor takes what it needs, e.g. a seat's
    :meth:`~gamenight.core.frames.Step.frame`). ``results_optional``: a finished game
    may lack its results line (the write of it failed).

    Raises :class:`RecordError` on the first difference, naming the action.
    """
    try:
        entry = registry.get(record.game)
        game: AnyGame = entry.game
    except (GamenightError, ModuleNotFoundError) as exc:
        raise RecordError(f"{name}: {exc}") from None
    if record.rules_version != game.info.rules_version:
        older = game.older_rules(record.rules_version)  # a revised game keeps its old reading
        if older is None or older.info.rules_version != record.rules_version:
            raise RecordError(
                f"{name}: recorded with {game.info.id} rules version {record.rules_version}, "
                f"this gamenight has {game.info.rules_version}"
            )
        game = older
    if record.seed is None:
        raise RecordError(
            f"{name}: the seed is not revealed yet (the game is still secret), "
            "so its dice cannot be checked"
        )
    committed = record.commitment is not None
    scheme = 1  # records of format 1 predate commitments and dice scheme 2
    if record.commitment is not None:
        bound = committed_scheme(
            record.commitment, record.seed, record.game, record.rules_version, record.options,
            entropy=record.entropy,
        )  # fmt: skip
        scheme = bound or 0
        if bound is None or (bound == 1) != (record.format_version < 3):
            short = fingerprint(record.commitment)
            raise RecordError(
                f"{name}: the seed does not match the commitment {short} made before the game; "
                "this record's dice were changed"
            )
    _check_server_parts(record, name)
    try:
        game.attach(record.attachments)
        options = game.parse_options(record.options)
        dice = record.dice_seed()
        assert dice is not None  # the seed is revealed
        table: Table = Table.start(
            game, len(record.seats), options, SeededDice(seed=dice, scheme=scheme)
        )
    except (OptionsError, ValueError, TypeError) as exc:
        raise RecordError(f"{name}: header: {exc}") from None
    _compare(table.start_events, record.start_events, f"{name}: start of game")
    for visit in visitors:
        visit(table.opening)
    for index, (seat, raw_action, raw_events) in enumerate(record.actions, start=1):
        where = f"{name}: action {index}"
        try:
            step = table.prepare(seat, game.decode_action(raw_action))
        except IllegalActionError as exc:
            raise RecordError(f"{where}: {exc}") from None
        _compare(step.events, raw_events, where)
        table.commit(step)
        for visit in visitors:
            visit(step)
    state = table.state
    if not table.finished:
        if require_finished or record.results is not None:
            raise RecordError(
                f"{name}: the game is not finished after {len(record.actions)} actions"
            )
        return ReplayReport(
            game.info.id,
            len(record.actions),
            Results((), (), ()),
            state,
            False,
            committed,
            table,
            scheme,
        )
    results = game.results(state)
    if record.results is None and not results_optional:
        raise RecordError(f"{name}: the game is over but the record has no results line")
    if record.results is not None and to_json(results) != record.results:
        where, mine, theirs = first_difference(to_json(results), record.results)
        raise RecordError(
            f"{name}: results differ at {where}: replay gives {mine!r}, record says {theirs!r}"
        )
    return ReplayReport(
        game.info.id, len(record.actions), results, state, True, committed, table, scheme
    )


def _compare(events: Sequence[Any], recorded: list[Any], where: str) -> None:
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


def _parses(line: str | bytes) -> bool:
    try:
        obj = json.loads(line)
    except (ValueError, RecursionError):
        return False
    return isinstance(obj, dict)


def _depth(value: Any) -> int:
    """How deeply ``value`` nests (without recursion)."""
    deepest = 0
    stack = [(value, 1)]
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


def _json_lines(lines: Sequence[str], name: str) -> Iterator[tuple[int, dict[str, Any]]]:
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{name} line {lineno}: invalid JSON ({exc.msg})") from None
        except RecursionError:
            raise RecordError(f"{name} line {lineno}: JSON nested too deeply") from None
        if not isinstance(obj, dict):
            if lineno == 1 or not any(ln.strip() for ln in lines[: lineno - 1]):
                raise RecordError(f"{name}: not a gamenight record (line {lineno} is no header)")
            raise RecordError(f"{name} line {lineno}: expected a JSON object")
        if _depth(obj) > MAX_DEPTH:
            raise RecordError(f"{name} line {lineno}: JSON nested too deeply")
        yield lineno, obj


def _field(row: dict[str, Any], key: str, kind: type, name: str, lineno: int) -> Any:
    value = row.get(key)
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise RecordError(f"{name} line {lineno}: field '{key}' must be {kind.__name__}")
    return value
