"""A room and the other server processes: catching up with the database (another
process acted, chatted, claimed, began or closed the room) and telling the others of a
change committed here (NOTIFY on PostgreSQL)."""

from __future__ import annotations

import logging
from collections.abc import Sequence

from gamenight.core.errors import StorageUnavailableError
from gamenight.server import metrics, presence, undo
from gamenight.server.course import mark_broken
from gamenight.server.lifecycle import OPEN, Lifecycle
from gamenight.server.live import LiveRoom, held_weakly
from gamenight.server.storage.rows import SeatRow

log = logging.getLogger("gamenight.server")


class Sync:
    """What ``room`` reads from and tells the other processes."""

    def __init__(self, room: LiveRoom) -> None:
        self.room = held_weakly(room)

    async def sync(self, actions_only: bool = False) -> None:
        """Catch up with the database (another process acted, chatted or changed the
        room); ``actions_only``: it acted, so only the log is read."""
        room = self.room
        async with room.lock:
            if actions_only:
                await self.catch_up_actions()
            else:
                await self.catch_up()
        if not actions_only:
            await presence.refresh(room)
        room.bots.kick(room)

    async def catch_up(self) -> None:
        """Take the database's seats, start, actions and closing (the lock is held). The
        actions go through ``table.submit``: the listener sends their frames."""
        room = self.room
        store = room.services.store
        row = await store.load_room(room.code)
        if row is None:
            return
        starting = room.status is Lifecycle.WAITING and row.status != Lifecycle.WAITING
        # a turn-based room begun elsewhere: its clock read first and taken together with
        # the start, so that no reader sees it playing with nobody to act
        clock = await store.turns_of(room.id) if starting and room.turns.on else None
        changed = self._take_seats(row.seats)
        if starting:
            try:
                table = room.new_table()
            except Exception as exc:
                note = await mark_broken(store, room.id, room.code, row.status, exc)
                room.end(Lifecycle.BROKEN, note)
                room.show()
                return
            if clock is not None:
                room.turns.rows, room.turns.banks = clock
            room.go_live(table)
        if room.table is not None and room.status is Lifecycle.PLAYING:
            undo.follow(room, room.table, row.seq)  # a move taken back in another process
        await self.catch_up_actions()
        if row.status == Lifecycle.CLOSED and room.status in OPEN:  # closed elsewhere
            room.end(Lifecycle.CLOSED, row.note)
            changed = True
        if changed:
            room.show()

    def _take_seats(self, rows: Sequence[SeatRow]) -> bool:
        """The database's seats; whether any changed. A seat whose token changed (freed,
        maybe claimed again, elsewhere) loses its sockets here."""
        changed = False
        for s, r in zip(self.room.seats, rows, strict=True):
            mine = (
                s.kind, s.bot, s.name, s.token_hash, s.contribution, s.contributed_by,
                s.account_id,
            )  # fmt: skip
            theirs = (
                r.kind, r.bot, r.name, r.token_hash, r.contribution, r.contributed_by,
                r.account_id,
            )  # fmt: skip
            if mine != theirs:
                if s.token_hash != r.token_hash:  # freed (and maybe claimed) elsewhere,
                    # or a token to one seat for another device (accounts: resumed)
                    presence.revoke(self.room, s.seat, elsewhere=presence.resumed(s, r))
                (
                    s.kind, s.bot, s.name, s.token_hash, s.contribution, s.contributed_by,
                    s.account_id,
                ) = theirs  # fmt: skip
                changed = True
        return changed

    async def catch_up_actions(self) -> None:
        """Take the actions the log holds beyond the table's (the lock is held)."""
        room = self.room
        table = room.table
        if table is None or room.status is not Lifecycle.PLAYING:
            return
        for action in await room.services.store.actions_after(room.id, table.seq):
            if room.status is not Lifecycle.PLAYING:
                break
            if action.seq <= table.seq:  # followed from its notification (follow.py)
                continue
            decoded = room.game.decode_action(action.action)
            room.mover = action.by
            try:
                table.submit(action.seat, decoded, expected_seq=action.seq - 1)
            finally:
                room.mover = None
            metrics.FOLLOWED_READ.inc()

    async def changed(self) -> None:
        """The room changed here (committed): every socket and every other process."""
        self.room.show()
        await self.tell_others("room")

    async def tell_others(self, kind: str) -> None:
        """NOTIFY the other processes of a change already committed. If the database just
        went away, the change stands (the caller must not fail for it): the others find it
        when they re-read their rooms (``Hub.resync``)."""
        room = self.room
        try:
            await room.services.store.notify(room.services.payload(room.code, kind))
        except StorageUnavailableError as exc:
            log.warning("room %s: others not told: %s", room.code, exc)
