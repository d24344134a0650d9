"""A room's course from waiting to its end: the start (every seat claimed and every
part of the dice seed in, or the host; a seat silent for ``contribute_wait`` gets the
server's part), going live with a table, closing, and marking a room that cannot be
rebuilt broken. Every status change is :meth:`LiveRoom.become` (the one guarded move,
:func:`gamenight.server.lifecycle.transition`).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

from gamenight.core import seeds
from gamenight.core.errors import GamenightError, StorageUnavailableError, first_line
from gamenight.core.i18n import _
from gamenight.core.table import Table
from gamenight.server import conns
from gamenight.server.faults import RoomError, failed
from gamenight.server.lifecycle import Lifecycle
from gamenight.server.live import LiveRoom, held_weakly

if TYPE_CHECKING:  # the storage is imported when the rooms come up, not with the app
    from gamenight.server.storage.store import Store

log = logging.getLogger("gamenight.server")


async def mark_broken(store: Store, room_id: int, code: str, status: str, exc: Exception) -> str:
    """Log why room ``code`` cannot go on (once) and mark it broken in the database;
    the note that says so."""
    if isinstance(exc, GamenightError):
        reason = first_line(exc)
        log.error("room %s cannot be rebuilt: %s", code, reason)
    else:
        reason = "the server could not rebuild it"
        log.exception("room %s cannot be rebuilt", code)
    note = f"This room cannot continue: {reason}."
    if status != Lifecycle.BROKEN:
        try:
            await store.set_status(room_id, Lifecycle.BROKEN, note)
        except Exception as failure:  # the database: the room stays broken in memory
            log.error("room %s: marking it broken failed: %s", code, first_line(failure))
    return note


class Course:
    """The start and the end of ``room``."""

    def __init__(self, room: LiveRoom) -> None:
        self.room = held_weakly(room)

    async def seated_changed(self) -> None:
        """A seat was claimed or contributed: begin if ready, else (every seat claimed,
        some still silent) the server contributes for them after ``contribute_wait``."""
        if self.room.ready():
            await self._begin_or_retry()
        elif self.room.seated():
            self.arm_contribution_wait()

    async def _begin_or_retry(self) -> None:
        """Begin; while the database is down the start is tried again later (what led
        here, a claim or a contribution, is committed and stands)."""
        try:
            await self.begin({})
        except StorageUnavailableError as exc:
            log.warning("room %s not begun yet: %s", self.room.code, exc)
            self.room.start_retry.failed(self.room)

    def arm_contribution_wait(self) -> None:
        """Every seat is claimed but some have not contributed: begin without them (the
        server contributes for them) after ``contribute_wait`` seconds."""
        room = self.room
        if not room.seated():
            return

        def due() -> None:
            if room.seated():
                room.timers.spawn(self._begin_after_wait())

        room.timers.arm("contribute", room.services.config.contribute_wait, due)

    async def _begin_after_wait(self) -> None:
        try:
            await self._begin_or_retry()
        except GamenightError as exc:  # a timer has no one to answer: the log says it
            log.error("room %s could not begin: %s", self.room.code, first_line(exc))

    async def start_game(self) -> None:
        """The host starts (the caller checked the host token): empty human seats get
        bots."""
        room = self.room
        if room.status is Lifecycle.BROKEN:
            raise RoomError(409, "broken", _("this room cannot continue"))
        if room.status is not Lifecycle.WAITING:
            raise RoomError(409, "not_waiting", _("the game has already begun"))
        default = room.default_bot()
        bots = {s.seat: default for s in room.seats if s.kind == "human" and not s.token_hash}
        await self.begin(bots)

    async def begin(self, bots: dict[int, str]) -> None:
        room = self.room
        async with room.lock:
            if room.status is not Lifecycle.WAITING:
                return
            room.timers.cancel("contribute")
            # Claimed seats still silent get the server's part (committed with the start).
            fill = self._server_parts(bots)
            planned = [(s.contribution, s.contributed_by) for s in room.seats]
            for seat in bots:
                planned[seat] = (None, None)
            for seat, value in fill.items():
                planned[seat] = (value, "server")
            # The table first: a start that fails commits nothing (never a room `playing`
            # without a table, which no restart could rebuild).
            table = self._table_with(planned)
            final = await room.services.store.start_room(room.id, bots, fill)
            if final is not None:
                if final != planned:  # a player's part came in through another process
                    table = self._table_with(final)
                for here, (part, by) in zip(room.seats, final, strict=True):
                    here.contribution, here.contributed_by = part, by
                self._started(bots, table)
                await room.turns.begin(table)  # a turn-based room's first clocks
                await room.tell_others("room")
            else:  # another process began it (the lock is held: not room.sync)
                await room.catch_up()
        room.bots.kick(room)

    def _server_parts(self, bots: dict[int, str]) -> dict[int, str]:
        """The server's part of the dice seed for each claimed seat still silent (none in
        a room whose dice are the seed's): derived from the committed seed, never chosen
        now that the players' parts are known (docs/fairness.md; players-v1 rooms take it
        too)."""
        room = self.room
        if room.entropy == seeds.SERVER:
            return {}
        return {
            s.seat: seeds.server_part(room.seed, s.seat)
            for s in room.seats
            if s.kind == "human" and s.seat not in bots and s.contribution is None
        }

    def _table_with(self, parts: list[tuple[str | None, str | None]]) -> Table:
        """The table the room begins with when the seats hold ``parts`` ((value, by) per
        seat, a bot's None): built before the start is committed."""
        try:
            return self.room.new_table([value for value, _ in parts])
        except Exception as exc:
            raise failed(self.room.code, "could not start", exc) from None

    def _started(self, bots: dict[int, str], table: Table) -> None:
        """The room begins with ``table`` (its start is committed); every socket gets it."""
        room = self.room
        for seat, bot in bots.items():
            here = room.seats[seat]
            here.kind, here.bot, here.token_hash = "bot", bot, None
            here.contribution = here.contributed_by = None
        self.go_live(table)
        self._absent_seats()

    def go_live(self, table: Table) -> None:
        """The room plays ``table`` from now (begun here or by another process): every
        socket gets its snapshot, and the odds are asked for."""
        room = self.room
        room.become(Lifecycle.PLAYING)
        room.install(table)
        for conn in list(room.conns):
            conn.send(conns.snapshot(room, conn.seat, -1))
        room.odds.want(room)

    def _absent_seats(self) -> None:
        """Human seats without a socket are away from now (a bot may take them over)."""
        room = self.room
        now = time.monotonic()
        for s in room.seats:
            if s.kind == "human" and not room.conns.connected(s.seat) and s.seat not in room.remote:
                room.away.away(room, s.seat, now)

    async def close(self, note: str) -> None:
        room = self.room
        if room.status.is_over:
            return
        await room.services.store.set_status(room.id, Lifecycle.CLOSED, note)  # the database first
        self.end(Lifecycle.CLOSED, note)
        await room.tell_others("room")
        room.show()
        room.bots.cancel()

    def end(self, status: Lifecycle, note: str) -> None:
        """The room is closed or broken (its database row says so already)."""
        room = self.room
        room.become(status)
        room.note = note
        room.timers.cancel_all()
