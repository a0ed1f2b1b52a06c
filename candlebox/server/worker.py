"""A bot worker (``candlebox bots-worker --db URL``): bots think here, not in the web processes.

It claims turns owed by bots from the ``bot_turns`` table (``FOR UPDATE SKIP LOCKED``, with a lease),
catches its copy of the game up from the moves table, lets the bot whose turn it is think (no longer
than the server's ``max_bot_seconds``, no sooner than the game's bot delay) and submits the move
through the same path as a client's (:class:`~candlebox.server.moves.Moves`: the ``(game_id,
number)`` key, the notification to the web processes). A worker killed mid-thought loses nothing: its
lease runs out and another worker (or itself, restarted) claims the turn again. It wakes on the
database's notifications and otherwise looks for work every ``POLL`` seconds. It also computes the
post-game reviews web processes queue (candlebox/server/reviewing.py), ``REVIEWS_AT_ONCE`` at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import socket
import time
from functools import partial

from sqlalchemy import Connection as SqlConnection

from candlebox.server.botplay import THINK_AGAIN, BotPlayers
from candlebox.server.config import Settings
from candlebox.server.errors import Rejected
from candlebox.server.frames import Frames
from candlebox.server.live import LiveGame
from candlebox.server.moves import Moves
from candlebox.server.notify import CatchUp, Listener
from candlebox.server.registry import LiveGames
from candlebox.server.reviewing import Reviewer
from candlebox.server.storage import Storage

log = logging.getLogger("candlebox.worker")
POLL = 1.0  # seconds between looks for work when no notification came
REVIEWS_AT_ONCE = 1  # reviews one worker computes at once (each a search per decision, in a thread)


class BotWorker:
    def __init__(self, settings: Settings, name: str | None = None) -> None:
        self.settings = settings
        self.name = name or f"{socket.gethostname()}:{os.getpid()}"
        self.games = LiveGames(settings, Storage(settings.db), Frames(settings))
        self.moves = Moves(self.games, lambda live: None)
        self.bots = BotPlayers(self.games, self.moves.submit)
        self.wake = asyncio.Event()
        self.playing: set[asyncio.Task[None]] = set()
        self.playing_bot_only: set[asyncio.Task[None]] = set()  # turns of bot-only tables
        self.reviewer = Reviewer(self.games, self.name)
        self.reviewing: set[asyncio.Task[None]] = set()
        self.review_look = 0.0  # when to look for queued reviews next (a notification: at once)
        self.checked: set[str] = set()  # games whose stored bot seats were checked
        # the moves made elsewhere in the games this worker holds, applied as heard, so a claimed
        # turn usually finds its copy current and reads nothing before thinking
        self.catching = CatchUp(self.games, lambda live: None)
        self.played = 0

    async def run(self, stop: asyncio.Event | None = None) -> None:
        """Play owed turns until ``stop`` is set (or for ever)."""
        stop = stop or asyncio.Event()
        listening = None
        if self.games.shared:
            listener = Listener(self.games.storage.url, self._heard)
            listening = asyncio.create_task(listener.forever())
        log.info("bot worker %s started", self.name)
        try:
            while not stop.is_set():
                room = self.settings.worker_games - len(self.playing)
                claimed = await self._claim(room) if room > 0 else []
                for game_id, number, bot_only in claimed:
                    task = asyncio.create_task(self.play(game_id, number))
                    self.playing.add(task)
                    task.add_done_callback(self.playing.discard)
                    if bot_only:
                        self.playing_bot_only.add(task)
                        task.add_done_callback(self.playing_bot_only.discard)
                await self._claim_reviews()
                if claimed and len(claimed) == room:
                    await asyncio.sleep(0.01)  # more may be waiting: look again soon
                    continue
                self.wake.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._either(self.wake, stop), POLL)
        finally:
            await self.close(listening)

    @staticmethod
    async def _either(a: asyncio.Event, b: asyncio.Event) -> None:
        waits = [asyncio.create_task(a.wait()), asyncio.create_task(b.wait())]
        try:
            await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in waits:
                task.cancel()

    def _heard(self, game_id: str, what: str) -> None:
        if what == "review":
            self.review_look = 0.0
        elif what != "presence":
            self.catching.heard(game_id, what)
        self.wake.set()

    async def _claim_reviews(self) -> None:
        """Queued reviews, looked for on their own notification or every ``POLL`` seconds (not on
        every move's notification: that would be a second transaction for each)."""
        room = REVIEWS_AT_ONCE - len(self.reviewing)
        now = time.monotonic()
        if room <= 0 or now < self.review_look:
            return
        self.review_look = now + POLL
        for job in await self.reviewer.claim(room):
            task = asyncio.create_task(self.reviewer.run(job))
            self.reviewing.add(task)
            task.add_done_callback(self.reviewing.discard)

    async def _claim(self, room: int) -> list[tuple[str, int, bool]]:
        """Owed turns to play: (game id, move number, bot-only) each. The turns of games with a
        person at the table are claimed first; bot-only tables' fill at most half of the turns this
        worker plays at once, so they never leave it no room for a person's game."""
        now, lease = time.time(), self.settings.bot_lease
        bot_room = max(1, self.settings.worker_games // 2) - len(self.playing_bot_only)

        def op(conn: SqlConnection) -> list[tuple[str, int, bool]]:
            claim = partial(Storage.claim_bot_turns, conn, self.name, now, lease)
            people = claim(room, bot_only=False)
            bots = claim(min(room - len(people), bot_room), bot_only=True)
            return [(*turn, False) for turn in people] + [(*turn, True) for turn in bots]

        try:
            claimed: list[tuple[str, int, bool]] = await self.games.writer.run(op)
        except Exception as exc:  # the database is away: look again later
            log.warning("claiming bot turns failed (%s)", exc)
            return []
        return claimed

    async def play(self, game_id: str, number: int) -> None:
        """One claimed turn: the move of the first bot to act at ``number``, or nothing owed."""
        try:
            done = await self._play(game_id, number)
        except Exception:
            log.exception("a bot turn in %s failed; it is claimed again after its lease", game_id)
            return
        if done is None:
            return
        with contextlib.suppress(Exception):  # if this fails the lease simply runs out
            await self.games.writer.run(
                partial(Storage.settle_bot_turn, game_id=game_id, number=number, done=done)
            )

    async def _play(self, game_id: str, number: int) -> bool | None:
        """True: no bot is to act (the row goes, unless a later move moved it on); False: release
        it to be claimed again; None: a move was made (its own transaction moved the row on). The
        row's number may be behind the game (a seat handed to a bot by a process whose copy was
        behind): the bot then answers the game's real move number."""
        try:
            live = await self.games.held(game_id)
        except Rejected:
            return True  # over, closed or gone
        if game_id not in self.checked:
            await self.bots.check_stored(live)
            self.checked.add(game_id)
        if live.moves < number or not self.games.shared:  # behind: a notification was missed
            async with live.lock:
                await self.games.catch_up(live)
        seat = self._bot_to_act(live)
        if seat is None:
            return True
        if self.bots.tables.due(live):  # a bot-only table's time limit: it stops, nothing owed
            await self.bots.tables.stop(live, "time-limit")
            return True
        number = live.moves
        action = await self.bots.think(live, live.seat(seat), number)
        async with live.lock:  # the seat may have been taken back while the bot thought
            await self.games.catch_up(live)
        try:
            await self.moves.submit(game_id, seat, action, number, bot=True)
        except Rejected as exc:
            if exc.code in THINK_AGAIN:
                return False
            log.warning("bot move refused in %s: %s", game_id, exc.message)
            return True
        self.played += 1
        if live.over:
            self.games.finished.pop(game_id, None)  # nothing to replay here
        return None

    @staticmethod
    def _bot_to_act(live: LiveGame) -> int | None:
        if live.over:
            return None
        for seat in live.state.to_act:
            if live.seat(seat).kind == "bot":
                return int(seat)
        return None

    async def close(self, listening: asyncio.Task[None] | None) -> None:
        tasks = [*self.playing, *self.reviewing]
        if listening is not None:
            tasks.append(listening)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await self.catching.stop()
        self.bots.stop()
        await self.moves.turns.settle()  # "your turn" notices of its moves, written first
        await asyncio.to_thread(self.games.writer.close)
        self.games.storage.close()


def run_worker(settings: Settings) -> None:
    """``candlebox bots-worker``: run until interrupted."""
    asyncio.run(BotWorker(settings).run())
