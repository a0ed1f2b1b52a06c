"""The operator's side of the table chat (``candlebox moderation``; docs/server.md, "Table chat"):
the reported messages, hiding one, and banning an account or a client address from chat. Each
works on the server's database directly, so it needs no running server; a hide notifies the
PostgreSQL listeners at once (a lone SQLite server drops the message from its pages within
``Settings.chat_fresh`` seconds)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from sqlalchemy import Engine, String, cast, delete, func, insert, select, update

from candlebox.server.accounts import name_key
from candlebox.server.chat import CHAT_NOTE
from candlebox.server.config import Settings
from candlebox.server.storage import (
    Storage,
    accounts,
    chat_bans,
    chat_messages,
    chat_reports,
    database_url,
)

BAN_KINDS = ("account", "client")


@dataclass(frozen=True)
class Reported:
    """A reported message: what it says, who wrote it, and its reports."""

    message: int
    game_id: str
    seat: int | None  # None: the spectators' channel
    name: str
    text: str
    at: float
    account: str | None  # the writer's account name (None: a guest)
    client: str  # the writer's client address
    hidden: bool
    reports: int
    reasons: tuple[str, ...]


@dataclass(frozen=True)
class Ban:
    kind: str  # "account" or "client"
    value: str  # the account's name, or the address
    reason: str | None
    at: float


@contextmanager
def opened(db: str | None) -> Iterator[Engine]:
    """The server's database (``db``, else ``CANDLEBOX_DB``, else the default file)."""
    storage = Storage(database_url(db or Settings.from_env().db))
    try:
        yield storage.engine
    finally:
        storage.close()


def reports(db: str | None, include_hidden: bool = False) -> list[Reported]:
    """The reported messages, the most reported first (hidden ones only with ``include_hidden``)."""
    count = func.count(chat_reports.c.id).label("reports")
    query = (
        select(chat_messages, count, accounts.c.name.label("account_name"))
        .join(chat_reports, chat_reports.c.message_id == chat_messages.c.id)
        .outerjoin(accounts, accounts.c.id == chat_messages.c.account_id)
        .group_by(chat_messages.c.id, accounts.c.name)
        .order_by(count.desc(), chat_messages.c.id)
    )
    if not include_hidden:
        query = query.where(chat_messages.c.hidden.is_(False))
    with opened(db) as engine, engine.connect() as conn:
        rows = conn.execute(query).all()
        found = []
        for row in rows:
            reasons = conn.execute(
                select(chat_reports.c.reason)
                .where(chat_reports.c.message_id == row.id, chat_reports.c.reason.is_not(None))
                .order_by(chat_reports.c.id)
            )
            found.append(
                Reported(
                    message=row.id,
                    game_id=row.game_id,
                    seat=row.seat,
                    name=row.name,
                    text=row.text,
                    at=row.at,
                    account=row.account_name,
                    client=row.client,
                    hidden=bool(row.hidden),
                    reports=int(row.reports),
                    reasons=tuple(str(r.reason) for r in reasons),
                )
            )
        return found


def hide(db: str | None, message: int, hidden: bool = True) -> str:
    """Hide a message from every reader (or show it again); the game's id. A LookupError for an
    unknown message."""
    with opened(db) as engine, engine.begin() as conn:
        row = conn.execute(
            select(chat_messages.c.game_id).where(chat_messages.c.id == message)
        ).first()
        if row is None:
            raise LookupError(f"there is no chat message {message}")
        conn.execute(
            update(chat_messages).where(chat_messages.c.id == message).values(hidden=hidden)
        )
        Storage.notify(conn, row.game_id, CHAT_NOTE)
        return str(row.game_id)


def _ban_key(engine: Engine, kind: str, value: str) -> str:
    """What a ban stores: an account's id (a LookupError for an unknown name) or the address."""
    if kind not in BAN_KINDS:
        raise LookupError(f"a ban is of an account or a client, not {kind!r}")
    if kind == "client":
        if not value.strip() or len(value) > 64:
            raise LookupError(f"{value!r} is not a client address")
        return value.strip()
    with engine.connect() as conn:
        row = conn.execute(select(accounts.c.id).where(accounts.c.name_key == name_key(value)))
        found = row.first()
    if found is None:
        raise LookupError(f"no account is named {value!r}")
    return str(found.id)


def ban(db: str | None, kind: str, value: str, reason: str | None = None) -> bool:
    """Ban an account (by name) or a client address from chat; False when it already was."""
    with opened(db) as engine:
        key = _ban_key(engine, kind, value)
        with engine.begin() as conn:
            there = conn.execute(
                select(chat_bans.c.id).where(chat_bans.c.kind == kind, chat_bans.c.value == key)
            ).first()
            if there is not None:
                return False
            conn.execute(
                insert(chat_bans).values(kind=kind, value=key, reason=reason, at=time.time())
            )
        return True


def unban(db: str | None, kind: str, value: str) -> bool:
    """Lift a ban; False when there was none."""
    with opened(db) as engine:
        key = _ban_key(engine, kind, value)
        with engine.begin() as conn:
            done = conn.execute(
                delete(chat_bans).where(chat_bans.c.kind == kind, chat_bans.c.value == key)
            )
            return bool(done.rowcount)


def bans(db: str | None) -> list[Ban]:
    """Every ban, oldest first, accounts by name."""
    same = (chat_bans.c.kind == "account") & (cast(accounts.c.id, String) == chat_bans.c.value)
    query = (
        select(chat_bans, accounts.c.name.label("account_name"))
        .outerjoin(accounts, same)
        .order_by(chat_bans.c.id)
    )
    with opened(db) as engine, engine.connect() as conn:
        rows = conn.execute(query).all()
    return [
        Ban(
            row.kind,
            (row.account_name or f"account {row.value}") if row.kind == "account" else row.value,
            row.reason,
            row.at,
        )
        for row in rows
    ]
