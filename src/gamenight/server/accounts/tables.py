"""The accounts' tables, on the server's one schema (``server/db.py``'s ``METADATA``; the
migration ``0004_accounts`` creates the same, as tests/server/test_storage.py checks)."""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, ForeignKey, Integer, String, Text, true
from sqlalchemy import Table as SqlTable

from gamenight.server.storage.schema import METADATA

ACCOUNTS = SqlTable(
    "accounts",
    METADATA,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("name", String(80), nullable=False),  # as typed (core/text.py's policy)
    # core/confusables.py's name_keys: no two accounts share either
    Column("name_fold", String(400), nullable=False, unique=True),
    Column("name_skeleton", String(400), nullable=False, unique=True),
    Column("password_hash", Text, nullable=True),  # Argon2id; none: passkeys only
    Column("public", Boolean, nullable=False, server_default=true()),
    Column("created_at", Float, nullable=False),
)


def _owner() -> Column[int]:
    return Column(
        "account_id",
        Integer,
        ForeignKey("accounts.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    )


SESSIONS = SqlTable(
    "sessions",
    METADATA,
    Column("token_hash", String(64), primary_key=True),  # the cookie's token, hashed
    _owner(),
    Column("label", String(120), nullable=False, server_default=""),
    Column("created_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),
)

PASSKEYS = SqlTable(
    "passkeys",
    METADATA,
    Column("credential_id", String(400), primary_key=True),  # base64url
    _owner(),
    Column("public_key", Text, nullable=False),  # base64url COSE key
    Column("sign_count", Integer, nullable=False, server_default="0"),
    Column("created_at", Float, nullable=False),
)

# A WebAuthn ceremony under way: the challenge the browser must sign, found by the hash of a
# random handle the browser holds (a cookie), so any process of a cluster can finish it.
CHALLENGES = SqlTable(
    "challenges",
    METADATA,
    Column("handle_hash", String(64), primary_key=True),
    Column("purpose", String(16), nullable=False),  # register | signin
    Column("challenge", String(200), nullable=False),  # base64url
    Column("payload", Text, nullable=False, server_default=""),  # JSON: the name to register
    Column("expires_at", Float, nullable=False, index=True),
)

# One row per finished rated room, written once (the primary key): ratings are computed
# from these rows alone (server/accounts/ratings.py), so they are order-free and a row
# written twice, or a restart mid-way, changes nothing.
RATED_RESULTS = SqlTable(
    "rated_results",
    METADATA,
    Column("room_id", Integer, primary_key=True),
    Column("pool", String(200), nullable=False, index=True),  # game and variant
    Column("finished_at", Float, nullable=False),
    Column("places", Text, nullable=False),  # JSON list, a seat each: {"who", "place"}
)

# The fixed ratings of bots, per pool: a room with a bot is rated only if the bot has one.
BOT_RATINGS = SqlTable(
    "bot_ratings",
    METADATA,
    Column("pool", String(200), primary_key=True),
    Column("bot", String(40), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
)

# Sign-in attempts' token buckets, one row per key, shared by every server process of a
# database (issue 43: a throttle per process let an attacker multiply it by the
# processes). The key is a hash: no client address or account name is stored.
THROTTLE = SqlTable(
    "throttle",
    METADATA,
    Column("key", String(80), primary_key=True),  # "kind:" + sha256 of the value
    Column("level", Float, nullable=False),  # attempts left (fractional: refills)
    Column("stamp", Float, nullable=False, index=True),  # wall time of the level
)
