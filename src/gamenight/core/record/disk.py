"""A record file on disk: opening, durable writes, reading it whole.

Every write and sync of a record goes through :func:`write` and :func:`fsync`,
one place each, so tests can inject faults (patch this module's attribute).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from gamenight.core.errors import RecordError
from gamenight.core.record.format import FORMAT


def write(fd: int, data: bytes | memoryview) -> int:
    """``os.write`` (one place, so tests can inject faults)."""
    return os.write(fd, data)


def fsync(fd: int) -> None:
    """``os.fsync`` (one place, so tests can inject faults)."""
    os.fsync(fd)


def open_file(path: Path, flags: int) -> int:
    try:
        return os.open(path, flags | getattr(os, "O_CLOEXEC", 0), 0o644)
    except FileNotFoundError:
        if flags & os.O_CREAT:
            raise RecordError(
                "cannot write record {path}: no such folder", path=str(path)
            ) from None
        raise RecordError("no such record file: {path}", path=str(path)) from None
    except FileExistsError:
        raise RecordError("{path} already exists; choose another file", path=str(path)) from None
    except OSError as exc:  # the reason is the system's own text (not translated)
        raise RecordError(
            "cannot open record {path}: {reason}", path=str(path), reason=exc.strerror or exc
        ) from None


def sync_folder(path: Path) -> None:
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


def looks_like_record(path: Path) -> bool:
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


def read_all(fd: int, path: Path) -> bytes:
    chunks = []
    offset = 0
    try:
        while chunk := os.pread(fd, 1 << 20, offset):
            chunks.append(chunk)
            offset += len(chunk)
    except OSError as exc:
        raise RecordError(  # the reason is the system's own text (not translated)
            "cannot read record {path}: {reason}", path=str(path), reason=exc.strerror or exc
        ) from None
    return b"".join(chunks)
