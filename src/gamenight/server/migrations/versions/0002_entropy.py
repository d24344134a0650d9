"""Player entropy (issue 24): a room's entropy scheme, each seat's contribution.

Rooms created before it keep "server": their seed is their dice seed, as committed.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("rooms") as rooms:
        rooms.add_column(
            sa.Column("entropy", sa.String(16), nullable=False, server_default="server")
        )
    with op.batch_alter_table("seats") as seats:
        seats.add_column(sa.Column("contribution", sa.String(800), nullable=True))
        seats.add_column(sa.Column("contributed_by", sa.String(8), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("contributed_by")
        seats.drop_column("contribution")
    with op.batch_alter_table("rooms") as rooms:
        rooms.drop_column("entropy")
