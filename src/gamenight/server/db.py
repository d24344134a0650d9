"""Storage: SQLAlchemy 2 (async Core) tables and the :class:`Store` the rooms use.

The same code runs on SQLite (the embedded default, one server process) and on
PostgreSQL (several server processes). The schema is created by the Alembic
migration shipped in ``gamenight/server/migrations`` (:func:`migrate`).

Tables:

* ``rooms`` — one per room: game, options, room options, public flag, status,
  the secret seed (never sent before the end) and its public commitment, the
  host token's hash and ``seq``, the number of actions logged.
* ``seats`` — one per seat: human or bot, display name, the seat token's hash.
* ``actions`` — the append-only action log: room, seq, seat, action JSON, who
  decided it (human, bot, takeover) and when. Primary key (room, seq): a seq
  is written once, whatever process tries.
* ``chat`` — short messages, stored as plain text.

Tokens are never stored: only their sha256 (:func:`token_hash`).

>>> normalise_url("postgresql://u@127.0.0.1:5432/db")
'postgresql+psycopg://u@127.0.0.1:5432/db'
>>> normalise_url("sqlite:////tmp/x.sqlite3")
'sqlite+aiosqlite:////tmp/x.sqlite3'
>>> len(token_hash("abc"))
64
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import sqlite3
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from functools import wraps
from pathlib import Path
from typing import Any, NamedTuple, ParamSpec, Protocol, TypeVar

import msgspec
from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    delete,
    event,
    exists,
    insert,
    select,
    text,
    update,
)
from sqlalchemy import Table as SqlTable  # not core.table.Table: a database table
from sqlalchemy import exc as sa_exc
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import AsyncAdaptedQueuePool

from gamenight.core.errors import StorageUnavailableError
from gamenight.server import metrics
from gamenight.server.dburl import SCHEMA_HEAD as SCHEMA_HEAD  # re-exported, as below
from gamenight.server.dburl import default_url as default_url
from gamenight.server.dburl import normalise_url as normalise_url
from gamenight.server.dburl import require_driver
from gamenight.server.dburl import schema_is_current as schema_is_current
from gamenight.server.dburl import sync_url as sync_url
from gamenight.server.lifecycle import OPEN, Lifecycle
from gamenight.server.tokens import new_token as new_token
from gamenight.server.tokens import token_hash as token_hash

NOTIFY_CHANNEL = "gamenight"
CONNECT_TIMEOUT = 5  # seconds before a PostgreSQL connection attempt gives up
RETRY_AFTER = 2  # seconds a client is told to wait while the database is unavailable


# The schema, as Core tables (the Alembic migration in ``migrations/versions`` creates
# the same: tests/server/test_storage.py compares them).
METADATA = MetaData()

ROOMS = SqlTable(
    "rooms",
    METADATA,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("code", String(32), nullable=False, unique=True, index=True),
    Column("game", String(40), nullable=False),
    Column("options", Text, nullable=False),  # JSON, parsed game options
    Column("room_options", Text, nullable=False),  # JSON, RoomOptions
    Column("public", Boolean, nullable=False, default=False),
    Column("status", String(16), nullable=False, index=True),  # a Lifecycle value
    Column("seed", String(48), nullable=False),  # secret until finished (decimal)
    Column("commitment", String(64), nullable=False),
    # core.seeds: "server" (the seed is the dice seed: rooms from before player
    # entropy) or "players-v1"/"players-v2" (the dice seed takes every seat's contribution)
    Column("entropy", String(16), nullable=False, server_default="server"),
    Column("host_token_hash", String(64), nullable=False),
    Column("seq", Integer, nullable=False, default=0),
    Column("results", Text, nullable=True),
    Column("note", Text, nullable=False, default=""),  # why it closed, etc.
    Column("created_at", Float, nullable=False),
    Column("updated_at", Float, nullable=False),
)


def _room_ref() -> Column[int]:
    """The ``room_id`` of a room's seats and chat lines: indexed, gone with the room."""
    return Column(
        "room_id", Integer, ForeignKey("rooms.id", ondelete="CASCADE"), nullable=False, index=True
    )


SEATS = SqlTable(
    "seats",
    METADATA,
    Column("id", Integer, primary_key=True, autoincrement=True),
    _room_ref(),
    Column("seat", Integer, nullable=False),
    Column("kind", String(8), nullable=False),  # human | bot
    Column("bot", String(40), nullable=False, default=""),
    Column("name", String(80), nullable=False, default=""),
    Column("token_hash", String(64), nullable=True, index=True),
    Column("away_since", Float, nullable=True),
    # the seat's part of the dice seed (secret until the game ends), and who made it:
    # "player" (the client sent it) or "server" (none came in time); null: none yet
    Column("contribution", String(800), nullable=True),
    Column("contributed_by", String(8), nullable=True),
    # the account that claimed the seat (server/accounts), if its player was signed in
    Column("account_id", Integer, nullable=True, index=True),
    UniqueConstraint("room_id", "seat"),
)

ACTIONS = SqlTable(
    "actions",
    METADATA,
    Column("room_id", Integer, ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),  # JSON
    Column("by", String(16), nullable=False),  # human | bot | takeover
    Column("at", Float, nullable=False),
)

CHAT = SqlTable(
    "chat",
    METADATA,
    Column("id", Integer, primary_key=True, autoincrement=True),
    _room_ref(),
    Column("seat", Integer, nullable=True),
    Column("name", String(80), nullable=False),
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
)


# A socket of a seat, held by a server process (its NOTIFY tag): the one truth of who is
# connected, across processes (PostgreSQL; server/presence.py). A process refreshes
# ``seen_at`` of its rows every ``Config.presence_beat`` seconds; the rows of a process
# that died go stale and count no more.
PRESENCE = SqlTable(
    "presence",
    METADATA,
    Column("room_id", Integer, ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("process", String(16), primary_key=True, index=True),
    Column("seen_at", Float, nullable=False),
)


def migrate(url: str) -> None:
    """Bring the database at ``url`` to the newest schema (Alembic ``upgrade head``);
    an SQLite database already there is only checked (:func:`schema_is_current`)."""
    if schema_is_current(url):
        return
    import logging

    # before the import: alembic logs its plugins' setup (INFO) when it is imported
    logging.getLogger("alembic").setLevel(logging.WARNING)
    from alembic import command
    from alembic.config import Config

    target = sync_url(url)
    if target.startswith("sqlite:///"):
        path = target[len("sqlite:///") :]
        if path and path != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
    config = Config()
    config.set_main_option("script_location", str(Path(__file__).parent / "migrations"))
    config.set_main_option("sqlalchemy.url", target.replace("%", "%%"))
    command.upgrade(config, "head")


def is_outage(exc: BaseException) -> bool:
    """True if ``exc`` says the database is unreachable or cannot be written right now
    (PostgreSQL down or restarting, a connection killed, SQLite's disk full, I/O error
    or lock), as opposed to a refused request or a bug (a missing table, bad SQL...).
    Looks through SQLAlchemy's wrapper and ``__cause__``.

    >>> is_outage(sqlite3.OperationalError("database or disk is full"))
    True
    >>> is_outage(sqlite3.OperationalError("no such table: rooms"))
    False
    >>> is_outage(ValueError("a bug"))
    False
    """
    # psycopg is the [postgres] extra: an error of it exists only once it is loaded
    psycopg = sys.modules.get("psycopg")
    outages: tuple[type[BaseException], ...] = (
        StorageUnavailableError,
        sa_exc.DisconnectionError,
        sa_exc.TimeoutError,
        OSError,
        *((psycopg.OperationalError, psycopg.InterfaceError) if psycopg is not None else ()),
    )
    current: BaseException | None = exc
    for _ in range(5):
        if current is None:
            return False
        if isinstance(current, sa_exc.DBAPIError):
            if current.connection_invalidated:
                return True
            current = current.orig
            continue
        if isinstance(current, sqlite3.Error):
            code = getattr(current, "sqlite_errorcode", None)
            if code is not None:
                return code & 0xFF in _SQLITE_OUTAGES
            text = str(current).lower()
            return any(word in text for word in _SQLITE_WORDS)
        if isinstance(current, outages):
            return True
        current = current.__cause__
    return False


# SQLite's primary result codes of a database that cannot be written now: BUSY, LOCKED,
# READONLY, IOERR, FULL, CANTOPEN, PROTOCOL (and the words of their messages).
_SQLITE_OUTAGES = frozenset({5, 6, 8, 10, 13, 14, 15})
_SQLITE_WORDS = ("disk", "full", "locked", "busy", "readonly", "i/o", "unable to open")


def outage_reason(exc: BaseException) -> str:
    """One line saying why the database failed (for the log, never for clients)."""
    inner = getattr(exc, "orig", None) or exc
    lines = str(inner).strip().splitlines()
    return f"{type(inner).__name__}: {lines[0] if lines else ''}".rstrip(": ")


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _guarded(method: Callable[_P, Awaitable[_R]]) -> Callable[_P, Awaitable[_R]]:
    """A :class:`Store` method whose database outages raise :class:`StorageUnavailableError`
    (one line; the caller refuses the request and nothing is acknowledged)."""

    @wraps(method)
    async def guarded(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            answer = await method(*args, **kwargs)
        except StorageUnavailableError:
            metrics.database_failed(True)
            raise
        except Exception as exc:
            outage = is_outage(exc)
            metrics.database_failed(outage)
            if not outage:
                raise
            if _pool_timeout(exc):  # PostgreSQL is fine: this process has too much waiting
                raise StorageUnavailableError(
                    "the server is busy (no database connection free in time)", RETRY_AFTER
                ) from exc
            raise StorageUnavailableError(
                f"the database is unavailable ({outage_reason(exc)})", RETRY_AFTER
            ) from exc
        metrics.database_ok()
        return answer

    return guarded


def _pool_timeout(exc: BaseException) -> bool:
    """Whether ``exc`` is SQLAlchemy's pool giving up waiting for a free connection."""
    return isinstance(exc, sa_exc.TimeoutError) and not isinstance(exc, sa_exc.DBAPIError)


class Behind(Exception):
    """The database holds more actions than the caller's table: catch up and retry."""

    def __init__(self, seq: int) -> None:
        super().__init__(f"the room's log is past {seq}")
        self.seq = seq


_OPEN = tuple(sorted(s.value for s in OPEN))  # the statuses of rooms still open
HOLDER = -1  # the seat of a presence row that says "this process holds the room"
_IDLE_CLOSE = msgspec.json.Decoder(dict[str, Any])


def _idle_close(room_options: str) -> float:
    """A room's ``idle_close`` (seconds) from its stored RoomOptions; a day if unset.

    >>> _idle_close('{"idle_close": 60}'), _idle_close("{}")
    (60.0, 86400.0)
    """
    value = _IDLE_CLOSE.decode(room_options).get("idle_close", 24 * 3600)
    return float(value) if isinstance(value, int | float) else 24 * 3600.0


class OpenRoom(NamedTuple):
    """An open room's place in its log (the re-check of the rooms a process holds)."""

    seq: int
    status: Lifecycle


class PublicRoom(NamedTuple):
    code: str
    game: str
    status: Lifecycle
    created_at: float


class IdleRoom(NamedTuple):
    code: str
    updated_at: float
    idle_close: float  # the room's RoomOptions.idle_close (seconds)


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    kind: str
    bot: str
    name: str
    token_hash: str | None
    away_since: float | None
    contribution: str | None = None
    contributed_by: str | None = None


@dataclass(frozen=True, slots=True)
class RoomRow:
    id: int
    code: str
    game: str
    options: dict[str, Any]
    room_options: dict[str, Any]
    public: bool
    status: Lifecycle
    seed: int
    commitment: str
    entropy: str
    host_token_hash: str
    seq: int
    results: Any
    note: str
    created_at: float
    updated_at: float
    seats: tuple[SeatRow, ...]


@dataclass(frozen=True, slots=True)
class ActionRow:
    seq: int
    seat: int
    action: Any
    by: str
    at: float


@dataclass(frozen=True, slots=True)
class ChatRow:
    id: int
    seat: int | None
    name: str
    text: str
    at: float


class Store:
    """Every read and write of the server, as short transactions."""

    def __init__(self, url: str) -> None:
        self.url = normalise_url(url)
        self.is_postgres = self.url.startswith("postgresql")
        self.engine: AsyncEngine = _engine(self.url, self.is_postgres)
        # One-statement reads on PostgreSQL without BEGIN/ROLLBACK around them (a
        # process catching up on another's action reads the log: one statement, not 3).
        self.reads: AsyncEngine = (
            self.engine.execution_options(isolation_level="AUTOCOMMIT")
            if self.is_postgres
            else self.engine
        )
        writer: _Writer = (
            _PgWriter(self.url.replace("postgresql+psycopg://", "postgresql://"))
            if self.is_postgres
            else _SqliteWriter(sync_url(url))
        )
        self._log = _GroupCommit(writer)

    async def close(self) -> None:
        await self._log.close()
        await self.engine.dispose()

    @_guarded
    async def ping(self) -> None:
        """A trivial query: the database answers (``/readyz``)."""
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    # ----- rooms -------------------------------------------------------------------
    @_guarded
    async def create_room(
        self,
        *,
        code: str,
        game: str,
        options: dict[str, Any],
        room_options: dict[str, Any],
        public: bool,
        seed: int,
        commitment: str,
        entropy: str,
        host_token_hash: str,
        seats: Sequence[tuple[str, str]],  # (kind, bot name)
    ) -> int:
        now = time.time()
        async with self.engine.begin() as conn:
            result = await conn.execute(
                insert(ROOMS).returning(ROOMS.c.id),
                {
                    "code": code,
                    "game": game,
                    "options": json.dumps(options),
                    "room_options": json.dumps(room_options),
                    "public": public,
                    "status": Lifecycle.WAITING.value,
                    "seed": str(seed),
                    "commitment": commitment,
                    "entropy": entropy,
                    "host_token_hash": host_token_hash,
                    "seq": 0,
                    "note": "",
                    "created_at": now,
                    "updated_at": now,
                },
            )
            room_id = int(result.scalar_one())
            await conn.execute(
                insert(SEATS),
                [
                    {"room_id": room_id, "seat": i, "kind": kind, "bot": bot, "name": ""}
                    for i, (kind, bot) in enumerate(seats)
                ],
            )
        return room_id

    @_guarded
    async def load_room(self, code: str) -> RoomRow | None:
        async with self.engine.connect() as conn:
            row = (await conn.execute(select(ROOMS).where(ROOMS.c.code == code))).first()
            if row is None:
                return None
            seats = (
                await conn.execute(
                    select(SEATS).where(SEATS.c.room_id == row.id).order_by(SEATS.c.seat)
                )
            ).all()
        return RoomRow(
            id=row.id,
            code=row.code,
            game=row.game,
            options=json.loads(row.options),
            room_options=json.loads(row.room_options),
            public=bool(row.public),
            status=Lifecycle(row.status),
            seed=int(row.seed),
            commitment=row.commitment,
            entropy=row.entropy,
            host_token_hash=row.host_token_hash,
            seq=row.seq,
            results=None if row.results is None else json.loads(row.results),
            note=row.note,
            created_at=row.created_at,
            updated_at=row.updated_at,
            seats=tuple(
                SeatRow(
                    s.seat,
                    s.kind,
                    s.bot,
                    s.name,
                    s.token_hash,
                    s.away_since,
                    s.contribution,
                    s.contributed_by,
                )
                for s in seats
            ),
        )

    @_guarded
    async def room_codes(self, statuses: Sequence[str]) -> list[str]:
        """The codes of the rooms in ``statuses`` (Lifecycle values), oldest first."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(ROOMS.c.code).where(ROOMS.c.status.in_(statuses)).order_by(ROOMS.c.id)
            )
            return [r[0] for r in rows]

    @_guarded
    async def open_rooms(self) -> dict[str, OpenRoom]:
        """code -> (seq, status) of every waiting or playing room (the re-check of the
        rooms a process holds, and the rooms it should adopt)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(ROOMS.c.code, ROOMS.c.seq, ROOMS.c.status).where(ROOMS.c.status.in_(_OPEN))
            )
            return {r[0]: OpenRoom(int(r[1]), Lifecycle(r[2])) for r in rows}

    @_guarded
    async def public_rooms(self, limit: int = 100) -> list[PublicRoom]:
        """(code, game, status, created_at) of open public rooms, newest first."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(ROOMS.c.code, ROOMS.c.game, ROOMS.c.status, ROOMS.c.created_at)
                .where(ROOMS.c.public.is_(True), ROOMS.c.status.in_(_OPEN))
                .order_by(ROOMS.c.id.desc())
                .limit(limit)
            )
            return [PublicRoom(r[0], r[1], Lifecycle(r[2]), r[3]) for r in rows]

    @_guarded
    async def idle_rooms(self, now: float) -> list[IdleRoom]:
        """(code, updated_at, idle_close) of every room still open, for the idle check."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(ROOMS.c.code, ROOMS.c.updated_at, ROOMS.c.room_options).where(
                    ROOMS.c.status.in_(_OPEN)
                )
            )
            return [IdleRoom(r[0], r[1], _idle_close(r[2])) for r in rows]

    @_guarded
    async def orphans(self, fresh: float) -> list[str]:
        """The codes of the rooms being played that no process holds (no presence row
        seen after ``fresh``): their process died, another adopts them."""
        held = exists().where(PRESENCE.c.room_id == ROOMS.c.id, PRESENCE.c.seen_at > fresh)
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(ROOMS.c.code).where(ROOMS.c.status == Lifecycle.PLAYING.value, ~held)
            )
            return [r[0] for r in rows]

    @_guarded
    async def held_elsewhere(self, process: str, fresh: float) -> dict[int, set[str]]:
        """room id -> the other processes holding it: ``"socket"`` if one holds a socket
        of a seat, else the tags of those that hold it without one (seat ``HOLDER``)."""
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(PRESENCE.c.room_id, PRESENCE.c.seat, PRESENCE.c.process).where(
                    PRESENCE.c.process != process, PRESENCE.c.seen_at > fresh
                )
            )
            found: dict[int, set[str]] = {}
            for room_id, seat, other in rows:
                found.setdefault(int(room_id), set()).add("socket" if seat >= 0 else other)
            return found

    async def _update_seat(
        self, room_id: int, seat: int, status: Lifecycle, *where: Any, **values: Any
    ) -> bool:
        """Set ``values`` on seat ``seat`` if the room (locked) is in ``status`` and the
        seat meets ``where``; touch the room. False when nothing was changed."""
        async with self.engine.begin() as conn:
            if await self._lock_room(conn, room_id) is not status:
                return False
            result = await conn.execute(
                update(SEATS)
                .where(SEATS.c.room_id == room_id, SEATS.c.seat == seat, *where)
                .values(**values)
            )
            await self._touch(conn, room_id)
            return bool(result.rowcount)

    @_guarded
    async def claim_seat(
        self, room_id: int, seat: int, name: str, hashed: str, contribution: str | None = None
    ) -> bool:
        """Give an unclaimed human seat of a waiting room to ``name`` (with the player's
        ``contribution`` to the dice seed, if the claim carried one); False if taken."""
        return await self._update_seat(
            room_id, seat, Lifecycle.WAITING,
            SEATS.c.kind == "human", SEATS.c.token_hash.is_(None),
            name=name, token_hash=hashed, contribution=contribution,
            contributed_by=None if contribution is None else "player",
        )  # fmt: skip

    @_guarded
    async def release_seat(self, room_id: int, seat: int) -> bool:
        """The host frees a claimed seat of a waiting room: its token stops working."""
        return await self._update_seat(
            room_id, seat, Lifecycle.WAITING, SEATS.c.kind == "human",
            name="", token_hash=None, contribution=None, contributed_by=None,
        )  # fmt: skip

    @_guarded
    async def free_seat_in_play(self, room_id: int, seat: int, fresh: float = 0.0) -> bool:
        """The host frees a claimed human seat of a room being played (its player left):
        its token stops working and a bot plays it until someone claims it. False if the
        room is not playing, the seat is no claimed human seat, or a process holds a
        socket of it (a presence row seen after ``fresh``: server/presence.py)."""
        here = exists().where(
            PRESENCE.c.room_id == room_id, PRESENCE.c.seat == seat, PRESENCE.c.seen_at > fresh
        )
        return await self._update_seat(
            room_id, seat, Lifecycle.PLAYING,
            SEATS.c.kind == "human", SEATS.c.token_hash.is_not(None), ~here,
            name="", token_hash=None,
        )  # fmt: skip

    # ----- presence (server/presence.py) ---------------------------------------------------
    @_guarded
    async def set_present(
        self, room_id: int, seat: int, process: str, present: bool, notify: str | None = None
    ) -> None:
        """Process ``process`` holds a socket of ``seat`` now (or no more); the other
        processes are told with ``notify`` (PostgreSQL)."""
        where = (PRESENCE.c.room_id == room_id, PRESENCE.c.seat == seat)
        async with self.engine.begin() as conn:
            await conn.execute(delete(PRESENCE).where(*where, PRESENCE.c.process == process))
            if present:
                await conn.execute(
                    insert(PRESENCE),
                    {"room_id": room_id, "seat": seat, "process": process, "seen_at": time.time()},
                )
            if notify is not None and self.is_postgres:
                await conn.execute(
                    text("SELECT pg_notify(:channel, :payload)"),
                    {"channel": NOTIFY_CHANNEL, "payload": notify},
                )

    @_guarded
    async def present_elsewhere(self, room_id: int, process: str, fresh: float) -> set[int]:
        """The seats of room ``room_id`` with a socket on another process (its row seen
        after ``fresh``, a wall-clock time)."""
        async with self.reads.connect() as conn:
            rows = await conn.execute(
                select(PRESENCE.c.seat).where(
                    PRESENCE.c.room_id == room_id,
                    PRESENCE.c.process != process,
                    PRESENCE.c.seen_at > fresh,
                )
            )
            return {int(r[0]) for r in rows}

    @_guarded
    async def beat(self, process: str, held: set[tuple[int, int]], stale: float) -> None:
        """``process`` holds sockets of exactly the (room id, seat) pairs ``held``: its
        rows say so and are fresh; rows of any process not seen since ``stale`` go."""
        now = time.time()
        async with self.engine.begin() as conn:
            await conn.execute(delete(PRESENCE).where(PRESENCE.c.seen_at < stale))
            rows = await conn.execute(
                select(PRESENCE.c.room_id, PRESENCE.c.seat).where(PRESENCE.c.process == process)
            )
            stored = {(int(r[0]), int(r[1])) for r in rows}
            for room_id, seat in stored - held:
                await conn.execute(
                    delete(PRESENCE).where(
                        PRESENCE.c.room_id == room_id,
                        PRESENCE.c.seat == seat,
                        PRESENCE.c.process == process,
                    )
                )
            await conn.execute(
                update(PRESENCE).where(PRESENCE.c.process == process).values(seen_at=now)
            )
            missing = held - stored
            if missing:
                await conn.execute(
                    insert(PRESENCE),
                    [
                        {"room_id": r, "seat": s, "process": process, "seen_at": now}
                        for r, s in missing
                    ],
                )

    @_guarded
    async def claim_freed_seat(self, room_id: int, seat: int, name: str, hashed: str) -> bool:
        """Give a human seat the host freed during play to ``name``; False if taken."""
        return await self._update_seat(
            room_id, seat, Lifecycle.PLAYING,
            SEATS.c.kind == "human", SEATS.c.token_hash.is_(None),
            name=name, token_hash=hashed, away_since=None,
        )  # fmt: skip

    @_guarded
    async def contribute(self, room_id: int, seat: int, hashed: str, contribution: str) -> bool:
        """The player of ``seat`` (token hash ``hashed``) adds their part of the dice seed,
        once, while the room waits; False if it already has one or the game has begun."""
        return await self._update_seat(
            room_id, seat, Lifecycle.WAITING,
            SEATS.c.token_hash == hashed, SEATS.c.contribution.is_(None),
            contribution=contribution, contributed_by="player",
        )  # fmt: skip

    @_guarded
    async def start_room(
        self, room_id: int, bots: dict[int, str], fill: dict[int, str] | None = None
    ) -> list[tuple[str | None, str | None]] | None:
        """Waiting -> playing; empty human seats become the given bots, and claimed seats
        still without a contribution get the server's from ``fill``, in the same
        transaction. Every seat's final (contribution, by), or None if not waiting."""
        async with self.engine.begin() as conn:
            if await self._lock_room(conn, room_id) is not Lifecycle.WAITING:
                return None
            for seat, bot in bots.items():
                await conn.execute(
                    update(SEATS)
                    .where(SEATS.c.room_id == room_id, SEATS.c.seat == seat)
                    .values(kind="bot", bot=bot, token_hash=None, contribution=None,
                            contributed_by=None)
                )  # fmt: skip
            for seat, value in (fill or {}).items():
                await conn.execute(
                    update(SEATS)
                    .where(
                        SEATS.c.room_id == room_id,
                        SEATS.c.seat == seat,
                        SEATS.c.kind == "human",
                        SEATS.c.contribution.is_(None),
                    )
                    .values(contribution=value, contributed_by="server")
                )
            parts = await conn.execute(
                select(SEATS.c.contribution, SEATS.c.contributed_by)
                .where(SEATS.c.room_id == room_id)
                .order_by(SEATS.c.seat)
            )
            final = [(r[0], r[1]) for r in parts]
            await conn.execute(
                update(ROOMS)
                .where(ROOMS.c.id == room_id)
                .values(status=Lifecycle.PLAYING.value, updated_at=time.time())
            )
        return final

    @_guarded
    async def set_status(self, room_id: int, status: str, note: str = "") -> None:
        """Store the room's status (a :class:`Lifecycle` or its value; anything else is
        refused with ValueError before the database is touched)."""
        value = Lifecycle(status).value
        async with self.engine.begin() as conn:
            await conn.execute(
                update(ROOMS)
                .where(ROOMS.c.id == room_id)
                .values(status=value, note=note, updated_at=time.time())
            )

    @_guarded
    async def set_away(self, room_id: int, seat: int, away_since: float | None) -> None:
        async with self.engine.begin() as conn:
            await conn.execute(
                update(SEATS)
                .where(SEATS.c.room_id == room_id, SEATS.c.seat == seat)
                .values(away_since=away_since)
            )

    # ----- the action log -----------------------------------------------------------------
    @_guarded
    async def append_action(
        self,
        room_id: int,
        seq: int,
        seat: int,
        action: Any,
        by: str,
        *,
        finished_results: Any = None,
        notify: str | None = None,
    ) -> None:
        """Append action ``seq`` (one more than the log holds) and commit.

        The room's row is updated first, compare-and-set on its seq: on PostgreSQL
        that row lock holds until the commit, so two processes cannot both append
        ``seq`` (SQLite has one writer anyway; the (room, seq) key is the last
        guard). Raises :class:`Behind` if the log already holds ``seq``.
        Returns only after the commit: the caller may then acknowledge. Appends
        are group-committed (:class:`_GroupCommit`): many rooms' actions share a
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

    @_guarded
    async def actions_after(self, room_id: int, seq: int) -> list[ActionRow]:
        async with self.reads.connect() as conn:
            rows = await conn.execute(
                select(ACTIONS)
                .where(ACTIONS.c.room_id == room_id, ACTIONS.c.seq > seq)
                .order_by(ACTIONS.c.seq)
            )
            return [ActionRow(r.seq, r.seat, json.loads(r.action), r.by, r.at) for r in rows]

    # ----- chat ---------------------------------------------------------------------------
    @_guarded
    async def add_chat(
        self, room_id: int, seat: int | None, name: str, message: str, notify: str | None = None
    ) -> ChatRow:
        now = time.time()
        async with self.engine.begin() as conn:
            result = await conn.execute(
                insert(CHAT).returning(CHAT.c.id),
                {"room_id": room_id, "seat": seat, "name": name, "text": message, "at": now},
            )
            chat_id = int(result.scalar_one())
            if notify is not None and self.is_postgres:
                await conn.execute(
                    text("SELECT pg_notify(:channel, :payload)"),
                    {"channel": NOTIFY_CHANNEL, "payload": notify},
                )
        return ChatRow(chat_id, seat, name, message, now)

    @_guarded
    async def chat_after(self, room_id: int, chat_id: int, limit: int = 200) -> list[ChatRow]:
        async with self.engine.connect() as conn:
            rows = await conn.execute(
                select(CHAT)
                .where(CHAT.c.room_id == room_id, CHAT.c.id > chat_id)
                .order_by(CHAT.c.id.desc())
                .limit(limit)
            )
            found = [ChatRow(r.id, r.seat, r.name, r.text, r.at) for r in rows]
        return found[::-1]

    @_guarded
    async def notify(self, payload: str) -> None:
        """Tell the other server processes (PostgreSQL only) that a room changed."""
        if not self.is_postgres:
            return
        async with self.engine.begin() as conn:
            await conn.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": NOTIFY_CHANNEL, "payload": payload},
            )

    # ----- helpers ------------------------------------------------------------------------
    async def _lock_room(self, conn: AsyncConnection, room_id: int) -> Lifecycle | None:
        row = (
            await conn.execute(
                select(ROOMS.c.status).where(ROOMS.c.id == room_id).with_for_update()
            )
        ).first()
        return None if row is None else Lifecycle(row[0])

    async def _touch(self, conn: AsyncConnection, room_id: int) -> None:
        await conn.execute(
            update(ROOMS).where(ROOMS.c.id == room_id).values(updated_at=time.time())
        )


@dataclass(frozen=True, slots=True)
class AppendRequest:
    """One action for the log, ready to write: the room moves from ``seq - 1`` to ``seq``
    (compare-and-set) and the log gets its row, or nothing happens (the room moved on).

    >>> AppendRequest(1, 2, 0, '{"type":"roll"}', "human", 0.0).finishes
    False
    """

    room_id: int
    seq: int
    seat: int
    action: str  # JSON text
    by: str  # human | bot | takeover
    at: float
    results: str | None = None  # JSON of the results if this action ends the game
    notify: str | None = None  # payload for the other processes (PostgreSQL NOTIFY)

    @property
    def finishes(self) -> bool:
        return self.results is not None


# What a writer says of each request of a batch: True (logged), False (the room's log
# had moved on: Behind) or the exception that failed this request alone.
Outcome = bool | Exception


class _Writer(Protocol):
    """Writes a batch of appends in one transaction; one outcome per request, in order.
    Raises if the batch failed as a whole (then nothing of it is logged)."""

    writers: int  # batches it can write at once (its slots)

    async def write(self, batch: Sequence[AppendRequest], slot: int) -> list[Outcome]: ...

    async def close(self) -> None: ...


@dataclass(slots=True)
class _Pending:
    """An append waiting for its batch's commit."""

    request: AppendRequest
    done: asyncio.Future[bool]


class _GroupCommit:
    """Group commit of the action log: appends queue up while a write is running and
    then go in together, one transaction for the batch (the :class:`_Writer`'s).

    Each append still waits for the commit of its batch, so an acknowledged action
    is a committed one. The compare-and-set on each room's seq keeps every room's
    log gapless across processes; a room that moved on fails alone (False).
    """

    MAX_BATCH = 200  # bounds a statement (and PostgreSQL's 8000-byte NOTIFY payload)

    def __init__(self, writer: _Writer) -> None:
        self.writer = writer
        self.pending: list[_Pending] = []
        self.idle = list(range(writer.writers))  # free writer slots
        self.flushers: set[asyncio.Task[None]] = set()

    async def append(self, request: AppendRequest) -> bool:
        """True once ``request`` is committed; False if its room's log had moved on."""
        loop = asyncio.get_running_loop()
        done: asyncio.Future[bool] = loop.create_future()
        self.pending.append(_Pending(request, done))
        if self.idle:
            task = loop.create_task(self._flush(self.idle.pop()))
            self.flushers.add(task)
            task.add_done_callback(self.flushers.discard)
        return await done

    async def _flush(self, slot: int) -> None:
        try:
            while self.pending:
                batch = self.pending[: self.MAX_BATCH]
                del self.pending[: self.MAX_BATCH]
                try:
                    outcome = await self.writer.write([p.request for p in batch], slot)
                except Exception as exc:  # the whole batch failed: nobody is acknowledged
                    outcome = [exc] * len(batch)
                for result, pending in zip(outcome, batch, strict=True):
                    if pending.done.done():
                        continue
                    if isinstance(result, Exception):
                        pending.done.set_exception(result)
                    else:
                        pending.done.set_result(result)
        finally:
            self.idle.append(slot)

    async def close(self) -> None:
        await self.writer.close()


# The room's status around an append: only a playing room takes actions, and the one
# that ends the game leaves it finished (bound as parameters, never spelt in the SQL).
_PLAYING = Lifecycle.PLAYING.value
_FINISHED = Lifecycle.FINISHED.value


class _SqliteWriter:
    """SQLite: the batch is one transaction on one writer thread with its own plain
    ``sqlite3`` connection (one thread hand-off per batch, not per statement)."""

    _MOVE = "UPDATE rooms SET seq = ?, updated_at = ? WHERE id = ? AND seq = ? AND status = ?"
    _FINISH = (
        "UPDATE rooms SET seq = ?, updated_at = ?, status = ?, results = ? "
        "WHERE id = ? AND seq = ? AND status = ?"
    )
    _INSERT = 'INSERT INTO actions (room_id, seq, seat, action, "by", at) VALUES (?, ?, ?, ?, ?, ?)'

    writers = 1  # SQLite has one writer anyway

    def __init__(self, url: str) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.path = url[len("sqlite:///") :] if url.startswith("sqlite:///") else ":memory:"
        self.thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-log")
        self.conn: sqlite3.Connection | None = None  # only ever used on self.thread

    async def write(self, batch: Sequence[AppendRequest], slot: int) -> list[Outcome]:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.thread, self._write_sync, batch)

    def _write_sync(self, batch: Sequence[AppendRequest]) -> list[Outcome]:
        if self.conn is None:
            self.conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
            _sqlite_pragmas(self.conn, None)
        conn = self.conn
        outcome: list[Outcome] = []
        conn.execute("BEGIN IMMEDIATE")
        try:
            for r in batch:
                if r.finishes:
                    finish = (r.seq, r.at, _FINISHED, r.results, r.room_id, r.seq - 1, _PLAYING)
                    moved = conn.execute(self._FINISH, finish)
                else:
                    moved = conn.execute(self._MOVE, (r.seq, r.at, r.room_id, r.seq - 1, _PLAYING))
                ok = moved.rowcount == 1
                if ok:
                    conn.execute(self._INSERT, (r.room_id, r.seq, r.seat, r.action, r.by, r.at))
                outcome.append(ok)
            conn.execute("COMMIT")
        except BaseException:
            # A full disk or an I/O error may have ended the transaction already (then
            # ROLLBACK fails too): the connection is dropped and opened anew next time.
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:
                with contextlib.suppress(sqlite3.Error):
                    conn.close()
                self.conn = None
            raise
        return outcome

    async def close(self) -> None:
        def shut() -> None:
            if self.conn is not None:
                self.conn.close()

        self.thread.submit(shut)
        self.thread.shutdown(wait=True)


class _PgWriter:
    """PostgreSQL: the batch is ONE statement on a dedicated connection (autocommit, so
    one round trip and one commit per batch, psycopg directly: no ORM on the hot path).

    Per room it is the same compare-and-set as ever: ``UPDATE rooms ... WHERE seq =
    prev`` row-locks the room until the commit, so two processes cannot both append
    a seq (two appends of one room in a batch: one at most moves it, by the row
    lock's rules; the other is Behind); the rooms that moved get their log row, and
    the batch sends one NOTIFY (the payloads joined by ``|``) for the other processes.
    Up to ``writers`` batches are in flight at once, each on its own connection (a
    room is in one of them at most: its actions wait for each other's commits). If a
    batch fails as a whole (a deadlock between two processes' batches, a broken
    connection...) its appends are retried one by one, each with its own outcome.
    """

    _APPEND = (
        "WITH input AS ("
        " SELECT * FROM unnest(%(rooms)s::int[], %(seqs)s::int[], %(seats)s::int[],"
        " %(actions)s::text[], %(bys)s::text[], %(ats)s::float8[], %(results)s::text[],"
        " %(payloads)s::text[]) WITH ORDINALITY"
        " AS t(room, seq, seat, action, by_, at, results, payload, idx)"
        "), moved AS ("
        " UPDATE rooms r SET seq = i.seq, updated_at = i.at,"
        " status = CASE WHEN i.results IS NULL THEN r.status ELSE %(finished)s::text END,"
        " results = COALESCE(i.results, r.results)"
        " FROM input i WHERE r.id = i.room AND r.seq = i.seq - 1 AND r.status = %(playing)s::text"
        " RETURNING r.id, i.seq, i.seat, i.action, i.by_, i.at, i.payload, i.idx"
        "), logged AS ("
        ' INSERT INTO actions (room_id, seq, seat, action, "by", at)'
        " SELECT id, seq, seat, action, by_, at FROM moved"
        "), told AS ("
        " SELECT pg_notify(%(channel)s, string_agg(payload, '|')) FROM moved"
        " WHERE payload <> '' HAVING count(*) > 0"
        ") SELECT idx, (SELECT count(*) FROM told) FROM moved"
    )

    writers = 2  # a batch can start while the previous one commits

    def __init__(self, url: str) -> None:
        self.url = url
        self.conns: list[Any] = [None] * self.writers  # psycopg.AsyncConnection per slot

    async def _connection(self, slot: int) -> Any:
        import psycopg

        conn = self.conns[slot]
        if conn is None or conn.closed:
            conn = self.conns[slot] = await psycopg.AsyncConnection.connect(
                self.url, autocommit=True, connect_timeout=CONNECT_TIMEOUT
            )
        return conn

    async def write(self, batch: Sequence[AppendRequest], slot: int) -> list[Outcome]:
        try:
            return list(await self._run(batch, slot))
        except Exception:
            if len(batch) == 1:
                raise
        # One by one: a failed append fails alone (Behind for a duplicate seq).
        outcome: list[Outcome] = []
        for request in batch:
            try:
                outcome += await self._run([request], slot)
            except Exception as exc:
                outcome.append(exc)
        return outcome

    async def _run(self, batch: Sequence[AppendRequest], slot: int) -> list[bool]:
        import psycopg

        params = {
            "rooms": [r.room_id for r in batch],
            "seqs": [r.seq for r in batch],
            "seats": [r.seat for r in batch],
            "actions": [r.action for r in batch],
            "bys": [r.by for r in batch],
            "ats": [r.at for r in batch],
            "results": [r.results for r in batch],
            "payloads": [r.notify or "" for r in batch],
            "channel": NOTIFY_CHANNEL,
            "playing": _PLAYING,
            "finished": _FINISHED,
        }
        conn = await self._connection(slot)
        try:
            cursor = await conn.execute(self._APPEND, params)
            moved = {row[0] for row in await cursor.fetchall()}
        except psycopg.errors.UniqueViolation:
            if len(batch) == 1:  # the log holds this seq already (a second process)
                return [False]
            raise
        except (psycopg.OperationalError, psycopg.InterfaceError):
            await conn.close()  # reconnect next time (the database restarted...)
            raise
        return [i in moved for i in range(1, len(batch) + 1)]

    async def close(self) -> None:
        for conn in self.conns:
            if conn is not None:
                await conn.close()


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def _engine(url: str, postgres: bool) -> AsyncEngine:
    if postgres:
        require_driver(url)
        # pool_pre_ping: a pooled connection that a database restart killed is replaced
        # at checkout instead of failing the next request (the log's hot path does not
        # use the pool: it has its own connections, reopened after a failure).
        return create_async_engine(
            url,
            pool_size=10,
            max_overflow=10,
            pool_pre_ping=True,
            connect_args={"connect_timeout": CONNECT_TIMEOUT},
        )
    # SQLite: one connection, so writes queue in the pool instead of failing with
    # "database is locked"; WAL with synchronous=NORMAL survives a killed process.
    engine = create_async_engine(url, poolclass=AsyncAdaptedQueuePool, pool_size=1, max_overflow=0)

    event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine
