"""Play in the browser: ``candlebox serve`` starts a web app with a lobby, a page per game, live
updates over websockets, and every move stored in SQLite or PostgreSQL (see docs/server.md).

    >>> from candlebox.server import create_app, Settings
    >>> app = create_app(Settings(db="sqlite:///candlebox.sqlite3"))  # a file in this folder
"""

from __future__ import annotations

from importlib.util import find_spec
from typing import TYPE_CHECKING

from candlebox.server.config import Settings, default_db_url

if TYPE_CHECKING:  # FastAPI is imported only when the app is made: `candlebox` works without it
    from fastapi import FastAPI

__all__ = [
    "Settings",
    "bots_worker",
    "create_app",
    "default_db_url",
    "missing_packages",
    "reset_link",
    "serve",
]

REQUIRED = (
    "fastapi",
    "uvicorn",
    "sqlalchemy",
    "platformdirs",
    "alembic",
    "argon2",
    "webauthn",
    "aiosmtplib",
)


def missing_packages() -> list[str]:
    """The server's packages (the ``server`` extra) that are not installed."""
    return [name for name in REQUIRED if find_spec(name) is None]


def create_app(settings: Settings | None = None) -> FastAPI:
    # deferred, as below: the app needs the optional server extra (FastAPI, SQLAlchemy, uvicorn)
    from candlebox.server.app import create_app as _create_app

    return _create_app(settings)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    bot_delay: float | None = None,
    zombie_after: float | None = None,
    log_level: str = "info",
    settings: Settings | None = None,
    workers: int = 1,
    bot_workers: int | None = None,
    json_logs: bool | None = None,
    smtp: str | None = None,
    public_url: str | None = None,
) -> None:
    """Run the web app until interrupted (``settings``: the limits and the rest, see
    :class:`Settings`; the other arguments override it). ``workers`` above 1: that many processes on
    one port with bots in ``bot_workers`` worker processes (default 1), on PostgreSQL
    (docs/deploy.md). A ValueError names a setting that cannot work."""
    from candlebox.server import mail, processes  # deferred: the optional server extra

    database_url = processes.database_url  # the storage's, without a second deferred import
    settings = settings or Settings.from_env()  # every setting: CANDLEBOX_<NAME> (docs/server.md)
    if db is not None:
        settings.db = database_url(db)
    if bot_delay is not None:
        settings.bot_delay = bot_delay
    if zombie_after is not None:
        settings.zombie_after = zombie_after
    if json_logs is not None:
        settings.json_logs = json_logs
    if smtp is not None:
        settings.smtp_url = smtp
    if public_url is not None:
        settings.public_url = public_url
    mail.check(settings)
    if workers < 1:
        raise ValueError("--workers must be at least 1")
    if workers > 1 or bot_workers is not None:
        settings.bots = "workers"
    settings.db = database_url(settings.db)
    processes.check_shared(settings, workers)
    helpers = 1 if bot_workers is None else bot_workers
    if settings.bots == "inline" or (workers == 1 and helpers == 0):
        processes.serve_one(settings, host, port, log_level)
    else:
        processes.serve_many(settings, host, port, workers, helpers, log_level)


def reset_link(name: str, url: str, db: str | None = None) -> tuple[str, float]:
    """``candlebox accounts reset NAME``: a one-time link to set the account's password, on the
    site at ``url``, and when it stops working; a LookupError for an unknown name. ``db``: the
    server's database (default: ``CANDLEBOX_DB``, else the default file)."""
    from candlebox.server import accounts  # deferred: the optional server extra

    return accounts.reset_link(name, url, Settings.from_env(), db)


def bots_worker(
    db: str | None = None, log_level: str = "info", json_logs: bool | None = None
) -> None:
    """``candlebox bots-worker``: play the turns bots owe in the database, until interrupted."""
    from candlebox.server import processes  # deferred: the optional server extra

    processes.bots_worker(db, log_level, json_logs)
