"""The persisted Wurfeltod value table: file format, cache location, loading and saving.

File layout: one line of JSON (the header, UTF-8, ending in a newline), then
the payload: the value of every state as little-endian float64, in state
order (see :mod:`.boxes`). The header holds the format name and version, the
solver version, a digest of the rules tables the values were solved with, the
box set, the payload length and its sha256. Loading checks all of them, so a
truncated, corrupted or stale file is refused with a specific error instead of
giving wrong advice.

The file lives in the user cache directory (``platformdirs``), or in
``$GAMENIGHT_CACHE_DIR`` when that is set, or wherever a ``path`` argument says.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import numpy.typing as npt
import platformdirs

from gamenight.core.errors import BuildNeededError, GamenightError, Sentence
from gamenight.core.files import FileProblem, read_bytes
from gamenight.games.wurfeltod.categories import WURFELTOD_PENALTY, Category
from gamenight.games.wurfeltod.solver.boxes import FULL_GAME, BoxSet
from gamenight.games.wurfeltod.tables import pair_tables

__all__ = [
    "CACHE_ENV",
    "FORMAT_NAME",
    "FORMAT_VERSION",
    "SOLVER_VERSION",
    "TYPICAL_BUILD_SECONDS",
    "UNSAVED",
    "ValueTable",
    "ValueTableCorruptError",
    "ValueTableError",
    "ValueTableMissingError",
    "ValueTableStaleError",
    "build_time_text",
    "cache_root",
    "default_table_path",
    "load_table",
    "read_table",
    "require_table",
    "rules_digest",
    "write_table",
]

FORMAT_NAME = "gamenight-wurfeltod-values"
FORMAT_VERSION = 1
SOLVER_VERSION = 1
"""Bump when the solver's semantics change, so old tables are rebuilt."""
CACHE_ENV = "GAMENIGHT_CACHE_DIR"
TABLE_FILENAME = "wurfeltod-values.bin"
TYPICAL_BUILD_SECONDS = 5
"""Rough wall time of a first full build, kernel compilation included: about 2.5 s on a
2-core machine (bench/RESULTS.md), so a single core or a slower one is covered too."""
_MAX_HEADER = 64 * 1024


def build_time_text() -> str:
    """How long a first build takes, in the one wording every message uses.

    >>> build_time_text()
    'about 5 s'
    """
    return f"about {TYPICAL_BUILD_SECONDS} s"


UNSAVED: dict[Path, tuple[ValueTable, str]] = {}
"""Tables built in this process that could not be written (a read-only cache): kept
in memory by path, with the reason, so the solve is not thrown away (this run only)."""
_DTYPE = "<f8"


class ValueTableError(Sentence, GamenightError):
    """A Wurfeltod value table that cannot be used. Its message is a
    :class:`~gamenight.core.errors.Sentence` (issue 41)."""


class ValueTableMissingError(ValueTableError, BuildNeededError):
    """No value table at the expected path; build one with ``gamenight solve wurfeltod``."""


class ValueTableCorruptError(ValueTableError):
    """The file is not a value table, or its payload fails its checksum."""


class ValueTableStaleError(ValueTableError, BuildNeededError):
    """A well-formed table from another format, solver version, rule set or box set."""


@dataclass(frozen=True, eq=False)
class ValueTable:
    """Expected future score of every state at the start of a turn (optimal solitaire play)."""

    boxes: BoxSet
    values: npt.NDArray[np.float64]
    info: Mapping[str, object] = field(default_factory=dict)
    """Informational header fields, such as ``build_seconds``."""

    def __post_init__(self) -> None:
        if self.values.shape != (self.boxes.state_count,):
            raise ValueError(
                f"expected {self.boxes.state_count} values, got shape {self.values.shape}"
            )


def cache_root() -> Path:
    """gamenight's cache directory: $GAMENIGHT_CACHE_DIR, else the user cache directory."""
    return Path(os.environ.get(CACHE_ENV) or platformdirs.user_cache_dir("gamenight"))


def default_table_path(cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """Where the full-game table lives: ``cache_dir``, else $GAMENIGHT_CACHE_DIR, else
    the user cache directory of gamenight."""
    return (cache_root() if cache_dir is None else Path(cache_dir)) / TABLE_FILENAME


@functools.cache
def rules_digest() -> str:
    """sha256 over the booking tables and penalty: changes whenever the rules code does."""
    t = pair_tables()
    h = hashlib.sha256()
    h.update(str(WURFELTOD_PENALTY).encode())
    h.update(",".join(c.value for c in Category).encode())
    for array in (t.satisfied, t.points, t.wurfeltod, t.multiset_probability):
        h.update(np.ascontiguousarray(array).tobytes())
    return h.hexdigest()


def _header(table: ValueTable, payload: bytes) -> dict[str, object]:
    return {
        "format": FORMAT_NAME,
        "format_version": FORMAT_VERSION,
        "solver_version": SOLVER_VERSION,
        "rules_digest": rules_digest(),
        "boxes": table.boxes.describe(),
        "dtype": _DTYPE,
        "count": table.boxes.state_count,
        "payload_bytes": len(payload),
        "payload_sha256": hashlib.sha256(payload).hexdigest(),
        "info": dict(table.info),
    }


def write_table(table: ValueTable, path: str | os.PathLike[str]) -> Path:
    """Write ``table`` atomically (a temporary file, then a rename); returns the path."""
    target = prepare_table_dir(path)
    payload = np.ascontiguousarray(table.values, dtype=_DTYPE).tobytes()
    header = json.dumps(_header(table, payload), sort_keys=True).encode() + b"\n"
    try:
        fd, tmp = tempfile.mkstemp(prefix=".wurfeltod-", suffix=".tmp", dir=target.parent)
    except OSError as exc:
        raise ValueTableError(  # the reason is the system's own text (not translated)
            "cannot write the value table at {path}: {reason}",
            path=str(target),
            reason=exc.strerror,
        ) from None
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(header)
            out.write(payload)
        os.chmod(tmp, 0o644)  # mkstemp makes it private; a cache file need not be
        os.replace(tmp, target)
    except OSError as exc:
        Path(tmp).unlink(missing_ok=True)
        raise ValueTableError(
            "cannot write the value table at {path}: {reason}",
            path=str(target),
            reason=exc.strerror,
        ) from None
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return target


def prepare_table_dir(path: str | os.PathLike[str]) -> Path:
    """Make sure the table's folder exists and takes files, before any long solve."""
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        if not os.access(target.parent, os.W_OK):
            raise PermissionError(13, "permission denied")
    except OSError as exc:
        raise ValueTableError(
            "cannot write the value table at {path}: {reason}",
            path=str(target),
            reason=exc.strerror or exc,
        ) from None
    return target


def _parse_boxes(raw: object, where: Path) -> BoxSet:
    try:
        assert isinstance(raw, dict)
        singles = tuple(Category(v) for v in raw["singles"])
        return BoxSet(singles=singles, face_value_boxes=int(raw["face_value_boxes"]))
    except (AssertionError, KeyError, TypeError, ValueError) as exc:
        raise ValueTableCorruptError(
            "{path}: the header's box set is malformed", path=str(where)
        ) from exc


def read_table(path: str | os.PathLike[str]) -> ValueTable:
    """Read and validate a value table of any box set.

    Raises :class:`ValueTableMissingError`, :class:`ValueTableCorruptError` or
    :class:`ValueTableStaleError` with a message naming the file and the problem.
    """
    where = Path(path)
    if where in UNSAVED:  # built here, not saved: this run's copy
        return UNSAVED[where][0]
    if not where.exists() and not where.is_symlink():
        raise ValueTableMissingError("no Wurfeltod value table at {path}", path=str(where))
    try:  # a regular file only (a FIFO would wait forever), of bounded size
        data = read_bytes(where)
    except FileProblem as exc:
        raise ValueTableCorruptError("cannot read the value table: {problem}", problem=exc) from exc
    end = data.find(b"\n", 0, _MAX_HEADER)
    try:
        if end < 0:
            raise ValueTableCorruptError(
                "{path}: not a Wurfeltod value table (no header line)", path=str(where)
            )
        header = json.loads(data[:end])
    except ValueError as exc:  # the json module's own English (not translated)
        raise ValueTableCorruptError(
            "{path}: not a Wurfeltod value table ({reason})", path=str(where), reason=exc
        ) from exc
    if not isinstance(header, dict):
        raise ValueTableCorruptError(
            "{path}: not a Wurfeltod value table (the header is not an object)", path=str(where)
        )
    if header.get("format") != FORMAT_NAME:
        raise ValueTableCorruptError(
            "{path}: not a Wurfeltod value table (format {format})",
            path=str(where),
            format=repr(header.get("format")),
        )
    for key, expected in (
        ("format_version", FORMAT_VERSION),
        ("solver_version", SOLVER_VERSION),
        ("rules_digest", rules_digest()),
    ):
        if header.get(key) != expected:
            raise ValueTableStaleError(
                "{path}: stale value table ({key} is {found}, this program needs {needed}); "
                "rebuild it",
                path=str(where),
                key=key,
                found=repr(header.get(key)),
                needed=repr(expected),
            )
    boxes = _parse_boxes(header.get("boxes"), where)
    payload = data[end + 1 :]
    expected_bytes = boxes.state_count * np.dtype(_DTYPE).itemsize
    if header.get("dtype") != _DTYPE or header.get("count") != boxes.state_count:
        raise ValueTableCorruptError(
            "{path}: the header's dtype or count is inconsistent", path=str(where)
        )
    if len(payload) != expected_bytes or header.get("payload_bytes") != expected_bytes:
        raise ValueTableCorruptError(
            "{path}: truncated or padded payload ({size} bytes, expected {expected})",
            path=str(where),
            size=len(payload),
            expected=expected_bytes,
        )
    if hashlib.sha256(payload).hexdigest() != header.get("payload_sha256"):
        raise ValueTableCorruptError(
            "{path}: checksum mismatch, the file is corrupt", path=str(where)
        )
    values = np.frombuffer(payload, dtype=_DTYPE).astype(np.float64)
    values.setflags(write=False)
    info = header.get("info")
    return ValueTable(boxes=boxes, values=values, info=info if isinstance(info, dict) else {})


def load_table(
    path: str | os.PathLike[str] | None = None, *, boxes: BoxSet = FULL_GAME
) -> ValueTable | None:
    """The value table at ``path`` (default: :func:`default_table_path`), or None if absent.

    A file that exists but cannot be used raises :class:`ValueTableCorruptError`
    or :class:`ValueTableStaleError` (also when it was solved for other boxes).
    """
    where = Path(path) if path is not None else default_table_path()
    try:
        table = read_table(where)
    except ValueTableMissingError:
        return None
    if table.boxes != boxes:
        raise ValueTableStaleError(
            "{path}: the table is for boxes {found}, not {needed}; rebuild it",
            path=str(where),
            found=table.boxes.describe(),
            needed=boxes.describe(),
        )
    return table


def require_table(
    path: str | os.PathLike[str] | None = None, *, boxes: BoxSet = FULL_GAME
) -> ValueTable:
    """Like :func:`load_table`, but a missing file raises :class:`ValueTableMissingError`
    telling the user how to build it."""
    where = Path(path) if path is not None else default_table_path()
    try:
        table = load_table(where, boxes=boxes)
    except ValueTableCorruptError as exc:
        raise ValueTableCorruptError(
            "{problem}; rebuild it with `gamenight solve wurfeltod --force` "
            "(takes about {seconds} s)",
            problem=exc,
            seconds=TYPICAL_BUILD_SECONDS,
        ) from None
    except ValueTableStaleError as exc:
        raise ValueTableStaleError(
            "{problem}; rebuild it with `gamenight solve wurfeltod --force` "
            "(takes about {seconds} s)",
            problem=exc,
            seconds=TYPICAL_BUILD_SECONDS,
        ) from None
    if table is None:
        raise ValueTableMissingError(
            "no Wurfeltod value table at {path}: run `gamenight solve wurfeltod` "
            "(takes about {seconds} s)",
            path=str(where),
            seconds=TYPICAL_BUILD_SECONDS,
        )
    return table
