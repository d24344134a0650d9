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
from collections.abc import Sequence
from typing import Any

import msgspec

from gamenight.core import registry, seeds
from gamenight.core.errors import GamenightError, OptionsError, StorageUnavailableError, first_line
from gamenight.core.i18n import _, game_name, said
from gamenight.server import presence
from gamenight.server.accounts import rated as accounts_rated
from gamenight.server.accounts.store import AccountStore
from gamenight.server.bots import BotPool
from gamenight.server.clock import wall_clock
from gamenight.server.config import Config, CreateRoom, RoomOptions
from gamenight.server.conns import Conn
from gamenight.server.course import mark_broken
from gamenight.server.faults import (
    UNAVAILABLE,
    RoomError,
    refused,
    unavailable,
)
from gamenight.server.heap import keep_young, keep_young_every
from gamenight.server.hubwork import Background
from gamenight.server.lifecycle import Lifecycle
from gamenight.server.loading import RULES_MISSING, RoomUnavailable, Unavailable, missing_game
from gamenight.server.notify import tables as notify_tables  # noqa: F401 - on METADATA (0006)
from gamenight.server.options import BAD_VALUE, catalogue_problem
from gamenight.server.room import Room, Services, bound_rules
from gamenight.server.stalls import watch_loop
from gamenight.server.storage.outage import RETRY_AFTER, is_outage
from gamenight.server.storage.rows import RoomRow
from gamenight.server.storage.store import Store
from gamenight.server.tokens import new_token, token_hash

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


def check_seats(entry: registry.GameEntry, specs: Sequence[str]) -> list[tuple[str, str]]:
    """(kind, bot) of each seat a request names (``human`` or ``bot:NAME``), or 400."""
    seats: list[tuple[str, str]] = []
    for spec in specs:
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
    return seats


class Hub:
    """Every room of this process, the bots' worker pool and the background tasks."""

    def __init__(self, store: Store, config: Config) -> None:
        self.store = store
        self.config = config
        self.rooms: dict[str, Room] = {}
        self.bots = BotPool(config, lambda: self.rooms.values())
        self.services = Services(store, config, self.bots, secrets.token_hex(4), wall_clock())
        self._tasks: list[asyncio.Task[None]] = []
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self.unloadable: set[str] = set()  # broken rooms whose game is not even known
        self.unavailable = Unavailable()  # rooms that cannot be opened now (loading.py)
        self.background = Background(self)  # checks, LISTEN, syncs (hubwork.py)

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
            codes = await self.store.room_codes((Lifecycle.PLAYING,), live_only=True)
        for code in codes:
            try:
                await self.room(code)  # a room that cannot be rebuilt is marked broken
            except RoomUnavailable:
                pass  # logged once, loaded again when asked for (server/loading.py)
            except Exception as exc:  # its row cannot even be read: the others go on
                log.error("room %s could not be loaded: %s", code, first_line(exc))
        self._tasks.append(asyncio.create_task(self.background.checks()))
        self._tasks.append(asyncio.create_task(watch_loop(self.config.stall_warning)))
        # rated rooms whose process stopped before their result was written
        self.background.spawn(
            accounts_rated.sweep_quietly(AccountStore(self.store.engine), self.room)
        )
        if self.store.is_postgres:
            self._tasks.append(asyncio.create_task(self.background.listen()))
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
        listener = self.background.listener
        if listener is not None:
            with contextlib.suppress(Exception):
                await listener.close()
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
        seats = check_seats(entry, request.seats)
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
        unrated = [b for kind, b in seats if kind == "bot" and entry.bot_infos[b].rating is None]
        if request.room.rated and unrated:  # its result could never count (issue 43)
            raise RoomError(
                400,
                "bad_options",
                _(
                    "bot '{bot}' has no fixed rating: a rated room seats only bots that have one"
                ).format(bot=unrated[0]),
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
            if row is not None and code not in self.unloadable:
                room = await self._load(row)
            if room is not None and room.turns.on:  # its clock: the database's rows
                await room.turns.refresh()
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
            self.unloadable.add(row.code)
            return None

    def evict(self, now: float | None = None) -> list[str]:
        """Let go of the rooms this process no longer needs in memory: a room over
        (finished, closed, broken), or a turn-based room being played (issue 44: it
        lives in the database between moves), with no socket open, untouched for
        ``Config.evict_after`` seconds. Nothing is lost: a later request (the record, a
        spectator, a socket, the clock's sweep) loads it again from the database. The
        codes let go of."""
        now = time.time() if now is None else now
        gone = [
            code
            for code, room in self.rooms.items()
            if (room.status.is_over or room.turn_based_play())
            and not room.conns.any_open()
            and now - room.updated >= self.config.evict_after
            and not room.lock.locked()
        ]
        for code in gone:
            self.rooms.pop(code).dispose()
        return gone
