"""The store's rooms: creating one, loading it with its seats, the lists the hub and
the lobby read, and its status (the start, a close, broken)."""

from __future__ import annotations

import json
import time
from collections.abc import Sequence

from sqlalchemy import ColumnElement, and_, exists, insert, select, update

from gamenight.core.options import Options
from gamenight.server.lifecycle import Lifecycle
from gamenight.server.storage.engine import Connected
from gamenight.server.storage.outage import guarded
from gamenight.server.storage.rows import (
    OPEN_VALUES,
    IdleRoom,
    OpenRoom,
    PublicRoom,
    RoomRow,
    SeatRow,
    idle_close,
)
from gamenight.server.storage.schema import PRESENCE, ROOMS, SEATS

# A turn-based room (RoomOptions.pace, issue 44) lives in the database between moves: no
# process loads it at its start or adopts it, and the idle check leaves it alone while it
# is played (its clock and the other players decide: docs/protocol.md "Turn-based rooms").
_TURN_BASED = ROOMS.c.room_options.like('%"pace": "turn-based"%')
_PLAYED_TURN_BASED = and_(_TURN_BASED, ROOMS.c.status == Lifecycle.PLAYING.value)


class RoomStore(Connected):
    """Rooms: created waiting, read with their seats, started, closed or broken."""

    @guarded
    async def create_room(
        self,
        *,
        code: str,
        game: str,
        options: Options,
        room_options: dict[str, object],
        public: bool,
        seed: int,
        commitment: str,
        entropy: str,
        host_token_hash: str,
        seats: Sequence[tuple[str, str]],  # (kind, bot name)
    ) -> int:
        now = time.time()
        async with self.engine.begin() as conn:
            result = await conn.execute(
                insert(ROOMS).returning(ROOMS.c.id),
                {
                    "code": code,
                    "game": game,
                    "options": json.dumps(options),
                    "room_options": json.dumps(room_options),
                    "public": public,
                    "status": Lifecycle.WAITING.value,
                    "seed": str(seed),
                    "commitment": commitment,
                    "entropy": entropy,
                    "host_token_hash": host_token_hash,
                    "seq": 0,
                    "note": "",
                    "created_at": now,
                    "updated_at": now,
                },
            )
            room_id = int(result.scalar_one())
            await conn.execute(
                insert(SEATS),
                [
                    {"room_id": room_id, "seat": i, "kind": kind, "bot": bot, "name": ""}
                    for i, (kind, bot) in enumerate(seats)
                ],
            )
        return room_id

    @guarded
    async def load_room(self, code: str) -> RoomRow | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(ROOMS).where(ROOMS.c.code == code))).first()
            if row is None:
                return None
            seats = (
                await conn.execute(
                    select(SEATS).where(SEATS.c.room_id == row.id).order_by(SEATS.c.seat)
                )
            ).all()
        return RoomRow(
            id=row.id,
            code=row.code,
            game=row.game,
            options=json.loads(row.options),
            room_options=json.loads(row.room_options),
            public=bool(row.public),
            status=Lifecycle(row.status),
            seed=int(row.seed),
            commitment=row.commitment,
            entropy=row.entropy,
            host_token_hash=row.host_token_hash,
            seq=row.seq,
            results=None if row.results is None else json.loads(row.results),
            note=row.note,
            created_at=row.created_at,
            updated_at=row.updated_at,
            seats=tuple(
                SeatRow(
                    s.seat,
                    s.kind,
                    s.bot,
                    s.name,
                    s.token_hash,
                    s.away_since,
                    s.contribution,
                    s.contributed_by,
                    s.account_id,
                )
                for s in seats
            ),
        )

    @guarded
    async def room_codes(self, statuses: Sequence[str], live_only: bool = False) -> list[str]:
        """The codes of the rooms in ``statuses`` (Lifecycle values), oldest first
        (``live_only``: no turn-based room)."""
        where: ColumnElement[bool] = ROOMS.c.status.in_(statuses)
        if live_only:
            where = and_(where, ~_TURN_BASED)
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(ROOMS.c.code).where(where).order_by(ROOMS.c.id))
            return [r[0] for r in rows]

    @guarded
    async def open_rooms(self) -> dict[str, OpenRoom]:
        """code -> (seq, status) of every waiting or playing room (the re-check of the
        rooms a process holds, and the rooms it should adopt)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(ROOMS.c.code, ROOMS.c.seq, ROOMS.c.status).where(
                    ROOMS.c.status.in_(OPEN_VALUES)
                )
            )
            return {r[0]: OpenRoom(int(r[1]), Lifecycle(r[2])) for r in rows}

    @guarded
    async def public_rooms(self, limit: int = 100) -> list[PublicRoom]:
        """(code, game, status, created_at) of open public rooms, newest first."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(ROOMS.c.code, ROOMS.c.game, ROOMS.c.status, ROOMS.c.created_at)
                .where(ROOMS.c.public.is_(True), ROOMS.c.status.in_(OPEN_VALUES))
                .order_by(ROOMS.c.id.desc())
                .limit(limit)
            )
            return [PublicRoom(r[0], r[1], Lifecycle(r[2]), r[3]) for r in rows]

    @guarded
    async def idle_rooms(self, now: float) -> list[IdleRoom]:
        """(code, updated_at, idle_close) of every room still open, for the idle check
        (not the turn-based rooms being played)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(ROOMS.c.code, ROOMS.c.updated_at, ROOMS.c.room_options).where(
                    ROOMS.c.status.in_(OPEN_VALUES), ~_PLAYED_TURN_BASED
                )
            )
            return [IdleRoom(r[0], r[1], idle_close(r[2])) for r in rows]

    @guarded
    async def orphans(self, fresh: float) -> list[str]:
        """The codes of the rooms being played that no process holds (no presence row
        seen after ``fresh``): their process died, another adopts them."""
        held = exists().where(PRESENCE.c.room_id == ROOMS.c.id, PRESENCE.c.seen_at > fresh)
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(ROOMS.c.code).where(
                    ROOMS.c.status == Lifecycle.PLAYING.value, ~held, ~_TURN_BASED
                )
            )
            return [r[0] for r in rows]

    @guarded
    async def start_room(
        self, room_id: int, bots: dict[int, str], fill: dict[int, str] | None = None
    ) -> list[tuple[str | None, str | None]] | None:
        """Waiting -> playing; empty human seats become the given bots, and claimed seats
        still without a contribution get the server's from ``fill``, in the same
        transaction. Every seat's final (contribution, by), or None if not waiting."""
        async with self.engine.begin() as conn:
            if await self._lock_room(conn, room_id) is not Lifecycle.WAITING:
                return None
            for seat, bot in bots.items():
                await conn.execute(
                    update(SEATS)
                    .where(SEATS.c.room_id == room_id, SEATS.c.seat == seat)
                    .values(kind="bot", bot=bot, token_hash=None, contribution=None,
                            contributed_by=None)
                )  # fmt: skip
            for seat, value in (fill or {}).items():
                await conn.execute(
                    update(SEATS)
                    .where(
                        SEATS.c.room_id == room_id,
                        SEATS.c.seat == seat,
                        SEATS.c.kind == "human",
                        SEATS.c.contribution.is_(None),
                    )
                    .values(contribution=value, contributed_by="server")
                )
            parts = await conn.execute(
                select(SEATS.c.contribution, SEATS.c.contributed_by)
                .where(SEATS.c.room_id == room_id)
                .order_by(SEATS.c.seat)
            )
            final = [(r[0], r[1]) for r in parts]
            await conn.execute(
                update(ROOMS)
                .where(ROOMS.c.id == room_id)
                .values(status=Lifecycle.PLAYING.value, updated_at=time.time())
            )
        return final

    @guarded
    async def set_status(self, room_id: int, status: str, note: str = "") -> None:
        """Store the room's status (a :class:`Lifecycle` or its value; anything else is
        refused with ValueError before the database is touched)."""
        value = Lifecycle(status).value
        async with self.engine.begin() as conn:
            await conn.execute(
                update(ROOMS)
                .where(ROOMS.c.id == room_id)
                .values(status=value, note=note, updated_at=time.time())
            )
