"""Watching the clocks (issue 35; docs/server.md, "Clocks"), and a seat out of time handed on.

Every app process runs a :class:`ClockWatch`; each clock is watched by one process at a time, the
holder of its lease (``game_clocks.lease_until``), taken as bot workers take owed turns
(candlebox/server/worker.py): ``FOR UPDATE SKIP LOCKED`` on PostgreSQL, a guarded update everywhere,
and renewed once half gone. A look first reads whether it has anything to write (most find nothing,
and cost no transaction). A process that dies stops renewing: another takes the clock over once
the lease has passed. At each look the watcher marks out of time, in one query, every running clock
of its games that has reached zero (a guarded update: a move that stopped the clock meanwhile
wins), tells the other processes (``"GAME_ID clocks"``) and sends every watcher it holds the clocks.

Out of time, the game waits: another player hands the seat to its bot
(``POST /api/games/{id}/seats/{seat}/timeout``), or, at a rated table, the seat loses on time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from functools import partial
from typing import Any

from sqlalchemy import Connection, and_, select, update

from candlebox.server import clocks, ratings, timeloss
from candlebox.server.bodies import BotSpec
from candlebox.server.errors import Rejected
from candlebox.server.live import LiveGame
from candlebox.server.registry import LiveGames
from candlebox.server.seating import Seating
from candlebox.server.storage import (
    LOST_ON_TIME,
    ClockRecord,
    Storage,
    game_clocks,
    games,
    seat_clocks,
    seats,
)

log = logging.getLogger("candlebox.server")
CLAIM_AT_ONCE = 200  # clocks one look may take over


def _renewing(name: str, now: float, lease: float) -> Any:
    """This watcher's leases that are half gone (renewed then, not at every look)."""
    return and_(
        game_clocks.c.watcher == name,
        game_clocks.c.lease_until > now,
        game_clocks.c.lease_until < now + lease / 2,
    )


def _free(now: float) -> Any:
    """The clocks of live games that nobody watches (never watched, or a lease that passed)."""
    live = and_(games.c.id == game_clocks.c.game_id, games.c.status == "live")
    return and_(game_clocks.c.lease_until <= now, select(games.c.id).where(live).exists())


def _due(name: str, now: float) -> Any:
    """The running clocks of this watcher's games that reached zero: remaining − (now − since) ≤ 0,
    of a seat a person plays, in a live game."""
    mine = and_(
        game_clocks.c.game_id == seat_clocks.c.game_id,
        game_clocks.c.watcher == name,
        game_clocks.c.lease_until > now,
    )
    human = and_(
        seats.c.game_id == seat_clocks.c.game_id,
        seats.c.seat == seat_clocks.c.seat,
        seats.c.kind == "human",
    )
    live = and_(games.c.id == seat_clocks.c.game_id, games.c.status == "live")
    return and_(
        seat_clocks.c.since.is_not(None),
        seat_clocks.c.out_of_time.is_(False),
        seat_clocks.c.remaining + seat_clocks.c.since <= now,
        select(game_clocks.c.game_id).where(mine).exists(),
        select(seats.c.seat).where(human).exists(),
        select(games.c.id).where(live).exists(),
    )


def work_to_do(conn: Connection, name: str, now: float, lease: float) -> bool:
    """Whether a look has anything to write (read without a transaction of the writer's): a lease
    to renew or to take, or a clock out of time. Most looks find none, and write nothing."""
    for query in (
        select(game_clocks.c.game_id).where(_renewing(name, now, lease)),
        select(game_clocks.c.game_id).where(_free(now)),
        select(seat_clocks.c.game_id).where(_due(name, now)),
    ):
        if conn.execute(query.limit(1)).first() is not None:
            return True
    return False


def watch_round(conn: Connection, name: str, now: float, lease: float) -> list[tuple[str, int]]:
    """One look of the watcher ``name``, in one transaction: renew its leases half gone, take over
    the clocks of live games nobody watches, and mark out of time the running clocks of its games
    that reached zero; returns those (game id, seat)."""
    conn.execute(
        update(game_clocks).where(_renewing(name, now, lease)).values(lease_until=now + lease)
    )
    free = conn.execute(
        select(game_clocks.c.game_id)
        .where(_free(now))
        .limit(CLAIM_AT_ONCE)
        .with_for_update(skip_locked=True)
    ).all()
    for row in free:
        conn.execute(
            update(game_clocks)
            .where(game_clocks.c.game_id == row.game_id, game_clocks.c.lease_until <= now)
            .values(lease_until=now + lease, watcher=name)
        )
    due = conn.execute(
        select(seat_clocks.c.game_id, seat_clocks.c.seat, seat_clocks.c.since)
        .where(_due(name, now))
        .limit(CLAIM_AT_ONCE)
    ).all()
    marked = []
    for row in due:
        done = conn.execute(
            update(seat_clocks)
            .where(
                seat_clocks.c.game_id == row.game_id,
                seat_clocks.c.seat == row.seat,
                seat_clocks.c.since == row.since,  # not stopped (or restarted) by a move since
                seat_clocks.c.out_of_time.is_(False),
            )
            .values(out_of_time=True)
        )
        if done.rowcount == 1:
            marked.append((str(row.game_id), int(row.seat)))
            Storage.notify(conn, row.game_id, "clocks")
    return marked


def release(conn: Connection, name: str) -> None:
    """A process stopping hands its clocks back at once (another takes them at its next look)."""
    conn.execute(
        update(game_clocks)
        .where(game_clocks.c.watcher == name)
        .values(lease_until=0.0, watcher=None)
    )


class ClockWatch:
    def __init__(self, games: LiveGames, seating: Seating, name: str) -> None:
        self.games = games
        self.settings = games.settings
        self.seating = seating
        self.name = name
        self.tasks: set[asyncio.Task[None]] = set()
        self.leased = False  # a look took leases (handed back on stopping)

    # ------------------------------------------------------------------ watching
    async def forever(self) -> None:
        while not self.games.closed:
            await asyncio.sleep(self.settings.clock_every)
            try:
                await self.look()
            except Exception:  # the database may be away a while: look again next time
                log.exception("looking at the clocks failed")

    async def look(self) -> list[tuple[str, int]]:
        """One look: the seats marked out of time now (their watchers here are sent the clocks)."""
        now = self.settings.clock_now()
        lease = self.settings.clock_lease
        if not await asyncio.to_thread(self._work_to_do, now, lease):
            return []
        self.leased = True
        marked: list[tuple[str, int]] = await self.games.writer.run(
            partial(watch_round, name=self.name, now=now, lease=lease)
        )
        for game_id, seat in marked:
            live = self.games.games.get(game_id)
            if live is not None and live.record.clock is not None:
                live.record.clock.seats[seat].out_of_time = True
                self.games.frames.broadcast_clocks(live)
        return marked

    def _work_to_do(self, now: float, lease: float) -> bool:
        with self.games.storage.engine.connect() as conn:
            return work_to_do(conn, self.name, now, lease)

    async def stop(self) -> None:
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        if not self.leased:
            return
        with contextlib.suppress(Exception):  # the database may be gone already
            await self.games.writer.run(partial(release, name=self.name))

    # ------------------------------------------------------------------ other processes
    def heard(self, game_id: str) -> None:
        """Another process changed a clock this one may show (it marked a seat out of time, or a
        move there moved the clocks): read them again and send them to the watchers here."""
        live = self.games.games.get(game_id)
        if live is None or live.record.clock is None:
            return
        task = asyncio.create_task(self._reread(live))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _reread(self, live: LiveGame) -> None:
        try:
            await self.reread(live)
        except Exception:
            log.exception("reading the clocks of %s failed", live.id)
            return
        self.games.frames.broadcast_clocks(live)

    async def reread(self, live: LiveGame) -> None:
        """The game's clocks as stored now."""
        fresh = await asyncio.to_thread(_clock_of, self.games.storage, live.id)
        if fresh is not None:
            live.record.clock = fresh

    # ------------------------------------------------------------------ out of time
    async def time_out(self, live: LiveGame, seat: int, by: int) -> str:
        """Player ``by`` hands ``seat``, out of time, to its bot; at a rated table the seat loses
        on time and the game ends. Returns what happened: "bot" or "lost"."""
        if not 0 <= seat < live.record.players:
            raise Rejected("bad-seat", f"this game has seats 0–{live.record.players - 1}")
        if by == seat:
            raise Rejected(
                "own-seat",
                "a seat out of time is handed on by another player, not by itself "
                '(to let a bot play for you, use "Let a bot play for me")',
                403,
            )
        if live.record.clock is None:
            raise Rejected("no-clock", "this table has no clock: nobody runs out of time", 409)
        await self.reread(live)  # marked by another process's watcher, or moved there
        clock = live.record.clock
        now = self.settings.clock_now()
        if live.seat(seat).kind != "human" or not clocks.out_of_time(clock, seat, now):
            left = max(0.0, clocks.left(clock.seats[seat], now))
            raise Rejected(
                "not-out-of-time",
                f"seat {seat} is not out of time ({clocks.spoken(left)} left)"
                if live.seat(seat).kind == "human"
                else f"a bot plays seat {seat} already",
                409,
            )
        if live.record.rated:
            await self._lost_on_time(live, seat)
            return "lost"
        await self.seating.hand_to_bot(live, seat, by, BotSpec(), out_of_time=True)
        return "bot"

    async def _lost_on_time(self, live: LiveGame, seat: int) -> None:
        """A rated game ends: the seat out of time last, every other seat first (and counted so
        in the ratings, once)."""
        async with live.lock:
            if live.over or live.record.status != "live":
                raise Rejected("over", "the game is over", 409)
            players = live.record.players
            outcome = timeloss.outcome(players, seat)  # stored as a time loss, not a resignation
            ending = ratings.lost_on_time(players, [seat])

            def op(conn: Connection) -> None:
                Storage.set_status(conn, live.id, LOST_ON_TIME, outcome)
                if ending is not None:
                    ratings.game_ended(conn, live.record, ending)
                Storage.notify(conn, live.id, "seats")  # other processes: it ended

            await self.games.writer.run(op)
            live.record.status, live.record.result = LOST_ON_TIME, outcome
            self.games.frames.broadcast(live)
        for task in live.bot_tasks.values():
            task.cancel()
        self.games.games.pop(live.id, None)
        self.games.keep_finished(live)


def _clock_of(storage: Storage, game_id: str) -> ClockRecord | None:
    with storage.engine.connect() as conn:
        return Storage.clock_of(conn, game_id)
