"""Accounts (issue 43): optional accounts, their sessions and passkeys, the seats they
own, and the results of rated rooms (ratings are computed from them).

Every existing room is kept: the seats gain a nullable owner, nothing else changes.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(80), nullable=False),
        sa.Column("name_fold", sa.String(400), nullable=False, unique=True),
        sa.Column("name_skeleton", sa.String(400), nullable=False, unique=True),
        sa.Column("password_hash", sa.Text(), nullable=True),
        sa.Column("public", sa.Boolean(), nullable=False, server_default=sa.true()),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("label", sa.String(120), nullable=False, server_default=""),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("seen_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "passkeys",
        sa.Column("credential_id", sa.String(400), primary_key=True),
        sa.Column(
            "account_id",
            sa.Integer(),
            sa.ForeignKey("accounts.id", ondelete="CASCADE"),
            nullable=False,
            index=True,
        ),
        sa.Column("public_key", sa.Text(), nullable=False),
        sa.Column("sign_count", sa.Integer(), nullable=False, server_default="0"),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "challenges",
        sa.Column("handle_hash", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("challenge", sa.String(200), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False, server_default=""),
        sa.Column("expires_at", sa.Float(), nullable=False, index=True),
    )
    op.create_table(
        "rated_results",
        sa.Column("room_id", sa.Integer(), primary_key=True),
        sa.Column("pool", sa.String(200), nullable=False, index=True),
        sa.Column("finished_at", sa.Float(), nullable=False),
        sa.Column("places", sa.Text(), nullable=False),  # JSON: one entry a seat
    )
    op.create_table(
        "bot_ratings",
        sa.Column("pool", sa.String(200), primary_key=True),
        sa.Column("bot", sa.String(40), primary_key=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
    )
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("account_id", sa.Integer(), nullable=True))
    op.create_index("ix_seats_account_id", "seats", ["account_id"])


def downgrade() -> None:
    op.drop_index("ix_seats_account_id", "seats")
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("account_id")
    for table in ("bot_ratings", "rated_results", "challenges", "passkeys", "sessions"):
        op.drop_table(table)
    op.drop_table("accounts")
