"""Resuming an unfinished record: locked, verified by replay, a cut-off tail repaired."""

from __future__ import annotations

import fcntl
import os
from dataclasses import dataclass
from pathlib import Path

from gamenight.core.errors import RecordError
from gamenight.core.files import FileProblem, check_regular
from gamenight.core.record import disk
from gamenight.core.record.format import Record
from gamenight.core.record.reading import parse_record, parses
from gamenight.core.record.replay import ReplayReport, replay
from gamenight.core.record.writer import RecordWriter


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
    fd = disk.open_file(path, os.O_RDWR | os.O_APPEND | getattr(os, "O_NONBLOCK", 0))
    try:
        check_regular(fd, path)  # a FIFO or a device is no record (reading it would wait)
    except FileProblem as exc:
        os.close(fd)
        raise RecordError("record {problem}", problem=exc) from None
    fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
    writer = RecordWriter._locked(fd, path)
    try:
        data = disk.read_all(fd, path)
        good = _complete_lines(data)
        try:
            text = good.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError(
                "{path}: not a text file, so not a gamenight record", path=str(path)
            ) from None
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
                    disk.write(fd, good[keep:])
                disk.fsync(fd)
            except OSError as exc:
                raise RecordError(  # the reason is the system's own text
                    "cannot repair {path}: {reason}", path=str(path), reason=exc.strerror or exc
                ) from None
        writer.adopt(good, len(record.actions))
        if report.finished:
            if record.results is None:  # the game ended but its last line was lost
                writer.results(report.results)
                raise RecordError(
                    "{path}: that game is already finished (its results are now saved)",
                    path=str(path),
                )
            raise RecordError("{path}: that game is already finished", path=str(path))
    except BaseException:
        writer.close()
        raise
    return Resumed(writer, record, report, backup)


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
    if tail.strip() and parses(tail):
        return data + b"\n"
    return data[:keep]


def _keep_backup(backup: Path, data: bytes) -> None:
    try:
        with backup.open("wb") as stream:
            stream.write(data)
            stream.flush()
            disk.fsync(stream.fileno())
    except OSError as exc:
        raise RecordError(  # the reason is the system's own text (not translated)
            "cannot keep a backup {backup} before repairing: {reason}",
            backup=str(backup),
            reason=exc.strerror or exc,
        ) from None
