"""Running the server as several processes on one machine: ``candlebox serve --workers N`` starts N
web processes that share one port (``SO_REUSEPORT``: the kernel spreads new connections over them)
and M bot workers, all on one PostgreSQL database. Each web process keeps its own limits (connections,
request and message rates: per process, so per client they add up to N times the setting; a reverse
proxy in front sets the global ones, docs/deploy.md). Also: JSON log lines (``--json-logs``)."""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import json
import logging
import multiprocessing
import signal
import socket
import sys
import time
from dataclasses import replace
from typing import Any

import uvicorn

from candlebox.server.app import create_app
from candlebox.server.config import Settings
from candlebox.server.limits import uvicorn_options
from candlebox.server.storage import database_url
from candlebox.server.worker import BotWorker

log = logging.getLogger("candlebox.server")


class JsonLines(logging.Formatter):
    """One JSON object per line: time, level, logger, message (and the traceback, if any)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=False)


def setup_logging(settings: Settings, level: str = "info") -> dict[str, Any] | None:
    """Configure the root logger (JSON lines when asked); returns uvicorn's ``log_config``."""
    if not settings.json_logs:
        logging.basicConfig(level=level.upper(), format="%(levelname)s: %(name)s: %(message)s")
        return None
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(JsonLines())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):  # through the root's handler
        logging.getLogger(name).handlers[:] = []
        logging.getLogger(name).propagate = True
    return {"version": 1, "disable_existing_loggers": False}


def check_shared(settings: Settings, workers: int) -> None:
    """Several processes need PostgreSQL: SQLite has no way to tell the others of a move."""
    shared = workers > 1 or settings.bots == "workers"
    if shared and not settings.db.startswith("postgresql"):
        raise ValueError(
            "several processes (--workers above 1, or bots in workers) need a PostgreSQL "
            "database: --db postgresql://user@host/name"
        )
    if settings.bots not in ("inline", "workers"):
        raise ValueError(f"bots must be 'inline' or 'workers', not {settings.bots!r}")


def listening_socket(host: str, port: int, reuse_port: bool) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    if reuse_port:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    sock.bind((host, port))
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def serve_one(
    settings: Settings, host: str, port: int, log_level: str, reuse_port: bool = False
) -> None:
    """One web process (the whole of ``candlebox serve`` when there is one)."""

    log_config = setup_logging(settings, log_level)
    extra: dict[str, Any] = {"log_config": log_config} if settings.json_logs else {}
    config = uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        log_level=log_level,
        access_log=False,
        **uvicorn_options(settings),
        proxy_headers=False,  # the client's address comes from X-Forwarded-For only when the
        # peer is one of Settings.trusted_proxies (candlebox.server.clients), never by default
        **extra,
    )
    server = uvicorn.Server(config)
    if reuse_port:
        server.run(sockets=[listening_socket(host, port, reuse_port=True)])
    else:
        server.run()


def worker_one(settings: Settings, log_level: str = "info") -> None:
    """One bot worker process (``candlebox bots-worker``)."""

    setup_logging(settings, log_level)
    worker = BotWorker(replace(settings, bots="workers"))
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(worker.run())


def _die_with_parent() -> None:
    """Linux: this child gets SIGTERM when its parent dies, even by SIGKILL (no orphan left behind
    holding the port or claiming bot turns); elsewhere the parent's own clean-up has to do."""
    if not sys.platform.startswith("linux"):
        return

    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _child(target: Any, *args: Any) -> None:
    _die_with_parent()
    target(*args)


def serve_many(
    settings: Settings, host: str, port: int, workers: int, bot_workers: int, log_level: str
) -> None:
    """``workers`` web processes on one port and ``bot_workers`` bot workers, until interrupted
    (or until one of them dies: then all stop, for a supervisor to restart)."""
    context = multiprocessing.get_context("spawn")
    children = [
        context.Process(
            target=_child,
            args=(serve_one, settings, host, port, log_level, workers > 1),
            name=f"candlebox-web-{n}",
        )
        for n in range(workers)
    ]
    children += [
        context.Process(
            target=_child, args=(worker_one, settings, log_level), name=f"candlebox-bots-{n}"
        )
        for n in range(bot_workers)
    ]
    for child in children:
        child.start()
    # SIGTERM (a supervisor, `kill`) stops the children too, never leaving them orphaned
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        while all(child.is_alive() for child in children):
            time.sleep(0.5)
        gone = [child.name for child in children if not child.is_alive()]
        log.error("%s stopped; stopping the others", ", ".join(gone))
    except KeyboardInterrupt:
        pass
    finally:
        for child in children:
            if child.is_alive():
                child.terminate()
        for child in children:
            child.join(timeout=10)


def bots_worker(db: str | None, log_level: str, json_logs: bool | None) -> None:
    """``candlebox bots-worker``: the settings from the environment, ``db`` and ``json_logs``
    overriding them; then play the turns bots owe in the database until interrupted."""
    settings = Settings.from_env()
    if db is not None:
        settings.db = database_url(db)
    if json_logs is not None:
        settings.json_logs = json_logs
    settings.db = database_url(settings.db)
    settings.bots = "workers"
    worker_one(settings, log_level)
