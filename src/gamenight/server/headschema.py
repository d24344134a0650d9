"""The database brought to the schema's head (issue 46's server start): a new database
is created at the head in one step, an older one is migrated by Alembic.

Running the migrations 0001…head one by one on a new database cost a new server most of
its start (Alembic's and SQLAlchemy's imports, then every migration in turn). Instead:

* a new **SQLite** file gets :data:`SQLITE_HEAD`, the head schema's statements, in one
  transaction with the standard library (no SQLAlchemy, no Alembic): a new server is
  then no slower to its first answer than a restarted one;
* a new **PostgreSQL** database gets ``METADATA.create_all`` in one transaction, under
  the migrations' advisory lock (two processes starting together create it once);
* both are stamped at Alembic's head (:data:`~gamenight.server.dburl.SCHEMA_HEAD`), so
  a later migration upgrades them as it upgrades a migrated one;
* anything else (an older revision, a database with some tables) runs Alembic as before.

:data:`SQLITE_HEAD` is made from the tables (:func:`head_statements`); the tests check
it still is, and that a created database equals a migrated one (tables, columns, types,
defaults, keys, indexes, constraints) on SQLite and PostgreSQL, so the two cannot drift.
After a change to the tables, write it again: ``python -m gamenight.server.headschema``
(then ``ruff format`` the file).
"""

from __future__ import annotations

import contextlib
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING

from gamenight.server.dburl import SCHEMA_HEAD, schema_is_current, sqlite_path, sync_url

if TYPE_CHECKING:
    from sqlalchemy import Connection, MetaData, Table

# The head schema on SQLite, written by `python -m gamenight.server.headschema` from
# head_statements("sqlite"): the tables, their indexes, and Alembic's version table.
# --- generated: begin ---
SQLITE_HEAD: tuple[str, ...] = (
    (
        "CREATE TABLE accounts (\n"
        "\tid INTEGER NOT NULL, \n"
        "\tname VARCHAR(80) NOT NULL, \n"
        "\tname_fold VARCHAR(400) NOT NULL, \n"
        "\tname_skeleton VARCHAR(400) NOT NULL, \n"
        "\tpassword_hash TEXT, \n"
        "\tpublic BOOLEAN DEFAULT 1 NOT NULL, \n"
        "\tcreated_at FLOAT NOT NULL, \n"
        "\tPRIMARY KEY (id), \n"
        "\tUNIQUE (name_fold), \n"
        "\tUNIQUE (name_skeleton)\n"
        ")"
    ),
    (
        "CREATE TABLE bot_ratings (\n"
        "\tpool VARCHAR(200) NOT NULL, \n"
        "\tbot VARCHAR(40) NOT NULL, \n"
        "\tmu FLOAT NOT NULL, \n"
        "\tsigma FLOAT NOT NULL, \n"
        "\tPRIMARY KEY (pool, bot)\n"
        ")"
    ),
    (
        "CREATE TABLE challenges (\n"
        "\thandle_hash VARCHAR(64) NOT NULL, \n"
        "\tpurpose VARCHAR(16) NOT NULL, \n"
        "\tchallenge VARCHAR(200) NOT NULL, \n"
        "\tpayload TEXT DEFAULT '' NOT NULL, \n"
        "\texpires_at FLOAT NOT NULL, \n"
        "\tPRIMARY KEY (handle_hash)\n"
        ")"
    ),
    ("CREATE INDEX ix_challenges_expires_at ON challenges (expires_at)"),
    (
        "CREATE TABLE notify_keys (\n"
        "\tname VARCHAR(40) NOT NULL, \n"
        "\tvalue TEXT NOT NULL, \n"
        "\tcreated_at FLOAT NOT NULL, \n"
        "\tPRIMARY KEY (name)\n"
        ")"
    ),
    (
        "CREATE TABLE rated_results (\n"
        "\troom_id INTEGER NOT NULL, \n"
        "\tpool VARCHAR(200) NOT NULL, \n"
        "\tfinished_at FLOAT NOT NULL, \n"
        "\tplaces TEXT NOT NULL, \n"
        "\tPRIMARY KEY (room_id)\n"
        ")"
    ),
    ("CREATE INDEX ix_rated_results_pool ON rated_results (pool)"),
    (
        "CREATE TABLE rooms (\n"
        "\tid INTEGER NOT NULL, \n"
        "\tcode VARCHAR(32) NOT NULL, \n"
        "\tgame VARCHAR(40) NOT NULL, \n"
        "\toptions TEXT NOT NULL, \n"
        "\troom_options TEXT NOT NULL, \n"
        "\tpublic BOOLEAN NOT NULL, \n"
        "\tstatus VARCHAR(16) NOT NULL, \n"
        "\tseed VARCHAR(48) NOT NULL, \n"
        "\tcommitment VARCHAR(64) NOT NULL, \n"
        "\tentropy VARCHAR(16) DEFAULT 'server' NOT NULL, \n"
        "\thost_token_hash VARCHAR(64) NOT NULL, \n"
        "\tseq INTEGER NOT NULL, \n"
        "\tresults TEXT, \n"
        "\tnote TEXT NOT NULL, \n"
        "\tcreated_at FLOAT NOT NULL, \n"
        "\tupdated_at FLOAT NOT NULL, \n"
        "\tPRIMARY KEY (id)\n"
        ")"
    ),
    ("CREATE UNIQUE INDEX ix_rooms_code ON rooms (code)"),
    ("CREATE INDEX ix_rooms_status ON rooms (status)"),
    (
        "CREATE TABLE throttle (\n"
        '\t"key" VARCHAR(80) NOT NULL, \n'
        "\tlevel FLOAT NOT NULL, \n"
        "\tstamp FLOAT NOT NULL, \n"
        '\tPRIMARY KEY ("key")\n'
        ")"
    ),
    ("CREATE INDEX ix_throttle_stamp ON throttle (stamp)"),
    (
        "CREATE TABLE actions (\n"
        "\troom_id INTEGER NOT NULL, \n"
        "\tseq INTEGER NOT NULL, \n"
        "\tseat INTEGER NOT NULL, \n"
        "\taction TEXT NOT NULL, \n"
        '\t"by" VARCHAR(16) NOT NULL, \n'
        "\tat FLOAT NOT NULL, \n"
        "\tPRIMARY KEY (room_id, seq), \n"
        "\tFOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE\n"
        ")"
    ),
    (
        "CREATE TABLE chat (\n"
        "\tid INTEGER NOT NULL, \n"
        "\troom_id INTEGER NOT NULL, \n"
        "\tseat INTEGER, \n"
        "\tname VARCHAR(80) NOT NULL, \n"
        "\ttext TEXT NOT NULL, \n"
        "\tat FLOAT NOT NULL, \n"
        "\tPRIMARY KEY (id), \n"
        "\tFOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE\n"
        ")"
    ),
    ("CREATE INDEX ix_chat_room_id ON chat (room_id)"),
    (
        "CREATE TABLE notify_subs (\n"
        "\tid INTEGER NOT NULL, \n"
        "\taccount_id INTEGER, \n"
        "\troom_id INTEGER, \n"
        "\tseat INTEGER, \n"
        "\tchannel VARCHAR(8) NOT NULL, \n"
        "\ttarget TEXT NOT NULL, \n"
        "\tsecret VARCHAR(64) DEFAULT '' NOT NULL, \n"
        "\tlang VARCHAR(8) DEFAULT 'en' NOT NULL, \n"
        "\tunsub_hash VARCHAR(64) NOT NULL, \n"
        "\tcreated_at FLOAT NOT NULL, \n"
        "\tPRIMARY KEY (id), \n"
        "\tFOREIGN KEY(account_id) REFERENCES accounts (id) ON DELETE CASCADE, \n"
        "\tFOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE, \n"
        "\tUNIQUE (unsub_hash)\n"
        ")"
    ),
    ("CREATE INDEX ix_notify_subs_account_id ON notify_subs (account_id)"),
    ("CREATE INDEX ix_notify_subs_room_id ON notify_subs (room_id)"),
    (
        "CREATE TABLE passkeys (\n"
        "\tcredential_id VARCHAR(400) NOT NULL, \n"
        "\taccount_id INTEGER NOT NULL, \n"
        "\tpublic_key TEXT NOT NULL, \n"
        "\tsign_count INTEGER DEFAULT '0' NOT NULL, \n"
        "\tcreated_at FLOAT NOT NULL, \n"
        "\tPRIMARY KEY (credential_id), \n"
        "\tFOREIGN KEY(account_id) REFERENCES accounts (id) ON DELETE CASCADE\n"
        ")"
    ),
    ("CREATE INDEX ix_passkeys_account_id ON passkeys (account_id)"),
    (
        "CREATE TABLE presence (\n"
        "\troom_id INTEGER NOT NULL, \n"
        "\tseat INTEGER NOT NULL, \n"
        "\tprocess VARCHAR(16) NOT NULL, \n"
        "\tseen_at FLOAT NOT NULL, \n"
        "\tPRIMARY KEY (room_id, seat, process), \n"
        "\tFOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE\n"
        ")"
    ),
    ("CREATE INDEX ix_presence_process ON presence (process)"),
    (
        "CREATE TABLE seats (\n"
        "\tid INTEGER NOT NULL, \n"
        "\troom_id INTEGER NOT NULL, \n"
        "\tseat INTEGER NOT NULL, \n"
        "\tkind VARCHAR(8) NOT NULL, \n"
        "\tbot VARCHAR(40) NOT NULL, \n"
        "\tname VARCHAR(80) NOT NULL, \n"
        "\ttoken_hash VARCHAR(64), \n"
        "\taway_since FLOAT, \n"
        "\tcontribution VARCHAR(800), \n"
        "\tcontributed_by VARCHAR(8), \n"
        "\taccount_id INTEGER, \n"
        "\tbank FLOAT, \n"
        "\tPRIMARY KEY (id), \n"
        "\tUNIQUE (room_id, seat), \n"
        "\tFOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE\n"
        ")"
    ),
    ("CREATE INDEX ix_seats_account_id ON seats (account_id)"),
    ("CREATE INDEX ix_seats_room_id ON seats (room_id)"),
    ("CREATE INDEX ix_seats_token_hash ON seats (token_hash)"),
    (
        "CREATE TABLE sessions (\n"
        "\ttoken_hash VARCHAR(64) NOT NULL, \n"
        "\taccount_id INTEGER NOT NULL, \n"
        "\tlabel VARCHAR(120) DEFAULT '' NOT NULL, \n"
        "\tcreated_at FLOAT NOT NULL, \n"
        "\tseen_at FLOAT NOT NULL, \n"
        "\tPRIMARY KEY (token_hash), \n"
        "\tFOREIGN KEY(account_id) REFERENCES accounts (id) ON DELETE CASCADE\n"
        ")"
    ),
    ("CREATE INDEX ix_sessions_account_id ON sessions (account_id)"),
    (
        "CREATE TABLE turns (\n"
        "\troom_id INTEGER NOT NULL, \n"
        "\tseat INTEGER NOT NULL, \n"
        "\tseq INTEGER NOT NULL, \n"
        "\tsince FLOAT NOT NULL, \n"
        "\tdeadline FLOAT, \n"
        "\tlate_at FLOAT, \n"
        "\tclaimed_by VARCHAR(16), \n"
        "\tclaim_until FLOAT, \n"
        "\tPRIMARY KEY (room_id, seat), \n"
        "\tFOREIGN KEY(room_id) REFERENCES rooms (id) ON DELETE CASCADE\n"
        ")"
    ),
    ("CREATE INDEX ix_turns_deadline ON turns (deadline)"),
    (
        "CREATE TABLE notify_outbox (\n"
        "\tid INTEGER NOT NULL, \n"
        '\t"key" VARCHAR(200) NOT NULL, \n'
        "\tsub_id INTEGER NOT NULL, \n"
        "\tkind VARCHAR(8) NOT NULL, \n"
        "\troom_id INTEGER NOT NULL, \n"
        "\tseat INTEGER NOT NULL, \n"
        "\tseq INTEGER NOT NULL, \n"
        "\tpayload TEXT NOT NULL, \n"
        "\tstate VARCHAR(8) NOT NULL, \n"
        "\tdue_at FLOAT NOT NULL, \n"
        "\tattempts INTEGER DEFAULT '0' NOT NULL, \n"
        "\tclaimed_by VARCHAR(16), \n"
        "\tclaim_until FLOAT, \n"
        "\tsent_at FLOAT, \n"
        "\terror VARCHAR(300) DEFAULT '' NOT NULL, \n"
        "\tunsub_hash VARCHAR(64), \n"
        "\tcreated_at FLOAT NOT NULL, \n"
        "\tPRIMARY KEY (id), \n"
        '\tUNIQUE ("key"), \n'
        "\tFOREIGN KEY(sub_id) REFERENCES notify_subs (id) ON DELETE CASCADE\n"
        ")"
    ),
    ("CREATE INDEX ix_notify_outbox_due_at ON notify_outbox (due_at)"),
    ("CREATE INDEX ix_notify_outbox_state ON notify_outbox (state)"),
    ("CREATE INDEX ix_notify_outbox_sub_id ON notify_outbox (sub_id)"),
    ("CREATE INDEX ix_notify_outbox_unsub_hash ON notify_outbox (unsub_hash)"),
    (
        "CREATE TABLE alembic_version (\n"
        "\tversion_num VARCHAR(32) NOT NULL, \n"
        "\tCONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)\n"
        ")"
    ),
)
# --- generated: end ---


def migrate(url: str) -> None:
    """Bring the database at ``url`` to the head schema: nothing if an SQLite file is
    already there, one step if the database is new, else Alembic's ``upgrade head``."""
    if schema_is_current(url) or create_sqlite_head(url):
        return
    target = sync_url(url)
    if not target.startswith("sqlite") and _create_postgres_head(target):
        return
    from gamenight.server.storage.schema import migrate as upgrade

    upgrade(url)


def create_sqlite_head(url: str) -> bool:
    """Create the head schema in the SQLite file of ``url`` if it has no tables (a new
    or empty file), in one transaction; True if it did. False for anything else (not an
    SQLite file URL, tables already there): then Alembic decides.

    >>> create_sqlite_head("postgresql://u@db/g"), create_sqlite_head("sqlite:///:memory:")
    (False, False)
    """
    path = sqlite_path(url)
    if not path or path == ":memory:" or not SQLITE_HEAD:
        return False
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    # autocommit mode: the transaction is the explicit BEGIN IMMEDIATE, which takes the
    # write lock before the file is looked at (another process creating it waits)
    with contextlib.closing(sqlite3.connect(path, isolation_level=None, timeout=30)) as conn:
        conn.execute("BEGIN IMMEDIATE")
        try:
            if conn.execute("SELECT count(*) FROM sqlite_master").fetchone() != (0,):
                conn.execute("ROLLBACK")
                return False
            for statement in SQLITE_HEAD:
                conn.execute(statement)
            conn.execute("INSERT INTO alembic_version (version_num) VALUES (?)", (SCHEMA_HEAD,))
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    return True


def _create_postgres_head(target: str) -> bool:
    """``METADATA.create_all`` and the head's stamp on a PostgreSQL database without
    tables, in one transaction under the migrations' advisory lock; True if it did."""
    from sqlalchemy import create_engine, insert, inspect, text

    from gamenight.server.storage.schema import MIGRATION_LOCK

    metadata, version = head_tables()
    engine = create_engine(target)
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:id)"), {"id": MIGRATION_LOCK})
            conn.commit()
            try:
                with conn.begin():  # the check and the creation: one transaction
                    if inspect(conn).get_table_names():
                        return False
                    _create(conn, metadata, version)
                    conn.execute(insert(version).values(version_num=SCHEMA_HEAD))
                return True
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:id)"), {"id": MIGRATION_LOCK})
                conn.commit()
    finally:
        engine.dispose()


def _create(conn: Connection, metadata: MetaData, version: Table) -> None:
    metadata.create_all(conn, checkfirst=False)
    version.create(conn, checkfirst=False)


def head_tables() -> tuple[MetaData, Table]:
    """Every table of the server's schema (the storage's, the accounts', the
    notifications'), and Alembic's version table as Alembic makes it."""
    from sqlalchemy import Column, MetaData, PrimaryKeyConstraint, String, Table

    import gamenight.server.accounts.tables
    import gamenight.server.notify.tables  # noqa: F401 - their tables join METADATA
    from gamenight.server.storage.schema import METADATA

    version = Table(
        "alembic_version",
        MetaData(),
        Column("version_num", String(32), nullable=False),
        PrimaryKeyConstraint("version_num", name="alembic_version_pkc"),
    )
    return METADATA, version


def head_statements(dialect: str) -> tuple[str, ...]:
    """The statements that create the head schema on ``dialect`` ("sqlite",
    "postgresql"), in ``create_all``'s order, each table followed by its indexes."""
    from sqlalchemy.dialects.postgresql.psycopg import PGDialect_psycopg
    from sqlalchemy.dialects.sqlite.pysqlite import SQLiteDialect_pysqlite
    from sqlalchemy.schema import CreateIndex, CreateTable

    kinds = {"sqlite": SQLiteDialect_pysqlite, "postgresql": PGDialect_psycopg}
    compiler = kinds[dialect]()
    metadata, version = head_tables()
    out = []
    for table in [*metadata.sorted_tables, version]:
        out.append(str(CreateTable(table).compile(dialect=compiler)).strip())
        for index in sorted(table.indexes, key=lambda i: str(i.name)):
            out.append(str(CreateIndex(index).compile(dialect=compiler)).strip())
    return tuple(out)


def _write_sqlite_head() -> None:
    """Write :data:`SQLITE_HEAD` into this file from :func:`head_statements`."""
    path = Path(__file__)
    text = path.read_text(encoding="utf-8")
    begin, end = "# --- generated: begin ---\n", "# --- generated: end ---\n"
    head, _, rest = text.partition(begin)
    _, _, tail = rest.partition(end)
    lines = []
    for statement in head_statements("sqlite"):  # a string a line of it (the line length)
        parts = statement.splitlines(keepends=True)
        lines += ["    (", *(f"        {part!r}" for part in parts), "    ),"]
    block = "SQLITE_HEAD: tuple[str, ...] = (\n" + "\n".join(lines) + "\n)\n"
    path.write_text(head + begin + block + end + tail, encoding="utf-8")


if __name__ == "__main__":
    _write_sqlite_head()
