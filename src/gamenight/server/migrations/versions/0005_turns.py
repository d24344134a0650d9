"""Turn-based play (issue 44): the decisions waiting, with their clocks, in the database.

A turn-based room lives in the database between moves: who is to act since when, and
when their clock runs out, are rows of ``turns`` (one per seat to act), so the "your
turn" list, the clock's sweep and the notifications read them without loading a room.
A seat's time bank is ``seats.bank``.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "turns",
        sa.Column(
            "room_id",
            sa.Integer(),
            sa.ForeignKey("rooms.id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("seat", sa.Integer(), primary_key=True),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("since", sa.Float(), nullable=False),
        sa.Column("deadline", sa.Float(), nullable=True),
        sa.Column("late_at", sa.Float(), nullable=True),
        sa.Column("claimed_by", sa.String(16), nullable=True),
        sa.Column("claim_until", sa.Float(), nullable=True),
    )
    op.create_index("ix_turns_deadline", "turns", ["deadline"])
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("bank", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("bank")
    op.drop_index("ix_turns_deadline", "turns")
    op.drop_table("turns")
