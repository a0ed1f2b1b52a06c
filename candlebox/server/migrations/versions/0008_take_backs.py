"""Take-backs (issue 35): a seat's request to take back its last moves while the other players
answer it. A new table only: every stored game stays as it was.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "take_backs",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("at_move", sa.Integer(), nullable=False),
        sa.Column("moves", sa.Integer(), nullable=False),
        sa.Column("accepted", sa.String(200), nullable=False),
        sa.Column("asked_at", sa.Float(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("take_backs")
