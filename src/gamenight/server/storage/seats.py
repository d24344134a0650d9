"""The store's seats: claims, the players' parts of the dice seed, the host freeing a
seat and a freed seat claimed again, and a seat's absence. Each a compare-and-set on
the room's status, its row locked."""

from __future__ import annotations

from sqlalchemy import ColumnElement, exists, update

from gamenight.server.lifecycle import Lifecycle
from gamenight.server.storage.engine import Connected
from gamenight.server.storage.outage import guarded
from gamenight.server.storage.schema import PRESENCE, SEATS


class SeatStore(Connected):
    """The seats of rooms."""

    async def _update_seat(
        self,
        room_id: int,
        seat: int,
        status: Lifecycle,
        *where: ColumnElement[bool],
        **values: str | float | None,
    ) -> bool:
        """Set ``values`` on seat ``seat`` if the room (locked) is in ``status`` and the
        seat meets ``where``; touch the room. False when nothing was changed."""
        async with self.engine.begin() as conn:
            if await self._lock_room(conn, room_id) is not status:
                return False
            result = await conn.execute(
                update(SEATS)
                .where(SEATS.c.room_id == room_id, SEATS.c.seat == seat, *where)
                .values(**values)
            )
            await self._touch(conn, room_id)
            return bool(result.rowcount)

    @guarded
    async def claim_seat(
        self,
        room_id: int,
        seat: int,
        name: str,
        hashed: str,
        contribution: str | None = None,
        account_id: int | None = None,
    ) -> bool:
        """Give an unclaimed human seat of a waiting room to ``name`` (with the player's
        ``contribution`` to the dice seed, if the claim carried one), owned by
        ``account_id`` (None: a guest) in the same statement; False if taken."""
        return await self._update_seat(
            room_id, seat, Lifecycle.WAITING,
            SEATS.c.kind == "human", SEATS.c.token_hash.is_(None),
            name=name, token_hash=hashed, contribution=contribution,
            contributed_by=None if contribution is None else "player", account_id=account_id,
        )  # fmt: skip

    @guarded
    async def release_seat(self, room_id: int, seat: int) -> bool:
        """The host frees a claimed seat of a waiting room: its token stops working."""
        return await self._update_seat(
            room_id, seat, Lifecycle.WAITING, SEATS.c.kind == "human",
            name="", token_hash=None, contribution=None, contributed_by=None, account_id=None,
        )  # fmt: skip

    @guarded
    async def free_seat_in_play(self, room_id: int, seat: int, fresh: float = 0.0) -> bool:
        """The host frees a claimed human seat of a room being played (its player left):
        its token stops working and a bot plays it until someone claims it. False if the
        room is not playing, the seat is no claimed human seat, or a process holds a
        socket of it (a presence row seen after ``fresh``: server/presence.py)."""
        here = exists().where(
            PRESENCE.c.room_id == room_id, PRESENCE.c.seat == seat, PRESENCE.c.seen_at > fresh
        )
        return await self._update_seat(
            room_id, seat, Lifecycle.PLAYING,
            SEATS.c.kind == "human", SEATS.c.token_hash.is_not(None), ~here,
            name="", token_hash=None, account_id=None,
        )  # fmt: skip

    @guarded
    async def claim_freed_seat(
        self, room_id: int, seat: int, name: str, hashed: str, account_id: int | None = None
    ) -> bool:
        """Give a human seat the host freed during play to ``name``, owned by ``account_id``
        (None: a guest); False if taken."""
        return await self._update_seat(
            room_id, seat, Lifecycle.PLAYING,
            SEATS.c.kind == "human", SEATS.c.token_hash.is_(None),
            name=name, token_hash=hashed, away_since=None, account_id=account_id,
        )  # fmt: skip

    @guarded
    async def contribute(self, room_id: int, seat: int, hashed: str, contribution: str) -> bool:
        """The player of ``seat`` (token hash ``hashed``) adds their part of the dice seed,
        once, while the room waits; False if it already has one or the game has begun."""
        return await self._update_seat(
            room_id, seat, Lifecycle.WAITING,
            SEATS.c.token_hash == hashed, SEATS.c.contribution.is_(None),
            contribution=contribution, contributed_by="player",
        )  # fmt: skip

    @guarded
    async def resume_seat(
        self, room_id: int, seat: int, status: Lifecycle, account_id: int, hashed: str
    ) -> bool:
        """A fresh token for a claimed human seat of a room in ``status`` that account
        ``account_id`` holds (issue 43: the seat comes back on another device); the old
        token stops working. False if the account holds no such seat."""
        return await self._update_seat(
            room_id, seat, status,
            SEATS.c.kind == "human", SEATS.c.token_hash.is_not(None),
            SEATS.c.account_id == account_id,
            token_hash=hashed,
        )  # fmt: skip

    @guarded
    async def set_away(self, room_id: int, seat: int, away_since: float | None) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                update(SEATS)
                .where(SEATS.c.room_id == room_id, SEATS.c.seat == seat)
                .values(away_since=away_since)
            )
