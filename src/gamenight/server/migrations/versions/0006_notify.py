"""Notifications (issue 44): subscriptions, the outbox, the server's VAPID key.

``notify_subs`` (where a player is told), ``notify_outbox`` (one row per notification,
made from committed ``turns`` rows, sent once) and ``notify_keys`` (the Web Push key
pair, made once). server/notify/tables.py holds the same tables.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notify_subs",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=True,
        ),
        sa.Column(
            "room_id", sa.Integer(), sa.ForeignKey("rooms.id", ondelete="CASCADE"), nullable=True
        ),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("channel", sa.String(8), nullable=False),
        sa.Column("target", sa.Text(), nullable=False),
        sa.Column("secret", sa.String(64), nullable=False, server_default=""),
        sa.Column("lang", sa.String(8), nullable=False, server_default="en"),
        sa.Column("unsub_hash", sa.String(64), nullable=False, unique=True),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_notify_subs_account_id", "notify_subs", ["account_id"])
    op.create_index("ix_notify_subs_room_id", "notify_subs", ["room_id"])
    op.create_table(
        "notify_outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("key", sa.String(200), nullable=False, unique=True),
        sa.Column(
            "sub_id",
            sa.Integer(),
            sa.ForeignKey("notify_subs.id", ondelete="CASCADE"),
            nullable=False,
        ),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("state", sa.String(8), nullable=False),
        sa.Column("due_at", sa.Float(), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("claimed_by", sa.String(16), nullable=True),
        sa.Column("claim_until", sa.Float(), nullable=True),
        sa.Column("sent_at", sa.Float(), nullable=True),
        sa.Column("error", sa.String(300), nullable=False, server_default=""),
        sa.Column("unsub_hash", sa.String(64), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_notify_outbox_unsub_hash", "notify_outbox", ["unsub_hash"])
    op.create_index("ix_notify_outbox_sub_id", "notify_outbox", ["sub_id"])
    op.create_index("ix_notify_outbox_state", "notify_outbox", ["state"])
    op.create_index("ix_notify_outbox_due_at", "notify_outbox", ["due_at"])
    op.create_table(
        "notify_keys",
        sa.Column("name", sa.String(40), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("notify_keys")
    op.drop_index("ix_notify_outbox_unsub_hash", "notify_outbox")
    op.drop_index("ix_notify_outbox_due_at", "notify_outbox")
    op.drop_index("ix_notify_outbox_state", "notify_outbox")
    op.drop_index("ix_notify_outbox_sub_id", "notify_outbox")
    op.drop_table("notify_outbox")
    op.drop_index("ix_notify_subs_room_id", "notify_subs")
    op.drop_index("ix_notify_subs_account_id", "notify_subs")
    op.drop_table("notify_subs")
