"""Online seats kept in the user's data folder, so a later ``gamenight join`` of the
same room takes the seat back (after a crash, a closed terminal, another day).

One JSON file, ``online-seats.json``, readable by its owner only (0600): it holds seat
and host tokens, which are what proves a seat. Each entry also keeps this player's
contribution to the dice and the commitment first seen, for the check at the end
(docs/fairness.md: "keep the value you first saw").
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

import msgspec
import platformdirs

FILE_NAME = "online-seats.json"
MAX_FILE_BYTES = 1024 * 1024
KEEP = 200  # entries kept; the oldest go beyond that


class SavedSeat(msgspec.Struct, kw_only=True):
    """One room this user sits in (or hosts)."""

    server: str
    code: str
    game: str = ""
    seat: int | None = None
    token: str | None = None
    name: str = ""
    contribution: str | None = None
    commitment: str | None = None  # as first seen: never replaced
    host_token: str | None = None


def folder() -> Path:
    """The user data folder gamenight keeps its saves in."""
    return Path(platformdirs.user_data_dir("gamenight"))


def _path() -> Path:
    return folder() / FILE_NAME


def _key(server: str, code: str) -> str:
    return f"{server} {code}"


def load_all() -> dict[str, SavedSeat]:
    """Every saved seat (none when the file is missing, damaged or not a regular file)."""
    path = _path()
    try:
        if not path.is_file() or path.stat().st_size > MAX_FILE_BYTES:
            return {}
        raw = path.read_bytes()
        entries = msgspec.json.decode(raw, type=list[SavedSeat])
    except (OSError, msgspec.DecodeError, msgspec.ValidationError):
        return {}
    return {_key(e.server, e.code): e for e in entries}


def find(server: str, code: str) -> SavedSeat | None:
    """The saved seat of room ``code`` on ``server``, if any."""
    return load_all().get(_key(server, code))


def save(entry: SavedSeat) -> None:
    """Keep ``entry`` (merging what was kept: the commitment first seen stays)."""
    entries = load_all()
    key = _key(entry.server, entry.code)
    old = entries.pop(key, None)
    if old is not None:
        merged: dict[str, Any] = msgspec.structs.asdict(old)
        merged.update(
            {k: v for k, v in msgspec.structs.asdict(entry).items() if v not in (None, "")}
        )
        if old.commitment:
            merged["commitment"] = old.commitment
        entry = SavedSeat(**merged)
    entries[key] = entry
    _write(list(entries.values())[-KEEP:])


def forget(server: str, code: str) -> None:
    """Drop the saved seat (the game is over)."""
    entries = load_all()
    if entries.pop(_key(server, code), None) is not None:
        _write(list(entries.values()))


def _write(entries: list[SavedSeat]) -> None:
    """Write the file atomically, 0600 from its first byte (the tokens are secrets)."""
    path = _path()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(prefix=".online-seats.", dir=path.parent)  # mode 0600
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(msgspec.json.encode(entries))
            f.flush()
            os.fsync(f.fileno())
        os.chmod(temp, 0o600)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temp)
        raise


def as_json(entry: SavedSeat) -> str:
    """``entry`` as JSON (for tests and debugging)."""
    return json.dumps(msgspec.to_builtins(entry), sort_keys=True)
