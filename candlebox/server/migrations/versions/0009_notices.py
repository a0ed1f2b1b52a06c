"""Turn-based games and notices (issue 35): an account's notices, its preferences for mail and
pushes, the last "your turn" mail per game, browsers subscribed to Web Push and the pushes waiting
for them, the keys the server makes once (VAPID, unsubscribe links), and extra headers on mail
(List-Unsubscribe). New tables and one nullable column: nothing stored changes.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "notices",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("text", sa.String(200), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("read_at", sa.Float(), nullable=True),
    )
    op.create_index("notices_account", "notices", ["account_id", "read_at"])
    op.create_table(
        "notice_preferences",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), primary_key=True),
        sa.Column("turn_mail", sa.Boolean(), nullable=False),
        sa.Column("digest", sa.Boolean(), nullable=False),
        sa.Column("push", sa.Boolean(), nullable=False),
        sa.Column("digest_at", sa.Float(), nullable=False),
    )
    op.create_table(
        "turn_mail",
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("game_id", sa.String(32), sa.ForeignKey("games.id"), nullable=False),
        sa.Column("sent_at", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("account_id", "game_id", name="turn_mail_key"),
    )
    op.create_table(
        "push_subscriptions",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("endpoint", sa.String(1000), nullable=False),
        sa.Column("p256dh", sa.String(200), nullable=False),
        sa.Column("auth", sa.String(100), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.UniqueConstraint("endpoint", name="push_subscriptions_endpoint"),
    )
    op.create_index("push_subscriptions_account", "push_subscriptions", ["account_id"])
    op.create_table(
        "push_outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("subscription_id", sa.Integer(), nullable=False),
        sa.Column("payload", sa.Text(), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("tries", sa.Integer(), nullable=False),
        sa.Column("next_try", sa.Float(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("last_error", sa.String(200), nullable=True),
    )
    op.create_index("push_outbox_due", "push_outbox", ["status", "next_try"])
    op.create_table(
        "server_keys",
        sa.Column("name", sa.String(32), primary_key=True),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
    )
    op.add_column("outbox", sa.Column("headers", sa.Text(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as batch:  # SQLite drops a column by copying the table
        batch.drop_column("headers")
    op.drop_table("server_keys")
    op.drop_index("push_outbox_due", table_name="push_outbox")
    op.drop_table("push_outbox")
    op.drop_index("push_subscriptions_account", table_name="push_subscriptions")
    op.drop_table("push_subscriptions")
    op.drop_table("turn_mail")
    op.drop_table("notice_preferences")
    op.drop_index("notices_account", table_name="notices")
    op.drop_table("notices")
