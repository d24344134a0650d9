"""What the store reads: rows as frozen records, and :class:`Behind`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

import msgspec

from gamenight.core.options import Options
from gamenight.server.lifecycle import OPEN, Lifecycle


class Behind(Exception):
    """The database holds more actions than the caller's table: catch up and retry."""

    def __init__(self, seq: int) -> None:
        super().__init__(f"the room's log is past {seq}")
        self.seq = seq


OPEN_VALUES = tuple(sorted(s.value for s in OPEN))  # the statuses of rooms still open
HOLDER = -1  # the seat of a presence row that says "this process holds the room"
IDLE_CLOSE_DECODER = msgspec.json.Decoder(dict[str, object])


def idle_close(room_options: str) -> float:
    """A room's ``idle_close`` (seconds) from its stored RoomOptions; a day if unset.

    >>> idle_close('{"idle_close": 60}'), idle_close("{}")
    (60.0, 86400.0)
    """
    value = IDLE_CLOSE_DECODER.decode(room_options).get("idle_close", 24 * 3600)
    return float(value) if isinstance(value, int | float) else 24 * 3600.0


class OpenRoom(NamedTuple):
    """An open room's place in its log (the re-check of the rooms a process holds)."""

    seq: int
    status: Lifecycle


class PublicRoom(NamedTuple):
    code: str
    game: str
    status: Lifecycle
    created_at: float


class IdleRoom(NamedTuple):
    code: str
    updated_at: float
    idle_close: float  # the room's RoomOptions.idle_close (seconds)


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    kind: str
    bot: str
    name: str
    token_hash: str | None
    away_since: float | None
    contribution: str | None = None
    contributed_by: str | None = None
    account_id: int | None = None


@dataclass(frozen=True, slots=True)
class RoomRow:
    id: int
    code: str
    game: str
    options: Options
    room_options: dict[str, object]  # RoomOptions' fields (config.RoomOptions)
    public: bool
    status: Lifecycle
    seed: int
    commitment: str
    entropy: str
    host_token_hash: str
    seq: int
    results: object  # JSON builtins of the results (a finished room), or None
    note: str
    created_at: float
    updated_at: float
    seats: tuple[SeatRow, ...]


@dataclass(frozen=True, slots=True)
class ActionRow:
    seq: int
    seat: int
    action: object  # JSON builtins (Game.decode_action reads them)
    by: str
    at: float


@dataclass(frozen=True, slots=True)
class ChatRow:
    id: int
    seat: int | None
    name: str
    text: str
    at: float
