"""The notifications' tables (issue 44), on the server's one schema (``storage/schema.py``'s
``METADATA``; the migration ``0006_notify`` creates the same, as tests/server/test_storage.py
checks).

* ``notify_subs`` — where a player is told: an account's (``account_id``) or a guest seat's
  (``room_id`` and ``seat``) channel: ``email`` (an address), ``push`` (the browser's
  PushSubscription JSON) or ``webhook`` (a URL, and the HMAC secret its posts are signed
  with: the server needs it whole to sign, so it is kept, and shown once). ``unsub_hash``:
  the hash of the token of its unsubscribe link.
* ``notify_outbox`` — one row per notification to send, made by the sweep from the
  committed ``turns`` rows only; ``key`` is unique, so a sweep run twice (or by two
  processes) makes it once. A delivery claims due rows with a conditional UPDATE
  (``claimed_by``/``claim_until``) and marks them ``sent`` after the channel took them.
* ``notify_keys`` — the server's own keys: the VAPID key pair of Web Push, made once.
"""

from __future__ import annotations

from sqlalchemy import Column, Float, ForeignKey, Integer, String, Text
from sqlalchemy import Table as SqlTable

from gamenight.server.storage.schema import METADATA

NOTIFY_SUBS = SqlTable(
    "notify_subs",
    METADATA,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column(
        "account_id",
        Integer,
        ForeignKey("accounts.id", ondelete="CASCADE"),
        nullable=True,
        index=True,
    ),
    Column(
        "room_id", Integer, ForeignKey("rooms.id", ondelete="CASCADE"), nullable=True, index=True
    ),
    Column("seat", Integer, nullable=True),
    Column("channel", String(8), nullable=False),  # email | push | webhook
    Column("target", Text, nullable=False),  # an address, a subscription's JSON, a URL
    Column("secret", String(64), nullable=False, server_default=""),  # a webhook's HMAC key
    Column("lang", String(8), nullable=False, server_default="en"),
    Column("unsub_hash", String(64), nullable=False, unique=True),
    Column("created_at", Float, nullable=False),
)

NOTIFY_OUTBOX = SqlTable(
    "notify_outbox",
    METADATA,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("key", String(200), nullable=False, unique=True),  # idempotence: one per event
    Column(
        "sub_id",
        Integer,
        ForeignKey("notify_subs.id", ondelete="CASCADE"),
        nullable=False,
        index=True,
    ),
    Column("kind", String(8), nullable=False),  # turn | remind | late
    Column("room_id", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("seq", Integer, nullable=False),  # the decision's (turns.seq)
    Column("payload", Text, nullable=False),  # JSON: what the message says (room, game, ...)
    Column("state", String(8), nullable=False, index=True),  # pending | sent | stale | failed
    Column("due_at", Float, nullable=False, index=True),
    Column("attempts", Integer, nullable=False, server_default="0"),
    Column("claimed_by", String(16), nullable=True),
    Column("claim_until", Float, nullable=True),
    Column("sent_at", Float, nullable=True),
    Column("error", String(300), nullable=False, server_default=""),
    # the hash of the unsubscribe token in the message that carried this row: every
    # message's link keeps working (tokens are stored hashed, so each message has its own)
    Column("unsub_hash", String(64), nullable=True, index=True),
    Column("created_at", Float, nullable=False),
)

NOTIFY_KEYS = SqlTable(
    "notify_keys",
    METADATA,
    Column("name", String(40), primary_key=True),  # vapid
    Column("value", Text, nullable=False),  # the private key, PEM
    Column("created_at", Float, nullable=False),
)
