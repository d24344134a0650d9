"""What a room's pieces see of their room: the room as a :class:`typing.Protocol`.

The pieces (:mod:`~gamenight.server.bots`, :mod:`~gamenight.server.odds`,
:mod:`~gamenight.server.timers`, :mod:`~gamenight.server.conns`) act on a room, and
:mod:`gamenight.server.room` builds the room from them: the pieces name no ``Room``
(their imports stay one way, type-checking ones included), only :class:`RoomFace`, the
members of a room that are no piece's. Each piece extends it with the pieces it uses
(``BotRoom`` < ``OddsRoom``, ``TimerRoom`` < ``ConnRoom``); a ``Room`` is all of them
(structurally: ``room.py`` asks mypy so).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

import msgspec

from gamenight.core import registry
from gamenight.core.table import Table
from gamenight.server import protocol as p
from gamenight.server.config import Config, RoomOptions
from gamenight.server.lifecycle import Lifecycle

if TYPE_CHECKING:  # the storage is imported when the rooms come up, not with the app
    from gamenight.server.storage.store import Store


class Seat(Protocol):
    """A seat of the room (``room.SeatState``)."""

    @property
    def seat(self) -> int: ...
    @property
    def kind(self) -> str: ...  # human | bot
    @property
    def bot(self) -> str: ...
    @property
    def name(self) -> str: ...


class Shared(Protocol):
    """What every room of the process shares (``room.Services``), but its bots."""

    @property
    def store(self) -> Store: ...
    @property
    def config(self) -> Config: ...


class Sockets(Protocol):
    """The room's sockets (``conns.Conns``), as the pieces below ``conns`` use them."""

    def connected(self, seat: int) -> bool: ...
    def any_open(self) -> bool: ...
    def broadcast(self, message: p.Message) -> None: ...


class RoomFace(Protocol):
    """A live room (``room.Room``): its members the pieces use that are no piece's."""

    chat_seen: int  # the last chat line sent to the room's sockets

    @property
    def id(self) -> int: ...
    @property
    def code(self) -> str: ...
    @property
    def entry(self) -> registry.GameEntry: ...
    @property
    def room_options(self) -> RoomOptions: ...
    @property
    def seed(self) -> int: ...
    @property
    def seats(self) -> Sequence[Seat]: ...
    @property
    def status(self) -> Lifecycle: ...
    @property
    def table(self) -> Table | None: ...
    @property
    def takeover(self) -> set[int]: ...
    @property
    def updated(self) -> float: ...
    @property
    def lock(self) -> asyncio.Lock: ...
    @property
    def services(self) -> Shared: ...

    def info(self) -> p.RoomInfo: ...
    def show(self) -> None: ...
    def default_bot(self) -> str: ...
    def seat_for_token(self, token: str) -> int | None: ...
    def ready(self) -> bool: ...
    async def begin(self, bots: dict[int, str]) -> None: ...
    async def close(self, note: str) -> None: ...
    async def apply(
        self, seat: int, action: msgspec.Struct, expected_seq: int | None, by: str
    ) -> int: ...
    async def catch_up_locked(self) -> None: ...
