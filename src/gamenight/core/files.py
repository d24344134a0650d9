"""The one way a front end reads a small file it did not write just now.

Records, ratings and deck files come from disk, where anything can sit under a
name: a FIFO (reading it waits forever), a device, a huge file, or JSON nested
so deeply that the parser exhausts the stack. :func:`read_bytes` opens without
blocking, reads only regular files and caps the size; :func:`check_depth` refuses
deep JSON *before* it is parsed. Both raise :class:`FileProblem`, a one-line
:class:`~gamenight.core.errors.GamenightError`, which callers word as their own
error (a record's, a deck's).

>>> check_depth('{"a": [[1], "]]]"]}', limit=3)
>>> check_depth("[" * 70 + "]" * 70, limit=64)
Traceback (most recent call last):
...
gamenight.core.files.FileProblem: JSON nested deeper than 64 levels
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

from gamenight.core.errors import GamenightError, Sentence

MAX_FILE_BYTES = 64 << 20
"""The largest file read whole (64 MiB): far above any record, deck or rating store."""


class FileProblem(Sentence, GamenightError, OSError):
    """A file that cannot be read as data: missing, not a regular file, too big, too deep.
    Its message is a :class:`~gamenight.core.errors.Sentence` (a record's or a deck's
    error quotes it, said in the same language)."""


def read_bytes(path: Path, *, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of the regular file ``path`` (at most ``limit``), or :class:`FileProblem`.

    The file is opened with ``O_NONBLOCK`` so a FIFO never makes this wait, and
    anything but a regular file is refused before a byte is read.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise FileProblem("{path}: no such file", path=str(path)) from None
    except IsADirectoryError:
        raise FileProblem("{path} is a directory, not a file", path=str(path)) from None
    except OSError as exc:  # the reason is the system's own text (not translated)
        raise FileProblem(
            "cannot read {path}: {reason}", path=str(path), reason=exc.strerror or exc
        ) from None
    try:
        check_regular(fd, path)
        size = os.fstat(fd).st_size
        if size > limit:
            raise FileProblem(
                "{path}: too big ({size} bytes; at most {limit} are read)",
                path=str(path),
                size=size,
                limit=limit,
            )
        chunks, total = [], 0
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
            total += len(chunk)
            if total > limit:  # grew while read
                raise FileProblem(
                    "{path}: too big (at most {limit} bytes are read)", path=str(path), limit=limit
                )
        return b"".join(chunks)
    except OSError as exc:
        if isinstance(exc, FileProblem):
            raise
        raise FileProblem(
            "cannot read {path}: {reason}", path=str(path), reason=exc.strerror or exc
        ) from None
    finally:
        os.close(fd)


def check_regular(fd: int, path: Path) -> None:
    """Refuse an open file that is not a regular file (a FIFO, a device, a socket)."""
    mode = os.fstat(fd).st_mode
    if stat.S_ISDIR(mode):
        raise FileProblem("{path} is a directory, not a file", path=str(path))
    if not stat.S_ISREG(mode):
        raise FileProblem(
            "{path} is not a regular file (a pipe or a device); not read", path=str(path)
        )


def is_regular(path: Path) -> bool:
    """Whether ``path`` (or what its symlink points to) is a regular file, not opened."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except OSError:
        return False


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKETS = re.compile(r"[\[\]{}]")


def check_depth(text: str, limit: int) -> None:
    """Refuse JSON whose arrays and objects nest deeper than ``limit``, without parsing it
    (brackets inside strings do not count)."""
    if text.count("[") + text.count("{") <= limit:
        return  # cannot be that deep
    depth = 0
    for match in _BRACKETS.finditer(_STRING.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            if depth > limit:
                raise FileProblem("JSON nested deeper than {limit} levels", limit=limit)
        else:
            depth -= 1
