"""The two-player win tables (:mod:`.win2p`) on disk: built once, kept in the user cache.

One ``.npz`` file per chain of events, in ``$GAMENIGHT_CACHE_DIR`` or the user cache
directory (``platformdirs``), named by a digest of the events, the error bound and the
format version. The zip's CRCs catch a damaged file; a missing, stale or unreadable
one is built again. Tables of cheap chains (no three-attempt event, or a short one)
are built on demand by :func:`table_for`; the full decathlon's takes minutes and is
built by ``gamenight solve decathlon --two-player-win`` or the game's preparation
(:func:`prepare`).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import tempfile
import zipfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import platformdirs

from gamenight.core.errors import OptionsError
from gamenight.games.decathlon.disciplines import EVENT_IDS
from gamenight.games.decathlon.solver import win2p
from gamenight.games.decathlon.solver.win2p import EPS, Progress, WinTable, solve_chain

FORMAT = "gamenight-decathlon-win2p"
VERSION = 1
CACHE_ENV = "GAMENIGHT_CACHE_DIR"
DECATHLON = EVENT_IDS  # the whole decathlon, in the order of D1
# Chains whose cost weight (win2p._cost_weight) stays under this are built on demand,
# in about a second at most; heavier ones wait for an explicit build.
ON_DEMAND_WEIGHT = 120_000

_loaded: dict[tuple[tuple[str, ...], float], WinTable] = {}


def cache_dir() -> Path:
    return Path(os.environ.get(CACHE_ENV) or platformdirs.user_cache_dir("gamenight"))


def table_path(events: Sequence[str], eps: float = EPS) -> Path:
    key = json.dumps([FORMAT, VERSION, list(events), eps]).encode()
    digest = hashlib.sha256(key).hexdigest()[:16]
    return cache_dir() / f"decathlon-win2p-v{VERSION}-{digest}.npz"


def save(table: WinTable, path: Path) -> Path:
    """Write ``table`` atomically (a temporary file, then a rename)."""
    arrays: dict[str, np.ndarray] = {}
    for k, w in enumerate(table.w):
        arrays[f"w{k}"] = w
    for k, (after, lo) in table.after_first.items():
        arrays[f"after{k}"] = after
        arrays[f"lo{k}"] = np.array([lo])
    for k, halves in table.halves.items():
        arrays[f"halves{k}"] = halves
    meta = {
        "format": FORMAT,
        "version": VERSION,
        "events": list(table.events),
        "eps": table.eps,
        "limits": list(table.limits),
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
    """The table at ``path`` if it is whole and for these events, else None."""
    try:
        with np.load(path) as data:
            meta = json.loads(bytes(data["meta"]).decode())
            if (
                meta.get("format") != FORMAT
                or meta.get("version") != VERSION
                or meta.get("events") != list(events)
                or meta.get("eps") != eps
            ):
                return None
            n = len(events)
            w = [np.array(data[f"w{k}"]) for k in range(n + 1)]
            table = WinTable(tuple(events), eps, tuple(meta["limits"]), w)
            for k, event in enumerate(events):
                kind = win2p.family(event)
                if kind == "race":
                    table.after_first[k] = (np.array(data[f"after{k}"]), int(data[f"lo{k}"][0]))
                elif kind == "attempts":
                    table.halves[k] = np.array(data[f"halves{k}"])
            return table
    except (OSError, KeyError, ValueError, zipfile.BadZipFile, json.JSONDecodeError):
        return None


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


def prepare(progress: Progress, target: str | None = None) -> None:
    """``GameInfo.preparation``: build the two-player win table of the full decathlon,
    or of the events ``target`` names (``"high-jump,1500m"``, as ``bot:winner`` asks
    for its game's, :func:`..win_play.preparation_target`), once."""
    table_for(DECATHLON if target is None else chain(target), build=True, progress=progress)


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
