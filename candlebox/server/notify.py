"""Moves made by other processes, heard through PostgreSQL's LISTEN/NOTIFY: one listening connection
per process (psycopg 3, async). A move's transaction notifies ``"GAME_ID NUMBER"`` (a seat change
``"GAME_ID seats"``) on commit; a process that holds that game catches up from the moves table and
broadcasts to its watchers. The payload is only a wake-up: what is sent comes from the tables, so a
notification lost while the connection was down costs nothing once every held game is caught up on
reconnecting."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from candlebox.server.live import LiveGame
from candlebox.server.registry import LiveGames
from candlebox.server.storage import CHANNEL

log = logging.getLogger("candlebox.server")
Heard = Callable[[str, str], None]  # game id, "NUMBER" or "seats"; "" and "" after a reconnection


def libpq_url(url: str) -> str:
    """psycopg's own URL from SQLAlchemy's (``postgresql+psycopg://`` → ``postgresql://``)."""
    scheme, rest = url.split("://", 1)
    return f"{scheme.split('+', 1)[0]}://{rest}"


class Listener:
    """LISTENs on the channel for as long as it runs, reconnecting after a failure (each
    reconnection is reported as ``heard("", "")``: anything may have been missed)."""

    def __init__(self, url: str, heard: Heard) -> None:
        self.url = libpq_url(url)
        self.heard = heard
        self.ready = asyncio.Event()  # set once LISTEN is in place (the tests wait for it)

    async def forever(self) -> None:
        import psycopg  # deferred: only PostgreSQL deployments need it

        delay = 0.5
        first = True
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self.ready.set()
                    if not first:
                        self.heard("", "")
                    first, delay = False, 0.5
                    async for note in conn.notifies():
                        game_id, _, what = note.payload.partition(" ")
                        self.heard(game_id, what)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database restarting, the network: listen again
                self.ready.clear()
                log.warning("listening for other processes' moves failed (%s); retrying", exc)
                await asyncio.sleep(delay)
                delay = min(delay * 2, 10.0)


class CatchUp:
    """What an app process does with a notification: catch up each game it holds that moved."""

    def __init__(self, games: LiveGames, after: Callable[[LiveGame], None]) -> None:
        self.games = games
        self.after = after  # e.g. scheduling bots for the caught-up game
        self.pending: set[str] = set()
        self.tasks: set[asyncio.Task[None]] = set()

    def heard(self, game_id: str, what: str) -> None:
        if not game_id:  # reconnected: anything may have been missed
            for held in list(self.games.games):
                self._start(held)
            return
        live = self.games.games.get(game_id) or self.games.finished.get(game_id)
        if live is None or live.over:
            return
        if what.isdigit() and int(what) < live.moves:
            return  # this process made that move (or already caught up past it)
        self._start(game_id)

    def _start(self, game_id: str) -> None:
        if game_id in self.pending:
            return
        self.pending.add(game_id)
        task = asyncio.create_task(self._catch_up(game_id))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _catch_up(self, game_id: str) -> None:
        try:
            live = self.games.games.get(game_id)
            if live is None:
                return
            async with live.lock:
                self.pending.discard(game_id)  # a later notification now starts a new catch-up
                await self.games.catch_up(live)
            self.after(live)
        except Exception:
            log.exception("catching up game %s failed", game_id)
        finally:
            self.pending.discard(game_id)

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*self.tasks, return_exceptions=True)
