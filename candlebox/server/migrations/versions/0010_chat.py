"""Table chat (issue 35): each game's messages, the reports kept for the operator, the operator's
bans and the authors a signed-in player muted. New tables only: every stored game stays as it was
(a game from before has no chat).

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "chat_messages",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.Column("author", sa.String(100), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("client", sa.String(64), nullable=False),
        sa.Column("hidden", sa.Boolean(), nullable=False),
    )
    op.create_index("chat_messages_game", "chat_messages", ["game_id", "id"])
    op.create_table(
        "chat_reports",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("message_id", sa.Integer(), sa.ForeignKey("chat_messages.id"), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("reporter", sa.String(100), nullable=False),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.UniqueConstraint("message_id", "reporter", name="chat_reports_once"),
    )
    op.create_table(
        "chat_bans",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("kind", sa.String(8), nullable=False),
        sa.Column("value", sa.String(64), nullable=False),
        sa.Column("reason", sa.String(200), nullable=True),
        sa.Column("at", sa.Float(), nullable=False),
        sa.UniqueConstraint("kind", "value", name="chat_bans_once"),
    )
    op.create_table(
        "chat_mutes",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("author", sa.String(100), nullable=False),
        sa.Column("at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("account_id", "author", name="chat_mutes_key"),
    )


def downgrade() -> None:
    op.drop_table("chat_mutes")
    op.drop_table("chat_bans")
    op.drop_table("chat_reports")
    op.drop_index("chat_messages_game", table_name="chat_messages")
    op.drop_table("chat_messages")
