"""Accounts (issue 34): accounts, their sessions, password resets, failed sign-ins counted, and the
account a seat belongs to.

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "accounts",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("name", sa.String(20), nullable=False),
        sa.Column("name_key", sa.String(80), nullable=False),
        sa.Column("password_hash", sa.String(255), nullable=False),
        sa.Column("email", sa.String(254), nullable=True),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.UniqueConstraint("name_key", name="accounts_name_key"),
    )
    op.create_table(
        "account_sessions",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    op.create_index("account_sessions_account", "account_sessions", ["account_id"])
    op.create_table(
        "password_resets",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    op.create_index("password_resets_account", "password_resets", ["account_id"])
    op.create_table(
        "sign_in_failures",
        sa.Column("key", sa.String(128), primary_key=True),
        sa.Column("failures", sa.Integer(), nullable=False),
        sa.Column("since", sa.Float(), nullable=False),
    )
    # a plain ADD COLUMN (no foreign key), which SQLite does in place: no copy of the seats table
    op.add_column("seats", sa.Column("account_id", sa.Integer(), nullable=True))
    op.create_index("seats_account", "seats", ["account_id"])


def downgrade() -> None:
    op.drop_index("seats_account", table_name="seats")
    with op.batch_alter_table("seats") as seats:
        seats.drop_column("account_id")
    op.drop_table("sign_in_failures")
    op.drop_index("password_resets_account", table_name="password_resets")
    op.drop_table("password_resets")
    op.drop_index("account_sessions_account", table_name="account_sessions")
    op.drop_table("account_sessions")
    op.drop_table("accounts")
