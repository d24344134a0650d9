"""The hub's background (:class:`Background`): every few seconds the rooms held here are
checked (presence beat, resync with the database, eviction, idle rooms held nowhere),
PostgreSQL's LISTEN brings other processes' changes, and the playing rooms a process
that died left behind are adopted. Each room's own timers do the rest.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Protocol

from gamenight.core.errors import first_line
from gamenight.server import presence
from gamenight.server.config import Config
from gamenight.server.faults import REFUSAL_LOG_EVERY, log_fault
from gamenight.server.follow import follow
from gamenight.server.lifecycle import OPEN
from gamenight.server.live import Services
from gamenight.server.loading import RoomUnavailable, Unavailable
from gamenight.server.room import Room
from gamenight.server.storage.engine import NOTIFY_CHANNEL
from gamenight.server.storage.outage import is_outage, outage_reason
from gamenight.server.storage.presence import HOLDER

if TYPE_CHECKING:  # the storage is imported when the rooms come up, not with the app
    import psycopg
    from psycopg.rows import TupleRow

    from gamenight.server.storage.store import Store
    from gamenight.server.storage.turns import Due

log = logging.getLogger("gamenight.server")


class HubFace(Protocol):
    """The hub (``rooms.Hub``) as its background sees it."""

    rooms: dict[str, Room]
    unloadable: set[str]  # broken rooms whose game is not even known
    unavailable: Unavailable  # rooms that cannot be opened now (loading.py)

    @property
    def store(self) -> Store: ...
    @property
    def config(self) -> Config: ...
    @property
    def process_tag(self) -> str: ...
    @property
    def services(self) -> Services: ...
    async def room(self, code: str) -> Room | None: ...
    def evict(self, now: float | None = None) -> list[str]: ...


class Background:
    """The background work of ``hub``: its checks, LISTEN and the syncs they ask for."""

    def __init__(self, hub: HubFace) -> None:
        self.hub = hub
        self.tasks: set[asyncio.Task[None]] = set()
        self.pending: dict[str, str] = {}  # room code -> the sync asked for (sync_soon)
        self.behind: dict[str, int] = {}  # room code -> the log's seq the last resync saw
        self.slots = asyncio.Semaphore(SYNC_SLOTS)
        self.sync_failures, self.sync_logged = 0, -1e9  # outage lines (sync_quietly)
        self.listener: psycopg.AsyncConnection[TupleRow] | None = None

    async def checks(self) -> None:
        """Every ``Config.resync`` seconds re-read the rooms (PostgreSQL); every
        ``Config.idle_check`` load the open rooms not held here (their idle timers close
        them). Each room's own timers do the rest."""
        last_idle = last_resync = last_beat = last_evict = last_sweep = time.monotonic()
        failing = False  # a failure is logged once, until the checks work again
        while True:
            await asyncio.sleep(self.hub.config.tick)
            try:
                if (
                    self.hub.store.is_postgres
                    and time.monotonic() - last_beat >= self.hub.config.presence_beat
                ):
                    last_beat = time.monotonic()
                    await self._beat()
                if (
                    self.hub.store.is_postgres
                    and self.hub.config.resync
                    and time.monotonic() - last_resync >= self.hub.config.resync
                ):
                    last_resync = time.monotonic()
                    await self.resync()
                if time.monotonic() - last_evict >= min(10.0, self.hub.config.evict_after):
                    last_evict = time.monotonic()
                    self.hub.evict()
                if time.monotonic() - last_sweep >= self.hub.config.turn_sweep:
                    last_sweep = time.monotonic()
                    await self.sweep_turns()
                if time.monotonic() - last_idle > self.hub.config.idle_check:
                    last_idle = time.monotonic()
                    await self._look_for_idle()
                if failing:
                    log.warning("room checks go on")
                    failing = False
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if failing:
                    continue
                failing = True
                log_fault("room check", exc)

    async def sweep_turns(self) -> list[Due]:
        """The turn-based rooms' clocks that ran out (issue 44): their rows are marked
        late by this process alone (one conditional UPDATE: ``TurnStore.claim_due``);
        each such room is loaded (it may live in the database only), its sockets get
        its clock, and the other processes are told. The rows claimed here."""
        due = await self.hub.store.claim_due(
            self.hub.services.clock(), self.hub.process_tag, CLAIM_HOLD
        )
        for late in due:
            log.info("room %s: seat %d is late (its clock ran out)", late.code, late.seat + 1)
            try:
                room = await self.hub.room(late.code)
                if room is not None:
                    await room.turns.refresh()
                    await room.tell_others("room")
            except Exception as exc:  # the row is marked: its room shows it when loaded
                log.warning("late seat of room %s: %s", late.code, first_line(exc))
        return due

    async def _beat(self) -> None:
        """This process's presence rows: exactly the seats it holds a socket of, fresh
        (server/presence.py); the rows of processes gone stale are removed."""
        held = {
            (room.id, conn.seat)
            for room in self.hub.rooms.values()
            for conn in room.conns
            if conn.seat is not None and not conn.closed
        }
        held |= {(room.id, HOLDER) for room in self.hub.rooms.values() if room.status in OPEN}
        await self.hub.store.beat(
            self.hub.process_tag, held, time.time() - 10 * presence.PRESENCE_TTL
        )
        self._let_go(await self.hub.store.held_elsewhere(self.hub.process_tag, presence.fresh()))

    def _let_go(self, elsewhere: dict[int, set[str]]) -> None:
        """An open room with no socket here that another process serves is that
        process's to run (its bots, its timers): this one lets go of it, and catches
        up on it again only when asked. Of two processes that hold a room without
        sockets, the one with the lower tag keeps it."""
        for code, room in list(self.hub.rooms.items()):
            others = elsewhere.get(room.id)
            if not others or room.conns.any_open() or room.lock.locked():
                continue
            if "socket" in others or min(others) < self.hub.process_tag:
                self.hub.rooms.pop(code).dispose()

    async def _look_for_idle(self) -> None:
        """Every open room held here knows its last activity (its idle timer closes it);
        one held nowhere that is due to close is loaded, and its timer closes it."""
        now = time.time()
        for code, updated, idle_close in await self.hub.store.idle_rooms(now):
            room = self.hub.rooms.get(code)
            if room is None and now - updated >= idle_close:
                try:
                    room = await self.hub.room(code)
                except RoomUnavailable:
                    continue  # its idle close waits until it can be opened
            if room is not None:
                room.seen_update(updated)

    async def resync(self, heard_all: bool = True) -> None:
        """Re-read the seq and status of every open room from the database; catch up with
        each room held here that is behind, and adopt the playing rooms this process does
        not hold (a process that died leaves its rooms' bots to the others). Run after the
        LISTEN connection (re)connects (``heard_all=False``: every room behind reads its
        log) and every ``Config.resync`` seconds, so that no room depends on a
        notification arriving. Then a room behind reads its log only if it is still
        behind the seq the previous resync found: an action in flight (its notification
        on its way, or this process's own commit) is no lost notification. The seats
        connected elsewhere are read for every room held, in one statement."""
        found = await self.hub.store.open_rooms()
        orphans = await self.hub.store.orphans(presence.fresh())
        behind_before, self.behind = self.behind, {}
        current: list[Room] = []
        for code, room in list(self.hub.rooms.items()):
            if room.status not in OPEN:
                continue
            seq, status = found.get(code, (None, None))
            if status != room.status:
                self._sync_soon(room, "room")
                continue
            if seq is not None and seq > room.seq:
                self.behind[code] = seq
                if not heard_all or room.seq < behind_before.get(code, 0):
                    self._sync_soon(room, "act")  # a notification lost: the log is enough
                    continue
            room.bots.kick(room)  # its bots may have been another process's, now gone
            current.append(room)
        # a process that died: its sockets' rows went stale; a presence notification lost
        await presence.refresh_all(current)
        for code in orphans:  # held by no process: its process died
            held = (
                code in self.hub.rooms
                or code in self.hub.unloadable
                or code in self.hub.unavailable
            )
            if not held:
                self.spawn(self._adopt(code))

    async def _adopt(self, code: str) -> None:
        try:
            await self.hub.room(code)
        except RoomUnavailable:
            pass  # logged once; tried again once RETRY has passed
        except Exception as exc:
            if not is_outage(exc):  # it will not load next time either: logged once
                self.hub.unloadable.add(code)
            log.warning("room %s could not be loaded: %s", code, first_line(exc))

    async def sync_quietly(
        self, room: Room, presence_only: bool = False, actions_only: bool = False
    ) -> None:
        """``room.sync`` in the background: a failure is logged in one line (the next
        resync tries again)."""
        try:
            if presence_only:
                await presence.refresh(room)
            else:
                await room.sync(actions_only)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            if not is_outage(exc):
                log_fault(f"sync of room {room.code}", exc)
                return
            # An outage fails every room's sync at once: one line per REFUSAL_LOG_EVERY.
            self.sync_failures += 1
            now = time.monotonic()
            if now - self.sync_logged >= REFUSAL_LOG_EVERY:
                log.warning(
                    "sync of %d room(s) failed since the last line (room %s: %s)",
                    self.sync_failures,
                    room.code,
                    outage_reason(exc),
                )
                self.sync_failures, self.sync_logged = 0, now

    def spawn(self, coro: Coroutine[object, object, None]) -> None:
        """Run ``coro`` in the background, keeping a reference until it ends."""
        task = asyncio.create_task(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def listen(self) -> None:
        """PostgreSQL LISTEN: another process changed a room this process has loaded."""
        import psycopg

        url = self.hub.store.url.replace("postgresql+psycopg://", "postgresql://")
        lost = False
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    url, autocommit=True, application_name="gamenight-listen", connect_timeout=5
                )
                self.listener = conn
                await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                if lost:
                    log.warning("LISTEN connection back; re-reading every room")
                    lost = False
                # A notification sent while this connection was down is lost: every room
                # held re-reads its seq once the LISTEN is in place.
                await self.resync(heard_all=False)
                async for note in conn.notifies():
                    if note.payload.startswith(self.hub.process_tag):
                        continue  # our own (a batch of appends is from one process)
                    for part in note.payload.split("|"):  # a batch: payloads joined by |
                        self.heard(part)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not lost:
                    log.warning("LISTEN connection lost (%s); reconnecting", outage_reason(exc))
                lost = True
                await asyncio.sleep(1)

    def heard(self, payload: str) -> None:
        """One ``"<process tag> <room code> <kind>"`` from another process; an action's
        says its seq and, mostly, the action itself (server/follow.py)."""
        tag, _, rest = payload.partition(" ")
        code, _, kind = rest.partition(" ")
        room = self.hub.rooms.get(code)
        if tag == self.hub.process_tag or room is None:
            return
        kind, _, detail = kind.partition(" ")
        if kind == "chat":
            self.spawn(room.chat_sync())
        elif kind == "late":  # a choice about a late seat, made on that process (issue 44)
            room.turns.heard(detail)
        elif kind != "act" or not follow(room, detail):  # else applied from the payload
            self._sync_soon(room, kind)

    def _sync_soon(self, room: Room, kind: str) -> None:
        """Catch up on ``room`` in the background: notifications that come while its
        sync waits or runs are merged into one more sync (the widest kind asked)."""
        pending = self.pending.get(room.code)
        if pending is not None:
            self.pending[room.code] = _wider(pending, kind)
            return
        self.pending[room.code] = kind
        self.spawn(self._sync_pending(room))

    async def _sync_pending(self, room: Room) -> None:
        async with self.slots:  # the pool keeps connections for requests
            while True:
                kind = self.pending.get(room.code)
                if kind is None:
                    return
                self.pending[room.code] = _RUNNING
                if kind == "presence":
                    await self.sync_quietly(room, presence_only=True)
                else:
                    await self.sync_quietly(room, actions_only=kind == "act")
                if self.pending.get(room.code) == _RUNNING:
                    del self.pending[room.code]
                    return


CLAIM_HOLD = 60.0  # seconds a process holds the turns rows it claimed (storage/turns.py)
SYNC_SLOTS = 8  # background syncs at once: the pool (20) keeps connections for requests
_RUNNING = "running"
_KINDS = ("running", "presence", "act", "room")  # each reads more than the one before


def _wider(a: str, b: str) -> str:
    """The sync that covers both ``a`` and ``b`` (a running sync covers nothing new;
    a full one, ``room``, covers the actions and the presence).

    >>> _wider("act", "room"), _wider("running", "act"), _wider("presence", "act")
    ('room', 'act', 'room')
    """
    if {a, b} == {"act", "presence"}:
        return "room"
    known = {k: i for i, k in enumerate(_KINDS)}
    return max(a, b, key=lambda k: known.get(k, len(_KINDS)))
