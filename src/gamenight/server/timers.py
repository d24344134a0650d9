"""A room's timed behaviour, each on the room's own timers (``loop.call_later``), never
a scan of every room: a bot takes over a human seat away for ``takeover_after``
(:class:`SeatTakeover`), the turn clock makes a bot act once after ``turn_clock``
(:class:`TurnClock`), an idle room closes after ``idle_close`` (:class:`IdleClose`),
and a start that failed while the database was down is tried again (:class:`StartRetry`).
:meth:`Timers.dispose` ends them all.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from gamenight.core.errors import StorageUnavailableError, first_line
from gamenight.server.bots import BotRoom
from gamenight.server.faults import log_fault
from gamenight.server.lifecycle import Lifecycle
from gamenight.server.roomface import Sockets

SLACK = 0.01  # seconds a timer fires late on purpose: its check never finds it early
log = logging.getLogger("gamenight.server")


class TimerRoom(BotRoom, Protocol):
    """A room as its timers see it (``room.Room``): a bot takes a seat over or moves on
    the clock, an idle room with no socket open closes."""

    @property
    def timers(self) -> Timers: ...
    @property
    def away(self) -> SeatTakeover: ...
    @property
    def conns(self) -> Sockets: ...


class Timers:
    """A room's named timer handles and its background tasks."""

    def __init__(self) -> None:
        self._handles: dict[str, asyncio.TimerHandle] = {}
        self._tasks: set[asyncio.Task[Any]] = set()

    def arm(self, name: str, delay: float, callback: Callable[[], None]) -> None:
        """Call ``callback`` in ``delay`` seconds, in place of the timer ``name`` if set."""
        self.cancel(name)
        self._handles[name] = asyncio.get_running_loop().call_later(delay, callback)

    def cancel(self, name: str) -> None:
        handle = self._handles.pop(name, None)
        if handle is not None:
            handle.cancel()

    def cancel_all(self) -> None:
        """The room is over: no timer of it fires any more."""
        for handle in self._handles.values():
            handle.cancel()
        self._handles.clear()

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run ``coro`` as the room's task, kept until it ends (``dispose`` cancels it)."""
        task = asyncio.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def dispose(self) -> None:
        self.cancel_all()
        for task in list(self._tasks):
            task.cancel()


class SeatTakeover:
    """Human seats without a socket (since when, monotonic) and those a bot plays now."""

    def __init__(self) -> None:
        self.away_since: dict[int, float] = {}
        self.seats: set[int] = set()  # human seats a bot plays now

    def away(self, room: TimerRoom, seat: int, since: float) -> None:
        self.away_since[seat] = since
        after = room.room_options.takeover_after
        if after is not None:
            delay = since + after - time.monotonic() + SLACK
            room.timers.arm(f"away {seat}", max(delay, 0.0), lambda: self.check(room))

    def back(self, room: TimerRoom, seat: int) -> None:
        """A socket of ``seat`` joined: a bot playing it stops (reclaimed with the token)."""
        self.away_since.pop(seat, None)
        room.timers.cancel(f"away {seat}")
        if seat in self.seats:
            self.seats.discard(seat)
            room.bots.forget(seat)

    def check(self, room: TimerRoom) -> None:
        """A bot takes over each human seat to act that has been away ``takeover_after``
        (when its timer fires, and at each new decision: the seat may come to act later)."""
        after = room.room_options.takeover_after
        if after is None or room.status is not Lifecycle.PLAYING or room.table is None:
            return
        now = time.monotonic()
        for seat in room.table.to_act():
            since = self.away_since.get(seat)
            if room.seats[seat].kind != "human" or seat in self.seats or since is None:
                continue
            if now - since >= after - SLACK:
                self.seats.add(seat)
                room.show()
                room.bots.kick(room)


class TurnClock:
    """After ``turn_clock`` seconds on one decision, a bot acts once for the first human
    seat to act; if that fails (the database is down) the clock runs again from now."""

    def __init__(self) -> None:
        self.started: float | None = None  # monotonic start of the clock running now

    def begin(self, room: TimerRoom) -> None:
        """A new decision: the clock runs from now."""
        clock = room.room_options.turn_clock
        if clock is not None and room.status is Lifecycle.PLAYING:
            self.started = time.monotonic()
            room.timers.arm("clock", clock, lambda: self._due(room))

    def left(self, room: TimerRoom) -> float | None:
        """Seconds left on the clock of the current decision (None: no clock running)."""
        clock = room.room_options.turn_clock
        if clock is None or self.started is None or room.status is not Lifecycle.PLAYING:
            return None
        return round(max(0.0, self.started + clock - time.monotonic()), 2)

    def _due(self, room: TimerRoom) -> None:
        if room.status is not Lifecycle.PLAYING or room.table is None:
            return
        room.away.check(room)
        for seat in room.table.to_act():
            if room.seats[seat].kind == "human" and seat not in room.takeover:
                self.begin(room)  # runs again unless the bot's move starts a new decision
                room.timers.spawn(self._move(room, seat))
                return

    async def _move(self, room: TimerRoom, seat: int) -> None:
        try:
            await room.bots.move(room, seat, "clock")
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log.warning("turn clock of room %s: %s", room.code, first_line(exc))


class IdleClose:
    """The room closes ``idle_close`` seconds after its last activity (``Room.updated``,
    also another process's) unless a socket is open; then it looks again later."""

    def arm(self, room: TimerRoom, at_least: float = 0.0) -> None:
        delay = room.updated + room.room_options.idle_close - time.time() + SLACK
        room.timers.arm("idle", max(delay, at_least), lambda: self._due(room))

    def _due(self, room: TimerRoom) -> None:
        if room.status.is_over:
            return
        if room.room_options.pace == "turn-based" and room.status is Lifecycle.PLAYING:
            return  # a game over days: its clock decides, not idleness (docs/protocol.md)
        idle = time.time() - room.updated >= room.room_options.idle_close - SLACK
        if idle and not room.conns.any_open():
            room.timers.spawn(self._close(room))
        else:
            self.arm(room, room.services.config.idle_check)

    async def _close(self, room: TimerRoom) -> None:
        try:
            await room.close("closed after a long time without play")
        except Exception as exc:  # the database: the next look tries again
            log_fault(f"idle close of room {room.code}", exc)
            self.arm(room, room.services.config.idle_check)


class StartRetry:
    """Every seat was claimed but the start failed (database down): try again."""

    def __init__(self) -> None:
        self.pending = False

    def failed(self, room: TimerRoom) -> None:
        self.pending = True
        room.timers.arm("start", room.services.config.tick, lambda: self._due(room))

    def _due(self, room: TimerRoom) -> None:
        if not self.pending:
            return
        if room.ready() and not room.lock.locked():
            self.pending = False
            room.timers.spawn(self._begin(room))
        else:
            room.timers.arm("start", room.services.config.tick, lambda: self._due(room))

    async def _begin(self, room: TimerRoom) -> None:
        try:
            await room.begin({})
        except StorageUnavailableError:
            self.failed(room)  # tried again later
        except Exception:
            log.exception("room %s could not begin", room.code)
