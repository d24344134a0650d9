"""Sign-in throttles shared by every server process (issue 43).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "throttle",
        sa.Column("key", sa.String(80), primary_key=True),
        sa.Column("level", sa.Float(), nullable=False),
        sa.Column("stamp", sa.Float(), nullable=False),
    )
    op.create_index("ix_throttle_stamp", "throttle", ["stamp"])


def downgrade() -> None:
    op.drop_index("ix_throttle_stamp", "throttle")
    op.drop_table("throttle")
