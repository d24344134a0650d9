"""The two-player win table's file (:mod:`.win2p_store`): where it lives, its header and
its ``W`` tables, read without numpy (issue 46).

A cached ``gamenight solve decathlon --two-player-win`` prints ``W`` and the bound and
nothing else: importing numpy and the event solvers for that was most of the command.
The file is an ``.npz`` (a zip of ``.npy`` arrays, written by :func:`.win2p_store.save`);
this module reads its ``meta`` header and its one-dimensional ``<f8`` arrays ``w0``,
``w1``, ... with :mod:`zipfile` (whose CRC check runs as each member is read to its end)
and :mod:`array`. :func:`.win2p_store.load` reads them the same way, so both paths see
one reader.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
import sys
import zipfile
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from gamenight.core.errors import GamenightError, Sentence
from gamenight.core.i18n import N_
from gamenight.games.decathlon.disciplines import EVENT_IDS

FORMAT = "gamenight-decathlon-win2p"
VERSION = 2  # 2: the error bound in the header (issue 46)
OLD_VERSIONS = (1,)  # read once, their bound computed and written back as VERSION
CACHE_ENV = "GAMENIGHT_CACHE_DIR"
EPS = 1e-10  # default error bound of the truncated leads
DECATHLON = EVENT_IDS  # the whole decathlon, in the order of D1
NPY_MAGIC = b"\x93NUMPY"

CORRUPT = N_(
    "the two-player win table {path} is damaged ({reason}): build it again with `{command}`"
)


class WinTableCorruptError(Sentence, GamenightError, ValueError):
    """A cached two-player win table that cannot be read: truncated, failing its CRC,
    or with a malformed header. Its message names the command that builds it again.

    >>> str(WinTableCorruptError(CORRUPT, path="t.npz", reason="x", command="c"))
    'the two-player win table t.npz is damaged (x): build it again with `c`'
    """


def cache_dir() -> Path:
    import platformdirs

    return Path(os.environ.get(CACHE_ENV) or platformdirs.user_cache_dir("gamenight"))


def table_path(events: Sequence[str], eps: float = EPS, version: int = VERSION) -> Path:
    key = json.dumps([FORMAT, version, list(events), eps]).encode()
    digest = hashlib.sha256(key).hexdigest()[:16]
    return cache_dir() / f"decathlon-win2p-v{version}-{digest}.npz"


def rebuild_command(events: Sequence[str]) -> str:
    """The command that builds the table of ``events`` again.

    >>> rebuild_command(("high-jump", "1500m"))
    'gamenight solve decathlon --two-player-win --rebuild --event high-jump,1500m'
    """
    command = "gamenight solve decathlon --two-player-win --rebuild"
    if tuple(events) != tuple(DECATHLON):
        command += " --event " + ",".join(events)
    return command


def corrupt(path: Path, events: Sequence[str], reason: object) -> WinTableCorruptError:
    """The one-line error for a damaged table file (``reason``: a message or an error)."""
    text = " ".join(str(reason).split()) or type(reason).__name__  # one line
    return WinTableCorruptError(
        "the two-player win table {path} is damaged ({reason}): build it again with `{command}`",
        path=str(path),
        reason=text[:200],
        command=rebuild_command(events),
    )


# What reading a damaged file raises (BadZipFile also for a failed CRC).
DAMAGED = (
    OSError,
    KeyError,
    ValueError,
    IndexError,
    TypeError,
    SyntaxError,
    zipfile.BadZipFile,
    EOFError,
)


@dataclass(frozen=True)
class Head:
    """A table file's header and ``W`` tables: ``w[k][d]`` the first mover's win chance
    before event ``k`` leading by ``d`` (``0..limits[k]``); ``bound`` None in an old
    format (to be computed)."""

    version: int
    limits: tuple[int, ...]
    w: tuple[array[float], ...]
    bound: float | None


def read_head(path: Path, events: Sequence[str], eps: float = EPS) -> Head | None:
    """The header and ``W`` of the table at ``path`` if it is there and for these events
    (format :data:`VERSION` or one of :data:`OLD_VERSIONS`), else None.

    Raises :class:`WinTableCorruptError` if the file is there but cannot be read.
    """
    try:
        with zipfile.ZipFile(path) as data:
            meta = json.loads(_npy(data, "meta", "|u1").decode())
            if not isinstance(meta, dict):
                raise ValueError("the header is not an object")
            if (
                meta.get("format") != FORMAT
                or meta.get("version") not in (VERSION, *OLD_VERSIONS)
                or meta.get("events") != list(events)
                or meta.get("eps") != eps
            ):
                return None  # stale: another format or chain, built again
            n = len(events)
            limits = tuple(int(x) for x in meta["limits"])
            if len(limits) != n + 1:
                raise ValueError("the header's leads do not match its events")
            bound = None
            if meta["version"] == VERSION:
                bound = meta["bound"]
                if not isinstance(bound, float) or not 0.0 <= bound <= 1.0:
                    raise ValueError(f"the bound is not a probability: {bound!r}")
            w = tuple(_floats(_npy(data, f"w{k}", "<f8")) for k in range(n + 1))
            if any(len(w[k]) != limits[k] + 1 for k in range(n + 1)):
                raise ValueError("the W tables do not match the leads kept")
    except FileNotFoundError:
        return None
    except DAMAGED as exc:
        raise corrupt(path, events, exc) from None
    return Head(meta["version"], limits, w, bound)


def _floats(body: bytes) -> array[float]:
    out = array("d", body)
    if sys.byteorder == "big":  # the file is little-endian
        out.byteswap()
    return out


def _npy(data: zipfile.ZipFile, name: str, descr: str) -> bytes:
    """The data of the one-dimensional array ``name`` of dtype ``descr`` (``<f8`` or
    ``|u1``) in an ``.npz`` (the ``.npy`` format, versions 1 to 3)."""
    raw = data.read(f"{name}.npy")  # checks the member's CRC
    if raw[:6] != NPY_MAGIC:
        raise ValueError(f"{name} is not an array")
    major = raw[6]
    size, start = (
        (int.from_bytes(raw[8:10], "little"), 10)
        if major == 1
        else (int.from_bytes(raw[8:12], "little"), 12)
    )
    header = ast.literal_eval(raw[start : start + size].decode("latin1"))
    if (
        not isinstance(header, dict)
        or header.get("descr") != descr
        or header.get("fortran_order") is not False
        or not isinstance(header.get("shape"), tuple)
        or len(header["shape"]) != 1
    ):
        raise ValueError(f"{name} is not a one-dimensional {descr} array")
    body = raw[start + size :]
    if len(body) != header["shape"][0] * (1 if descr == "|u1" else 8):
        raise ValueError(f"{name} is truncated")
    return body
