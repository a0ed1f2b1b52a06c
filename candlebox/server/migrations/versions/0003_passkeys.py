"""Passkeys and e-mail (issue 34): an account's passkeys, WebAuthn ceremonies under way, e-mail
verification links, the mail outbox, and when an account's address was confirmed.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "passkeys",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("credential_id", sa.String(1400), nullable=False),
        sa.Column("user_handle", sa.String(128), nullable=False),
        sa.Column("public_key", sa.Text(), nullable=False),
        sa.Column("sign_count", sa.BigInteger(), nullable=False),
        sa.Column("name", sa.String(60), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("used_at", sa.Float(), nullable=True),
        sa.UniqueConstraint("credential_id", name="passkeys_credential"),
    )
    op.create_index("passkeys_account", "passkeys", ["account_id"])
    op.create_table(
        "passkey_challenges",
        sa.Column("flow_hash", sa.String(64), primary_key=True),
        sa.Column("purpose", sa.String(16), nullable=False),
        sa.Column("challenge", sa.String(128), nullable=False),
        sa.Column("session_hash", sa.String(64), nullable=True),
        sa.Column("user_handle", sa.String(128), nullable=True),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("client", sa.String(128), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    op.create_index("passkey_challenges_client", "passkey_challenges", ["client"])
    op.create_table(
        "email_verifications",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("account_id", sa.Integer(), sa.ForeignKey("accounts.id"), nullable=False),
        sa.Column("email", sa.String(254), nullable=False),
        sa.Column("expires_at", sa.Float(), nullable=False),
    )
    op.create_index("email_verifications_account", "email_verifications", ["account_id"])
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("account_id", sa.Integer(), nullable=True),
        sa.Column("recipient", sa.String(254), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("body", sa.Text(), nullable=False),
        sa.Column("status", sa.String(8), nullable=False),
        sa.Column("tries", sa.Integer(), nullable=False),
        sa.Column("next_try", sa.Float(), nullable=False),
        sa.Column("created_at", sa.Float(), nullable=False),
        sa.Column("sent_at", sa.Float(), nullable=True),
        sa.Column("last_error", sa.String(200), nullable=True),
    )
    op.create_index("outbox_due", "outbox", ["status", "next_try"])
    # a plain ADD COLUMN, which SQLite does in place
    op.add_column("accounts", sa.Column("email_verified_at", sa.Float(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("accounts") as accounts:
        accounts.drop_column("email_verified_at")
    op.drop_index("outbox_due", table_name="outbox")
    op.drop_table("outbox")
    op.drop_index("email_verifications_account", table_name="email_verifications")
    op.drop_table("email_verifications")
    op.drop_index("passkey_challenges_client", table_name="passkey_challenges")
    op.drop_table("passkey_challenges")
    op.drop_index("passkeys_account", table_name="passkeys")
    op.drop_table("passkeys")
