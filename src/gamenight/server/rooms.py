"""The rooms of this process: the :class:`Hub` is their registry. It creates rooms,
loads each one on first use (its table rebuilt from the database: seed + action log),
marks the rooms that cannot be rebuilt broken, re-reads the database's rooms
(``resync``, LISTEN/NOTIFY on PostgreSQL) and adopts the playing rooms a process that
died left behind. Each room is a :class:`~gamenight.server.room.Room` (its table,
sockets, bots, timers and message handlers); bots and builds are
:mod:`gamenight.server.bots`, sockets :mod:`gamenight.server.conns`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import time
from typing import Any

import msgspec

from gamenight.core import registry, seeds
from gamenight.core.errors import GamenightError, OptionsError, StorageUnavailableError, first_line
from gamenight.core.i18n import _, game_name, said
from gamenight.server import presence
from gamenight.server.accounts import rated as accounts_rated
from gamenight.server.accounts.store import AccountStore
from gamenight.server.bots import BotPool
from gamenight.server.config import Config, CreateRoom, RoomOptions
from gamenight.server.conns import Conn
from gamenight.server.db import (
    HOLDER,
    RETRY_AFTER,
    RoomRow,
    Store,
    is_outage,
    new_token,
    outage_reason,
    token_hash,
)
from gamenight.server.faults import (
    REFUSAL_LOG_EVERY,
    UNAVAILABLE,
    RoomError,
    log_fault,
    refused,
    unavailable,
)
from gamenight.server.heap import keep_young, keep_young_every
from gamenight.server.lifecycle import OPEN, Lifecycle
from gamenight.server.loading import RULES_MISSING, RoomUnavailable, Unavailable, missing_game
from gamenight.server.options import BAD_VALUE, catalogue_problem
from gamenight.server.room import Room, Services, bound_rules, mark_broken

__all__ = [
    "UNAVAILABLE",
    "Config",
    "Conn",
    "CreateRoom",
    "Hub",
    "Room",
    "RoomError",
    "RoomOptions",
    "refused",
    "unavailable",
]

log = logging.getLogger("gamenight.server")


_PATHLIKE = re.compile(r"[/\\]|\.\.|^~|\.(json|csv|txt|db|sqlite3?)$", re.IGNORECASE)


def check_game_options(entry: registry.GameEntry, raw: dict[str, Any]) -> dict[str, Any]:
    """The game's options for a server room: unknown options and anything naming a file
    are refused; a catalogue option names an entry of its catalogue (server/options.py)."""
    game = entry.game
    specs = {s.name: s for s in game.info.options}
    for name, value in raw.items():
        if name not in specs:
            raise RoomError(
                400,
                "bad_options",
                _("{game} has no option '{option}'").format(game=entry.id, option=name),
            )
        problem = catalogue_problem(entry, name, value)
        if problem is not None:
            raise RoomError(400, BAD_VALUE, problem)
        if isinstance(value, str) and _PATHLIKE.search(value):
            raise RoomError(
                400, "bad_options", _("option '{option}' may not name a file").format(option=name)
            )
    try:
        return game.parse_options(raw)
    except OptionsError as exc:  # in the request's language (set by server/guard.py)
        raise RoomError(400, "bad_options", said(exc)) from None


class Hub:
    """Every room of this process, the bots' worker pool and the background tasks."""

    def __init__(self, store: Store, config: Config) -> None:
        self.store = store
        self.config = config
        self.rooms: dict[str, Room] = {}
        self.bots = BotPool(config, lambda: self.rooms.values())
        self.services = Services(store, config, self.bots, secrets.token_hex(4))
        self._tasks: list[asyncio.Task[None]] = []
        self._background: set[asyncio.Task[Any]] = set()
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._unloadable: set[str] = set()  # broken rooms whose game is not even known
        self.unavailable = Unavailable()  # rooms that cannot be opened now (loading.py)
        self._pending: dict[str, str] = {}  # room code -> the sync asked for (_sync_soon)
        self._sync_slots = asyncio.Semaphore(SYNC_SLOTS)
        self._sync_failures, self._sync_logged = 0, -1e9  # outage lines (_sync_quietly)
        self._listener: Any = None

    @property
    def process_tag(self) -> str:
        return self.services.tag

    # ----- life cycle ---------------------------------------------------------------------
    async def start(self) -> None:
        """Rebuild every room being played from its log (on PostgreSQL: those no
        process holds; the others' rooms are loaded when asked for), then run the
        background tasks."""
        if self.store.is_postgres:
            codes = await self.store.orphans(presence.fresh())
        else:
            codes = await self.store.room_codes((Lifecycle.PLAYING,))
        for code in codes:
            try:
                await self.room(code)  # a room that cannot be rebuilt is marked broken
            except RoomUnavailable:
                pass  # logged once, loaded again when asked for (server/loading.py)
            except Exception as exc:  # its row cannot even be read: the others go on
                log.error("room %s could not be loaded: %s", code, first_line(exc))
        self._tasks.append(asyncio.create_task(self._checks()))
        self._tasks.append(asyncio.create_task(_watch_loop(self.config.stall_warning)))
        # rated rooms whose process stopped before their result was written
        self._spawn(accounts_rated.sweep_quietly(AccountStore(self.store.engine), self.room))
        if self.store.is_postgres:
            self._tasks.append(asyncio.create_task(self._listen()))
        if self.config.gc_freeze:  # short full collections (server/heap.py says why)
            keep_young()
            self._tasks.append(asyncio.create_task(keep_young_every(self.config.gc_freeze)))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for room in self.rooms.values():
            room.dispose()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await self._listener.close()
        if self.store.is_postgres:  # its sockets and rooms are no longer here (presence)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.store.beat(self.process_tag, set(), 0.0), 3)
        self.bots.stop()

    # ----- rooms ----------------------------------------------------------------------------
    async def create(self, request: CreateRoom) -> tuple[Room, str]:
        """A new waiting room; returns it and the host token."""
        try:
            entry = registry.get(request.game)
        except GamenightError as exc:
            raise RoomError(400, "bad_game", str(exc)) from None
        options = check_game_options(entry, request.options)
        seats: list[tuple[str, str]] = []
        for spec in request.seats:
            kind, _sep, bot = spec.strip().partition(":")
            if kind == "human" and not bot:
                seats.append(("human", ""))
            elif kind == "bot" and bot in entry.bot_infos:
                seats.append(("bot", bot))
            else:
                choices = ", ".join(f"bot:{b}" for b in entry.bot_infos)
                raise RoomError(
                    400,
                    "bad_seats",
                    _("a seat is 'human' or one of {choices}").format(choices=choices),
                )
        try:  # the game's own start check, before anything is committed
            entry.game.check_setup(len(seats), options)
        except OptionsError as exc:
            raise RoomError(400, "bad_seats", said(exc)) from None
        if request.room.odds and entry.game.info.odds is None:
            raise RoomError(
                400,
                "bad_options",
                _("{game} has no live win odds (room option 'odds')").format(
                    game=game_name(entry.id, entry.name)
                ),
            )
        takeover_bot = request.room.takeover_bot
        if takeover_bot and takeover_bot not in entry.bot_infos:
            raise RoomError(
                400,
                "bad_options",
                _("{game} has no bot '{bot}'").format(
                    game=game_name(entry.id, entry.name), bot=takeover_bot
                ),
            )
        seed = seeds.draw_seed()
        commitment = seeds.commitment(
            seed, entry.id, entry.game.info.rules_version, options, entropy=seeds.PLAYERS
        )
        host_token = new_token()
        code = secrets.token_urlsafe(12)
        await self.store.create_room(
            code=code,
            game=entry.id,
            options=options,
            room_options=msgspec.to_builtins(request.room),
            public=request.public,
            seed=seed,
            commitment=commitment,
            entropy=seeds.PLAYERS,
            host_token_hash=token_hash(host_token),
            seats=seats,
        )
        room = await self.room(code)
        assert room is not None
        if all(kind == "bot" for kind, _ in seats):
            await room.start_game(host_token)
        return room, host_token

    async def room(self, code: str) -> Room | None:
        """The live room ``code``, loaded (and its table rebuilt) on first use."""
        room = self.rooms.get(code)
        if room is not None:
            return room
        if len(code) > 32:
            return None
        pending = self._loading.get(code)
        if pending is not None:
            return await pending
        self.unavailable.check(code)  # raises while the room is believed unavailable
        future: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[code] = future
        try:
            row = await self.store.load_room(code)
            room = None
            if row is not None and code not in self._unloadable:
                room = await self._load(row)
            if room is not None:
                self.unavailable.clear(code)
                with contextlib.suppress(StorageUnavailableError):  # the next sync reads it
                    await presence.refresh(room)  # seats connected on other processes
                self.rooms[code] = room
                room.open()
                room.bots.kick(room)  # its bots play here too, as in the rooms loaded at start
            future.set_result(room)
            return room
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # mark retrieved
            raise
        finally:
            del self._loading[code]

    async def _load(self, row: RoomRow) -> Room | None:
        """The room of ``row`` rebuilt; one that cannot be opened now for a cause outside
        its log is unavailable (raises, nothing written: ``server/loading.py``); one whose
        log does not replay under installed rules is broken."""
        missing = missing_game(row.game)
        if missing is not None:
            raise self.unavailable.mark(row.code, missing)
        try:
            return await self._rebuild(row)
        except (StorageUnavailableError, RoomUnavailable):
            raise  # a database hiccup: the next request loads it again
        except Exception as exc:  # one room that cannot be rebuilt stops nothing else
            if is_outage(exc):
                raise StorageUnavailableError(UNAVAILABLE, RETRY_AFTER) from exc
            return await self._broken(row, exc)

    async def _rebuild(self, row: RoomRow) -> Room:
        """The room of ``row``, its table rebuilt by replaying the log through
        ``table.submit`` (the listener's path; no socket is there yet)."""
        status = Lifecycle(row.status)
        room = Room(row, self.services, status, row.note)
        started = status in (Lifecycle.PLAYING, Lifecycle.FINISHED) or row.seq > 0
        if status is not Lifecycle.BROKEN and started:
            table = room.new_table()
            room.install(table)
            decode = room.game.decode_action
            actions = await self.store.actions_after(row.id, 0)
            try:
                for action in actions:
                    table.submit(action.seat, decode(action.action))
            except GamenightError:
                args = (row.commitment, row.seed, row.game, row.options, row.entropy)
                if bound_rules(room.entry.game, *args) is None:  # begun under other rules
                    raise self.unavailable.mark(row.code, RULES_MISSING) from None
                raise
            room.updated = row.updated_at  # replaying is no activity
            now = time.monotonic()
            for s in room.seats:
                if s.kind == "human":
                    room.away.away(room, s.seat, now)
        return room

    async def _broken(self, row: RoomRow, exc: Exception) -> Room | None:
        """A room that cannot be rebuilt (its log does not replay, its setup is refused
        by the game...): marked ``broken`` with the reason, logged once, without a table.
        None if not even its seats can be shown (an unknown game): it is remembered."""
        note = await mark_broken(self.store, row.id, row.code, row.status, exc)
        try:
            return Room(row, self.services, Lifecycle.BROKEN, note)
        except Exception:
            self._unloadable.add(row.code)
            return None

    # ----- background -----------------------------------------------------------------------
    async def _checks(self) -> None:
        """Every ``Config.resync`` seconds re-read the rooms (PostgreSQL); every
        ``Config.idle_check`` load the open rooms not held here (their idle timers close
        them). Each room's own timers do the rest."""
        last_idle = last_resync = last_beat = last_evict = time.monotonic()
        failing = False  # a failure is logged once, until the checks work again
        while True:
            await asyncio.sleep(self.config.tick)
            try:
                if (
                    self.store.is_postgres
                    and time.monotonic() - last_beat >= self.config.presence_beat
                ):
                    last_beat = time.monotonic()
                    await self._beat()
                if (
                    self.store.is_postgres
                    and self.config.resync
                    and time.monotonic() - last_resync >= self.config.resync
                ):
                    last_resync = time.monotonic()
                    await self.resync()
                if time.monotonic() - last_evict >= min(10.0, self.config.evict_after):
                    last_evict = time.monotonic()
                    self.evict()
                if time.monotonic() - last_idle > self.config.idle_check:
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

    def evict(self, now: float | None = None) -> list[str]:
        """Let go of the rooms this process no longer needs in memory: a room over
        (finished, closed, broken) with no socket open, untouched for
        ``Config.evict_after`` seconds. Nothing is lost: a later request (the record, a
        spectator) loads it again from the database. The codes let go of."""
        now = time.time() if now is None else now
        gone = [
            code
            for code, room in self.rooms.items()
            if room.status.is_over
            and not room.conns.any_open()
            and now - room.updated >= self.config.evict_after
            and not room.lock.locked()
        ]
        for code in gone:
            self.rooms.pop(code).dispose()
        return gone

    async def _beat(self) -> None:
        """This process's presence rows: exactly the seats it holds a socket of, fresh
        (server/presence.py); the rows of processes gone stale are removed."""
        held = {
            (room.id, conn.seat)
            for room in self.rooms.values()
            for conn in room.conns
            if conn.seat is not None and not conn.closed
        }
        held |= {(room.id, HOLDER) for room in self.rooms.values() if room.status in OPEN}
        await self.store.beat(self.process_tag, held, time.time() - 10 * presence.PRESENCE_TTL)
        self._let_go(await self.store.held_elsewhere(self.process_tag, presence.fresh()))

    def _let_go(self, elsewhere: dict[int, set[str]]) -> None:
        """An open room with no socket here that another process serves is that
        process's to run (its bots, its timers): this one lets go of it, and catches
        up on it again only when asked. Of two processes that hold a room without
        sockets, the one with the lower tag keeps it."""
        for code, room in list(self.rooms.items()):
            others = elsewhere.get(room.id)
            if not others or room.conns.any_open() or room.lock.locked():
                continue
            if "socket" in others or min(others) < self.process_tag:
                self.rooms.pop(code).dispose()

    async def _look_for_idle(self) -> None:
        """Every open room held here knows its last activity (its idle timer closes it);
        one held nowhere that is due to close is loaded, and its timer closes it."""
        now = time.time()
        for code, updated, idle_close in await self.store.idle_rooms(now):
            room = self.rooms.get(code)
            if room is None and now - updated >= idle_close:
                try:
                    room = await self.room(code)
                except RoomUnavailable:
                    continue  # its idle close waits until it can be opened
            if room is not None:
                room.seen_update(updated)

    async def resync(self) -> None:
        """Re-read the seq and status of every open room from the database; catch up with
        each room held here that is behind, and adopt the playing rooms this process does
        not hold (a process that died leaves its rooms' bots to the others). Run after the
        LISTEN connection (re)connects and every ``Config.resync`` seconds, so that no
        room depends on a notification arriving."""
        found = await self.store.open_rooms()
        orphans = await self.store.orphans(presence.fresh())
        for code, room in list(self.rooms.items()):
            if room.status not in OPEN:
                continue
            seq, status = found.get(code, (None, None))
            if status != room.status:
                self._sync_soon(room, "room")
            elif seq != room.seq:  # actions (maybe in flight now): the log is enough
                self._sync_soon(room, "act")
            else:
                room.bots.kick(room)  # its bots may have been another process's, now gone
                if room.remote:  # a process that died: its sockets' rows went stale
                    self._sync_soon(room, "presence")
        for code in orphans:  # held by no process: its process died
            held = code in self.rooms or code in self._unloadable or code in self.unavailable
            if not held:
                self._spawn(self._adopt(code))

    async def _adopt(self, code: str) -> None:
        try:
            await self.room(code)
        except RoomUnavailable:
            pass  # logged once; tried again once RETRY has passed
        except Exception as exc:
            if not is_outage(exc):  # it will not load next time either: logged once
                self._unloadable.add(code)
            log.warning("room %s could not be loaded: %s", code, first_line(exc))

    async def _sync_quietly(
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
            self._sync_failures += 1
            now = time.monotonic()
            if now - self._sync_logged >= REFUSAL_LOG_EVERY:
                log.warning(
                    "sync of %d room(s) failed since the last line (room %s: %s)",
                    self._sync_failures,
                    room.code,
                    outage_reason(exc),
                )
                self._sync_failures, self._sync_logged = 0, now

    def _spawn(self, coro: Any) -> None:
        """Run ``coro`` in the background, keeping a reference until it ends."""
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _listen(self) -> None:
        """PostgreSQL LISTEN: another process changed a room this process has loaded."""
        import psycopg

        from gamenight.server.db import NOTIFY_CHANNEL

        url = self.store.url.replace("postgresql+psycopg://", "postgresql://")
        lost = False
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(
                    url, autocommit=True, application_name="gamenight-listen", connect_timeout=5
                )
                self._listener = conn
                await conn.execute(f"LISTEN {NOTIFY_CHANNEL}")
                if lost:
                    log.warning("LISTEN connection back; re-reading every room")
                    lost = False
                # A notification sent while this connection was down is lost: every room
                # held re-reads its seq once the LISTEN is in place.
                await self.resync()
                async for note in conn.notifies():
                    if note.payload.startswith(self.process_tag):
                        continue  # our own (a batch of appends is from one process)
                    for part in note.payload.split("|"):  # a batch: payloads joined by |
                        self._heard(part)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if not lost:
                    log.warning("LISTEN connection lost (%s); reconnecting", outage_reason(exc))
                lost = True
                await asyncio.sleep(1)

    def _heard(self, payload: str) -> None:
        """One ``"<process tag> <room code> <kind>"`` from another process."""
        tag, _, rest = payload.partition(" ")
        code, _, kind = rest.partition(" ")
        room = self.rooms.get(code)
        if tag == self.process_tag or room is None:
            return
        if kind == "chat":
            self._spawn(room.chat_sync())
        else:
            self._sync_soon(room, kind)

    def _sync_soon(self, room: Room, kind: str) -> None:
        """Catch up on ``room`` in the background: notifications that come while its
        sync waits or runs are merged into one more sync (the widest kind asked)."""
        pending = self._pending.get(room.code)
        if pending is not None:
            self._pending[room.code] = _wider(pending, kind)
            return
        self._pending[room.code] = kind
        self._spawn(self._sync_pending(room))

    async def _sync_pending(self, room: Room) -> None:
        async with self._sync_slots:  # the pool keeps connections for requests
            while True:
                kind = self._pending.get(room.code)
                if kind is None:
                    return
                self._pending[room.code] = _RUNNING
                if kind == "presence":
                    await self._sync_quietly(room, presence_only=True)
                else:
                    await self._sync_quietly(room, actions_only=kind == "act")
                if self._pending.get(room.code) == _RUNNING:
                    del self._pending[room.code]
                    return


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


async def _watch_loop(threshold: float, period: float = 0.02) -> None:
    """Log each time the event loop wakes ``threshold`` late or more, and whether the
    loop's own thread was running meanwhile (work here blocked it) or waiting for a CPU
    (other processes had the machine): ``bench/server_load.py`` counts these lines."""
    while True:
        wall, cpu = time.perf_counter(), time.thread_time()
        await asyncio.sleep(period)
        late = time.perf_counter() - wall - period
        if late >= threshold:
            ran = time.thread_time() - cpu
            log.warning(
                "event loop %.0f ms late (this thread ran %.0f ms) at %.2f",
                1e3 * late,
                1e3 * ran,
                time.time(),
            )
