"""Clocks (issue 35): a table's clock and its watcher's lease, and each seat's time. New tables
only: every stored game stays as it was (a game from before has no clock).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-06
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
        "game_clocks",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("initial", sa.Float(), nullable=False),
        sa.Column("increment", sa.Float(), nullable=False),
        sa.Column("lease_until", sa.Float(), nullable=False),
        sa.Column("watcher", sa.String(64), nullable=True),
    )
    op.create_index("game_clocks_lease", "game_clocks", ["lease_until"])
    op.create_table(
        "seat_clocks",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("remaining", sa.Float(), nullable=False),
        sa.Column("since", sa.Float(), nullable=True),
        sa.Column("out_of_time", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "seat", name="seat_clocks_game_seat"),
    )


def downgrade() -> None:
    op.drop_table("seat_clocks")
    op.drop_index("game_clocks_lease", table_name="game_clocks")
    op.drop_table("game_clocks")
