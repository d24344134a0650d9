"""The store's database connection: the SQLAlchemy engine (a pool on PostgreSQL, one
connection on SQLite in WAL mode) and :class:`Connected`, what every part of the store
shares: the engine, its one-statement reads, NOTIFY and the room row's lock."""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import event, select, text, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import AsyncAdaptedQueuePool

from gamenight.server.dburl import normalise_url, require_driver
from gamenight.server.lifecycle import Lifecycle
from gamenight.server.storage.outage import guarded
from gamenight.server.storage.schema import ROOMS

NOTIFY_CHANNEL = "gamenight"
CONNECT_TIMEOUT = 5  # seconds before a PostgreSQL connection attempt gives up


class Connected:
    """The engine of a store (``url``, PostgreSQL or SQLite) and what every part of it
    shares."""

    def __init__(self, url: str) -> None:
        self.url = normalise_url(url)
        self.is_postgres = self.url.startswith("postgresql")
        self.engine: AsyncEngine = make_engine(self.url, self.is_postgres)
        # One-statement reads on PostgreSQL without BEGIN/ROLLBACK around them (a
        # process catching up on another's action reads the log: one statement, not 3).
        self.reads: AsyncEngine = (
            self.engine.execution_options(isolation_level="AUTOCOMMIT")
            if self.is_postgres
            else self.engine
        )

    async def close(self) -> None:
        await self.engine.dispose()

    @guarded
    async def ping(self) -> None:
        """A trivial query: the database answers (``/readyz``)."""
        async with self.engine.connect() as conn:
            await conn.execute(text("SELECT 1"))

    @guarded
    async def notify(self, payload: str) -> None:
        """Tell the other server processes (PostgreSQL only) that a room changed."""
        if not self.is_postgres:
            return
        async with self.engine.begin() as conn:
            await conn.execute(
                text("SELECT pg_notify(:channel, :payload)"),
                {"channel": NOTIFY_CHANNEL, "payload": payload},
            )

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


def sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cursor = dbapi_conn.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def make_engine(url: str, postgres: bool) -> AsyncEngine:
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

    event.listen(engine.sync_engine, "connect", sqlite_pragmas)
    return engine
