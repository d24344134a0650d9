"""Presence across processes (issue 38): which process holds a socket of which seat.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "presence",
        sa.Column(
            "room_id",
            sa.Integer(),
            sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("process", sa.String(16), primary_key=True),
        sa.Column("seen_at", sa.Float(), nullable=False),
    )
    op.create_index("ix_presence_process", "presence", ["process"])


def downgrade() -> None:
    op.drop_index("ix_presence_process", "presence")
    op.drop_table("presence")
