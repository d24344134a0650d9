"""A room's chat: a seated player's line (checked, rate-limited, stored, then sent to
every socket, the sender's copy with its request id) and the lines other processes
added (:meth:`Chat.sync`)."""

from __future__ import annotations

import logging
import time

from gamenight.core.errors import StorageUnavailableError
from gamenight.core.i18n import _
from gamenight.core.text import TextError, check_text
from gamenight.server import protocol as p
from gamenight.server.conns import Conn
from gamenight.server.faults import refused, unavailable
from gamenight.server.live import LiveRoom, held_weakly

log = logging.getLogger("gamenight.server")


class Chat:
    """The chat of ``room`` (``room.chat_seen``: the last line its sockets got)."""

    def __init__(self, room: LiveRoom) -> None:
        self.room = held_weakly(room)

    async def on_chat(self, conn: Conn, message: p.ChatIn) -> p.Message | None:
        room = self.room
        if conn.seat is None:
            return p.Error(code="not_seated", message=_("spectators cannot chat"), id=message.id)
        try:
            text = check_text(message.text, what="a chat line", limit=p.MAX_CHAT_CHARS)
        except TextError as exc:
            return p.Error(code="chat_invalid", message=str(exc), id=message.id)
        if not conn.chats.take():
            wait = conn.chats.retry_after()
            return p.Error(
                code="rate_limited", message=_("slow down"), id=message.id, retry_after=wait
            )
        name = room.seats[conn.seat].name or f"seat {conn.seat + 1}"
        services = room.services
        try:
            row = await services.store.add_chat(
                room.id, conn.seat, name, text, notify=services.payload(room.code, "chat")
            )
        except StorageUnavailableError as exc:
            refused(f"a chat line in room {room.code}", exc)
            return unavailable(exc, message.id)
        room.chat_seen = max(room.chat_seen, row.id)
        room.updated = time.time()
        for other in list(room.conns):  # the sender's copy carries its request id
            other.send(
                p.ChatOut(
                    name=row.name,
                    text=row.text,
                    at=row.at,
                    seat=row.seat,
                    id=message.id if other is conn else None,
                )
            )
        return None

    async def sync(self) -> None:
        """Chat lines another process added."""
        room = self.room
        try:
            rows = await room.services.store.chat_after(room.id, room.chat_seen)
        except StorageUnavailableError as exc:
            log.warning("chat of room %s not read: %s", room.code, exc)
            return
        for row in rows:
            room.chat_seen = max(room.chat_seen, row.id)
            room.conns.broadcast(p.ChatOut(name=row.name, text=row.text, at=row.at, seat=row.seat))
