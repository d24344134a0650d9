"""Writing a record as the game is played: each line durable before it takes effect.

The :class:`RecordWriter` writes each line with ``os.write`` and ``fsync`` before
the action it records takes effect (:meth:`RecordWriter.on_step` is the table's
durable writer), so an acknowledged action is on disk. One sequence writes every
record: :meth:`RecordWriter.begin`, then :meth:`RecordWriter.on_step` per step
(the action that ends the game carries its results in the same write), live or
after the fact (:func:`write_moves`). The writer holds an exclusive lock on the
file while the game is open; a failed write leaves the file as it was before it.
"""

from __future__ import annotations

import contextlib
import fcntl
import io
import json
import os
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import IO

import msgspec
from typing_extensions import TypeVar

from gamenight import __version__
from gamenight.core.dice import DICE_SCHEME, SeededDice
from gamenight.core.errors import RecordBusyError, RecordError, RecordWriteError
from gamenight.core.events import Event
from gamenight.core.frames import Step
from gamenight.core.game import Game, Results, to_json
from gamenight.core.options import Options
from gamenight.core.record import disk
from gamenight.core.record.format import FORMAT, FORMAT_VERSION, Contribution, Json, RecordSeat
from gamenight.core.seeds import PLAYER_SCHEMES, PLAYERS, SERVER, commitment, dice_seed
from gamenight.core.table import Table

S = TypeVar("S", bound=msgspec.Struct, default=msgspec.Struct)
A = TypeVar("A", bound=msgspec.Struct, default=msgspec.Struct)
V = TypeVar("V", bound=msgspec.Struct, default=msgspec.Struct)
E = TypeVar("E", bound=Event, default=Event)

FailureHandler = Callable[["RecordWriter", RecordWriteError], None]


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
        # who made the next action for its seat when not its player (write_moves): an
        # action line then says ``"by"`` ("clock": the clock ran out and a bot moved)
        self.next_by: str | None = None

    # ----- opening ------------------------------------------------------------
    @classmethod
    def create(cls, path: Path, *, force: bool = False) -> RecordWriter:
        """A new record at ``path``, locked. An existing file is refused unless
        ``force``, and only an existing gamenight record (or an empty file) is
        ever overwritten."""
        if path.exists() or path.is_symlink():
            if not force:
                raise RecordError(
                    "{path} already exists; choose another file or add --force to replace it",
                    path=str(path),
                )
            if not path.is_file() or not disk.looks_like_record(path):
                raise RecordError(
                    "{path} is not a gamenight record; refusing to overwrite it, even with --force",
                    path=str(path),
                )
            fd = disk.open_file(path, os.O_RDWR | os.O_APPEND)
            writer = cls._locked(fd, path)
            try:
                os.ftruncate(fd, 0)
                disk.fsync(fd)
            except OSError as exc:
                writer.close()
                raise RecordError(  # the reason is the system's own text (not translated)
                    "cannot write record {path}: {reason}", path=str(path), reason=exc.strerror
                ) from None
            return writer
        fd = disk.open_file(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_EXCL)
        disk.sync_folder(path)
        return cls._locked(fd, path)

    @classmethod
    def _locked(cls, fd: int, path: Path, size: int = 0) -> RecordWriter:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            raise RecordBusyError(
                "{path}: this game is open in another gamenight; finish or quit it there first",
                path=str(path),
            ) from None
        writer = cls()
        writer._fd, writer.path, writer._size = fd, path, size
        return writer

    # ----- the lines --------------------------------------------------------------
    def header(
        self,
        game: Game[S, A, V, E],
        options: Options,
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
        row: dict[str, Json] = {
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

    def start(self, events: Sequence[Event]) -> None:
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
        if self.next_by is not None:
            rows[0]["by"] = self.next_by
        results = step.results()
        if results is not None:
            rows.append({"type": "results", "results": to_json(results)})
        self._line(*rows)
        self.actions_saved += 1

    def action(self, seat: int, action: object, events: Sequence[Event]) -> None:
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
                    view = view[disk.write(self._fd, view) :]
                disk.fsync(self._fd)
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
                disk.fsync(self._fd)
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
        data = disk.read_all(self._fd, self.path or Path("record"))
        keep = data.rfind(b"\n") + 1
        os.ftruncate(self._fd, keep)
        self._lines = [line + b"\n" for line in data[:keep].split(b"\n")[:-1]]
        self._size = keep
        self.actions_saved = sum(b'"type":"action"' in line for line in self._lines)

    def adopt(self, data: bytes, actions: int) -> None:
        """Take ``data``, the verified whole lines already in the file, as saved
        (``actions`` of them are actions): :func:`~gamenight.core.record.resume_record`
        opens a record this way."""
        self._size = len(data)
        self._lines = [line + b"\n" for line in data.split(b"\n")[:-1]]
        self.actions_saved = actions

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

    def _line(self, *rows: dict[str, Json]) -> None:
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
                view = view[disk.write(fd, view) :]
            disk.fsync(fd)
        except OSError as exc:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, self._size)  # put the file back as it was, if we can
                self._dirty = False
            reason = exc.strerror or str(exc) or type(exc).__name__
            raise RecordWriteError(  # the reason is the system's own text (not translated)
                "cannot save to {path}: {reason}", path=str(self.path), reason=reason
            ) from None
        self._size += len(data)
        self._dirty = False

    def _append_stream(self, data: bytes) -> None:
        assert self._stream is not None
        try:
            self._stream.write(data.decode())
            self._stream.flush()
            with contextlib.suppress(AttributeError, io.UnsupportedOperation):
                disk.fsync(self._stream.fileno())
        except OSError as exc:
            raise RecordWriteError(  # the reason is the system's own text (not translated)
                "cannot save the record: {reason}", reason=exc.strerror or exc
            ) from None


def _action_row(seat: int, action: object, events: Sequence[Event]) -> dict[str, Json]:
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
    movers: Sequence[str | None] | None = None,
) -> Table[S, A, V, E]:
    """Write a game played elsewhere (a server room, an RL episode) from its seed and
    moves: the same sequence as live play (:meth:`RecordWriter.begin`, then the
    writer as the table's durable writer), so the record is checked as it is made.
    ``contributions``: the players' entropy (the dice seed is derived from them), under
    the scheme ``entropy``. ``movers``: per move, who made it when not the seat's own
    player or bot (``"clock"``, ``"takeover"``; else None), written as the line's
    ``"by"`` (readers ignore it). Returns the table at the end."""
    dice = seed if contributions is None else dice_seed(seed, [c.value for c in contributions])
    table = Table.start(game, len(seats), options, SeededDice(seed=dice, scheme=dice_scheme))
    writer.begin(
        game, options, seed, seats, table.opening,
        seed_in_header=seed_in_header, dice_scheme=dice_scheme, contributions=contributions,
        entropy=entropy,
    )  # fmt: skip
    table.on_commit(writer.on_step)
    for i, (seat, action) in enumerate(moves):
        writer.next_by = movers[i] if movers is not None and i < len(movers) else None
        table.submit(seat, action)
    writer.next_by = None
    return table
