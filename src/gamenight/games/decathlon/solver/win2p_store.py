"""The two-player win tables (:mod:`.win2p`) on disk: built once, kept in the user cache.

One ``.npz`` file per chain of events, in ``$GAMENIGHT_CACHE_DIR`` or the user cache
directory (``platformdirs``), named by a digest of the events, the error bound and the
format version. The file holds the table's error bound (format 2, issue 46: computing
it again cost a second and ~140 MiB on every cached ``solve``); a format-1 file is read
once, its bound computed and written back as format 2. A missing or stale file is built
again; a damaged one (the zip's CRCs, a truncated file, a malformed header) is one line,
:class:`WinTableCorruptError`, naming the command that builds it again. Only the header
and the ``W`` tables are read at load; the inner tables the decisions use are read from
the file the first time a decision asks for them. Tables of cheap chains (no
three-attempt event, or a short one) are built on demand by :func:`table_for`; the full
decathlon's takes minutes and is built by ``gamenight solve decathlon --two-player-win``
or the game's preparation (:func:`prepare`).
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from gamenight.core.errors import OptionsError
from gamenight.games.decathlon.solver import win2p
from gamenight.games.decathlon.solver.win2p import Progress, WinTable, solve_chain
from gamenight.games.decathlon.solver.win2p_file import (
    CACHE_ENV,
    DAMAGED,
    DECATHLON,
    EPS,
    FORMAT,
    OLD_VERSIONS,
    VERSION,
    WinTableCorruptError,
    cache_dir,
    corrupt,
    read_head,
    table_path,
)

__all__ = [
    "CACHE_ENV",
    "DECATHLON",
    "EPS",
    "FORMAT",
    "ON_DEMAND_WEIGHT",
    "VERSION",
    "WinTableCorruptError",
    "cache_dir",
    "chain",
    "load",
    "prepare",
    "save",
    "table_for",
    "table_path",
]

# Chains whose cost weight (win2p._cost_weight) stays under this are built on demand,
# in about a second at most; heavier ones wait for an explicit build.
ON_DEMAND_WEIGHT = 120_000

_loaded: dict[tuple[tuple[str, ...], float], WinTable] = {}


class _FromFile(dict[int, Any]):
    """A table's inner arrays (``after_first`` or ``halves``), each read from the file
    the first time it is asked for: the cached ``solve`` reads only ``W``."""

    def __init__(self, path: Path, events: Sequence[str], read: Callable[[Any, int], Any]):
        super().__init__()
        self._path, self._events, self._read = path, tuple(events), read

    def __missing__(self, k: int) -> Any:
        try:
            with np.load(self._path) as data:
                value = self._read(data, k)
        except FileNotFoundError:
            raise corrupt(self._path, self._events, "the file is gone") from None
        except DAMAGED as exc:
            raise corrupt(self._path, self._events, exc) from None
        self[k] = value
        return value


def _read_after(data: Any, k: int) -> tuple[np.ndarray, int]:
    return np.array(data[f"after{k}"]), int(data[f"lo{k}"][0])


def _read_halves(data: Any, k: int) -> np.ndarray:
    return np.array(data[f"halves{k}"])


def save(table: WinTable, path: Path) -> Path:
    """Write ``table`` with its bound atomically (a temporary file, then a rename)."""
    arrays: dict[str, np.ndarray] = {}
    for k, w in enumerate(table.w):
        arrays[f"w{k}"] = w
    for k, event in enumerate(table.events):  # by event: a loaded table reads them here
        kind = win2p.family(event)
        if kind == "race":
            after, lo = table.after_first[k]
            arrays[f"after{k}"] = after
            arrays[f"lo{k}"] = np.array([lo])
        elif kind == "attempts":
            arrays[f"halves{k}"] = table.halves[k]
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "events": list(table.events),
        "eps": table.eps,
        "limits": list(table.limits),
        "bound": table.bound,  # a float: JSON keeps its repr, so it reads back exactly
    }
    arrays["meta"] = np.frombuffer(json.dumps(meta).encode(), dtype=np.uint8)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".win2p-", suffix=".npz", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            # numpy's stub misreads savez's keyword arrays
            np.savez(out, **arrays)  # type: ignore[arg-type]
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def load(path: Path, events: Sequence[str], eps: float = EPS) -> WinTable | None:
    """The table at ``path`` if it is there and for these events (this format or an
    older one, whose bound is then computed on first use), else None. Only the header
    and ``W`` are read (:func:`.win2p_file.read_head`); the inner tables on first use.

    Raises :class:`WinTableCorruptError` if the file is there but cannot be read.
    """
    head = read_head(path, events, eps)
    if head is None:
        return None
    w = [np.frombuffer(x, dtype=np.float64).copy() for x in head.w]
    table = WinTable(tuple(events), eps, head.limits, w, stored_bound=head.bound)
    table.after_first = _FromFile(path, events, _read_after)
    table.halves = _FromFile(path, events, _read_halves)
    return table


def cost_weight(events: Sequence[str]) -> int:
    """A rough build cost (cheap to compute: the leads are estimated)."""
    return sum(win2p._cost_weight(e, win2p.rough_limit(events[k:])) for k, e in enumerate(events))


def table_for(
    events: Sequence[str],
    eps: float = EPS,
    *,
    build: bool | None = None,
    rebuild: bool = False,
    progress: Progress | None = None,
) -> WinTable | None:
    """The win table of ``events``: from memory, the cache, or built (and cached).

    ``build=None`` builds only a cheap chain (:data:`ON_DEMAND_WEIGHT`); a heavier
    one not yet cached gives None. ``build=True`` always builds if needed.
    """
    events = tuple(events)
    key = (events, eps)
    if not rebuild and key in _loaded:
        return _loaded[key]
    path = table_path(events, eps)
    table = None if rebuild else load(path, events, eps)
    if table is None and not rebuild:
        table = _upgrade(events, eps, path)
    if table is None:
        if build is None:
            build = cost_weight(events) <= ON_DEMAND_WEIGHT
        if not build:
            return None
        table = solve_chain(events, eps, progress)
        with contextlib.suppress(OSError):  # a read-only cache: this process only
            save(table, path)
    _loaded[key] = table
    return table


def _upgrade(events: tuple[str, ...], eps: float, path: Path) -> WinTable | None:
    """An older format's table of ``events``, its bound computed once (a second or so)
    and written back in this format at ``path``; None if there is none."""
    for version in OLD_VERSIONS:
        old = table_path(events, eps, version)
        table = load(old, events, eps)
        if table is not None:
            table.stored_bound = table.proven_bound()
            with contextlib.suppress(OSError):  # a read-only cache: this process only
                save(table, path)
            return table
    return None


def prepare(progress: Progress, target: str | None = None) -> None:
    """``GameInfo.preparation``: build the two-player win table of the full decathlon,
    or of the events ``target`` names (``"high-jump,1500m"``, as ``bot:winner`` asks
    for its game's, :func:`..win_play.preparation_target`), once."""
    events = DECATHLON if target is None else chain(target)
    try:
        table_for(events, build=True, progress=progress)
    except WinTableCorruptError:  # a build was asked for: a damaged file is replaced
        table_for(events, rebuild=True, progress=progress)


def chain(target: str) -> tuple[str, ...]:
    """The events of a preparation target: event ids, comma-separated, in D1 order.

    >>> chain("high-jump,1500m")
    ('high-jump', '1500m')
    >>> chain("1500m,high-jump")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    gamenight.core.errors.OptionsError: not a chain of Decathlon events in their order: ...
    """
    events = tuple(target.split(","))
    known = [e for e in DECATHLON if e in events]
    if list(events) != known:  # unknown, repeated or out of order
        raise OptionsError(
            "not a chain of Decathlon events in their order: {target}", target=repr(target)
        )
    return events
