"""The store's chat lines: plain text, read back in order."""

from __future__ import annotations

import time

from sqlalchemy import insert, select, text

from gamenight.server.storage.engine import NOTIFY_CHANNEL, Connected
from gamenight.server.storage.outage import guarded
from gamenight.server.storage.rows import ChatRow
from gamenight.server.storage.schema import CHAT


class ChatStore(Connected):
    """The chat of rooms."""

    @guarded
    async def add_chat(
        self, room_id: int, seat: int | None, name: str, message: str, notify: str | None = None
    ) -> ChatRow:
        now = time.time()
        async with self.engine.begin() as conn:
            result = await conn.execute(
                insert(CHAT).returning(CHAT.c.id),
                {"room_id": room_id, "seat": seat, "name": name, "text": message, "at": now},
            )
            chat_id = int(result.scalar_one())
            if notify is not None and self.is_postgres:
                await conn.execute(
                    text("SELECT pg_notify(:channel, :payload)"),
                    {"channel": NOTIFY_CHANNEL, "payload": notify},
                )
        return ChatRow(chat_id, seat, name, message, now)

    @guarded
    async def chat_after(self, room_id: int, chat_id: int, limit: int = 200) -> list[ChatRow]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(CHAT)
                .where(CHAT.c.room_id == room_id, CHAT.c.id > chat_id)
                .order_by(CHAT.c.id.desc())
                .limit(limit)
            )
            found = [ChatRow(r.id, r.seat, r.name, r.text, r.at) for r in rows]
        return found[::-1]
