"""Records and ratings (issue 34): which tables are rated, which games' ends were counted, and each
account's rating and record per game. New tables only: every stored game and seat stays as it was
(a game from before is not rated).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-06
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
        "rated_games",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
    )
    op.create_table(
        "counted_games",
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), primary_key=True),
        sa.Column("at", sa.Float(), nullable=False),
    )
    op.create_table(
        "ratings",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("mu", sa.Float(), nullable=False),
        sa.Column("sigma", sa.Float(), nullable=False),
        sa.Column("rated", sa.Integer(), nullable=False),
        sa.Column("played", sa.Integer(), nullable=False),
        sa.Column("won", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("account_id", "game", name="ratings_account_game"),
    )
    op.create_index("ratings_game", "ratings", ["game"])


def downgrade() -> None:
    op.drop_index("ratings_game", table_name="ratings")
    op.drop_table("ratings")
    op.drop_table("counted_games")
    op.drop_table("rated_games")
