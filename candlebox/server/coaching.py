"""Hints and post-game reviews at the server (issue 16), from candlebox/analysis.py.

Hints: ``POST /api/games/{id}/hint`` with the seat's credential, allowed when every other seat is a
bot, or when the table allowed hints at creation (``"hints": true``; shown to everyone in the game's
public facts and logged). The search time is the server's (``HINT_SECONDS``, at most the bots'
``max_bot_seconds``); it runs in a worker thread on a copy of the game, at most one per seat at a
time, its next search ``HINT_EVERY`` seconds after the last one ended; the same decision asked about
again gets its kept hint.

Reviews: ``POST /api/games/{id}/review`` ``{"seat": N}`` on a finished game (public, like its saved
file) queues one job per decision of that seat (``analysis.review_move``: a plain function of plain
data) on a ``ProcessPoolExecutor`` of ``REVIEW_WORKERS`` processes, at most ``MAX_REVIEWS`` reviews
at once; ``GET`` the same path with ``?seat=N`` reports the progress, then the review, which is stored
with the game (the ``reviews`` table) and served from there afterwards. When bots run in workers
(``bots = "workers"``, several processes on PostgreSQL) the review is queued in the database instead
and a bot worker computes it (candlebox/server/reviewing.py); any web process reports its progress.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Awaitable, Callable
from concurrent.futures import Executor
from dataclasses import asdict, dataclass, field
from functools import partial
from typing import Any

from sqlalchemy import insert, select
from sqlalchemy.exc import IntegrityError

from candlebox import analysis
from candlebox.server import reviewing
from candlebox.server.children import process_pool
from candlebox.server.errors import Rejected
from candlebox.server.live import LiveGame
from candlebox.server.registry import LiveGames
from candlebox.server.storage import reviews

log = logging.getLogger("candlebox.server")

HINT_SECONDS = 1.0  # a hint's search, capped by Settings.max_bot_seconds
# Seconds from the end of one hint of a seat to the start of its next search: asking again about
# the same decision costs nothing (the hint is kept), so this only spaces out searches of new
# decisions; 3 s refused a player who played a hint and at once asked about their next decision.
HINT_EVERY = 1.0
# Hints searched or waiting at once in this process, per bot process (or thread) that searches
# them: beyond it a hint is refused at once rather than queued behind many others' seconds.
HINTS_PER_SEARCHER = 2
KEPT_HINTS = 1000  # the last hint of this many seats is kept for asking again
REVIEW_WORKERS = 1
MAX_REVIEWS = 2  # reviews computed at once; more are refused (429) until one finishes
REVIEW_WORST = 5  # the costliest decisions a finished review names ("worst" in its answer)


def hints_allowed(live: LiveGame, seat: int) -> bool:
    """Every other seat is a bot, or the table allowed hints when it was created."""
    others = [s for s in live.record.seats if s.seat != seat]
    return live.record.hints or all(s.kind == "bot" for s in others)


@dataclass
class _Job:
    total: int
    stood_in: int = 0  # the seat's decisions a bot made for its player (not reviewed)
    done: int = 0
    decisions: list[Any] = field(default_factory=list)


class Coach:
    def __init__(
        self,
        registry: LiveGames,
        max_seconds: float,
        elsewhere: Callable[..., Awaitable[Any]],
    ) -> None:
        self.registry = registry
        self.elsewhere = elsewhere  # where a hint's search runs: BotPlayers.elsewhere
        self.hint_seconds = min(HINT_SECONDS, max_seconds)
        self.last_hint: dict[tuple[str, int], float] = {}
        self.kept_hint: dict[tuple[str, int], dict[str, Any]] = {}
        self.thinking: set[tuple[str, int]] = set()
        searchers = registry.settings.bot_processes or registry.settings.bot_threads
        self.max_hints = HINTS_PER_SEARCHER * max(1, searchers)
        self.jobs: dict[tuple[str, int], _Job] = {}
        self._pool: Executor | None = None
        # bots in workers: reviews are queued in the database for them (reviewing.py)
        self.queued = registry.settings.bots == "workers"
        self.review_seconds = registry.settings.review_seconds

    def pool(self) -> Executor:
        if self._pool is None:
            self._pool = process_pool(REVIEW_WORKERS)
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ hints
    async def hint(self, game_id: str, token: str | None) -> dict[str, Any]:
        live = self.registry.live(game_id)
        seat = self.registry.seat_for_token(live, token)
        if not hints_allowed(live, seat):
            raise Rejected(
                "hints-off",
                "hints are for games against bots only, unless the table allowed them when it "
                "was created",
                403,
            )
        key = (game_id, seat)
        kept = self.kept_hint.get(key)
        if kept is not None and kept["move"] == live.moves:
            return kept  # the same decision asked about again: its hint, without a new search
        now = time.monotonic()
        if key in self.thinking or now - self.last_hint.get(key, -HINT_EVERY) < HINT_EVERY:
            raise Rejected("too-many-hints", f"one hint per {HINT_EVERY:g} second, please", 429)
        state = live.state
        if len(state.legal_actions(seat)) < 1:
            raise Rejected("not-your-turn", "you have no decision to make now", 409)
        if len(self.thinking) >= self.max_hints:
            raise Rejected(
                "coach-busy", "the coach is busy with other players' hints: ask again shortly", 503
            )
        world = state.clone()  # the search reads a copy: moves may arrive meanwhile
        move = live.moves
        self.thinking.add(key)
        try:
            # in a bot process when the server has them: a second of search holds an interpreter
            tip = await self.elsewhere(
                partial(analysis.hint, seed=world.seed + move), world, seat, self.hint_seconds
            )
        finally:
            self.thinking.discard(key)
            self.remember_asked(key, time.monotonic())
        answer = {"move": move, **tip.to_json()}
        # one per seat, replaced by its next decision's; the seats that asked longest ago are
        # forgotten beyond KEPT_HINTS, so a server up for months holds no hint of every game
        self.kept_hint.pop(key, None)
        self.kept_hint[key] = answer
        while len(self.kept_hint) > KEPT_HINTS:
            self.kept_hint.pop(next(iter(self.kept_hint)))
        return answer

    def remember_asked(self, key: tuple[str, int], now: float) -> None:
        """When ``key`` last had a hint; a time older than HINT_EVERY limits nothing any more, so
        beyond KEPT_HINTS seats those are forgotten (one per seat that ever asked would grow for as
        long as the server runs)."""
        self.last_hint[key] = now
        if len(self.last_hint) > KEPT_HINTS:
            stale = [k for k, then in self.last_hint.items() if now - then >= HINT_EVERY]
            for old in stale:
                del self.last_hint[old]

    # ------------------------------------------------------------------ reviews
    async def start_review(self, game_id: str, seat: int) -> dict[str, Any]:
        live = await self.registry.any_game(game_id)
        if not live.over:
            raise Rejected("not-over", "a game can be reviewed once it is over", 409)
        if not 0 <= seat < live.record.players:
            raise Rejected("bad-seat", f"seats are 0–{live.record.players - 1}")
        key = (game_id, seat)
        if key in self.jobs or await self._stored(game_id, seat) is not None:
            return await self.review(game_id, seat)
        if not self.queued and len(self.jobs) >= MAX_REVIEWS:
            raise Rejected("busy", "the server is reviewing other games; try again shortly", 429)
        saved = live.state.to_json()
        numbers, stood_in = await asyncio.to_thread(
            reviewing.players_decisions, self.registry.storage, saved, game_id, seat
        )
        if self.queued:
            return await self._queue(game_id, seat, len(numbers))
        job = self.jobs[key] = _Job(len(numbers), stood_in=stood_in)
        asyncio.get_running_loop().create_task(self._run(live, seat, saved, numbers, job))
        log.info("reviewing seat %d of game %s: %d decisions", seat, game_id, len(numbers))
        return await self.review(game_id, seat)

    async def _run(
        self, live: LiveGame, seat: int, saved: dict[str, Any], numbers: list[int], job: _Job
    ) -> None:
        loop = asyncio.get_running_loop()
        key = (live.id, seat)
        try:
            for number in numbers:
                decision = await loop.run_in_executor(
                    self.pool(), _review_move, saved, seat, number, self.review_seconds
                )
                job.decisions.append(decision)
                job.done += 1
            result = {
                "game": live.record.game,
                "seat": seat,
                "decisions": job.decisions,
                "stood_in": job.stood_in,  # decisions a bot made for the player: left out
            }
            text = json.dumps(result)
            await self.registry.writer.run(
                lambda conn: conn.execute(
                    insert(reviews).values(game_id=live.id, seat=seat, result=text, at=time.time())
                )
            )
        except Exception:  # a review is a courtesy: log it, never take the server down
            log.exception("review of seat %d of game %s failed", seat, live.id)
        finally:
            self.jobs.pop(key, None)

    async def _queue(self, game_id: str, seat: int, total: int) -> dict[str, Any]:
        op = partial(
            reviewing.ask,
            game_id=game_id,
            seat=seat,
            total=total,
            seconds=self.review_seconds,
            now=time.time(),
        )
        try:
            await self.registry.writer.run(op)
        except IntegrityError:
            pass  # another process queued the same review at the same moment
        else:
            log.info("queued a review of seat %d of game %s: %d decisions", seat, game_id, total)
        return await self.review(game_id, seat)

    async def _stored(self, game_id: str, seat: int) -> dict[str, Any] | None:
        def read() -> str | None:
            with self.registry.storage.engine.connect() as conn:
                found = conn.execute(
                    select(reviews.c.result).where(
                        reviews.c.game_id == game_id, reviews.c.seat == seat
                    )
                )
                return found.scalar()

        text = await asyncio.to_thread(read)
        return None if text is None else dict(json.loads(text))

    async def review(self, game_id: str, seat: int) -> dict[str, Any]:
        job = self.jobs.get((game_id, seat))
        if job is not None:
            return {"status": "running", "done": job.done, "total": job.total}
        if self.queued:
            now = time.time()
            found = await asyncio.to_thread(
                reviewing.progress, self.registry.storage, game_id, seat, now
            )
            if found is not None:  # "queued": no worker has it (yet, or its lease ran out)
                done, total = found.done, found.total
                return {
                    "status": "running",
                    "done": done,
                    "total": total,
                    "queued": not found.claimed,
                }
        stored = await self._stored(game_id, seat)
        if stored is None:
            await self.registry.any_game(game_id)  # 404 for a game that does not exist
            raise Rejected("no-review", "this seat's review has not been asked for", 404)
        # the decisions to show first, chosen here so the page, the terminal and any other client
        # name the same ones (analysis.worst: the marked ones, or else those that lost anything)
        costliest = analysis.worst(analysis.Review.from_json(stored), REVIEW_WORST)
        return {"status": "done", "review": stored, "worst": [d.move for d in costliest]}


def _review_move(saved: dict[str, Any], seat: int, number: int, seconds: float) -> dict[str, Any]:
    """One decision reviewed, in a worker process (plain data in and out)."""
    return asdict(analysis.review_move(saved, seat, number, seconds, seed=int(saved["seed"])))
