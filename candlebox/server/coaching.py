"""Hints and post-game reviews at the server (issue 16), from candlebox/analysis.py.

Hints: ``POST /api/games/{id}/hint`` with the seat's credential, allowed when no other seat is a
person's (bots only, none of them standing in for a player), or when the table allowed hints at
creation (``"hints": true``; shown to everyone in the game's public facts). Every hint given is
recorded (the ``hints_given`` table), counted in the seat's public facts (``hints``) and listed in
the saved game (``hints_given``), so the other players see it. The search time is the server's
(``HINT_SECONDS``, at most the bots' ``max_bot_seconds``); it runs on a copy of the game where the
bots think, at most one per seat at a time, its next search ``HINT_EVERY`` seconds after the last one
ended, and a client (its address) holds at most half of the searches under way at once; the same
decision asked about again gets its kept hint.

Reviews: ``POST /api/games/{id}/review`` ``{"seat": N}`` on a finished game (public, like its saved
file), for a seat a person played (not a bot's seat, nor a bot-only game), of the decisions that
person made (not those of a bot standing in for them). A review waits in a queue of ``MAX_REVIEWS``
at most; ``REVIEW_SLOTS`` run at once, one decision at a time in a ``ProcessPoolExecutor`` of as
many processes. Its cost is charged to whoever asked (the client's address): one review of theirs
runs at a time, and they may have ``CLIENT_REVIEWS`` reviews of ``CLIENT_DECISIONS`` decisions
waiting or under way (their share, ``429 review-share``); the next review to start is the
longest-waiting one of a client with none under way. The whole review's search is bounded
(``REVIEW_SEARCH_SECONDS``; each decision ``decision_seconds``). ``GET`` the same path with
``?seat=N`` reports the queue position and progress, then the review, which is stored with the game
(the ``reviews`` table) and served from there afterwards; ``DELETE`` cancels it (its asker). When
bots run in workers (``bots = "workers"``, several processes on PostgreSQL) the review is queued in
the database instead and a bot worker computes it (candlebox/server/reviewing.py).
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import Counter
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
from candlebox.server.storage import Storage, reviews

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
# Reviews running at once, each in a process of its own: two, so that one client's review (one at a
# time each) never stops another's; on two cores the bots' processes still get their turns.
REVIEW_SLOTS = 2
MAX_REVIEWS = 8  # reviews waiting or under way at once; more are refused (429 busy)
# One client's share (by address, as the rate limits key clients): reviews waiting or under way,
# and their decisions. A single review of more decisions is still taken when it is their only one.
CLIENT_REVIEWS = 2
CLIENT_DECISIONS = 400
# The whole search of one review, in CPU seconds: a review of a 60-decision game took 88 s at
# 0.5 s a decision under load; each decision gets its share of this (at most ``review_seconds``),
# so a review of any length computes about this long plus its replays (measured in
# docs/server.md; counted by the wall, a review on a busy machine got a tenth of it).
REVIEW_SEARCH_SECONDS = 18.0
REVIEW_WORST = 5  # the costliest decisions a finished review names ("worst" in its answer)


def decision_seconds(total: int, review_seconds: float) -> float:
    """The search time of each of a review's ``total`` decisions: their share of
    ``REVIEW_SEARCH_SECONDS``, at most ``review_seconds``."""
    return min(review_seconds, REVIEW_SEARCH_SECONDS / max(1, total))


def played_by_a_person(live: LiveGame, seat: int) -> bool:
    """Someone took the seat (it has a credential), whoever plays it now."""
    return live.seat(seat).token_hash is not None


def hints_allowed(live: LiveGame, seat: int) -> bool:
    """The table allowed hints when it was created, or no other seat is a person's: every one a bot
    that stands in for nobody (a seat handed to a bot and taken back is still its person's)."""
    others = [s for s in live.record.seats if s.seat != seat]
    return live.record.hints or all(s.kind == "bot" and s.token_hash is None for s in others)


@dataclass
class _Review:
    """A review asked for and not yet stored: waiting for a slot, then under way."""

    game: str  # the game's name (candle-quest, ...), stored with the review
    game_id: str
    seat: int
    asker: str  # the client it is charged to
    numbers: list[int]  # the move numbers of the decisions to review
    seconds: float  # the search of each decision
    saved: dict[str, Any]
    stood_in: int = 0  # the seat's decisions a bot made for its player (not reviewed)
    decisions: list[Any] = field(default_factory=list)
    running: bool = False
    cancelled: bool = False
    task: asyncio.Task[None] | None = None  # its run, once it has a slot

    @property
    def key(self) -> tuple[str, int]:
        return (self.game_id, self.seat)

    @property
    def total(self) -> int:
        return len(self.numbers)


def next_review(waiting: list[_Review], running: Counter[str]) -> _Review | None:
    """The review to start in a free slot: the longest-waiting one (``waiting`` in the order asked)
    of a client with no review under way (``running``: reviews under way per client), so that no
    client holds both slots while another waits, nor even when nobody does."""
    return next((r for r in waiting if not running[r.asker]), None)


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
        self.hinting: Counter[str] = Counter()  # hint searches under way per client
        searchers = registry.settings.bot_processes or registry.settings.bot_threads
        self.max_hints = HINTS_PER_SEARCHER * max(1, searchers)
        # one client never holds every search: another's hint is served meanwhile
        self.hints_per_client = max(1, self.max_hints // 2)
        self.reviews: dict[tuple[str, int], _Review] = {}  # waiting or under way, in asked order
        # a finished game's seat: its decisions (move numbers) and those a bot made for it, which
        # never change; kept for KEPT_HINTS seats, so that asking again replays nothing
        self.decisions_known: dict[tuple[str, int], tuple[list[int], int]] = {}
        self._pool: Executor | None = None
        # bots in workers: reviews are queued in the database for them (reviewing.py)
        self.queued = registry.settings.bots == "workers"
        self.review_seconds = registry.settings.review_seconds

    def pool(self) -> Executor:
        if self._pool is None:
            self._pool = process_pool(REVIEW_SLOTS)
        return self._pool

    def close(self) -> None:
        for job in self.reviews.values():
            job.cancelled = True
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)

    # ------------------------------------------------------------------ hints
    async def hint(
        self, game_id: str, token: str | None, client: str = "", account_id: int | None = None
    ) -> dict[str, Any]:
        live = self.registry.live(game_id)
        seat = self.registry.seat_for_token(live, token, account_id)
        if live.record.rated:
            raise Rejected("hints-off", "a rated game allows no hints: it is played unaided", 403)
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
        if self.hinting[client] >= self.hints_per_client:
            raise Rejected(
                "coach-share",
                f"you have {self.hinting[client]} hints being searched, the most one player may "
                "have at once: ask again when one is done",
                429,
            )
        world = state.clone()  # the search reads a copy: moves may arrive meanwhile
        move = live.moves
        self.thinking.add(key)
        self.hinting[client] += 1
        try:
            # in a bot process when the server has them: a second of search holds an interpreter
            tip = await self.elsewhere(
                partial(analysis.hint, seed=world.seed + move), world, seat, self.hint_seconds
            )
        finally:
            self.thinking.discard(key)
            self.hinting[client] -= 1
            if self.hinting[client] <= 0:
                del self.hinting[client]
            self.remember_asked(key, time.monotonic())
        answer = {"move": move, **tip.to_json()}
        # one per seat, replaced by its next decision's; the seats that asked longest ago are
        # forgotten beyond KEPT_HINTS, so a server up for months holds no hint of every game
        self.kept_hint.pop(key, None)
        self.kept_hint[key] = answer
        while len(self.kept_hint) > KEPT_HINTS:
            self.kept_hint.pop(next(iter(self.kept_hint)))
        await self._record_hint(live, seat, move)
        return answer

    async def _record_hint(self, live: LiveGame, seat: int, move: int) -> None:
        """The hint is on the game's record: stored, and counted in the seat's public facts, which
        every watcher is sent now."""
        await self.registry.writer.run(
            lambda conn: Storage.hint_given(conn, live.id, seat, move, time.time())
        )
        if (seat, move) not in live.record.hints_given:
            live.record.hints_given.append((seat, move))
        self.registry.frames.broadcast_seats(live)

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
    async def start_review(self, game_id: str, seat: int, asker: str = "") -> dict[str, Any]:
        live = await self.registry.any_game(game_id)
        if not live.over:
            raise Rejected("not-over", "a game can be reviewed once it is over", 409)
        _check_seat(live, seat)
        _check_played(live, seat)
        key = (game_id, seat)
        if key in self.reviews or await self._stored(game_id, seat) is not None:
            return await self.review(game_id, seat)
        numbers, stood_in = await self._decisions(live, seat)
        _check_decided(seat, numbers, stood_in)
        if self.queued:
            return await self._queue(game_id, seat, len(numbers))
        if key in self.reviews:  # asked for meanwhile
            return await self.review(game_id, seat)
        self._admit(asker, len(numbers))
        seconds = decision_seconds(len(numbers), self.review_seconds)
        saved = live.state.to_json()  # for the workers: only once the review is admitted
        job = _Review(live.record.game, game_id, seat, asker, numbers, seconds, saved, stood_in)
        self.reviews[key] = job
        log.info(
            "review of seat %d of game %s asked by %s: %d decisions, %.2f s each",
            seat,
            game_id,
            asker,
            job.total,
            seconds,
        )
        self._start_next()
        return await self.review(game_id, seat)

    async def _decisions(self, live: LiveGame, seat: int) -> tuple[list[int], int]:
        """A finished game's ``seat``: the move numbers of its player's decisions with a choice,
        and how many a bot made for them (reviewing.players_decisions, a replay: kept)."""
        key = (live.id, seat)
        known = self.decisions_known.get(key)
        if known is None:
            known = await asyncio.to_thread(
                reviewing.players_decisions,
                self.registry.storage,
                live.state.to_json(),
                live.id,
                seat,
            )
            self.decisions_known[key] = known
            while len(self.decisions_known) > KEPT_HINTS:
                self.decisions_known.pop(next(iter(self.decisions_known)))
        return known

    def _admit(self, asker: str, total: int) -> None:
        """:class:`Rejected` (429) when the queue is full, or the asker's share would be exceeded."""
        if len(self.reviews) >= MAX_REVIEWS:
            raise Rejected("busy", "the server is reviewing other games; try again shortly", 429)
        theirs = [r for r in self.reviews.values() if r.asker == asker]
        if len(theirs) >= CLIENT_REVIEWS:
            raise Rejected(
                "review-share",
                f"you have {len(theirs)} reviews waiting or under way, the most one player may "
                "have: wait for one to finish, or cancel one",
                429,
            )
        queued = sum(r.total - len(r.decisions) for r in theirs)
        if theirs and queued + total > CLIENT_DECISIONS:
            raise Rejected(
                "review-share",
                f"your reviews waiting or under way have {queued} decisions to go; with this "
                f"one's {total} that is more than one player's share ({CLIENT_DECISIONS}): wait "
                "for them to finish, or cancel one",
                429,
            )

    def _start_next(self) -> None:
        """Fill the free slots: the longest-waiting review of a client with none under way."""
        loop = asyncio.get_running_loop()
        while True:
            running = Counter(r.asker for r in self.reviews.values() if r.running)
            if sum(running.values()) >= REVIEW_SLOTS:
                return
            waiting = [r for r in self.reviews.values() if not r.running]
            job = next_review(waiting, running)
            if job is None:
                return
            job.running = True
            job.task = loop.create_task(self._run(job))

    async def _run(self, job: _Review) -> None:
        loop = asyncio.get_running_loop()
        try:
            for number in job.numbers:
                if job.cancelled:
                    log.info("review of seat %d of game %s cancelled", job.seat, job.game_id)
                    return
                decision = await loop.run_in_executor(
                    self.pool(), _review_move, job.saved, job.seat, number, job.seconds
                )
                job.decisions.append(decision)
            if job.cancelled:
                return
            result = {
                "game": job.game,
                "seat": job.seat,
                "decisions": job.decisions,
                "stood_in": job.stood_in,  # decisions a bot made for the player: left out
            }
            text = json.dumps(result)
            await self.registry.writer.run(
                lambda conn: conn.execute(
                    insert(reviews).values(
                        game_id=job.game_id, seat=job.seat, result=text, at=time.time()
                    )
                )
            )
        except Exception:  # a review is a courtesy: log it, never take the server down
            log.exception("review of seat %d of game %s failed", job.seat, job.game_id)
        finally:
            if self.reviews.get(job.key) is job:
                del self.reviews[job.key]
            if not job.cancelled:
                self._start_next()

    async def cancel_review(
        self, game_id: str, seat: int, asker: str, token: str | None
    ) -> dict[str, Any]:
        """Whoever asked for a review (its client, or the reviewed seat's player) cancels it: a
        waiting one leaves the queue, one under way stops after the decision it is on."""
        live = await self.registry.any_game(game_id)
        _check_seat(live, seat)
        if self.queued:
            raise Rejected(
                "no-cancel", "reviews computed by bot workers cannot be cancelled here", 409
            )
        job = self.reviews.get((game_id, seat))
        if job is None:
            raise Rejected("no-review", "this seat has no review waiting or under way", 404)
        if asker != job.asker and not self._holds_seat(live, seat, token):
            raise Rejected("not-yours", "only whoever asked for a review may cancel it", 403)
        job.cancelled = True
        del self.reviews[job.key]
        if job.running:
            self._start_next()  # its slot is free now; its current decision runs out meanwhile
        log.info("review of seat %d of game %s cancelled by %s", seat, game_id, asker)
        return {"status": "cancelled", "done": len(job.decisions), "total": job.total}

    @staticmethod
    def _holds_seat(live: LiveGame, seat: int, token: str | None) -> bool:
        try:
            return LiveGames.seat_for_token(live, token) == seat
        except Rejected:
            return False

    async def _queue(self, game_id: str, seat: int, total: int) -> dict[str, Any]:
        op = partial(
            reviewing.ask,
            game_id=game_id,
            seat=seat,
            total=total,
            seconds=decision_seconds(total, self.review_seconds),
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

    def position(self, job: _Review) -> int:
        """0 for a review under way, else its place among the waiting ones (1: next)."""
        if job.running:
            return 0
        waiting = [r for r in self.reviews.values() if not r.running]
        return waiting.index(job) + 1

    async def review(self, game_id: str, seat: int) -> dict[str, Any]:
        job = self.reviews.get((game_id, seat))
        if job is not None:
            return {
                "status": "running",
                "done": len(job.decisions),
                "total": job.total,
                "queued": not job.running,
                "position": self.position(job),
            }
        live = await self.registry.any_game(game_id)  # 404 for a game that does not exist
        _check_seat(live, seat)
        if self.queued:
            now = time.time()
            found = await asyncio.to_thread(
                reviewing.progress, self.registry.storage, game_id, seat, now
            )
            if found is not None:  # "queued": no worker has it (yet, or its lease ran out)
                return {
                    "status": "running",
                    "done": found.done,
                    "total": found.total,
                    "queued": not found.claimed,
                    "position": found.position,
                }
        stored = await self._stored(game_id, seat)
        if stored is None:
            if live.over:  # a seat with nothing to review says so, before anyone asks for it
                _check_decided(seat, *await self._decisions(live, seat))
            raise Rejected("no-review", "this seat's review has not been asked for", 404)
        # the decisions to show first, chosen here so the page, the terminal and any other client
        # name the same ones (analysis.worst: the marked ones, or else those that lost anything)
        costliest = analysis.worst(analysis.Review.from_json(stored), REVIEW_WORST)
        # "few_tries": a chance from fewer tries than a mark needs is too rough to show as a figure
        return {
            "status": "done",
            "review": stored,
            "worst": [d.move for d in costliest],
            "few_tries": analysis.MARK_TRIES,
        }


def _check_seat(live: LiveGame, seat: int) -> None:
    if not 0 <= seat < live.record.players:
        raise Rejected(
            "bad-seat", f"seat must be one of this game's seats, 0–{live.record.players - 1}"
        )


def _check_played(live: LiveGame, seat: int) -> None:
    """:class:`Rejected` (409) unless a person played ``seat``: a review is of a person's decisions."""
    if not any(played_by_a_person(live, s) for s in range(live.record.players)):
        raise Rejected(
            "bot-only",
            "every seat of this game was played by a bot: a review is of a person's decisions",
            409,
        )
    if not played_by_a_person(live, seat):
        who = live.seat(seat).bot or "a bot"
        raise Rejected(
            "bot-seat",
            f"seat {seat} was played by a bot ({who}), not a person: a review is of a person's "
            "decisions",
            409,
        )


def _check_decided(seat: int, numbers: list[int], stood_in: int) -> None:
    """:class:`Rejected` (409) when ``seat``'s player made no decision with a choice: a bot made
    them all (``stood-in``), or there were none (``no-decisions``: the game ended first, or every
    move of the seat was forced). A review of nothing would show an empty page."""
    if numbers:
        return
    if stood_in:
        raise Rejected(
            "stood-in",
            f"a bot made every decision of seat {seat} for its player: none of theirs to review",
            409,
        )
    raise Rejected(
        "no-decisions",
        f"seat {seat} made no decision in this game (it had no move with a choice before the "
        "game ended): there is nothing to review",
        409,
    )


def _review_move(saved: dict[str, Any], seat: int, number: int, seconds: float) -> dict[str, Any]:
    """One decision reviewed, in a worker process (plain data in and out)."""
    return asdict(analysis.review_move(saved, seat, number, seconds, seed=int(saved["seed"])))
