"""Bots at the table: each bot seat whose turn it is gets an asyncio task that asks its bot (on a
clone of the state, in a thread pool so the event loop never waits) and submits the move like a
player; stored bot seats are checked against the server's bounds when a game is resumed."""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from functools import partial
from typing import Any

from candlebox.server import bots as botlib
from candlebox.server.errors import Rejected
from candlebox.server.live import LiveGame
from candlebox.server.registry import LiveGames
from candlebox.server.storage import SeatRecord, Storage

log = logging.getLogger("candlebox.server")
Submit = Callable[[str, int, str, int], Awaitable[int]]  # game id, seat, action, expect
# Refusals a bot's move may meet because the game moved on meanwhile: it thinks again.
THINK_AGAIN = ("stale", "conflict", "illegal", "bot-seat")


class BotPlayers:
    def __init__(self, games: LiveGames, submit: Submit) -> None:
        self.games = games
        self.settings = games.settings
        self.submit = submit
        self.pool = ThreadPoolExecutor(
            max_workers=self.settings.bot_threads, thread_name_prefix="candlebox-bot"
        )

    def schedule(self, live: LiveGame) -> None:
        if self.games.closed or live.over or self.settings.bots != "inline":
            return  # "workers": bot workers play (candlebox/server/worker.py)
        for seat in live.state.to_act:
            if live.seat(seat).kind == "bot" and seat not in live.bot_tasks:
                live.bot_tasks[seat] = asyncio.create_task(self._turns(live, seat))

    async def _turns(self, live: LiveGame, seat: int) -> None:
        try:
            while not self.games.closed:
                state, record = live.state, live.seat(seat)
                if state.is_over or seat not in state.to_act or record.kind != "bot":
                    return
                number = live.moves
                action = await self.think(live, record, number)
                try:
                    await self.submit(live.id, seat, action, number)
                except Rejected as exc:
                    if exc.code not in THINK_AGAIN:
                        log.warning("bot move refused in %s: %s", live.id, exc.message)
                        return
        except Rejected:
            return
        finally:
            if live.bot_tasks.get(seat) is asyncio.current_task():
                del live.bot_tasks[seat]

    async def think(self, live: LiveGame, record: SeatRecord, number: int) -> str:
        """The bot's choice, made no sooner than the game's bot delay after it started thinking."""
        loop = asyncio.get_running_loop()
        bot = self._bot(live, record, number)
        started = loop.time()
        snapshot = live.state.clone()
        try:
            action: str = await loop.run_in_executor(self.pool, bot.choose, snapshot, record.seat)
        except Exception:
            log.exception("bot %s failed in game %s; it plays at random", record.bot, live.id)
            action = random.choice(snapshot.legal_actions(record.seat))
        wait = live.record.bot_delay - (loop.time() - started)
        if wait > 0:
            await asyncio.sleep(wait)
        return action

    def _bot(self, live: LiveGame, record: SeatRecord, number: int) -> Any:
        bot = live.bots.get(record.seat)
        if bot is None:
            assert record.bot is not None
            bot = botlib.make(
                record.bot,
                record.params,
                live.record.seed,
                record.seat,
                number,
                self.settings.max_bot_seconds,
                live.record.game,
            )
            live.bots[record.seat] = bot
        return bot

    async def check_stored(self, live: LiveGame) -> None:
        """A stored bot seat is checked as a client's request would be: parameters outside the
        server's bounds (a hostile or old row) are clamped or dropped, with a log line, and the
        safe ones are stored; a bot that does not exist or play the game is replaced."""
        for record in live.record.seats:
            if record.kind != "bot":
                continue
            name = record.bot
            problems: list[str] = []
            try:
                name = botlib.check(name, live.record.game)
            except ValueError as exc:
                problems.append(f"{exc}; the heuristic bot plays instead")
                name = "heuristic"
            params, changed = botlib.sanitize(
                name, record.params, self.settings.max_bot_seconds, live.record.game
            )
            problems += changed
            if not problems:
                continue
            log.warning(
                "game %s seat %d: stored bot settings refused or clamped (%s)",
                live.id,
                record.seat,
                "; ".join(problems),
            )
            await self.games.writer.run(
                partial(
                    Storage.update_seat, game_id=live.id, seat=record.seat, bot=name, params=params
                )
            )
            record.bot, record.params = name, params

    def stop(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
