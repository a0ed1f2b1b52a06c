"""Quick play (issue 34): the queue's tickets.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-06
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
        "queue_tickets",
        sa.Column("ticket_hash", sa.String(64), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("variant", sa.String(64), nullable=False),
        sa.Column("players", sa.Integer(), nullable=False),
        sa.Column("rated", sa.Boolean(), nullable=False),
        sa.Column("bots_after", sa.Float(), nullable=True),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("live_key", sa.String(255), nullable=True),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("seat_hash", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("polled_at", sa.Float(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.Column("game_id", sa.String(32), nullable=True),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("delivered", sa.Boolean(), nullable=False),
        sa.UniqueConstraint("live_key", name="queue_tickets_live_key"),
    )
    op.create_index("queue_tickets_status", "queue_tickets", ["status"])


def downgrade() -> None:
    op.drop_index("queue_tickets_status", table_name="queue_tickets")
    op.drop_table("queue_tickets")
