"""The notifications' subscriptions: where each player is told (an account's or a guest
seat's channels), the rooms a sweep looks at, and the server's own keys."""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, delete, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncEngine

from gamenight.server.notify.tables import NOTIFY_KEYS, NOTIFY_OUTBOX, NOTIFY_SUBS
from gamenight.server.storage.outage import guarded
from gamenight.server.storage.schema import ROOMS, SEATS


@dataclass(frozen=True)
class Sub:
    """A subscription: an account's (``account_id``) or a guest seat's (``room_id``,
    ``seat``) channel."""

    id: int
    account_id: int | None
    room_id: int | None
    seat: int | None
    channel: str
    target: str
    secret: str
    lang: str
    created_at: float


def _sub(row: Any) -> Sub:
    m, c = row._mapping, NOTIFY_SUBS.c
    return Sub(
        m[c.id],
        m[c.account_id],
        m[c.room_id],
        m[c.seat],
        m[c.channel],
        m[c.target],
        m[c.secret],
        m[c.lang],
        m[c.created_at],
    )


class Subscriptions:
    """The subscriptions' rows on ``engine`` (the server's)."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.is_postgres = engine.dialect.name == "postgresql"

    @guarded
    async def add(
        self,
        *,
        account_id: int | None,
        room_id: int | None,
        seat: int | None,
        channel: str,
        target: str,
        secret: str,
        lang: str,
        unsub_hash: str,
        now: float | None = None,
    ) -> Sub:
        at = time.time() if now is None else now
        async with self.engine.begin() as conn:
            result = await conn.execute(
                insert(NOTIFY_SUBS)
                .values(
                    account_id=account_id,
                    room_id=room_id,
                    seat=seat,
                    channel=channel,
                    target=target,
                    secret=secret,
                    lang=lang,
                    unsub_hash=unsub_hash,
                    created_at=at,
                )
                .returning(*NOTIFY_SUBS.c)
            )
            return _sub(result.one())

    @guarded
    async def subs_of(
        self, *, account_id: int | None = None, room_id: int | None = None, seat: int | None = None
    ) -> list[Sub]:
        """An account's subscriptions, or a guest seat's."""
        if account_id is not None:
            where = NOTIFY_SUBS.c.account_id == account_id
        else:
            where = and_(
                NOTIFY_SUBS.c.account_id.is_(None),
                NOTIFY_SUBS.c.room_id == room_id,
                NOTIFY_SUBS.c.seat == seat,
            )
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(NOTIFY_SUBS).where(where).order_by(NOTIFY_SUBS.c.id))
            return [_sub(r) for r in rows]

    @guarded
    async def remove(
        self,
        sub_id: int,
        *,
        account_id: int | None = None,
        room_id: int | None = None,
        seat: int | None = None,
    ) -> bool:
        """Remove a subscription of this account (or this guest seat): False if none."""
        owner = (
            NOTIFY_SUBS.c.account_id == account_id
            if account_id is not None
            else and_(
                NOTIFY_SUBS.c.account_id.is_(None),
                NOTIFY_SUBS.c.room_id == room_id,
                NOTIFY_SUBS.c.seat == seat,
            )
        )
        async with self.engine.begin() as conn:
            result = await conn.execute(
                delete(NOTIFY_SUBS).where(NOTIFY_SUBS.c.id == sub_id, owner)
            )
            return bool(result.rowcount)

    @guarded
    async def unsubscribe(self, unsub_hash: str) -> bool:
        """The unsubscribe link's way, by the hash of its token alone: the token given
        when subscribing, or the one of any message sent."""
        async with self.engine.begin() as conn:
            found = (
                await conn.execute(
                    select(NOTIFY_OUTBOX.c.sub_id).where(NOTIFY_OUTBOX.c.unsub_hash == unsub_hash)
                )
            ).first()
            where = (
                NOTIFY_SUBS.c.unsub_hash == unsub_hash
                if found is None
                else NOTIFY_SUBS.c.id == found[0]
            )
            result = await conn.execute(delete(NOTIFY_SUBS).where(where))
            return bool(result.rowcount)

    @guarded
    async def sub(self, sub_id: int) -> Sub | None:
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(select(NOTIFY_SUBS).where(NOTIFY_SUBS.c.id == sub_id))
            ).first()
            return None if row is None else _sub(row)

    @guarded
    async def seat_of_token(self, code: str, seat: int, token_hash: str) -> int | None:
        """The room id if ``token_hash`` is the seat's token's hash (a guest's bearer)."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(
                    select(ROOMS.c.id)
                    .select_from(ROOMS.join(SEATS, SEATS.c.room_id == ROOMS.c.id))
                    .where(
                        ROOMS.c.code == code,
                        SEATS.c.seat == seat,
                        SEATS.c.token_hash == token_hash,
                    )
                )
            ).first()
            return None if row is None else int(row[0])

    @guarded
    async def subscribed_rooms(self) -> list[int]:
        """The rooms with a seat that has a subscription (its own or its account's): the
        only rooms a sweep looks at, so idle rooms nobody subscribed to cost nothing."""
        async with self.engine.connect() as conn:
            guest = select(NOTIFY_SUBS.c.room_id).where(NOTIFY_SUBS.c.room_id.is_not(None))
            owned = select(SEATS.c.room_id).where(
                SEATS.c.account_id.in_(
                    select(NOTIFY_SUBS.c.account_id).where(NOTIFY_SUBS.c.account_id.is_not(None))
                )
            )
            rows = await conn.execute(guest.union(owned))
            return sorted(int(r[0]) for r in rows)

    @guarded
    async def subs_for(self, rooms: Sequence[int]) -> list[tuple[int, int, Sub]]:
        """(room_id, seat, subscription) of every human seat of ``rooms`` that has one:
        the seat's own (a guest's) and its account's."""
        if not rooms:
            return []
        out: list[tuple[int, int, Sub]] = []
        async with self.engine.connect() as conn:
            guest = await conn.execute(
                select(NOTIFY_SUBS).where(
                    NOTIFY_SUBS.c.room_id.in_(rooms), NOTIFY_SUBS.c.account_id.is_(None)
                )
            )
            for row in guest:
                sub = _sub(row)
                assert sub.room_id is not None and sub.seat is not None
                out.append((sub.room_id, sub.seat, sub))
            owned = await conn.execute(
                select(SEATS.c.room_id.label("at_room"), SEATS.c.seat.label("at_seat"), NOTIFY_SUBS)
                .select_from(
                    SEATS.join(NOTIFY_SUBS, NOTIFY_SUBS.c.account_id == SEATS.c.account_id)
                )
                .where(SEATS.c.room_id.in_(rooms))
            )
            for row in owned:
                out.append((row.at_room, row.at_seat, _sub(row)))
        return out

    @guarded
    async def key(self, name: str, make: Any) -> str:
        """The server key ``name``, made by ``make()`` the first time: of two processes
        making it at once, the first insert wins and both read it back."""
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(select(NOTIFY_KEYS.c.value).where(NOTIFY_KEYS.c.name == name))
            ).first()
        if row is not None:
            return str(row[0])
        dialect = postgresql if self.is_postgres else sqlite
        async with self.engine.begin() as conn:
            await conn.execute(
                dialect.insert(NOTIFY_KEYS)
                .values(name=name, value=make(), created_at=time.time())
                .on_conflict_do_nothing(index_elements=["name"])
            )
        async with self.engine.connect() as conn:
            row = (
                await conn.execute(select(NOTIFY_KEYS.c.value).where(NOTIFY_KEYS.c.name == name))
            ).one()
        return str(row[0])
