"""A turn-based room's clock (issue 44; ``RoomOptions.pace == "turn-based"``), the
room's collaborator :class:`TurnBased`.

The truth is in the database (``storage/turns.py``): the rows of the seats to act are
written with the move that made the decision, in its transaction; the room holds a copy
of them for its frames (``RoomInfo.clock``), read again after each step. Every time it
reads is ``Services.clock`` (``server/clock.py``), so a test fakes a week.

When a seat's deadline passes the seat is *late* (the hub's sweep marks its row, on one
process of a cluster). Then any other player of the room chooses (``late`` message):
``wait`` (the clock keeps running; the late player may still move) or ``bot`` (a bot
makes the late seat's move now, each of its actions ``by: "clock"`` in the log).
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from typing import TYPE_CHECKING, Any, Protocol

from gamenight.core.frames import Step
from gamenight.core.i18n import _
from gamenight.server import protocol as p
from gamenight.server.config import RoomOptions
from gamenight.server.lifecycle import Lifecycle

if TYPE_CHECKING:
    from gamenight.core.table import Table
    from gamenight.server.storage.turns import TurnRow

log = logging.getLogger("gamenight.server")
BOT_ACTIONS = 200  # at most this many actions of a bot's one move for a late seat


class TurnRoomFace(Protocol):
    """The room (``room.Room``) as its clock sees it."""

    id: int
    code: str
    table: Table | None

    @property
    def status(self) -> Lifecycle: ...
    @property
    def room_options(self) -> RoomOptions: ...
    @property
    def services(self) -> Any: ...
    @property
    def timers(self) -> Any: ...
    @property
    def conns(self) -> Any: ...
    @property
    def bots(self) -> Any: ...
    @property
    def seats(self) -> Any: ...
    def show(self) -> None: ...
    async def tell_others(self, kind: str) -> None: ...


class TurnBased:
    """The clock of ``room`` if it is turn-based (``on``); inert in a live room."""

    def __init__(self, room: TurnRoomFace) -> None:
        self.room: TurnRoomFace = weakref.proxy(room)
        self.on = room.room_options.pace == "turn-based"
        self.rows: list[TurnRow] = []
        self.banks: dict[int, float] = {}
        self.choice: p.LateChoice | None = None  # the latest choice about a late seat
        self._refresh_asked = False

    def now(self) -> float:
        clock: float = self.room.services.clock()
        return clock

    def humans(self, seats: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(s for s in seats if self.room.seats[s].kind == "human")

    def to_act(self, step: Step[Any, Any, Any, Any]) -> tuple[int, ...] | None:
        """The human seats to act after ``step`` (its append writes their rows), or None
        in a live room (no rows)."""
        if not self.on:
            return None
        return () if step.finished else self.humans(step.to_act)

    async def begin(self, table: Table) -> None:
        """The room's start: the banks and the first decision's rows."""
        if not self.on:
            return
        self.room.timers.cancel("idle")  # armed while it waited: no idle close in play
        options = self.room.room_options
        humans = tuple(s.seat for s in self.room.seats if s.kind == "human")
        await self.room.services.store.begin_turns(
            self.room.id,
            self.humans(table.to_act()),
            humans,
            self.now(),
            float(options.move_time or 0),
            float(options.time_bank or 0),
        )
        await self.refresh()

    async def undone(self) -> None:
        """A move was taken back (``server/undo.py``): the rows follow the table."""
        table = self.room.table
        if not self.on or table is None or self.room.status is not Lifecycle.PLAYING:
            return
        options = self.room.room_options
        try:
            await self.room.services.store.set_turns(
                self.room.id, table.seq, self.humans(table.to_act()), self.now(),
                float(options.move_time or 0),
            )  # fmt: skip
            await self.refresh()
        except Exception as exc:  # the database: the next move writes the rows again
            log.warning("clock of room %s after an undo: %s", self.room.code, exc)

    def stepped(self) -> None:
        """A step was taken (or the clock changed): read the rows again, then show."""
        if not self.on or self._refresh_asked:
            return
        self._refresh_asked = True
        self.room.timers.spawn(self._refresh_quietly())

    async def _refresh_quietly(self) -> None:
        try:
            await self.refresh()
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # the database: the next step or sync reads it again
            log.warning("clock of room %s not read: %s", self.room.code, exc)

    async def refresh(self) -> None:
        """Read the room's rows and banks; every socket gets the room with its clock."""
        self._refresh_asked = False
        if not self.on:
            return
        self.rows, self.banks = await self.room.services.store.turns_of(self.room.id)
        if self.choice is not None and self.choice.seat not in self.late():
            self.choice = None  # that seat moved (or a bot for it): the choice is done
        self.room.show()

    def late(self) -> set[int]:
        """The seats whose clock has run out (the sweep marked them, or it is time)."""
        now = self.now()
        return {
            r.seat
            for r in self.rows
            if r.late_at is not None or (r.deadline is not None and r.deadline <= now)
        }

    def info(self) -> p.TurnClock | None:
        """``RoomInfo.clock``: the clock of a turn-based room being played."""
        room = self.room
        if not self.on or room.status is not Lifecycle.PLAYING:
            return None
        late = self.late()
        rows = {r.seat: r for r in self.rows}
        seats = []
        for s in room.seats:
            if s.kind != "human":
                continue
            row = rows.get(s.seat)
            seats.append(
                p.SeatClock(
                    seat=s.seat,
                    bank=round(self.banks.get(s.seat, 0.0), 1),
                    since=None if row is None else row.since,
                    deadline=None if row is None else row.deadline,
                    late=s.seat in late,
                )
            )
        return p.TurnClock(
            now=round(self.now(), 1),
            move_time=room.room_options.move_time or 0,
            seats=tuple(seats),
            choice=self.choice,
        )

    async def on_late(self, conn: Any, message: p.LateIn) -> p.Message:
        """Another player's choice about a late seat: every socket is told (``late``;
        the chooser's copy carries its request's id), and for ``bot`` a bot makes the
        late seat's move."""
        room = self.room
        seat: int | None = conn.seat
        if seat is None:
            return p.Error(code="not_seated", message=_("spectators cannot choose"), id=message.id)
        if not self.on or room.status is not Lifecycle.PLAYING:
            return p.Error(code="not_late", message=_("nobody is late"), id=message.id)
        late = self.late()
        if seat in late:
            return p.Error(
                code="not_late",
                message=_("you are late yourself: make your move"),
                id=message.id,
            )
        if not late:
            return p.Error(code="not_late", message=_("nobody is late"), id=message.id)
        choice = p.LateChoice(seat=min(late), by=seat, choice=message.choice, at=self.now())
        self.choice = choice
        told = p.LateOut(choice=choice)
        for other in list(room.conns):
            if other is not conn:
                other.send(told)
        room.show()
        if message.choice == "bot":
            room.timers.spawn(self._bot_moves(choice.seat))
        # the sockets on other processes of a cluster are told too (hubwork.heard)
        await room.tell_others(f"late {choice.seat} {choice.by} {choice.choice} {choice.at}")
        return p.LateOut(choice=choice, id=message.id)

    def heard(self, detail: str) -> None:
        """Another process's ``late`` choice (its NOTIFY: "seat by choice at"): this
        process's sockets are told as that process's were."""
        try:
            seat, by, choice, at = detail.split()
            said = p.LateChoice(seat=int(seat), by=int(by), choice=choice, at=float(at))  # type: ignore[arg-type]  # checked below
        except ValueError:
            return
        if said.choice not in ("wait", "bot"):
            return
        self.choice = said
        self.room.conns.broadcast(p.LateOut(choice=said))
        self.room.show()

    async def _bot_moves(self, seat: int) -> None:
        """A bot plays ``seat``'s move: its actions until the seat is no longer to act."""
        room = self.room
        for _attempt in range(BOT_ACTIONS):
            table = room.table
            if table is None or room.status is not Lifecycle.PLAYING:
                return
            if seat not in table.to_act():
                return
            before = table.seq
            try:
                await room.bots.move(room, seat, "clock")
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("bot move for late seat of room %s: %s", room.code, exc)
                return
            if room.table is None or room.table.seq == before:
                return  # nothing was made (the database, or another's move came first)
