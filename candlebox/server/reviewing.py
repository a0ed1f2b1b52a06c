"""Post-game reviews computed by bot workers (issue 17), when bots run in workers (``bots =
"workers"``, PostgreSQL): the web process that is asked for a review writes a row in ``review_jobs``;
a ``candlebox bots-worker`` claims it (``FOR UPDATE SKIP LOCKED``, then a lease, as for bot turns),
reviews the seat's decisions one by one and writes each into the row as it goes, so that any web
process can report the progress; the finished review goes to the ``reviews`` table and the row goes.
A worker killed mid-review loses nothing: its lease runs out, another worker claims the row and
carries on from the decisions already written. With bots in the web process (SQLite, one process)
reviews keep running in that process's pool (candlebox/server/coaching.py)."""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any

from sqlalchemy import Connection, delete, func, insert, select, update

from candlebox import analysis
from candlebox.server.errors import Rejected
from candlebox.server.registry import LiveGames
from candlebox.server.storage import Storage, review_jobs, reviews, take_leases

log = logging.getLogger("candlebox.worker")
MAX_QUEUED = 20  # reviews waiting or under way at once, over all processes; more are refused (429)


@dataclass(frozen=True)
class Job:
    game_id: str
    seat: int
    total: int
    decisions: list[dict[str, Any]]  # reviewed so far (a claim carries on from these)
    seconds: float


@dataclass(frozen=True)
class Progress:
    done: int
    total: int
    claimed: bool  # a worker holds the row now (False: waiting for one)
    position: int = 0  # 0 under way, else its place among the reviews no worker holds (1: next)


# ---------------------------------------------------------------------------- the queue (SQL)
def ask(conn: Connection, game_id: str, seat: int, total: int, seconds: float, now: float) -> None:
    """Queue a review of ``seat`` unless it is stored or queued already; :class:`Rejected` (429)
    when ``MAX_QUEUED`` reviews are waiting. Tells the workers (a notification on commit)."""
    stored = select(reviews.c.seat).where(reviews.c.game_id == game_id, reviews.c.seat == seat)
    queued = select(review_jobs.c.seat).where(
        review_jobs.c.game_id == game_id, review_jobs.c.seat == seat
    )
    if conn.execute(stored).first() is not None or conn.execute(queued).first() is not None:
        return
    waiting = conn.execute(select(func.count()).select_from(review_jobs)).scalar_one()
    if waiting >= MAX_QUEUED:
        raise Rejected("busy", "the server is reviewing other games; try again shortly", 429)
    conn.execute(
        insert(review_jobs).values(
            game_id=game_id,
            seat=seat,
            total=total,
            decisions="[]",
            seconds=seconds,
            asked_at=now,
            lease_until=0.0,
            worker=None,
        )
    )
    Storage.notify(conn, game_id, "review")


def claim(conn: Connection, worker: str, now: float, lease: float, limit: int) -> list[Job]:
    """Up to ``limit`` queued reviews whose lease has passed, oldest first, now leased to
    ``worker`` (``SKIP LOCKED``: workers claiming at once never wait on each other)."""
    rows = conn.execute(
        select(review_jobs)
        .where(review_jobs.c.lease_until <= now)
        .order_by(review_jobs.c.asked_at)
        .limit(limit)
        .with_for_update(skip_locked=True)
    ).all()
    taken = take_leases(conn, review_jobs, ("game_id", "seat"), rows, worker, now, lease)
    return [
        Job(row.game_id, row.seat, row.total, json.loads(row.decisions), row.seconds)
        for row in taken
    ]


def _mine(game_id: str, seat: int, worker: str) -> Any:
    return (
        (review_jobs.c.game_id == game_id)
        & (review_jobs.c.seat == seat)
        & (review_jobs.c.worker == worker)
    )


def record_progress(
    conn: Connection,
    game_id: str,
    seat: int,
    worker: str,
    decisions: list[dict[str, Any]],
    until: float,
) -> bool:
    """Write the decisions reviewed so far and extend the lease; False if ``worker`` no longer
    holds the row (its lease ran out and another worker took it)."""
    done = conn.execute(
        update(review_jobs)
        .where(_mine(game_id, seat, worker))
        .values(decisions=json.dumps(decisions), lease_until=until)
    )
    return bool(done.rowcount == 1)


def finish(conn: Connection, game_id: str, seat: int, worker: str, result: str, now: float) -> bool:
    """Store the review and drop its row, if ``worker`` still holds it."""
    gone = conn.execute(delete(review_jobs).where(_mine(game_id, seat, worker)))
    if gone.rowcount != 1:
        return False
    stored = select(reviews.c.seat).where(reviews.c.game_id == game_id, reviews.c.seat == seat)
    if conn.execute(stored).first() is None:
        conn.execute(insert(reviews).values(game_id=game_id, seat=seat, result=result, at=now))
    return True


def progress(storage: Storage, game_id: str, seat: int, now: float) -> Progress | None:
    """A queued review's progress and place in the queue (None: not queued), read by any web
    process."""
    with storage.engine.connect() as conn:
        row = conn.execute(
            select(
                review_jobs.c.decisions,
                review_jobs.c.total,
                review_jobs.c.lease_until,
                review_jobs.c.asked_at,
            ).where(review_jobs.c.game_id == game_id, review_jobs.c.seat == seat)
        ).first()
        if row is None:
            return None
        claimed = row.lease_until > now
        ahead = 0
        if not claimed:  # the unclaimed reviews asked before it are claimed first
            ahead = conn.execute(
                select(func.count())
                .select_from(review_jobs)
                .where(review_jobs.c.lease_until <= now, review_jobs.c.asked_at < row.asked_at)
            ).scalar_one()
    position = 0 if claimed else int(ahead) + 1
    return Progress(len(json.loads(row.decisions)), row.total, claimed, position)


def players_decisions(
    storage: Storage, saved: dict[str, Any], game_id: str, seat: int
) -> tuple[list[int], int]:
    """The move numbers of ``seat``'s decisions with a choice that its player made (not a bot that
    stood in for them), and how many the bot made: what a review of the seat covers."""
    numbers = analysis.decisions_of(saved, seat)
    with storage.engine.connect() as conn:
        spans = [(f, u) for s, f, u in Storage.every_stand_in(conn, game_id) if s == seat]
    own = analysis.own_decisions(numbers, spans)
    return own, len(numbers) - len(own)


# ---------------------------------------------------------------------------- the worker's side
def review_one(saved: dict[str, Any], seat: int, number: int, seconds: float) -> dict[str, Any]:
    """One decision reviewed (plain data in and out)."""
    return asdict(analysis.review_move(saved, seat, number, seconds, seed=int(saved["seed"])))


class Reviewer:
    """What a bot worker does with a claimed review: the decisions not yet written, one at a time
    (in a thread: the worker's event loop keeps playing bot turns meanwhile)."""

    def __init__(self, games: LiveGames, worker: str) -> None:
        self.games = games
        self.worker = worker
        self.lease = games.settings.bot_lease
        self.reviewed = 0  # reviews finished by this worker (the tests read it)

    async def claim(self, limit: int) -> list[Job]:
        op = partial(claim, worker=self.worker, now=time.time(), lease=self.lease, limit=limit)
        try:
            jobs: list[Job] = await self.games.writer.run(op)
        except Exception as exc:  # the database is away: look again later
            log.warning("claiming reviews failed (%s)", exc)
            return []
        return jobs

    async def run(self, job: Job) -> None:
        try:
            await self._run(job)
        except Exception:
            log.exception(
                "review of seat %d of game %s failed; claimed again after its lease",
                job.seat,
                job.game_id,
            )

    async def _run(self, job: Job) -> None:
        live = await self.games.any_game(job.game_id)
        saved = live.state.to_json()
        storage = self.games.storage
        numbers, stood_in = await asyncio.to_thread(
            players_decisions, storage, saved, job.game_id, job.seat
        )
        decisions = list(job.decisions)
        for number in numbers[len(decisions) :]:
            decision = await asyncio.to_thread(review_one, saved, job.seat, number, job.seconds)
            decisions.append(decision)
            op = partial(
                record_progress,
                game_id=job.game_id,
                seat=job.seat,
                worker=self.worker,
                decisions=decisions,
                until=time.time() + self.lease,
            )
            if not await self.games.writer.run(op):
                log.warning("lost the review of game %s to another worker", job.game_id)
                return
        result = {
            "game": live.record.game,
            "seat": job.seat,
            "decisions": decisions,
            "stood_in": stood_in,
        }
        done = partial(
            finish,
            game_id=job.game_id,
            seat=job.seat,
            worker=self.worker,
            result=json.dumps(result),
            now=time.time(),
        )
        if await self.games.writer.run(done):
            self.reviewed += 1
            log.info("reviewed seat %d of game %s", job.seat, job.game_id)
