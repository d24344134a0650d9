"""Every read and write of the notifications: subscriptions, the outbox, the VAPID key.

Short transactions on the server's engine. The outbox is the one truth of what is sent:

* :meth:`NotifyStore.enqueue` inserts rows by their unique ``key`` and skips those that
  exist, so a sweep run twice, or by two processes at once, makes each row once;
* :meth:`NotifyStore.claim` takes a subscription's due rows with one conditional UPDATE
  (``state = 'pending'`` and no live claim): of two processes racing for a row, the
  database gives it to one (PostgreSQL re-checks the condition on the locked row);
* :meth:`NotifyStore.sent` marks them sent, only while the claim is still this
  process's; :meth:`NotifyStore.retry` gives them back with a later ``due_at``.

A claim that its process never finishes (killed) runs out after ``lease`` seconds and
the rows are claimed again: at least once. The window between a channel taking a
message and ``sent`` being committed is the one where a crash sends it twice
(docs/notifications.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import and_, or_, select, update
from sqlalchemy.dialects import postgresql, sqlite

from gamenight.server.notify.subs import Sub as Sub
from gamenight.server.notify.subs import Subscriptions
from gamenight.server.notify.tables import NOTIFY_OUTBOX
from gamenight.server.storage.outage import guarded
from gamenight.server.storage.schema import ROOMS, SEATS, TURNS

MAX_ATTEMPTS = 8  # then a row is "failed": its channel is broken, the others go on


@dataclass(frozen=True)
class Event:
    """An outbox row to make: ``key`` names it once and for all."""

    key: str
    sub_id: int
    kind: str  # turn | remind | late
    room_id: int
    seat: int
    seq: int
    payload: dict[str, Any]
    due_at: float


@dataclass(frozen=True)
class Claimed:
    """An outbox row this process claimed, to send."""

    id: int
    kind: str
    room_id: int
    seat: int
    seq: int
    payload: dict[str, Any]
    attempts: int


@dataclass(frozen=True)
class Waiting:
    """A committed ``turns`` row with what the notifications say of it."""

    room_id: int
    code: str
    game: str
    room_options: str  # JSON
    seat: int
    seq: int
    since: float
    deadline: float | None
    late_at: float | None
    account_id: int | None
    name: str


class NotifyStore(Subscriptions):
    """The notifications' rows on ``engine``: the subscriptions and the outbox."""

    @guarded
    async def set_unsub_hash(self, ids: Sequence[int], me: str, unsub_hash: str) -> None:
        """The hash of the unsubscribe token of the message carrying the rows ``ids``."""
        await self._finish(ids, me, {"unsub_hash": unsub_hash})

    @guarded
    async def waiting(self, rooms: Sequence[int]) -> list[Waiting]:
        """The committed decisions waiting in ``rooms`` (their ``turns`` rows)."""
        if not rooms:
            return []
        query = (
            select(
                TURNS.c.room_id,
                ROOMS.c.code,
                ROOMS.c.game,
                ROOMS.c.room_options,
                TURNS.c.seat,
                TURNS.c.seq,
                TURNS.c.since,
                TURNS.c.deadline,
                TURNS.c.late_at,
                SEATS.c.account_id,
                SEATS.c.name,
            )
            .select_from(
                TURNS.join(ROOMS, ROOMS.c.id == TURNS.c.room_id).join(
                    SEATS, and_(SEATS.c.room_id == TURNS.c.room_id, SEATS.c.seat == TURNS.c.seat)
                )
            )
            .where(SEATS.c.kind == "human", TURNS.c.room_id.in_(rooms))
        )
        async with self.engine.connect() as conn:
            return [Waiting(*row) for row in await conn.execute(query)]

    @guarded
    async def last_turn_sent(
        self, pairs: Iterable[tuple[int, int]]
    ) -> dict[tuple[int, int], float]:
        """When the latest "your turn" message was sent, per (subscription, room)."""
        wanted = set(pairs)
        if not wanted:
            return {}
        subs = {s for s, _ in wanted}
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(
                    NOTIFY_OUTBOX.c.sub_id, NOTIFY_OUTBOX.c.room_id, NOTIFY_OUTBOX.c.sent_at
                ).where(
                    NOTIFY_OUTBOX.c.kind == "turn",
                    NOTIFY_OUTBOX.c.sub_id.in_(subs),
                    NOTIFY_OUTBOX.c.state == "sent",
                )
            )
            out: dict[tuple[int, int], float] = {}
            for sub_id, room_id, due in rows:
                key = (sub_id, room_id)
                if key in wanted:
                    out[key] = max(due, out.get(key, due))
            return out

    @guarded
    async def known_keys(self, keys: Sequence[str]) -> set[str]:
        if not keys:
            return set()
        found: set[str] = set()
        async with self.engine.connect() as conn:
            for start in range(0, len(keys), 500):
                rows = await conn.execute(
                    select(NOTIFY_OUTBOX.c.key).where(
                        NOTIFY_OUTBOX.c.key.in_(keys[start : start + 500])
                    )
                )
                found |= {r[0] for r in rows}
        return found

    @guarded
    async def enqueue(self, events: Sequence[Event], now: float) -> int:
        """Insert the events whose key is new; the number inserted."""
        if not events:
            return 0
        values = [
            {
                "key": e.key,
                "sub_id": e.sub_id,
                "kind": e.kind,
                "room_id": e.room_id,
                "seat": e.seat,
                "seq": e.seq,
                "payload": json.dumps(e.payload, sort_keys=True),
                "state": "pending",
                "due_at": e.due_at,
                "attempts": 0,
                "error": "",
                "created_at": now,
            }
            for e in events
        ]
        dialect = postgresql if self.is_postgres else sqlite
        statement = dialect.insert(NOTIFY_OUTBOX).on_conflict_do_nothing(index_elements=["key"])
        async with self.engine.begin() as conn:
            result = await conn.execute(statement, values)
            return max(int(result.rowcount), 0)

    def _claimable(self, now: float) -> Any:
        return and_(
            NOTIFY_OUTBOX.c.state == "pending",
            NOTIFY_OUTBOX.c.due_at <= now,
            or_(NOTIFY_OUTBOX.c.claim_until.is_(None), NOTIFY_OUTBOX.c.claim_until < now),
        )

    @guarded
    async def due_subs(self, now: float, limit: int = 100) -> list[int]:
        """Subscriptions with rows to send now (claimed by nobody, or a claim run out)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(NOTIFY_OUTBOX.c.sub_id).where(self._claimable(now)).distinct().limit(limit)
            )
            return [r[0] for r in rows]

    @guarded
    async def claim(self, sub_id: int, me: str, now: float, lease: float) -> list[Claimed]:
        """Claim every due row of ``sub_id`` for ``me`` until ``now + lease``: one
        conditional UPDATE, so no row is claimed by two processes."""
        async with self.engine.begin() as conn:
            result = await conn.execute(
                update(NOTIFY_OUTBOX)
                .where(NOTIFY_OUTBOX.c.sub_id == sub_id, self._claimable(now))
                .values(claimed_by=me, claim_until=now + lease)
                .returning(
                    NOTIFY_OUTBOX.c.id,
                    NOTIFY_OUTBOX.c.kind,
                    NOTIFY_OUTBOX.c.room_id,
                    NOTIFY_OUTBOX.c.seat,
                    NOTIFY_OUTBOX.c.seq,
                    NOTIFY_OUTBOX.c.payload,
                    NOTIFY_OUTBOX.c.attempts,
                )
            )
            rows = result.all()
        claimed = [Claimed(r[0], r[1], r[2], r[3], r[4], json.loads(r[5]), r[6]) for r in rows]
        return sorted(claimed, key=lambda c: c.id)

    @guarded
    async def current_seqs(self, pairs: Iterable[tuple[int, int]]) -> dict[tuple[int, int], int]:
        """The ``turns`` seq of each (room, seat) still to act."""
        wanted = set(pairs)
        if not wanted:
            return {}
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(TURNS.c.room_id, TURNS.c.seat, TURNS.c.seq).where(
                    TURNS.c.room_id.in_({r for r, _ in wanted})
                )
            )
            return {(r, s): q for r, s, q in rows if (r, s) in wanted}

    async def _finish(self, ids: Sequence[int], me: str, values: dict[str, Any]) -> int:
        if not ids:
            return 0
        async with self.engine.begin() as conn:
            result = await conn.execute(
                update(NOTIFY_OUTBOX)
                .where(NOTIFY_OUTBOX.c.id.in_(ids), NOTIFY_OUTBOX.c.claimed_by == me)
                .values(**values)
            )
            return int(result.rowcount)

    @guarded
    async def sent(self, ids: Sequence[int], me: str, now: float) -> int:
        return await self._finish(ids, me, {"state": "sent", "sent_at": now, "error": ""})

    @guarded
    async def stale(self, ids: Sequence[int], me: str) -> int:
        """Rows not to send: the decision they tell of is taken already."""
        return await self._finish(ids, me, {"state": "stale"})

    @guarded
    async def retry(
        self, rows: Sequence[Claimed], me: str, now: float, error: str, backoff: float
    ) -> None:
        """Give rows back for a later try (``backoff`` seconds doubling per attempt), or
        mark them failed after :data:`MAX_ATTEMPTS`."""
        for row in rows:
            attempts = row.attempts + 1
            values: dict[str, Any] = {
                "attempts": attempts,
                "error": error[:300],
                "claimed_by": None,
                "claim_until": None,
            }
            if attempts >= MAX_ATTEMPTS:
                values["state"] = "failed"
            else:
                values["due_at"] = now + backoff * 2 ** (attempts - 1)
            await self._finish([row.id], me, values)

    @guarded
    async def outbox(self) -> list[dict[str, Any]]:
        """Every outbox row (tests, the operator's look)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(select(NOTIFY_OUTBOX).order_by(NOTIFY_OUTBOX.c.id))
            return [dict(r._mapping) for r in rows]
