"""The schema before migrations: every table the server created with ``create_all`` until then.

A database written before migrations existed has these tables (or, if older still, some of them:
tables were added one at a time, each created when missing) and no ``alembic_version``. This revision
creates each table only when it is missing, so a fresh database and an old one both leave it with
exactly this schema; the definitions are a frozen copy, not candlebox/server/storage.py's tables,
which later revisions change.

Revision ID: 0001
Revises:
Create Date: 2026-12-06
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op
from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
)

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def _tables() -> sa.MetaData:
    baseline = sa.MetaData()
    Table(
        "games",
        baseline,
        Column("id", String(32), primary_key=True),
        Column("game", String(64), nullable=False),
        Column("variant", String(64), nullable=False),
        Column("players", Integer, nullable=False),
        Column("options", Text, nullable=False),
        Column("seed", BigInteger, nullable=False),
        Column("public", Boolean, nullable=False),
        Column("bot_delay", Float, nullable=False),
        Column("status", String(16), nullable=False),
        Column("created_at", Float, nullable=False),
        Column("updated_at", Float, nullable=False),
        Column("result", Text, nullable=True),
    )
    Table(
        "seats",
        baseline,
        Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
        Column("seat", Integer, nullable=False),
        Column("kind", String(8), nullable=False),
        Column("bot", String(64), nullable=True),
        Column("params", Text, nullable=True),
        Column("name", String(64), nullable=False),
        Column("token_hash", String(64), nullable=True),
        Column("invite_hash", String(64), nullable=True),
        PrimaryKeyConstraint("game_id", "seat", name="seats_game_seat"),
    )
    Table(
        "moves",
        baseline,
        Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
        Column("number", Integer, nullable=False),
        Column("seat", Integer, nullable=False),
        Column("action", Text, nullable=False),
        Column("at", Float, nullable=False),
        PrimaryKeyConstraint("game_id", "number", name="moves_game_number"),
    )
    Table(
        "fairness",
        baseline,
        Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
        Column("practice", Boolean, nullable=False),
        Column("seed_chosen", Boolean, nullable=False),
        Column("nonce", String(64), nullable=False),
        Column("commitment", String(64), nullable=False),
    )
    Table(
        "bot_tables",
        baseline,
        Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
        Column("owner_hash", String(64), nullable=True),
        Column("stop_at", Float, nullable=True),
    )
    Table(
        "bot_turns",
        baseline,
        Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
        Column("number", Integer, nullable=False),
        Column("lease_until", Float, nullable=False),
        Column("worker", String(64), nullable=True),
    )
    Table(
        "coaching",
        baseline,
        Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
        Column("hints", Boolean, nullable=False),
    )
    Table(
        "reviews",
        baseline,
        Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
        Column("seat", Integer, nullable=False),
        Column("result", Text, nullable=False),
        Column("at", Float, nullable=False),
        PrimaryKeyConstraint("game_id", "seat", name="reviews_game_seat"),
    )
    Table(
        "stand_ins",
        baseline,
        Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
        Column("seat", Integer, nullable=False),
        Column("from_move", Integer, nullable=False),
        Column("until_move", Integer, nullable=True),
        PrimaryKeyConstraint("game_id", "seat", "from_move", name="stand_ins_key"),
    )
    Table(
        "hints_given",
        baseline,
        Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
        Column("seat", Integer, nullable=False),
        Column("move", Integer, nullable=False),
        Column("at", Float, nullable=False),
        PrimaryKeyConstraint("game_id", "seat", "move", name="hints_given_key"),
    )
    Table(
        "review_jobs",
        baseline,
        Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
        Column("seat", Integer, nullable=False),
        Column("total", Integer, nullable=False),
        Column("decisions", Text, nullable=False),
        Column("seconds", Float, nullable=False),
        Column("asked_at", Float, nullable=False),
        Column("lease_until", Float, nullable=False),
        Column("worker", String(64), nullable=True),
        PrimaryKeyConstraint("game_id", "seat", name="review_jobs_game_seat"),
    )
    Table(
        "presence",
        baseline,
        Column("game_id", String(32), ForeignKey("games.id"), nullable=False),
        Column("seat", Integer, nullable=False),
        Column("process", String(64), nullable=False),
        Column("connected", Boolean, nullable=False),
        Column("seen", Float, nullable=False),
        Column("expires", Float, nullable=False),
        PrimaryKeyConstraint("game_id", "seat", "process", name="presence_game_seat_process"),
    )
    return baseline


def upgrade() -> None:
    _tables().create_all(op.get_bind(), checkfirst=True)


def downgrade() -> None:
    _tables().drop_all(op.get_bind(), checkfirst=True)
