"""The store's presence rows (``server/presence.py``): which process holds a socket of
which seat, and which rooms, refreshed by a beat; stale rows count no more."""

from __future__ import annotations

import time
from collections.abc import Sequence

from sqlalchemy import delete, insert, select, text, update

from gamenight.server.storage.engine import NOTIFY_CHANNEL, Connected
from gamenight.server.storage.outage import guarded
from gamenight.server.storage.schema import PRESENCE

HOLDER = -1  # the seat of a presence row that says "this process holds the room"


class PresenceStore(Connected):
    """Who holds which seat's socket and which room, across processes."""

    @guarded
    async def set_present(
        self, room_id: int, seat: int, process: str, present: bool, notify: str | None = None
    ) -> None:
        """Process ``process`` holds a socket of ``seat`` now (or no more); the other
        processes are told with ``notify`` (PostgreSQL)."""
        where = (PRESENCE.c.room_id == room_id, PRESENCE.c.seat == seat)
        async with self.engine.begin() as conn:
            await conn.execute(delete(PRESENCE).where(*where, PRESENCE.c.process == process))
            if present:
                await conn.execute(
                    insert(PRESENCE),
                    {"room_id": room_id, "seat": seat, "process": process, "seen_at": time.time()},
                )
            if notify is not None and self.is_postgres:
                await conn.execute(
                    text("SELECT pg_notify(:channel, :payload)"),
                    {"channel": NOTIFY_CHANNEL, "payload": notify},
                )

    @guarded
    async def present_elsewhere(self, room_id: int, process: str, fresh: float) -> set[int]:
        """The seats of room ``room_id`` with a socket on another process (its row seen
        after ``fresh``, a wall-clock time)."""
        async with self.reads.connect() as conn:
            rows = await conn.execute(
                select(PRESENCE.c.seat).where(
                    PRESENCE.c.room_id == room_id,
                    PRESENCE.c.process != process,
                    PRESENCE.c.seen_at > fresh,
                    PRESENCE.c.seat >= 0,  # not a HOLDER row: no socket
                )
            )
            return {int(r[0]) for r in rows}

    @guarded
    async def presence_elsewhere(
        self, room_ids: Sequence[int], process: str, fresh: float
    ) -> dict[int, set[int]]:
        """:meth:`present_elsewhere` of many rooms in one statement (a resync's)."""
        found: dict[int, set[int]] = {room_id: set() for room_id in room_ids}
        if not found:
            return found
        async with self.reads.connect() as conn:
            rows = await conn.execute(
                select(PRESENCE.c.room_id, PRESENCE.c.seat).where(
                    PRESENCE.c.room_id.in_(list(found)),
                    PRESENCE.c.process != process,
                    PRESENCE.c.seen_at > fresh,
                    PRESENCE.c.seat >= 0,
                )
            )
            for room_id, seat in rows:
                found[int(room_id)].add(int(seat))
        return found

    @guarded
    async def beat(self, process: str, held: set[tuple[int, int]], stale: float) -> None:
        """``process`` holds sockets of exactly the (room id, seat) pairs ``held``: its
        rows say so and are fresh; rows of any process not seen since ``stale`` go."""
        now = time.time()
        async with self.engine.begin() as conn:
            await conn.execute(delete(PRESENCE).where(PRESENCE.c.seen_at < stale))
            rows = await conn.execute(
                select(PRESENCE.c.room_id, PRESENCE.c.seat).where(PRESENCE.c.process == process)
            )
            stored = {(int(r[0]), int(r[1])) for r in rows}
            for room_id, seat in stored - held:
                await conn.execute(
                    delete(PRESENCE).where(
                        PRESENCE.c.room_id == room_id,
                        PRESENCE.c.seat == seat,
                        PRESENCE.c.process == process,
                    )
                )
            await conn.execute(
                update(PRESENCE).where(PRESENCE.c.process == process).values(seen_at=now)
            )
            missing = held - stored
            if missing:
                await conn.execute(
                    insert(PRESENCE),
                    [
                        {"room_id": r, "seat": s, "process": process, "seen_at": now}
                        for r, s in missing
                    ],
                )

    @guarded
    async def held_elsewhere(self, process: str, fresh: float) -> dict[int, set[str]]:
        """room id -> the other processes holding it: ``"socket"`` if one holds a socket
        of a seat, else the tags of those that hold it without one (seat ``HOLDER``)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(PRESENCE.c.room_id, PRESENCE.c.seat, PRESENCE.c.process).where(
                    PRESENCE.c.process != process, PRESENCE.c.seen_at > fresh
                )
            )
            found: dict[int, set[str]] = {}
            for room_id, seat, other in rows:
                found.setdefault(int(room_id), set()).add("socket" if seat >= 0 else other)
            return found
