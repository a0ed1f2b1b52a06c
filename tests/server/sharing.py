"""Helpers of the tests of two services on one database, in one test process, as two processes would
be (tests/server/test_shared.py, test_take_backs.py, test_review_queue.py)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from candlebox.server import Settings, bodies
from candlebox.server.service import GameService


def run(coro: Any) -> None:
    """``asyncio.run`` in a thread of its own: an earlier browser test in this worker process may hold
    Playwright's event loop open on the main thread, where ``asyncio.run`` would refuse."""
    with ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, coro).result()


def settings(tmp_path: Path, **more: Any) -> Settings:
    values: dict[str, Any] = {"bot_delay": 0.0, "requests_per_second": 0, "sweep_every": 0}
    values.update(more)
    return Settings(db=f"sqlite:///{tmp_path / 'shared.sqlite3'}", **values)


def spec(seats: list[dict[str, Any]], **more: Any) -> bodies.CreateSpec:
    body = {"game": "candle-quest", "seats": seats, "you": 0, "seed": 5, "practice": True, **more}
    return bodies.convert(body, bodies.CreateSpec, bodies.CREATE_CODES)


@asynccontextmanager
async def two_services(tmp_path: Path) -> AsyncIterator[tuple[GameService, GameService]]:
    """Two started services on one SQLite database, each told the database is shared (as on
    PostgreSQL; SQLite has no listener), stopped at the end."""
    a, b = GameService(settings(tmp_path)), GameService(settings(tmp_path))
    await a.start()
    await b.start()
    a.registry.shared = b.registry.shared = True
    try:
        yield a, b
    finally:
        await a.stop()
        await b.stop()


async def claimed_across(a: GameService, b: GameService) -> tuple[str, list[str]]:
    """A table of two people made through ``a`` whose seat 1 is claimed through ``b``: (game id,
    the seats' tokens). ``a``'s copy knew nothing of the claim: it has caught up for the token."""
    made = await a.create(spec([{"kind": "human"}, {"kind": "human"}]))
    game = made["id"]
    claimed = await b.seating.claim(game, 1, bodies.ClaimSpec(name="Bo", invite=None))
    tokens = [made["token"], claimed]
    assert await a.player(game, tokens[1]) == 1
    return game, tokens
