"""The store's action log: appending an action (compare-and-set on the room's seq,
group-committed) and reading the actions after a seq."""

from __future__ import annotations

import json
import time

import msgspec
from sqlalchemy import delete, select, text, update

from gamenight.server.dburl import sync_url
from gamenight.server.lifecycle import Lifecycle
from gamenight.server.storage.engine import NOTIFY_CHANNEL, Connected
from gamenight.server.storage.group import AppendRequest, GroupCommit, Writer
from gamenight.server.storage.outage import guarded
from gamenight.server.storage.rows import ActionRow, Behind
from gamenight.server.storage.schema import ACTIONS, ROOMS
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
        at: float | None = None,
        to_act: tuple[int, ...] | None = None,
        move_time: float = 0.0,
    ) -> None:
        """Append action ``seq`` (one more than the log holds) and commit.

        The room's row is updated first, compare-and-set on its seq: on PostgreSQL
        that row lock holds until the commit, so two processes cannot both append
        ``seq`` (SQLite has one writer anyway; the (room, seq) key is the last
        guard). Raises :class:`Behind` if the log already holds ``seq``.
        Returns only after the commit: the caller may then acknowledge. Appends
        are group-committed (:class:`GroupCommit`): many rooms' actions share a
        transaction, each with its own compare-and-set. ``action`` is JSON
        builtins or already encoded (``msgspec.Raw``). A turn-based room gives ``at``
        (its clock's time), the human seats ``to_act`` after the action and its
        ``move_time``: its ``turns`` rows change in the same transaction.
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
            at=time.time() if at is None else at,
            results=None if finished_results is None else json.dumps(finished_results),
            notify=notify,
            to_act=to_act,
            move_time=move_time,
        )
        if not await self._log.append(request):
            raise Behind(seq - 1)

    @guarded
    async def take_back(
        self, room_id: int, seq: int, seat: int, *, notify: str | None = None
    ) -> bool:
        """Cut action ``seq``, the last of the log, if ``seat``'s player made it (an undo,
        docs/protocol.md "Undo"), and commit; False (nothing changed) if the log's last
        action is another or was not the player's own (a bot's, the turn clock's).

        Compare-and-set on the room's seq as :meth:`append_action`, so no append crosses
        it. The row goes: an undo is allowed only for a move that threw no dice and
        revealed nothing (``Game.reversible``), so the log keeps no trace of it and its
        replay is the game as it stands.
        """
        try:
            async with self.engine.begin() as conn:
                moved = await conn.execute(
                    update(ROOMS)
                    .where(
                        ROOMS.c.id == room_id,
                        ROOMS.c.seq == seq,
                        ROOMS.c.status == Lifecycle.PLAYING.value,
                    )
                    .values(seq=seq - 1, updated_at=time.time())
                )
                if moved.rowcount != 1:
                    return False
                cut = await conn.execute(
                    delete(ACTIONS).where(
                        ACTIONS.c.room_id == room_id,
                        ACTIONS.c.seq == seq,
                        ACTIONS.c.seat == seat,
                        ACTIONS.c.by == "human",
                    )
                )
                if cut.rowcount != 1:
                    raise _NotTaken  # leaving the block rolls the seq's change back
                if notify is not None and self.is_postgres:
                    await conn.execute(
                        text("SELECT pg_notify(:channel, :payload)"),
                        {"channel": NOTIFY_CHANNEL, "payload": notify},
                    )
        except _NotTaken:
            return False
        return True

    @guarded
    async def actions_after(self, room_id: int, seq: int) -> list[ActionRow]:
        async with self.reads.connect() as conn:
            rows = await conn.execute(
                select(ACTIONS)
                .where(ACTIONS.c.room_id == room_id, ACTIONS.c.seq > seq)
                .order_by(ACTIONS.c.seq)
            )
            return [ActionRow(r.seq, r.seat, json.loads(r.action), r.by, r.at) for r in rows]


class _NotTaken(Exception):
    """A take-back that found another action last: its transaction rolls back."""
