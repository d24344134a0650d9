"""The store's action log: appending an action (compare-and-set on the room's seq,
group-committed) and reading the actions after a seq."""

from __future__ import annotations

import json
import time

import msgspec
from sqlalchemy import select

from gamenight.server.dburl import sync_url
from gamenight.server.storage.engine import Connected
from gamenight.server.storage.group import AppendRequest, GroupCommit, Writer
from gamenight.server.storage.outage import guarded
from gamenight.server.storage.rows import ActionRow, Behind
from gamenight.server.storage.schema import ACTIONS
from gamenight.server.storage.writers import PgWriter, SqliteWriter


class ActionLog(Connected):
    """The append-only log of every room's actions."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        writer: Writer = (
            PgWriter(self.url.replace("postgresql+psycopg://", "postgresql://"))
            if self.is_postgres
            else SqliteWriter(sync_url(url))
        )
        self._log = GroupCommit(writer)

    async def close(self) -> None:
        await self._log.close()
        await super().close()

    @guarded
    async def append_action(
        self,
        room_id: int,
        seq: int,
        seat: int,
        action: object,
        by: str,
        *,
        finished_results: object = None,
        notify: str | None = None,
    ) -> None:
        """Append action ``seq`` (one more than the log holds) and commit.

        The room's row is updated first, compare-and-set on its seq: on PostgreSQL
        that row lock holds until the commit, so two processes cannot both append
        ``seq`` (SQLite has one writer anyway; the (room, seq) key is the last
        guard). Raises :class:`Behind` if the log already holds ``seq``.
        Returns only after the commit: the caller may then acknowledge. Appends
        are group-committed (:class:`GroupCommit`): many rooms' actions share a
        transaction, each with its own compare-and-set. ``action`` is JSON
        builtins or already encoded (``msgspec.Raw``).
        """
        request = AppendRequest(
            room_id=room_id,
            seq=seq,
            seat=seat,
            action=(
                bytes(action).decode("utf-8")
                if isinstance(action, msgspec.Raw)
                else json.dumps(action, separators=(",", ":"))
            ),
            by=by,
            at=time.time(),
            results=None if finished_results is None else json.dumps(finished_results),
            notify=notify,
        )
        if not await self._log.append(request):
            raise Behind(seq - 1)

    @guarded
    async def actions_after(self, room_id: int, seq: int) -> list[ActionRow]:
        async with self.reads.connect() as conn:
            rows = await conn.execute(
                select(ACTIONS)
                .where(ACTIONS.c.room_id == room_id, ACTIONS.c.seq > seq)
                .order_by(ACTIONS.c.seq)
            )
            return [ActionRow(r.seq, r.seat, json.loads(r.action), r.by, r.at) for r in rows]
