"""The database schema as SQLAlchemy Core tables, and :func:`migrate` (Alembic).

The same code runs on SQLite (the embedded default, one server process) and on
PostgreSQL (several server processes). The Alembic migrations shipped in
``gamenight/server/migrations`` bring a database to the newest schema (:func:`migrate`);
a new database is created at the newest in one step (``server/headschema.py``).

Tables:

* ``rooms`` — one per room: game, options, room options, public flag, status,
  the secret seed (never sent before the end) and its public commitment, the
  host token's hash and ``seq``, the number of actions logged.
* ``seats`` — one per seat: human or bot, display name, the seat token's hash.
* ``actions`` — the append-only action log: room, seq, seat, action JSON, who
  decided it (human, bot, takeover) and when. Primary key (room, seq): a seq
  is written once, whatever process tries.
* ``chat`` — short messages, stored as plain text.
* ``presence`` — which process holds a socket of which seat.
* ``turns`` — a turn-based room's decisions waiting, with their clocks (issue 44).

Tokens are never stored: only their sha256 (:func:`token_hash`).
"""

from __future__ import annotations

from pathlib import Path

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
)
from sqlalchemy import Table as SqlTable  # not core.table.Table: a database table

from gamenight.server.dburl import schema_is_current, sync_url

MIGRATION_LOCK = 0x67616D65  # "game": PostgreSQL's advisory lock id held while migrating

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
    # a turn-based room's time bank of the seat: seconds left beyond each move's time
    Column("bank", Float, nullable=True),
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


# A decision waiting in a turn-based room (issue 44): one row per seat to act, written in
# the transaction of the move that made it, so the "your turn" list, the clock's sweep and
# the notifications read the database alone. ``seq`` is the room's seq when the decision
# began (it names the decision); ``deadline`` when its clock runs out (null: no clock);
# ``late_at`` when the sweep found it late (set once); ``claimed_by``/``claim_until`` the
# process handling the clock now (one process of a cluster acts on it).
TURNS = SqlTable(
    "turns",
    METADATA,
    Column("room_id", Integer, ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("seq", Integer, nullable=False),
    Column("since", Float, nullable=False),
    Column("deadline", Float, nullable=True, index=True),
    Column("late_at", Float, nullable=True),
    Column("claimed_by", String(16), nullable=True),
    Column("claim_until", Float, nullable=True),
)


def migrate(url: str) -> None:
    """Bring the database at ``url`` to the newest schema by Alembic's ``upgrade head``,
    every migration in turn; an SQLite database already there is only checked
    (:func:`schema_is_current`). The server uses ``server/headschema.py``'s ``migrate``,
    which creates a new database at the head in one step and calls this for the rest."""
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
    config.set_main_option("script_location", str(Path(__file__).parent.parent / "migrations"))
    config.set_main_option("sqlalchemy.url", target.replace("%", "%%"))
    command.upgrade(config, "head")
