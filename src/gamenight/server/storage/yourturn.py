"""The "your turn" list (issue 44): the decisions waiting in turn-based rooms for an
account's seats, or for the seats whose tokens a guest holds. Read from the database
alone (the ``turns`` rows, one per seat to act, with their clocks): no room is loaded,
so a list of a thousand idle rooms costs a query, not a thousand rebuilt tables."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from sqlalchemy import ColumnElement, and_, select
from sqlalchemy.ext.asyncio import AsyncEngine

from gamenight.server.lifecycle import Lifecycle
from gamenight.server.storage.outage import guarded
from gamenight.server.storage.schema import ROOMS, SEATS, TURNS

LIMIT = 200  # rows of one list: as many as a guest may send tokens


@dataclass(frozen=True)
class Player:
    """Another seat of the room, as everyone in it may know it."""

    seat: int
    kind: str  # human | bot
    bot: str
    name: str


@dataclass(frozen=True)
class Waiting:
    """A decision of a turn-based room waiting for one of the asker's seats."""

    code: str
    game: str
    seat: int
    since: float  # when the decision began (epoch seconds)
    deadline: float | None  # when its clock runs out; None: no clock
    late: bool  # the clock ran out already (the sweep found it late)
    others: tuple[Player, ...]
    token_hash: str = ""  # the seat's (to match a guest's tokens; never sent)


def order_key(w: Waiting) -> tuple[bool, float, float, str, int]:
    """The list's order: the nearest deadline first (no deadline last), then the longest
    waiting, then by room and seat (a stable order, never a tie).

    >>> a = Waiting("A", "g", 0, since=5.0, deadline=None, late=False, others=())
    >>> b = Waiting("B", "g", 0, since=9.0, deadline=50.0, late=False, others=())
    >>> c = Waiting("C", "g", 0, since=1.0, deadline=50.0, late=False, others=())
    >>> [w.code for w in sorted([a, b, c], key=order_key)]
    ['C', 'B', 'A']
    """
    no_clock = w.deadline is None
    return (no_clock, 0.0 if w.deadline is None else w.deadline, w.since, w.code, w.seat)


@guarded
async def waiting_for_account(engine: AsyncEngine, account_id: int) -> list[Waiting]:
    """Every decision waiting for a seat the account holds (claimed, in a room being
    played), across games."""
    mine = and_(SEATS.c.account_id == account_id, SEATS.c.token_hash.is_not(None))
    return await _waiting(engine, mine)


@guarded
async def waiting_for_tokens(
    engine: AsyncEngine, seats: Sequence[tuple[str, int, str]]
) -> list[Waiting]:
    """Every decision waiting for one of ``seats`` (room code, seat, token hash) whose
    hash is the seat's: a wrong token, seat or code matches nothing and so says nothing."""
    wanted = set(seats)
    if not wanted:
        return []
    # by the hashes (indexed), then each row checked against its code and seat too
    found = await _waiting(engine, SEATS.c.token_hash.in_(sorted({h for _c, _s, h in wanted})))
    return [w for w in found if (w.code, w.seat, w.token_hash) in wanted]


async def _waiting(engine: AsyncEngine, which: ColumnElement[bool]) -> list[Waiting]:
    query = (
        select(
            TURNS.c.room_id,
            ROOMS.c.code,
            ROOMS.c.game,
            TURNS.c.seat,
            TURNS.c.since,
            TURNS.c.deadline,
            TURNS.c.late_at,
            SEATS.c.token_hash,
        )
        .join(ROOMS, ROOMS.c.id == TURNS.c.room_id)
        .join(SEATS, and_(SEATS.c.room_id == TURNS.c.room_id, SEATS.c.seat == TURNS.c.seat))
        .where(which, ROOMS.c.status == Lifecycle.PLAYING.value, SEATS.c.kind == "human")
        # order_key's order (false before true: a deadline first)
        .order_by(TURNS.c.deadline.is_(None), TURNS.c.deadline, TURNS.c.since)
        .order_by(ROOMS.c.code, TURNS.c.seat)
        .limit(LIMIT)
    )
    async with engine.connect() as conn:
        rows = (await conn.execute(query)).all()
        rooms = sorted({r.room_id for r in rows})
        people: dict[int, list[tuple[int, Player]]] = {}
        if rooms:
            found = await conn.execute(
                select(SEATS.c.room_id, SEATS.c.seat, SEATS.c.kind, SEATS.c.bot, SEATS.c.name)
                .where(SEATS.c.room_id.in_(rooms))
                .order_by(SEATS.c.room_id, SEATS.c.seat)
            )
            for s in found:
                people.setdefault(s.room_id, []).append(
                    (s.seat, Player(s.seat, s.kind, s.bot, s.name))
                )
    out = [
        Waiting(
            code=r.code,
            game=r.game,
            seat=r.seat,
            since=float(r.since),
            deadline=None if r.deadline is None else float(r.deadline),
            late=r.late_at is not None,
            others=tuple(p for seat, p in people.get(r.room_id, []) if seat != r.seat),
            token_hash=r.token_hash or "",
        )
        for r in rows
    ]
    return sorted(out, key=order_key)
