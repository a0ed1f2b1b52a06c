"""Moves made by other processes, heard through PostgreSQL's LISTEN/NOTIFY: one listening connection
per process (psycopg 3, async). A move's transaction notifies ``"GAME_ID NUMBER SEAT ACTION"`` (a seat
change ``"GAME_ID seats"``) on commit. A process that holds that game at move NUMBER applies the move
as heard and broadcasts it to its watchers; one whose copy is behind (a notification missed), or that
hears of a seat change, catches up from the tables. The tables stay the truth: a notification lost
while the connection was down costs nothing once every held game is caught up on reconnecting."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from candlebox.server.live import LiveGame
from candlebox.server.registry import LiveGames
from candlebox.server.storage import CHANNEL

log = logging.getLogger("candlebox.server")
# game id and what: "NUMBER SEAT ACTION", "seats", ...; "" and "" after a reconnection
Heard = Callable[[str, str], None]


def heard_move(what: str) -> tuple[int, int, str] | None:
    """A move notification's number, seat and action; None for any other notification (and for a
    move too long to carry, "NUMBER" alone: only its number is known).

    >>> heard_move("12 1 auction 3")
    (12, 1, 'auction 3')
    >>> heard_move("seats") is None, heard_move("12") is None
    (True, True)
    """
    number, _, rest = what.partition(" ")
    seat, _, action = rest.partition(" ")
    if not (number.isdigit() and seat.isdigit() and action):
        return None
    return int(number), int(seat), action


def heard_number(what: str) -> int | None:
    """The move number a notification names, if it names one."""
    number = what.partition(" ")[0]
    return int(number) if number.isdigit() else None


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
        number = heard_number(what)
        if number is not None and number < live.moves:
            return  # this process made that move (or already caught up past it)
        self._start(game_id, heard_move(what))

    def _start(self, game_id: str, move: tuple[int, int, str] | None = None) -> None:
        if game_id in self.pending:
            return  # a catch-up from the tables is waiting: it will read this move too
        if move is None:
            self.pending.add(game_id)
        task = asyncio.create_task(self._catch_up(game_id, move))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _catch_up(self, game_id: str, move: tuple[int, int, str] | None = None) -> None:
        try:
            live = self.games.games.get(game_id)
            if live is None:
                return
            async with live.lock:
                if move is None or not await self.games.apply_heard(live, *move):
                    self.pending.discard(game_id)  # a later notification starts a new catch-up
                    await self.games.catch_up(live)
            self.after(live)
        except Exception:
            log.exception("catching up game %s failed", game_id)
        finally:
            if move is None:
                self.pending.discard(game_id)

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        with contextlib.suppress(Exception):
            await asyncio.gather(*self.tasks, return_exceptions=True)
