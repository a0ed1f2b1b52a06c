"""Who is connected, across web processes (issue 17): with several processes on one PostgreSQL a
seat's player may be connected to any of them, so "away" (shown on every page, and what zombie
hand-over checks) cannot be known by one process alone.

Each process writes a ``presence`` row per (game, seat) it has a websocket of: ``connected`` when the
first of them opens, not connected (``seen`` = when) when the last one closes, and it refreshes the
rows of its open connections every ``BEAT`` seconds; a connected row is believed until ``expires``
(``TTL`` after the last refresh), so a process killed with its sockets open stops counting once that
has passed. Each change notifies ``"GAME presence"``; the processes that hold the game read its rows
again and send the seats to their watchers. A hand-over to a bot reads them afresh before deciding.

One process (SQLite, the default) keeps all of this in memory: nothing is written.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
import uuid
from collections.abc import Coroutine
from functools import partial
from typing import Any

from sqlalchemy import Connection, bindparam, select, update

from candlebox.server.live import LiveGame
from candlebox.server.registry import LiveGames
from candlebox.server.storage import Storage, presence

log = logging.getLogger("candlebox.server")
TTL = 30.0  # seconds a connected row is believed without a refresh
BEAT = 10.0  # seconds between two refreshes of this process's connected rows


def process_name() -> str:
    """This process, told apart from every other (a restarted one reusing a pid included)."""
    return f"{socket.gethostname()[:30]}:{os.getpid()}:{uuid.uuid4().hex[:8]}"


# ---------------------------------------------------------------------------- SQL
def mark(
    conn: Connection, game_id: str, seat: int, process: str, connected: bool, now: float
) -> None:
    """This process now has (or no longer has) a connection of ``seat``; tells the others."""
    mine = (
        (presence.c.game_id == game_id)
        & (presence.c.seat == seat)
        & (presence.c.process == process)
    )
    values = {"connected": connected, "seen": now, "expires": now + TTL}
    if conn.execute(update(presence).where(mine).values(**values)).rowcount == 0:
        conn.execute(
            presence.insert().values(game_id=game_id, seat=seat, process=process, **values)
        )
    Storage.notify(conn, game_id, "presence")


def beat(conn: Connection, process: str, seats: list[tuple[str, int]], now: float) -> None:
    """Refresh this process's connected rows of ``seats`` (game id, seat)."""
    if not seats:
        return
    conn.execute(
        update(presence)
        .where(
            presence.c.game_id == bindparam("g"),
            presence.c.seat == bindparam("s"),
            presence.c.process == process,
            presence.c.connected.is_(True),
        )
        .values(seen=now, expires=now + TTL),
        [{"g": game_id, "s": seat} for game_id, seat in seats],
    )


def leave_all(conn: Connection, process: str, now: float) -> None:
    """This process is stopping: none of its connections is open any more."""
    conn.execute(
        update(presence)
        .where(presence.c.process == process, presence.c.connected.is_(True))
        .values(connected=False, seen=now, expires=now)
    )


def read(storage: Storage, game_id: str) -> list[tuple[int, str, bool, float, float]]:
    """(seat, process, connected, seen, expires) of every row of the game."""
    with storage.engine.connect() as conn:
        rows = conn.execute(
            select(
                presence.c.seat,
                presence.c.process,
                presence.c.connected,
                presence.c.seen,
                presence.c.expires,
            ).where(presence.c.game_id == game_id)
        )
        return [(r.seat, r.process, bool(r.connected), r.seen, r.expires) for r in rows]


# ---------------------------------------------------------------------------- a web process's part
class Presence:
    def __init__(self, games: LiveGames) -> None:
        self.games = games
        self.shared = games.shared
        self.name = process_name()
        self.writes: set[asyncio.Task[None]] = set()
        self.reading: set[str] = set()
        self.known: set[str] = set()  # games whose rows this process has read once

    async def first_look(self, live: LiveGame) -> None:
        """A game this process has just loaded: who is connected elsewhere (read once; after that,
        the notifications keep it current)."""
        if self.shared and live.id not in self.known:
            try:
                await self.refresh(live)
            except Exception as exc:  # the database is away: the game is still served from here
                log.warning("reading who is connected to game %s failed (%s)", live.id, exc)
                return
            self.known.add(live.id)

    def changed(self, live: LiveGame, seat: int, connected: bool) -> None:
        """The first connection of ``seat`` opened here, or the last one closed (called where it
        happens, without waiting: the row is written in the background)."""
        if not self.shared or self.games.closed:
            return
        op = partial(
            mark,
            game_id=live.id,
            seat=seat,
            process=self.name,
            connected=connected,
            now=time.time(),
        )
        self._background(self._write(op))

    async def _write(self, op: partial[None]) -> None:
        try:
            await self.games.writer.run(op)
        except Exception as exc:  # a courtesy: the next beat (or change) writes it again
            log.warning("recording who is connected failed (%s)", exc)

    def _background(self, coro: Coroutine[Any, Any, None]) -> None:
        task = asyncio.create_task(coro)
        self.writes.add(task)
        task.add_done_callback(self.writes.discard)

    async def refresh(self, live: LiveGame) -> bool:
        """Read the game's rows and update who is connected elsewhere and since when each seat is
        away; True if what the seats show changed."""
        if not self.shared:
            return False
        rows = await asyncio.to_thread(read, self.games.storage, live.id)
        return apply(live, rows, self.name, time.time())

    def heard(self, game_id: str) -> None:
        """Another process's change: read the game's rows again if this process holds it."""
        live = self.games.games.get(game_id)
        if live is None or game_id in self.reading:
            return
        self.reading.add(game_id)
        self._background(self._reread(live))

    async def _reread(self, live: LiveGame) -> None:
        try:
            self.reading.discard(live.id)
            if await self.refresh(live):
                self.games.frames.broadcast_seats(live)
        except Exception:
            log.exception("reading who is connected to game %s failed", live.id)

    async def forever(self) -> None:
        """Refresh this process's connected rows every ``BEAT`` seconds."""
        while True:
            await asyncio.sleep(BEAT)
            held = [*self.games.games.values(), *self.games.finished.values()]
            self.known &= {live.id for live in held}
            seats = [
                (live.id, seat)
                for live in held
                for seat, conns in live.watchers.items()
                if seat is not None and conns
            ]
            with contextlib.suppress(Exception):
                await self.games.writer.run(
                    partial(beat, process=self.name, seats=seats, now=time.time())
                )

    async def stop(self) -> None:
        if not self.shared:
            return
        await asyncio.gather(*self.writes, return_exceptions=True)
        with contextlib.suppress(Exception):
            await self.games.writer.run(partial(leave_all, process=self.name, now=time.time()))


def apply(
    live: LiveGame, rows: list[tuple[int, str, bool, float, float]], me: str, now: float
) -> bool:
    """Who is connected through other processes (``live.elsewhere``: seat -> until when) and, for a
    seat connected nowhere, since when it is away: the last time any process saw it (or, never seen
    anywhere, since the game was created, as one process counts it)."""
    before = {s: (live.connected(s), live.away_since.get(s)) for s in range(live.record.players)}
    live.elsewhere = {}
    last_seen: dict[int, float] = {}
    for seat, process, connected, seen, expires in rows:
        if process == me:
            continue
        if connected and expires > now:
            live.elsewhere[seat] = max(expires, live.elsewhere.get(seat, 0.0))
        last_seen[seat] = max(seen, last_seen.get(seat, 0.0))
    for seat in range(live.record.players):
        if live.connected(seat):
            live.away_since.pop(seat, None)
            continue
        since = max(live.away_since.get(seat, live.record.created_at), last_seen.get(seat, 0.0))
        live.away_since[seat] = since
    after = {s: (live.connected(s), live.away_since.get(s)) for s in range(live.record.players)}
    return before != after
