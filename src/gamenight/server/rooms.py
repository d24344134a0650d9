"""Live rooms: the tables, their connections and bots; the only place actions are applied.

A :class:`Hub` owns every room this process has loaded. Each room has a
:class:`~gamenight.core.table.Table` rebuilt from the database (seed + action
log) and an :class:`asyncio.Lock` that serialises its actions in this process;
the database serialises them across processes (:meth:`Store.append_action`).

An action goes: validate (``Table.prepare``) -> append its log row and commit
-> ``Table.commit`` -> push ``Events`` to every socket of the room, each seeing
only what its seat may see -> ``Ack`` to the sender. A crash before the commit
loses an action nobody was told about; after it, a restart replays it.

Bots never block the event loop: a bot's decision runs in a worker thread pool
(bots are deterministic from ``derive(seed, "bot", seat)`` and only see views).
So do hints, and the live win odds of a room with odds on: computed once per seq
from the spectator view, at most one computation in flight per room, and sent to
every socket of the room (a result for a seq the room has moved past is dropped).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
import re
import secrets
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Annotated, Any

import msgspec

from gamenight.core import registry, seeds
from gamenight.core.agents import Decision, RandomAgent
from gamenight.core.dice import DICE_SCHEME, SeededDice
from gamenight.core.errors import (
    BuildNeededError,
    GamenightError,
    IllegalActionError,
    OptionsError,
    StaleActionError,
    StorageUnavailableError,
    first_line,
)
from gamenight.core.frames import Frame, Step
from gamenight.core.game import to_json
from gamenight.core.record import RecordWriter, write_moves
from gamenight.core.record import SeatInfo as RecordSeat
from gamenight.core.table import Table
from gamenight.core.text import TextError, check_text
from gamenight.games.decades.library import DEFAULT_NAMES as DEFAULT_DECKS
from gamenight.games.decades.library import list_decks
from gamenight.server import protocol as p
from gamenight.server.db import (
    Behind,
    RoomRow,
    Store,
    is_outage,
    new_token,
    outage_reason,
    token_hash,
)

NOT_BUILT_HERE = "not built on this server"  # a build refused by --no-table-build
ODDS_GAP = 0.1  # seconds between a room's live odds: a burst of moves gets its last ones
BOT_RETRY = (0.25, 5.0)  # a bot whose move failed tries again after this, doubling, up to
UNAVAILABLE = "the database is unavailable; nothing changed, try again"
log = logging.getLogger("gamenight.server")

Seconds = Annotated[int, msgspec.Meta(ge=1, le=7 * 24 * 3600)]


class RoomOptions(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """What the host sets for the room (not the game's own options)."""

    hints: bool = False  # seats may ask for the game's Advice
    odds: bool = False  # everyone sees every seat's live chance to win (games with odds)
    spectators: bool = True  # anyone with the link may watch
    bot_pace: Annotated[float, msgspec.Meta(ge=0, le=10)] = 0.0  # seconds a bot waits
    takeover_after: Seconds | None = None  # a bot plays a human's seat after this absence
    turn_clock: Seconds | None = None  # after this long on one decision, a bot acts once
    takeover_bot: Annotated[str, msgspec.Meta(max_length=40)] = ""  # "": the game's first bot
    idle_close: Seconds = 24 * 3600  # close the room after this long without activity


class CreateRoom(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The body of ``POST /api/rooms``."""

    game: Annotated[str, msgspec.Meta(max_length=40)]
    seats: Annotated[list[Annotated[str, msgspec.Meta(max_length=50)]], msgspec.Meta(max_length=8)]
    options: dict[str, Any] = {}
    public: bool = False
    room: RoomOptions = RoomOptions()


class RoomError(GamenightError):
    """A refused request: ``status`` is the HTTP status, ``code`` a stable error code."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message


@dataclass
class Config:
    """How this server process runs."""

    db_url: str
    bot_workers: int = 2
    build_tables: bool = True  # build a missing Wurfeltod value table in the background
    tick: float = 0.25  # seconds between takeover/clock checks
    idle_check: float = 30.0
    msg_rate: float = 20.0  # messages per second a socket may send on average
    msg_burst: float = 40.0
    chat_rate: float = 0.5  # chat lines per second
    chat_burst: float = 5.0
    abuse_limit: int = 50  # refused-for-rate messages before the socket is closed
    # hellos answered with a snapshot (guard.ReconnectThrottle): per seat token and per
    # client address, (rate a second, burst); over it, waits that double up to 60 s
    reconnect_rate: float = 1.0
    reconnect_burst: float = 10.0
    address_rate: float = 50.0
    address_burst: float = 500.0
    extra_origins: tuple[str, ...] = ()
    resync: float = 5.0  # seconds between re-reads of the seq of every room held (PostgreSQL)
    stall_warning: float = 0.05  # log when the event loop wakes this late (seconds)


class Bucket:
    """A token bucket: ``take()`` is False when the caller is over its rate."""

    def __init__(self, rate: float, burst: float, now: float | None = None) -> None:
        self.rate, self.burst = rate, burst
        self.level = burst
        self.stamp = time.monotonic() if now is None else now

    def refill(self, now: float) -> float:
        """The level at ``now``: refilled at ``rate`` a second since the last look."""
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.level

    def take(self) -> bool:
        if self.refill(time.monotonic()) < 1:
            return False
        self.level -= 1
        return True


class Conn:
    """One socket of a room, seen from the room: its seat and its outgoing queue."""

    QUEUE_LIMIT = 500

    def __init__(self, seat: int | None, config: Config) -> None:
        self.seat = seat
        self.queue: asyncio.Queue[bytes | None] = asyncio.Queue()
        self.messages = Bucket(config.msg_rate, config.msg_burst)
        self.chats = Bucket(config.chat_rate, config.chat_burst)
        self.strikes = 0
        self.closed = False

    def send(self, message: p.Message) -> None:
        if not self.closed:
            self.send_frame(p.encode(message))

    def send_frame(self, frame: bytes) -> None:
        """Queue an encoded message (frames shared by several sockets are encoded once)."""
        if self.closed:
            return
        if self.queue.qsize() > self.QUEUE_LIMIT:  # a client that does not read: drop it
            self.close()
            return
        self.queue.put_nowait(frame)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.queue.put_nowait(None)


@dataclass
class SeatState:
    seat: int
    kind: str  # human | bot
    bot: str
    name: str
    token_hash: str | None


@dataclass
class LiveRoom:
    id: int
    code: str
    entry: registry.GameEntry
    options: dict[str, Any]
    room_options: RoomOptions
    public: bool
    status: str
    seed: int
    commitment: str
    host_token_hash: str
    seats: list[SeatState]
    note: str = ""
    table: Table[Any, Any] | None = None
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[Conn] = field(default_factory=set)
    agents: dict[int, Any] = field(default_factory=dict)  # seat -> bot (bot seats, takeovers)
    fallback: dict[int, str] = field(default_factory=dict)  # seat -> the stand-in bot playing
    build_note: str = ""  # how the build a bot of this room waits for is going
    away_since: dict[int, float] = field(default_factory=dict)  # human seat -> monotonic
    takeover: set[int] = field(default_factory=set)  # human seats a bot plays now
    turn_since: float = field(default_factory=time.monotonic)
    notes: list[str] = field(default_factory=list)
    bot_task: asyncio.Task[None] | None = None
    odds: p.OddsOut | None = None  # the latest odds sent (rooms with odds on)
    odds_seq: int = -1  # the seq the odds were last computed for
    odds_at: float = -1e9  # when (event loop clock) they were last computed
    odds_task: asyncio.Task[None] | None = None
    chat_seen: int = 0
    updated: float = field(default_factory=time.time)
    start_pending: bool = False  # every seat claimed, but the start failed (database down)

    @property
    def seq(self) -> int:
        return 0 if self.table is None else self.table.seq

    def connected(self, seat: int) -> bool:
        return any(c.seat == seat and not c.closed for c in self.conns)

    def info(self) -> p.RoomInfo:
        table = self.table
        results = table.results() if table is not None and table.finished else None
        return p.RoomInfo(
            code=self.code,
            game=self.entry.id,
            rules_version=self.entry.game.info.rules_version,
            options=self.options,
            room_options=msgspec.to_builtins(self.room_options),
            public=self.public,
            status=self.status,  # type: ignore[arg-type]
            seats=tuple(
                p.SeatInfo(
                    seat=s.seat,
                    kind=s.kind,  # type: ignore[arg-type]
                    bot=s.bot,
                    name=s.name,
                    claimed=s.kind == "bot" or s.token_hash is not None,
                    connected=s.kind == "bot" or self.connected(s.seat),
                    takeover=s.seat in self.takeover,
                    stand_in=self.fallback.get(s.seat, "")
                    if s.kind == "bot" or s.seat in self.takeover
                    else "",
                )
                for s in self.seats
            ),
            commitment=self.commitment,
            seed=str(self.seed) if self.status == "finished" else None,
            seq=self.seq,
            results=None if results is None else to_json(results),
            notes=tuple(self.notes + [n for n in (self.build_note, self.note) if n]),
        )

    def broadcast(self, message: p.Message) -> None:
        for conn in list(self.conns):
            conn.send(message)


_PATHLIKE = re.compile(r"[/\\]|\.\.|^~|\.(json|csv|txt|db|sqlite3?)$", re.IGNORECASE)


_DECK_ID = re.compile(r"^[0-9a-f]{64}$")


def check_deck(value: object) -> None:
    """A room's ``deck`` option: "" / "default" (the shipped deck) or the full id of a deck
    in the server's own library. Never a path, a prefix or a deck a record brought along."""
    if value is None or (isinstance(value, str) and value.strip().lower() in DEFAULT_DECKS):
        return
    if not isinstance(value, str) or not _DECK_ID.match(value):
        raise RoomError(400, "bad_deck", "option 'deck' must be a deck id from GET /api/decks")
    if value not in {info.id for info in list_decks()}:
        raise RoomError(400, "bad_deck", "there is no such deck in this server's library")


def check_game_options(entry: registry.GameEntry, raw: dict[str, Any]) -> dict[str, Any]:
    """The game's options for a server room: unknown options and anything naming a file
    are refused; a deck is named by the id of a deck in the server's library."""
    game = entry.game
    specs = {s.name: s for s in game.info.options}
    for name, value in raw.items():
        if name not in specs:
            raise RoomError(400, "bad_options", f"{entry.id} has no option '{name}'")
        if name == "deck":
            check_deck(value)
        if isinstance(value, str) and _PATHLIKE.search(value):
            raise RoomError(400, "bad_options", f"option '{name}' may not name a file")
    try:
        return game.parse_options(raw)
    except OptionsError as exc:
        raise RoomError(400, "bad_options", str(exc)) from None


class Hub:
    """Every room of this process, the bots' worker pool and the background tasks."""

    def __init__(self, store: Store, config: Config) -> None:
        self.store = store
        self.config = config
        self.rooms: dict[str, LiveRoom] = {}
        self.pool = ThreadPoolExecutor(max_workers=config.bot_workers, thread_name_prefix="bot")
        self.process_tag = secrets.token_hex(4)
        self._tasks: list[asyncio.Task[None]] = []
        self._background: set[asyncio.Task[Any]] = set()
        self._loading: dict[str, asyncio.Future[LiveRoom | None]] = {}
        self._unloadable: set[str] = set()  # broken rooms whose game is not even known
        self.builds: dict[str, Build] = {}  # game id -> its one-time build (bots need it)
        self._listener: Any = None

    # ----- life cycle ---------------------------------------------------------------------
    async def start(self) -> None:
        """Rebuild every unfinished room from its log, then run the background tasks."""
        for code in await self.store.room_codes(("playing",)):
            try:
                room = await self.room(code)  # a room that cannot be rebuilt is marked broken
            except Exception as exc:  # its row cannot even be read: the others go on
                log.error("room %s could not be loaded: %s", code, first_line(exc))
                continue
            if room is not None:
                self._kick(room)
        self._tasks.append(asyncio.create_task(self._ticker()))
        self._tasks.append(asyncio.create_task(_watch_loop(self.config.stall_warning)))
        if self.store.is_postgres:
            self._tasks.append(asyncio.create_task(self._listen()))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        for room in self.rooms.values():
            for work in (room.bot_task, room.odds_task):
                if work is not None:
                    work.cancel()
            for conn in room.conns:
                conn.close()
        for build in self.builds.values():
            if build.task is not None:
                build.task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self._listener is not None:
            with contextlib.suppress(Exception):
                await self._listener.close()
        self.pool.shutdown(wait=False, cancel_futures=True)

    # ----- rooms ----------------------------------------------------------------------------
    async def create(self, request: CreateRoom) -> tuple[LiveRoom, str]:
        """A new waiting room; returns it and the host token."""
        try:
            entry = registry.get(request.game)
        except GamenightError as exc:
            raise RoomError(400, "bad_game", str(exc)) from None
        options = check_game_options(entry, request.options)
        seats: list[tuple[str, str]] = []
        for spec in request.seats:
            kind, _, bot = spec.strip().partition(":")
            if kind == "human" and not bot:
                seats.append(("human", ""))
            elif kind == "bot" and bot in entry.bot_infos:
                seats.append(("bot", bot))
            else:
                choices = ", ".join(f"bot:{b}" for b in entry.bot_infos)
                raise RoomError(400, "bad_seats", f"a seat is 'human' or one of {choices}")
        try:  # the game's own start check, before anything is committed
            entry.game.check_setup(len(seats), options)
        except OptionsError as exc:
            raise RoomError(400, "bad_seats", str(exc)) from None
        if request.room.odds and entry.game.info.odds is None:
            raise RoomError(
                400, "bad_options", f"{entry.name} has no live win odds (room option 'odds')"
            )
        takeover_bot = request.room.takeover_bot
        if takeover_bot and takeover_bot not in entry.bot_infos:
            raise RoomError(400, "bad_options", f"{entry.name} has no bot '{takeover_bot}'")
        seed = seeds.draw_seed()
        commitment = seeds.commitment(seed, entry.id, entry.game.info.rules_version, options)
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
            host_token_hash=token_hash(host_token),
            seats=seats,
        )
        room = await self.room(code)
        assert room is not None
        if all(kind == "bot" for kind, _ in seats):
            await self.start_game(room, host_token)
        return room, host_token

    async def room(self, code: str) -> LiveRoom | None:
        """The live room ``code``, loaded (and its table rebuilt) on first use."""
        room = self.rooms.get(code)
        if room is not None:
            return room
        if len(code) > 32:
            return None
        pending = self._loading.get(code)
        if pending is not None:
            return await pending
        future: asyncio.Future[LiveRoom | None] = asyncio.get_running_loop().create_future()
        self._loading[code] = future
        try:
            row = await self.store.load_room(code)
            room = None
            if row is not None and code not in self._unloadable:
                try:
                    room = await self._rebuild(row)
                except Exception as exc:  # one room that cannot be rebuilt stops nothing else
                    room = await self._broken(row, exc)
            if room is not None:
                self.rooms[code] = room
                self._kick(room)  # its bots play here too, as in the rooms loaded at start
            future.set_result(room)
            return room
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # mark retrieved
            raise
        finally:
            del self._loading[code]

    async def _rebuild(self, row: RoomRow) -> LiveRoom:
        entry = registry.get(row.game)
        room = LiveRoom(
            id=row.id,
            code=row.code,
            entry=entry,
            options=row.options,
            room_options=msgspec.convert(row.room_options, RoomOptions),
            public=row.public,
            status=row.status,
            seed=row.seed,
            commitment=row.commitment,
            host_token_hash=row.host_token_hash,
            seats=[SeatState(s.seat, s.kind, s.bot, s.name, s.token_hash) for s in row.seats],
            note=row.note,
            updated=row.updated_at,
        )
        if row.status != "broken" and (row.status in ("playing", "finished") or row.seq > 0):
            self._start_table(room)
            assert room.table is not None
            for action in await self.store.actions_after(row.id, 0):  # no socket yet
                room.table.submit(action.seat, entry.game.decode_action(action.action))
            room.updated = row.updated_at  # replaying is no activity
            now = time.monotonic()
            for s in room.seats:
                if s.kind == "human":
                    room.away_since[s.seat] = now
        return room

    async def _broken(self, row: RoomRow, exc: Exception) -> LiveRoom | None:
        """A room that cannot be rebuilt (its log does not replay, its setup is refused
        by the game...): marked ``broken`` with the reason, logged once, without a table.
        None if not even its seats can be shown (an unknown game): it is remembered."""
        note = await self._mark_broken(row.id, row.code, row.status, exc)
        try:
            return LiveRoom(
                id=row.id,
                code=row.code,
                entry=registry.get(row.game),
                options=row.options,
                room_options=msgspec.convert(row.room_options, RoomOptions),
                public=row.public,
                status="broken",
                seed=row.seed,
                commitment=row.commitment,
                host_token_hash=row.host_token_hash,
                seats=[SeatState(s.seat, s.kind, s.bot, s.name, s.token_hash) for s in row.seats],
                note=note,
                updated=row.updated_at,
            )
        except Exception:
            self._unloadable.add(row.code)
            return None

    async def _mark_broken(self, room_id: int, code: str, status: str, exc: Exception) -> str:
        """Log why room ``code`` cannot go on (once) and mark it broken in the database;
        the note that says so."""
        if isinstance(exc, GamenightError):
            reason = first_line(exc)
            log.error("room %s cannot be rebuilt: %s", code, reason)
        else:
            reason = "the server could not rebuild it"
            log.exception("room %s cannot be rebuilt", code)
        note = f"This room cannot continue: {reason}."
        if status != "broken":
            try:
                await self.store.set_status(room_id, "broken", note)
            except Exception as failed:  # the database: the room stays broken in memory
                log.error("room %s: marking it broken failed: %s", code, first_line(failed))
        return note

    def _new_table(self, room: LiveRoom) -> Table[Any, Any]:
        game = room.entry.game
        dice = SeededDice(seed=room.seed, scheme=self._dice_scheme(room))
        return Table.start(game, len(room.seats), game.parse_options(room.options), dice)

    def _start_table(self, room: LiveRoom) -> None:
        self._install(room, self._new_table(room))

    def _install(self, room: LiveRoom, table: Table[Any, Any]) -> None:
        """``table`` is the room's: its one listener serves every socket and bot."""
        room.table = table
        room.turn_since = time.monotonic()
        table.listen(lambda step: self._on_step(room, step))

    @staticmethod
    def _dice_scheme(room: LiveRoom) -> int:
        """The dice scheme the room's commitment binds: a room created before dice
        scheme 2 goes on (and replays) with the dice it began with."""
        game = room.entry.game
        scheme = seeds.committed_scheme(
            room.commitment, room.seed, room.entry.id, game.info.rules_version, room.options
        )
        return scheme if scheme is not None else DICE_SCHEME

    async def claim(self, room: LiveRoom, seat: int, name: str) -> str:
        """Claim human seat ``seat`` of a waiting room with a display name; the seat token."""
        try:
            clean = check_text(name, what="a name", limit=p.MAX_NAME_CHARS)
        except TextError as exc:
            raise RoomError(400, "bad_name", str(exc)) from None
        if not 0 <= seat < len(room.seats) or room.seats[seat].kind != "human":
            raise RoomError(404, "no_seat", f"seat {seat} is not a human seat of this room")
        token = new_token()
        hashed = token_hash(token)
        if not await self.store.claim_seat(room.id, seat, clean, hashed):
            raise RoomError(409, "seat_taken", "that seat is taken or the game has begun")
        room.seats[seat].name = clean
        room.seats[seat].token_hash = hashed
        room.updated = time.time()
        await self._room_changed(room)
        if self._ready(room):
            try:
                await self._begin(room, {})
            except StorageUnavailableError as exc:  # the seat is claimed: its token stands
                log.warning("room %s not begun yet: %s", room.code, exc)
                room.start_pending = True  # the room checks begin it
        return token

    @staticmethod
    def _ready(room: LiveRoom) -> bool:
        """Every seat is claimed (or a bot) in a waiting room: the game begins."""
        return room.status == "waiting" and all(s.kind == "bot" or s.token_hash for s in room.seats)

    async def release(self, room: LiveRoom, host_token: str, seat: int) -> None:
        self._check_host(room, host_token)
        if not await self.store.release_seat(room.id, seat):
            raise RoomError(409, "not_waiting", "seats can be freed only before the game begins")
        room.seats[seat].name = ""
        room.seats[seat].token_hash = None
        for conn in list(room.conns):
            if conn.seat == seat:
                conn.send(p.Error(code="bad_token", message="the host freed your seat"))
                conn.close()
        await self._room_changed(room)

    async def start_game(self, room: LiveRoom, host_token: str) -> None:
        """The host starts: empty human seats get bots."""
        self._check_host(room, host_token)
        if room.status == "broken":
            raise RoomError(409, "broken", "this room cannot continue")
        if room.status != "waiting":
            raise RoomError(409, "not_waiting", "the game has already begun")
        default = self._default_bot(room)
        bots = {s.seat: default for s in room.seats if s.kind == "human" and not s.token_hash}
        await self._begin(room, bots)

    def _check_host(self, room: LiveRoom, host_token: str) -> None:
        if not secrets.compare_digest(token_hash(host_token), room.host_token_hash):
            raise RoomError(403, "not_host", "only the host may do that")

    def _default_bot(self, room: LiveRoom) -> str:
        if room.room_options.takeover_bot:
            return room.room_options.takeover_bot
        names = [n for n in room.entry.bot_infos if n != "random"]
        return names[0] if names else "random"

    async def _begin(self, room: LiveRoom, bots: dict[int, str]) -> None:
        async with room.lock:
            if room.status != "waiting":
                return
            # The table first: a start that fails commits nothing (never a room `playing`
            # without a table, which no restart could rebuild).
            try:
                table = self._new_table(room)
            except Exception as exc:
                raise _failed(room, "could not start", exc) from None
            if await self.store.start_room(room.id, bots):
                self._started(room, bots, table)
                await self._tell_others(room, "room")
            else:  # another process began it (the lock is held: not self.sync)
                await self._catch_up(room)
        self._kick(room)

    def _started(self, room: LiveRoom, bots: dict[int, str], table: Table[Any, Any]) -> None:
        """The room begins with ``table`` (its start is committed); every socket gets it."""
        for seat, bot in bots.items():
            room.seats[seat].kind = "bot"
            room.seats[seat].bot = bot
            room.seats[seat].token_hash = None
        room.status = "playing"
        self._install(room, table)
        now = time.monotonic()
        for s in room.seats:
            if s.kind == "human" and not room.connected(s.seat):
                room.away_since[s.seat] = now
        for conn in list(room.conns):
            conn.send(self.snapshot(room, conn.seat, -1))
        self._want_odds(room)

    async def close_room(self, room: LiveRoom, note: str) -> None:
        if room.status in ("finished", "closed", "broken"):
            return
        await self.store.set_status(room.id, "closed", note)  # the database first
        room.status = "closed"
        room.note = note
        await self._tell_others(room, "room")
        room.broadcast(p.RoomUpdate(room=room.info()))
        if room.bot_task is not None:
            room.bot_task.cancel()

    # ----- sockets --------------------------------------------------------------------------
    def seat_for_token(self, room: LiveRoom, token: str) -> int | None:
        hashed = token_hash(token)
        for s in room.seats:
            if s.token_hash is not None and secrets.compare_digest(s.token_hash, hashed):
                return s.seat
        return None

    async def join(self, room: LiveRoom, hello: p.Hello, config: Config) -> Conn:
        """Register a socket after its Hello; raises RoomError (code, message) if refused."""
        if hello.protocol != p.PROTOCOL_VERSION:
            raise RoomError(
                400,
                "protocol_version",
                f"this server speaks protocol {p.PROTOCOL_VERSION}, not {hello.protocol}",
            )
        if self.store.is_postgres:
            # Another process may have moved the room on (a seat that comes over from a
            # process that died): the snapshot holds at least every action acknowledged.
            # With the database down the snapshot is what this process knows.
            with contextlib.suppress(StorageUnavailableError):
                async with room.lock:
                    await self._catch_up(room)
        seat: int | None = None
        if hello.token is not None:
            seat = self.seat_for_token(room, hello.token)
            if seat is None:
                raise RoomError(403, "bad_token", "that seat token is not valid for this room")
        elif not room.room_options.spectators:
            raise RoomError(403, "spectators_off", "this room does not allow spectators")
        # Every await comes first: a failure there (the database is down) leaves no
        # registration behind, and nothing can be sent to the socket before its snapshot.
        if seat is not None and room.status == "playing":
            await self.store.set_away(room.id, seat, None)
        chat = await self.store.chat_after(room.id, 0, limit=50)
        # From here to the snapshot nothing awaits: an action committed meanwhile (a
        # bot's) is either in the snapshot or in an events frame queued after it.
        conn = Conn(seat, config)
        room.conns.add(conn)
        if seat is not None:
            room.away_since.pop(seat, None)
            if seat in room.takeover:
                room.takeover.discard(seat)  # reclaimed with the token
                room.agents.pop(seat, None)
                room.fallback.pop(seat, None)
        room.chat_seen = max([room.chat_seen, *(c.id for c in chat)])
        conn.send(self.snapshot(room, seat, hello.last_seq, chat=chat))
        room.broadcast(p.RoomUpdate(room=room.info()))
        self._want_odds(room)  # a room just loaded from the database has none yet
        return conn

    async def leave(self, room: LiveRoom, conn: Conn) -> None:
        conn.close()
        room.conns.discard(conn)
        seat = conn.seat
        if seat is not None and not room.connected(seat):
            room.away_since[seat] = time.monotonic()
            if room.status == "playing":
                with contextlib.suppress(Exception):
                    await self.store.set_away(room.id, seat, time.time())
        room.broadcast(p.RoomUpdate(room=room.info()))

    def snapshot(
        self,
        room: LiveRoom,
        seat: int | None,
        last_seq: int,
        *,
        chat: Sequence[Any] = (),
    ) -> p.Snapshot:
        table = room.table
        lines = tuple(p.ChatOut(name=c.name, text=c.text, at=c.at, seat=c.seat) for c in chat)
        if table is None:
            return p.Snapshot(
                protocol=p.PROTOCOL_VERSION, seat=seat, room=room.info(), seq=0, chat=lines
            )
        snap = table.position(seat)
        since = last_seq if -1 <= last_seq <= table.seq else -1
        return p.Snapshot(
            protocol=p.PROTOCOL_VERSION,
            seat=seat,
            room=room.info(),
            seq=snap.seq,
            view=to_json(snap.view),
            legal=tuple(to_json(a) for a in snap.legal),
            to_act=snap.to_act,
            finished=snap.finished,
            results=None if snap.results is None else to_json(snap.results),
            events=tuple(
                p.StampedEvent(s.seq, to_json(s.event)) for s in table.events_since(seat, since)
            ),
            chat=lines,
            odds=room.odds,
        )

    async def act(self, room: LiveRoom, conn: Conn, message: p.Act) -> p.Message:
        """A seat's action: Ack after the commit, or Error (nothing changed)."""
        seat = conn.seat
        if seat is None:
            return p.Error(code="not_seated", message="spectators cannot act", id=message.id)
        refusal = self._refuse_play(room, message.id)
        if refusal is not None:
            return refusal
        try:
            action = room.entry.game.decode_action(message.action)
        except IllegalActionError as exc:
            return p.Error(code="illegal", message=str(exc), id=message.id)
        try:
            seq = await self.apply(room, seat, action, message.expected_seq, "human")
        except StaleActionError as exc:
            return p.Error(code="stale", message=str(exc), id=message.id)
        except IllegalActionError as exc:
            return p.Error(code="illegal", message=str(exc), id=message.id)
        except RoomError as exc:
            return p.Error(code=exc.code, message=exc.message, id=message.id)  # type: ignore[arg-type]
        except StorageUnavailableError as exc:
            refused(f"an act in room {room.code}", exc)
            return unavailable(exc, message.id)
        return p.Ack(seq=seq, id=message.id)

    def _refuse_play(self, room: LiveRoom, request: int | None) -> p.Error | None:
        if room.status == "waiting":
            return p.Error(code="not_started", message="the game has not begun", id=request)
        if room.status == "finished":
            return p.Error(code="finished", message="the game is over", id=request)
        if room.status == "closed":
            return p.Error(code="closed", message="the room is closed", id=request)
        if room.status == "broken":
            return p.Error(code="closed", message="this room cannot continue", id=request)
        return None

    async def apply(
        self, room: LiveRoom, seat: int, action: Any, expected_seq: int | None, by: str
    ) -> int:
        """Validate, log (committed), apply and broadcast one action; returns its seq."""
        async with room.lock:
            for _ in range(5):
                table = room.table
                if table is None or room.status != "playing":
                    raise RoomError(409, "finished", "the game is not being played")
                pending = table.prepare(seat, action, expected_seq)
                finished = room.entry.game.is_terminal(pending.state)
                results = to_json(room.entry.game.results(pending.state)) if finished else None
                try:
                    await self.store.append_action(
                        room.id,
                        pending.seq,
                        seat,
                        p.raw(action),
                        by,
                        finished_results=results,
                        notify=self._payload(room, "act"),
                    )
                except Behind:
                    await self._catch_up(room)  # another process moved the room on
                    continue
                table.commit(pending)  # the listener tells every socket and bot
                break
            else:
                raise RoomError(503, "internal", "the room is too busy; try again")
        self._kick(room)
        return pending.seq

    def _on_step(self, room: LiveRoom, step: Step[Any, Any]) -> None:
        """The table's one listener: every step (played here, caught up with or replayed
        at a rebuild) goes to the bots as the events their seat may see, and to every
        socket as its seat's frame (``Step.frame``, the one redaction), encoded once per
        seat and shared by the sockets of that seat."""
        room.turn_since = time.monotonic()
        room.updated = time.time()
        for seat, agent in room.agents.items():
            _observe(agent, seat, step.events_for(seat))
        frames: dict[int | None, bytes] = {}
        for conn in list(room.conns):
            frame = frames.get(conn.seat)
            if frame is None:
                frame = frames[conn.seat] = events_frame(step.frame(conn.seat))
            conn.send_frame(frame)
        if step.finished:
            room.status = "finished"
            room.takeover.clear()
            room.broadcast(p.RoomUpdate(room=room.info()))
        self._want_odds(room)

    async def sync(self, room: LiveRoom) -> None:
        """Catch up with the database (another process acted, chatted or changed the room)."""
        async with room.lock:
            await self._catch_up(room)
        self._kick(room)

    async def _catch_up(self, room: LiveRoom) -> None:
        row = await self.store.load_room(room.code)
        if row is None:
            return
        changed = False
        for s, r in zip(room.seats, row.seats, strict=True):
            if (s.kind, s.bot, s.name, s.token_hash) != (r.kind, r.bot, r.name, r.token_hash):
                s.kind, s.bot, s.name, s.token_hash = r.kind, r.bot, r.name, r.token_hash
                changed = True
        if room.status == "waiting" and row.status != "waiting":
            try:
                self._start_table(room)
            except Exception as exc:
                room.note = await self._mark_broken(room.id, room.code, row.status, exc)
                room.status = "broken"
                room.broadcast(p.RoomUpdate(room=room.info()))
                return
            room.status = "playing"
            for conn in list(room.conns):
                conn.send(self.snapshot(room, conn.seat, -1))
            self._want_odds(room)
        if room.table is not None:
            for action in await self.store.actions_after(room.id, room.table.seq):
                if room.status != "playing":
                    break
                room.table.submit(action.seat, room.entry.game.decode_action(action.action))
        if row.status == "closed" and room.status != "closed":
            room.status = "closed"
            room.note = row.note
            changed = True
        if changed:
            room.broadcast(p.RoomUpdate(room=room.info()))

    async def hint(self, room: LiveRoom, conn: Conn, message: p.HintRequest) -> p.Message:
        if not room.room_options.hints:
            return p.Error(code="hints_off", message="this room gives no hints", id=message.id)
        if conn.seat is None:
            return p.Error(code="not_seated", message="spectators get no hints", id=message.id)
        refusal = self._refuse_play(room, message.id)
        if refusal is not None or room.table is None:
            return refusal or p.Error(code="not_started", message="not begun", id=message.id)
        snap = room.table.position(conn.seat)
        if not snap.legal:
            return p.Error(code="no_advice", message="it is not your turn", id=message.id)
        advise = self.advisor(room.entry)
        if advise is None:
            return p.Error(code="no_advice", message="this game gives no hints", id=message.id)
        loop = asyncio.get_running_loop()
        try:
            advice = await loop.run_in_executor(
                self.pool, advise, snap.view, conn.seat, list(snap.legal)
            )
        except Exception as exc:  # an advisor that cannot advise here (a missing table...)
            log.info("advisor failed: %s", exc)
            return p.Error(code="no_advice", message=first_line(exc), id=message.id)
        if advice is None:
            return p.Error(code="no_advice", message="no advice for this decision", id=message.id)
        return p.AdviceOut(seq=snap.seq, advice=to_json(advice), id=message.id)

    def advisor(self, entry: registry.GameEntry) -> Callable[..., Any] | None:
        """The game's ``advise(view, seat, legal)``, or None if it has none (or it fails
        to import)."""
        try:
            return entry.advisor
        except Exception as exc:
            log.warning("advisor of %s unavailable: %s", entry.id, exc)
            return None

    def odds_function(self, entry: registry.GameEntry) -> Callable[..., Any] | None:
        """The game's ``odds(view) -> Odds | None``, or None if it has none (or it fails to
        import)."""
        try:
            return entry.odds
        except Exception as exc:
            log.warning("odds of %s unavailable: %s", entry.id, exc)
            return None

    # ----- live odds --------------------------------------------------------------------------
    def _want_odds(self, room: LiveRoom) -> None:
        """Compute the odds of the room's position if it has odds on and they are not known
        yet (one task per room: a running one picks the newest seq up when it ends)."""
        if not room.room_options.odds or room.table is None or room.odds_seq == room.table.seq:
            return
        if room.odds_task is not None and not room.odds_task.done():
            return
        room.odds_task = asyncio.create_task(self._run_odds(room))

    async def _run_odds(self, room: LiveRoom) -> None:
        """Odds for each new seq, off the event loop (the worker pool), from the spectator
        view; sent to every socket of the room unless the room has moved on meanwhile."""
        compute = self.odds_function(room.entry)
        if compute is None:
            return
        loop = asyncio.get_running_loop()
        game = room.entry.game
        while room.table is not None and room.odds_seq != room.table.seq:
            # At most one computation per room every ODDS_GAP: a bot's turn of quick moves
            # gets the odds of its first and its last position, not of every step (each
            # costs CPU the other rooms need; bench/server_load.py --rooms-of odds). A
            # move after a pause, as humans make them, gets its odds at once.
            wait = room.odds_at + ODDS_GAP - loop.time()
            if wait > 0:
                await asyncio.sleep(wait)
                if room.table is None or room.odds_seq == room.table.seq:
                    return
            room.odds_at = loop.time()
            seq = room.odds_seq = room.table.seq
            view = game.view(room.table.state, None)
            try:
                found = await loop.run_in_executor(self.pool, compute, view)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # no odds for this position; play goes on
                log.warning("odds of room %s at seq %d failed: %s", room.code, seq, exc)
                continue
            if room.table is None or room.table.seq != seq:
                continue  # stale: the next round computes the newest position
            room.odds = p.OddsOut(seq=seq, odds=found)
            frame = p.encode(room.odds)
            for conn in list(room.conns):
                conn.send_frame(frame)

    async def chat(self, room: LiveRoom, conn: Conn, message: p.ChatIn) -> p.Message | None:
        if conn.seat is None:
            return p.Error(code="not_seated", message="spectators cannot chat", id=message.id)
        try:
            text = check_text(message.text, what="a chat line", limit=p.MAX_CHAT_CHARS)
        except TextError as exc:
            return p.Error(code="chat_invalid", message=str(exc), id=message.id)
        if not conn.chats.take():
            return p.Error(code="rate_limited", message="slow down", id=message.id)
        name = room.seats[conn.seat].name or f"seat {conn.seat + 1}"
        try:
            row = await self.store.add_chat(
                room.id, conn.seat, name, text, notify=self._payload(room, "chat")
            )
        except StorageUnavailableError as exc:
            refused(f"a chat line in room {room.code}", exc)
            return unavailable(exc, message.id)
        room.chat_seen = max(room.chat_seen, row.id)
        room.updated = time.time()
        for other in list(room.conns):  # the sender's copy carries its request id
            other.send(
                p.ChatOut(
                    name=row.name,
                    text=row.text,
                    at=row.at,
                    seat=row.seat,
                    id=message.id if other is conn else None,
                )
            )
        return None

    # ----- bots -----------------------------------------------------------------------------
    def _kick(self, room: LiveRoom) -> None:
        """Let the bots of ``room`` act if one is to act (one bot task per room)."""
        if room.status != "playing" or room.table is None:
            return
        if room.bot_task is not None and not room.bot_task.done():
            return
        if any(self._bot_plays(room, s) for s in room.table.to_act()):
            room.bot_task = asyncio.create_task(self._run_bots(room))

    def _bot_plays(self, room: LiveRoom, seat: int) -> bool:
        return room.seats[seat].kind == "bot" or seat in room.takeover

    async def _run_bots(self, room: LiveRoom) -> None:
        """The room's bots move while one is to act. A move that fails (the database is
        down, the disk is full...) changed nothing: the bots catch up with the database
        and try again, waiting longer each time (``BOT_RETRY``), until the room goes on."""
        failures = 0
        while room.status == "playing" and room.table is not None:
            try:
                if failures:
                    await self._catch_up_locked(room)
                    if room.status != "playing" or room.table is None:
                        return
                seats = [s for s in room.table.to_act() if self._bot_plays(room, s)]
                if not seats:
                    return
                if room.room_options.bot_pace:
                    await asyncio.sleep(room.room_options.bot_pace)
                await self._bot_move(room, seats[0], "bot")
                if failures:
                    log.warning("bots of room %s go on after %d failures", room.code, failures)
                    failures = 0
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                failures += 1
                wait = min(BOT_RETRY[0] * 2 ** (failures - 1), BOT_RETRY[1])
                if failures == 1:
                    log_fault(f"bots of room {room.code}", exc, "; retrying")
                await asyncio.sleep(wait)

    async def _catch_up_locked(self, room: LiveRoom) -> None:
        async with room.lock:
            await self._catch_up(room)

    async def _bot_move(self, room: LiveRoom, seat: int, by: str) -> None:
        table = room.table
        if table is None:
            return
        snap = table.position(seat)
        if not snap.legal:
            return
        agent = self._agent(room, seat)
        decision = Decision(room.entry.id, seat, snap.view, snap.legal)
        loop = asyncio.get_running_loop()
        action = await loop.run_in_executor(self.pool, agent.act, decision)
        with contextlib.suppress(StaleActionError, RoomError):
            await self.apply(room, seat, action, snap.seq, by)

    def _agent(self, room: LiveRoom, seat: int) -> Any:
        agent = room.agents.get(seat)
        build = self.builds.get(room.entry.id)
        retry = seat in room.fallback and build is not None and build.state == "ready"
        if agent is not None and not retry:
            return agent
        s = room.seats[seat]
        name = s.bot if s.kind == "bot" else self._default_bot(room)
        seed = seeds.derive(room.seed, "bot", seat)
        try:
            agent = room.entry.make_bot(name, seed)
            if room.fallback.pop(seat, None) is not None:  # the real bot plays from now on
                room.broadcast(p.RoomUpdate(room=room.info()))
        except Exception as exc:
            agent = self._stand_in(room, seat, name, seed, exc)
        if room.table is not None:
            _observe(agent, seat, [s.event for s in room.table.events_since(seat, -1)])
        room.agents[seat] = agent
        return agent

    def _stand_in(self, room: LiveRoom, seat: int, name: str, seed: int, exc: Exception) -> Any:
        """A bot that could not be built (its game's solution is not built yet...) is
        played by another; the seat says which (``SeatInfo.stand_in``)."""
        agent: Any = None
        # the game's own bots first (the random bot is a baseline, not an opponent)
        for other in [*(b.name for b in room.entry.game.info.bots), "random"]:
            if other != name:
                with contextlib.suppress(Exception):
                    agent, playing = room.entry.make_bot(other, seed), other
                    break
        if agent is None:
            agent, playing = RandomAgent(seed), "random"
        room.fallback[seat] = playing
        if isinstance(exc, BuildNeededError) and room.entry.game.info.solver is not None:
            build = self._build(room.entry)
            room.build_note = _build_note(build, name, playing)
        else:
            log.warning("bot %s of room %s failed: %s", name, room.code, first_line(exc))
            note = f"The {name} bot is unavailable; the {playing} bot plays its seat."
            if note not in room.notes:
                room.notes.append(note)
        room.broadcast(p.RoomUpdate(room=room.info()))
        return agent

    def _build(self, entry: registry.GameEntry) -> Build:
        """The one-time build of ``entry``'s solution, started once per process (a
        worker process runs it: the event loop goes on)."""
        build = self.builds.get(entry.id)
        if build is None:
            build = self.builds[entry.id] = Build(entry.id)
            if self.config.build_tables:
                build.task = asyncio.create_task(self._run_build(build))
            else:
                build.state, build.error = "failed", NOT_BUILT_HERE
        return build

    def build_command(self, game: str) -> list[str]:
        """The worker process of a build (``gamenight.server.build``)."""
        return [sys.executable, "-m", "gamenight.server.build", game]

    async def _run_build(self, build: Build) -> None:
        log.warning("building the solution of %s in the background", build.game)
        shown = -1.0
        proc: asyncio.subprocess.Process | None = None
        try:
            proc = await asyncio.create_subprocess_exec(
                *self.build_command(build.game), stdout=asyncio.subprocess.PIPE
            )
            assert proc.stdout is not None
            async for raw in proc.stdout:
                kind, _, rest = raw.decode("utf-8", "replace").strip().partition(" ")
                if kind == "progress":
                    with contextlib.suppress(ValueError):
                        done, total = (int(x) for x in rest.split())
                        build.done, build.total = done, total
                elif kind == "error":
                    build.error = rest[:200]
                now = time.monotonic()
                if now - shown >= 0.5:  # at most two room updates a second
                    shown = now
                    self._show_build(build)
            code = await proc.wait()
        except asyncio.CancelledError:  # the server stops: so does its build
            if proc is not None and proc.returncode is None:
                proc.kill()
            raise
        except Exception as exc:
            code, build.error = -1, first_line(exc)
        build.state = "ready" if code == 0 else "failed"
        if code != 0 and not build.error:
            build.error = f"the build process exited with status {code}"
        if build.state == "ready":
            log.warning("the solution of %s is built", build.game)
        else:
            log.error("the build of %s failed: %s", build.game, build.error)
        self._show_build(build)
        if build.state == "ready":
            for room in list(self.rooms.values()):
                if room.entry.id == build.game and room.fallback:
                    self._kick(room)

    def _show_build(self, build: Build) -> None:
        """Every room waiting for ``build`` says how it is going."""
        for room in list(self.rooms.values()):
            if room.entry.id != build.game or not room.fallback:
                continue
            seat, playing = next(iter(room.fallback.items()))
            s = room.seats[seat]
            name = s.bot if s.kind == "bot" else self._default_bot(room)
            note = "" if build.state == "ready" else _build_note(build, name, playing)
            if note != room.build_note:
                room.build_note = note
                room.broadcast(p.RoomUpdate(room=room.info()))

    # ----- background -----------------------------------------------------------------------
    async def _ticker(self) -> None:
        last_idle = last_resync = time.monotonic()
        failing = False  # a failure is logged once, until the checks work again
        while True:
            await asyncio.sleep(self.config.tick)
            try:
                await self._check_turns()
                if (
                    self.store.is_postgres
                    and self.config.resync
                    and time.monotonic() - last_resync >= self.config.resync
                ):
                    last_resync = time.monotonic()
                    await self.resync()
                if time.monotonic() - last_idle > self.config.idle_check:
                    last_idle = time.monotonic()
                    await self._close_idle()
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

    async def resync(self) -> None:
        """Re-read the seq and status of every open room from the database; catch up with
        each room held here that is behind, and adopt the playing rooms this process does
        not hold (a process that died leaves its rooms' bots to the others). Run after the
        LISTEN connection (re)connects and every ``Config.resync`` seconds, so that no
        room depends on a notification arriving."""
        found = await self.store.open_rooms()
        for code, room in list(self.rooms.items()):
            if room.status not in ("waiting", "playing"):
                continue
            seq, status = found.get(code, (None, None))
            if seq != room.seq or status != room.status:
                self._spawn(self._sync_quietly(room))
            else:
                self._kick(room)  # its bots may have been another process's, now gone
        for code, (_seq, status) in found.items():
            if status == "playing" and code not in self.rooms and code not in self._unloadable:
                self._spawn(self._adopt(code))

    async def _adopt(self, code: str) -> None:
        try:
            room = await self.room(code)
        except Exception as exc:
            if not is_outage(exc):  # it will not load next time either: logged once
                self._unloadable.add(code)
            log.warning("room %s could not be loaded: %s", code, first_line(exc))
            return
        if room is not None:
            self._kick(room)

    async def _sync_quietly(self, room: LiveRoom) -> None:
        """``sync`` in the background: a failure is logged in one line (the next resync
        tries again)."""
        try:
            await self.sync(room)
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            log_fault(f"sync of room {room.code}", exc)

    async def _check_turns(self) -> None:
        now = time.monotonic()
        for room in list(self.rooms.values()):
            if room.start_pending and self._ready(room) and not room.lock.locked():
                room.start_pending = False
                self._spawn(self._begin_quietly(room))  # its start failed (database down)
            if room.status != "playing" or room.table is None:
                continue
            options = room.room_options
            for seat in room.table.to_act():
                s = room.seats[seat]
                if s.kind != "human" or seat in room.takeover:
                    continue
                away = room.away_since.get(seat)
                if (
                    options.takeover_after is not None
                    and away is not None
                    and now - away >= options.takeover_after
                ):
                    room.takeover.add(seat)
                    room.broadcast(p.RoomUpdate(room=room.info()))
                    self._kick(room)
                elif options.turn_clock is not None and now - room.turn_since >= options.turn_clock:
                    room.turn_since = now
                    self._spawn(self._clock_move(room, seat))

    async def _begin_quietly(self, room: LiveRoom) -> None:
        try:
            await self._begin(room, {})
        except StorageUnavailableError:
            room.start_pending = True  # the next check tries again
        except Exception:
            log.exception("room %s could not begin", room.code)

    async def _clock_move(self, room: LiveRoom, seat: int) -> None:
        """The turn clock ran out: a bot acts once. If that fails (the database is down),
        the clock runs again from now."""
        try:
            await self._bot_move(room, seat, "clock")
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            room.turn_since = time.monotonic()
            log.warning("turn clock of room %s: %s", room.code, first_line(exc))

    async def _close_idle(self) -> None:
        now = time.time()
        for code, updated in await self.store.idle_rooms(now):
            room = await self.room(code)
            if room is None:
                continue
            last = max(updated, room.updated)
            if now - last >= room.room_options.idle_close and not any(
                not c.closed for c in room.conns
            ):
                await self.close_room(room, "closed after a long time without play")

    def _spawn(self, coro: Any) -> None:
        """Run ``coro`` in the background, keeping a reference until it ends."""
        task = asyncio.create_task(coro)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _room_changed(self, room: LiveRoom) -> None:
        room.broadcast(p.RoomUpdate(room=room.info()))
        await self._tell_others(room, "room")

    async def _tell_others(self, room: LiveRoom, kind: str) -> None:
        """NOTIFY the other processes of a change already committed. If the database just
        went away, the change stands (the caller must not fail for it): the others find it
        when they re-read their rooms (``resync``)."""
        try:
            await self.store.notify(self._payload(room, kind))
        except StorageUnavailableError as exc:
            log.warning("room %s: others not told: %s", room.code, exc)

    def _payload(self, room: LiveRoom, kind: str) -> str:
        return f"{self.process_tag} {room.code} {kind}"

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
            self._spawn(self._chat_sync(room))
        else:
            self._spawn(self._sync_quietly(room))

    async def _chat_sync(self, room: LiveRoom) -> None:
        try:
            rows = await self.store.chat_after(room.id, room.chat_seen)
        except StorageUnavailableError as exc:
            log.warning("chat of room %s not read: %s", room.code, exc)
            return
        for row in rows:
            room.chat_seen = max(room.chat_seen, row.id)
            room.broadcast(p.ChatOut(name=row.name, text=row.text, at=row.at, seat=row.seat))

    # ----- records --------------------------------------------------------------------------
    def record(self, room: LiveRoom) -> str:
        """The finished game as a JSONL record (``gamenight replay`` verifies it)."""
        table = room.table
        if room.status == "broken":
            raise RoomError(409, "broken", "this room cannot continue and has no record")
        if room.status != "finished" or table is None:
            raise RoomError(409, "not_finished", "the record is offered when the game is over")
        seats = [
            RecordSeat(
                s.name or (f"bot {s.bot}" if s.kind == "bot" else f"seat {s.seat + 1}"),
                f"bot:{s.bot}" if s.kind == "bot" else "human",
            )
            for s in room.seats
        ]
        game = room.entry.game
        out = io.StringIO()
        write_moves(  # the game is over: the seed goes in the header
            RecordWriter(out),
            game,
            game.parse_options(room.options),
            room.seed,
            seats,
            table.moves(),
            seed_in_header=True,
            dice_scheme=self._dice_scheme(room),
        )
        return out.getvalue()


def events_frame(frame: Frame) -> bytes:
    """A step's :class:`~gamenight.core.frames.Frame` as its ``events`` message, encoded
    straight from the structs (``msgspec.Raw`` pieces, no round trip through dicts)."""
    position = frame.position
    return p.encode(
        p.Events(
            seq=frame.seq,
            events=tuple(p.raw(e) for e in frame.events),
            view=p.raw(position.view),
            legal=p.raw_items(position.legal),
            to_act=position.to_act,
            finished=position.finished,
            results=None if position.results is None else p.raw(position.results),
            seat=frame.seat,
            action=None if frame.action is None else p.raw(frame.action),
        )
    )


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


def _observe(agent: Any, seat: int, events: Sequence[Any]) -> None:
    """Events ``seat`` may see (already filtered by the table) to its bot."""
    if events:
        with contextlib.suppress(Exception):
            agent.observe(seat, list(events))


@dataclass
class Build:
    """A game's one-time build (the solution its best bot needs), run once per process."""

    game: str
    state: str = "building"  # building | ready | failed
    done: int = 0
    total: int = 0
    error: str = ""
    task: asyncio.Task[None] | None = None


def _build_note(build: Build, bot: str, playing: str) -> str:
    """What a room says while its ``bot`` waits for ``build``; ``playing`` stands in."""
    if build.state == "failed" and build.error == NOT_BUILT_HERE:
        return (
            f"The {bot} bot's solution is not built on this server; "
            f"the {playing} bot plays instead."
        )
    if build.state == "failed":
        return (
            f"The {bot} bot cannot play: its solution could not be built ({build.error}); "
            f"the {playing} bot plays instead."
        )
    if build.state == "ready":
        return ""
    done = f" ({100 * build.done // build.total}% done)" if build.total else ""
    return (
        f"The {bot} bot's solution is being built in the background{done}; "
        f"the {playing} bot plays until it is ready."
    )


def _failed(room: LiveRoom, what: str, exc: Exception) -> RoomError:
    """An unexpected failure of a room's request: logged once with the room's code, and
    answered with a one-line ``internal`` error (never a silent 500, never a traceback)."""
    if isinstance(exc, GamenightError):
        log.error("room %s %s: %s", room.code, what, first_line(exc))
        return RoomError(500, "internal", f"the game {what}: {first_line(exc)}")
    log.exception("room %s %s", room.code, what)
    return RoomError(500, "internal", f"the game {what}; the server failed")


_refusals = {"last": -1e9, "count": 0.0}
REFUSAL_LOG_EVERY = 10.0  # seconds: requests refused during an outage share a log line


def log_fault(what: str, exc: BaseException, then: str = "") -> None:
    """Log a failure of ``what`` once: one line for a database outage (an outage must not
    flood the log), the traceback for anything else (a bug); ``then`` says what follows."""
    if is_outage(exc):
        log.warning("%s: %s%s", what, outage_reason(exc), then)
    else:
        log.error("%s failed%s", what, then, exc_info=exc)


def refused(what: str, exc: StorageUnavailableError) -> None:
    """Log a request refused because the database is unavailable: the first at once,
    then one line every ``REFUSAL_LOG_EVERY`` seconds with the count meanwhile (an
    outage with many clients retrying must not flood the log)."""
    _refusals["count"] += 1
    now = time.monotonic()
    if now - _refusals["last"] >= REFUSAL_LOG_EVERY:
        count = int(_refusals["count"])
        _refusals["last"], _refusals["count"] = now, 0
        log.warning("%s refused (%d since the last line): %s", what, count, exc)


def unavailable(exc: StorageUnavailableError, request: int | None) -> p.Error:
    """The answer to a request refused because the database is down (nothing changed)."""
    return p.Error(code="unavailable", message=UNAVAILABLE, id=request, retry_after=exc.retry_after)
