"""The action log's writers, one per database: a batch of appends in one transaction
(SQLite: a writer thread; PostgreSQL: one statement on a connection of its own)."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING

from gamenight.server.follow import payloads
from gamenight.server.lifecycle import Lifecycle
from gamenight.server.storage.engine import CONNECT_TIMEOUT, NOTIFY_CHANNEL, sqlite_pragmas
from gamenight.server.storage.group import AppendRequest, Outcome
from gamenight.server.storage.turns import write_turns_pg, write_turns_sqlite

if TYPE_CHECKING:  # the [postgres] extra
    import psycopg
    from psycopg.rows import TupleRow


# The room's status around an append: only a playing room takes actions, and the one
# that ends the game leaves it finished (bound as parameters, never spelt in the SQL).
_PLAYING = Lifecycle.PLAYING.value
_FINISHED = Lifecycle.FINISHED.value


class SqliteWriter:
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
            sqlite_pragmas(self.conn, None)
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
                    write_turns_sqlite(conn, r)  # a turn-based room's clocks (issue 44)
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


class PgWriter:
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
        self.conns: list[psycopg.AsyncConnection[TupleRow] | None] = [None] * self.writers

    async def _connection(self, slot: int) -> psycopg.AsyncConnection[TupleRow]:
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
            "payloads": payloads(batch),  # the action itself for the others (follow.py)
            "channel": NOTIFY_CHANNEL,
            "playing": _PLAYING,
            "finished": _FINISHED,
        }
        conn = await self._connection(slot)
        try:
            if any(r.to_act is not None for r in batch):
                # a turn-based room's clocks go in the same transaction (issue 44); a
                # batch of live rooms stays one statement, as ever
                async with conn.transaction():
                    cursor = await conn.execute(self._APPEND, params)
                    moved = {row[0] for row in await cursor.fetchall()}
                    for i, request in enumerate(batch, 1):
                        if i in moved:
                            await write_turns_pg(conn, request)
            else:
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
