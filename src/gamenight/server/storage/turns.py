"""The clocks of turn-based rooms (issue 44) in the ``turns`` table and ``seats.bank``.

One row per seat to act, written in the transaction of the move that made the decision
(:func:`write_turns_sqlite`, :func:`write_turns_pg`, called by the action log's writers)
or of the room's start (:meth:`TurnStore.begin_turns`). A seat's row lasts as long as it
stays to act (a move of several actions, a roll and its keeps, is one decision); when
it ends, the time the seat used beyond ``move_time`` comes off its bank. The deadline is
``since + move_time + bank``. The sweep (:meth:`TurnStore.claim_due`) marks due rows
late with one conditional UPDATE, so that of several processes exactly one does.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from sqlalchemy import and_, delete, insert, or_, select, update

from gamenight.server.storage.engine import Connected
from gamenight.server.storage.group import AppendRequest
from gamenight.server.storage.outage import guarded
from gamenight.server.storage.schema import ROOMS, SEATS, TURNS

if TYPE_CHECKING:  # the [postgres] extra
    import psycopg
    from psycopg.rows import TupleRow


class TurnRow(NamedTuple):
    """A seat to act in a turn-based room, with its clock."""

    seat: int
    seq: int
    since: float
    deadline: float | None
    late_at: float | None


class Due(NamedTuple):
    """A row the sweep found late (and this process claimed)."""

    code: str
    room_id: int
    seat: int


# The statements of a move's turns, qmark style (SQLite; psycopg gets %s).
_HELD = "SELECT seat, since FROM turns WHERE room_id = ?"
_CHARGE = "UPDATE seats SET bank = ? WHERE room_id = ? AND seat = ?"
_BANK = "SELECT COALESCE(bank, 0) FROM seats WHERE room_id = ? AND seat = ?"
_END = "DELETE FROM turns WHERE room_id = ? AND seat = ?"
_BEGIN = "INSERT INTO turns (room_id, seat, seq, since, deadline) VALUES (?, ?, ?, ?, ?)"


def _pg(sql: str) -> str:
    return sql.replace("?", "%s")


def charged(bank: float, at: float, since: float, move_time: float) -> float:
    """A seat's bank after a decision from ``since`` to ``at``: what it used beyond
    ``move_time`` comes off, down to 0.

    >>> charged(3600, 1000 + 7200, 1000, 3600), charged(100, 50_000, 0, 3600)
    (0.0, 0.0)
    >>> charged(3600, 1000 + 1800, 1000, 3600)
    3600.0
    """
    return float(max(0.0, bank - max(0.0, at - since - move_time)))


def write_turns_sqlite(conn: sqlite3.Connection, r: AppendRequest) -> None:
    """The turns of ``r``'s room after its move (in the writer's transaction)."""
    if r.to_act is None:
        return
    held = dict(conn.execute(_HELD, (r.room_id,)).fetchall())
    for seat, since in held.items():
        if seat not in r.to_act:
            (bank,) = conn.execute(_BANK, (r.room_id, seat)).fetchone()
            conn.execute(_CHARGE, (charged(bank, r.at, since, r.move_time), r.room_id, seat))
            conn.execute(_END, (r.room_id, seat))
    for seat in r.to_act:
        if seat not in held:
            (bank,) = conn.execute(_BANK, (r.room_id, seat)).fetchone()
            deadline = r.at + r.move_time + bank
            conn.execute(_BEGIN, (r.room_id, seat, r.seq, r.at, deadline))


async def write_turns_pg(conn: psycopg.AsyncConnection[TupleRow], r: AppendRequest) -> None:
    """:func:`write_turns_sqlite` on PostgreSQL (in the writer's transaction)."""
    if r.to_act is None:
        return
    cursor = await conn.execute(_pg(_HELD), (r.room_id,))
    held = {int(seat): float(since) for seat, since in await cursor.fetchall()}
    for seat, since in held.items():
        if seat not in r.to_act:
            row = await (await conn.execute(_pg(_BANK), (r.room_id, seat))).fetchone()
            bank = float(row[0]) if row else 0.0
            params = (charged(bank, r.at, since, r.move_time), r.room_id, seat)
            await conn.execute(_pg(_CHARGE), params)
            await conn.execute(_pg(_END), (r.room_id, seat))
    for seat in r.to_act:
        if seat not in held:
            row = await (await conn.execute(_pg(_BANK), (r.room_id, seat))).fetchone()
            deadline = r.at + r.move_time + (float(row[0]) if row else 0.0)
            await conn.execute(_pg(_BEGIN), (r.room_id, seat, r.seq, r.at, deadline))


class TurnStore(Connected):
    """The clocks of turn-based rooms: begun, read, and swept for late seats."""

    @guarded
    async def begin_turns(
        self,
        room_id: int,
        to_act: Sequence[int],
        humans: Sequence[int],
        at: float,
        move_time: float,
        bank: float,
    ) -> None:
        """The room's start: every human seat gets its bank (once), the seats to act
        their rows (those already there are kept: a start taken up again)."""
        async with self.engine.begin() as conn:
            await conn.execute(
                update(SEATS)
                .where(SEATS.c.room_id == room_id, SEATS.c.seat.in_(humans), SEATS.c.bank.is_(None))
                .values(bank=bank)
            )
            held = {
                r[0]
                for r in await conn.execute(select(TURNS.c.seat).where(TURNS.c.room_id == room_id))
            }
            rows = [
                {"room_id": room_id, "seat": s, "seq": 0, "since": at,
                 "deadline": at + move_time + bank}
                for s in to_act if s not in held
            ]  # fmt: skip
            if rows:
                await conn.execute(insert(TURNS), rows)

    @guarded
    async def set_turns(
        self, room_id: int, seq: int, to_act: Sequence[int], at: float, move_time: float
    ) -> None:
        """The rows after a move was taken back (an undo, ``server/undo.py``): the seats
        no longer to act lose theirs, those to act again get one from ``at``."""
        async with self.engine.begin() as conn:
            await conn.execute(
                delete(TURNS).where(TURNS.c.room_id == room_id, TURNS.c.seat.not_in(to_act))
            )
            held = {
                r[0]
                for r in await conn.execute(select(TURNS.c.seat).where(TURNS.c.room_id == room_id))
            }
            for seat in to_act:
                if seat in held:
                    continue
                bank = (
                    await conn.execute(
                        select(SEATS.c.bank).where(SEATS.c.room_id == room_id, SEATS.c.seat == seat)
                    )
                ).scalar()
                deadline = at + move_time + float(bank or 0)
                await conn.execute(
                    insert(TURNS),
                    {
                        "room_id": room_id,
                        "seat": seat,
                        "seq": seq,
                        "since": at,
                        "deadline": deadline,
                    },
                )

    @guarded
    async def turns_of(self, room_id: int) -> tuple[list[TurnRow], dict[int, float]]:
        """The room's rows and every seat's bank (seconds; seats without one left out)."""
        async with self.reads.connect() as conn:
            rows = await conn.execute(
                select(TURNS.c.seat, TURNS.c.seq, TURNS.c.since, TURNS.c.deadline,
                       TURNS.c.late_at)
                .where(TURNS.c.room_id == room_id)
                .order_by(TURNS.c.seat)
            )  # fmt: skip
            turns = [TurnRow(r[0], r[1], r[2], r[3], r[4]) for r in rows]
            banks = await conn.execute(
                select(SEATS.c.seat, SEATS.c.bank).where(
                    SEATS.c.room_id == room_id, SEATS.c.bank.is_not(None)
                )
            )
            return turns, {int(r[0]): float(r[1]) for r in banks}

    @guarded
    async def claim_due(self, now: float, process: str, hold: float) -> list[Due]:
        """Mark the rows whose deadline has passed late, claimed by ``process`` until
        ``now + hold``: one conditional UPDATE, so that of two processes sweeping at
        once each row goes to exactly one (PostgreSQL re-checks the condition on the
        row the other's commit changed; SQLite has one writer)."""
        due = and_(
            TURNS.c.deadline <= now,
            TURNS.c.late_at.is_(None),
            or_(TURNS.c.claim_until.is_(None), TURNS.c.claim_until < now),
        )
        async with self.engine.begin() as conn:
            claimed = await conn.execute(
                update(TURNS)
                .where(due)
                .values(claimed_by=process, claim_until=now + hold, late_at=now)
                .returning(TURNS.c.room_id, TURNS.c.seat)
            )
            pairs = [(int(r[0]), int(r[1])) for r in claimed]
            if not pairs:
                return []
            ids = sorted({room for room, _seat in pairs})
            found = await conn.execute(select(ROOMS.c.id, ROOMS.c.code).where(ROOMS.c.id.in_(ids)))
            codes = {int(r[0]): str(r[1]) for r in found}
        return [Due(codes[room], room, seat) for room, seat in pairs if room in codes]

    @guarded
    async def end_turns(self, room_id: int) -> None:
        """The room is over (closed): no clock of it runs any more."""
        async with self.engine.begin() as conn:
            await conn.execute(delete(TURNS).where(TURNS.c.room_id == room_id))
