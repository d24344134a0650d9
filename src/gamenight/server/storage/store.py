"""The :class:`Store` the rooms use: every read and write of the server, as short
transactions, one part per purpose (rooms, seats, the action log, presence, chat)."""

from __future__ import annotations

from gamenight.server.storage.chat import ChatStore
from gamenight.server.storage.log import ActionLog
from gamenight.server.storage.presence import PresenceStore
from gamenight.server.storage.rooms import RoomStore
from gamenight.server.storage.seats import SeatStore
from gamenight.server.storage.turns import TurnStore


class Store(RoomStore, SeatStore, ActionLog, PresenceStore, ChatStore, TurnStore):
    """Every read and write of the server, as short transactions (one engine: its parts
    share :class:`~gamenight.server.storage.engine.Connected`)."""
