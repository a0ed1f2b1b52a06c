"""Friends (issue 34): whom an account follows, and the seats an account was invited into by name.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-06
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
        "follows",
        sa.Column("follower_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("followed_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("follower_id", "followed_id", name="follows_key"),
    )
    op.create_index("follows_followed", "follows", ["followed_id"])
    op.create_table(
        "seat_invites",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("from_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("to_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.UniqueConstraint("game_id", "seat", "to_id", name="seat_invites_once"),
    )
    op.create_index("seat_invites_to", "seat_invites", ["to_id"])
    op.create_index("seat_invites_from", "seat_invites", ["from_id"])


def downgrade() -> None:
    op.drop_index("seat_invites_from", table_name="seat_invites")
    op.drop_index("seat_invites_to", table_name="seat_invites")
    op.drop_table("seat_invites")
    op.drop_index("follows_followed", table_name="follows")
    op.drop_table("follows")
