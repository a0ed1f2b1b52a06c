"""Bots at the table: each bot seat whose turn it is gets an asyncio task that asks its bot (on a
clone of the state, off the event loop) and submits the move like a player; stored bot seats are
checked against the server's bounds when a game is resumed.

A web process that plays its own bots (``bots="inline"``) lets them think in a pool of
``bot_processes`` child processes, its built-in bot worker: a search there holds the child's
interpreter, not the one answering the players. Each child keeps the bots it made between turns,
keyed by what made them; a child that dies mid-thought is replaced and the turn thought again. A web
process whose bots are played by bot workers (``bots="workers"``) starts the children at its first
hint, which is searched there. A bot worker process (``worker.py``) and ``bot_processes=0`` think in
threads.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from candlebox.engine import State
from candlebox.server import bots as botlib
from candlebox.server.botqueue import BotQueue
from candlebox.server.bottables import BotTables, bot_only
from candlebox.server.children import process_pool
from candlebox.server.errors import Rejected
from candlebox.server.live import LiveGame
from candlebox.server.registry import LiveGames
from candlebox.server.storage import SeatRecord, Storage

log = logging.getLogger("candlebox.server")
Submit = Callable[[str, int, str, int], Awaitable[int]]  # game id, seat, action, expect
# Refusals a bot's move may meet because the game moved on meanwhile: it thinks again.
THINK_AGAIN = ("stale", "conflict", "illegal", "bot-seat")
T = TypeVar("T")
KEPT_BOTS = 512  # seats' bots a bot process keeps between turns (the least recently used go)


@dataclass(frozen=True)
class BotKey:
    """What makes a seat's bot (``bots.make``'s arguments), sent with each turn to the bot process,
    which keeps the bot it made from it: the same key, the same bot, its random state carried on."""

    live_id: str
    name: str
    params: str  # JSON, keys sorted: a hashable form of the parameters
    game_seed: int
    seat: int
    generation: int
    max_seconds: float
    game: str

    def make(self) -> Any:
        return botlib.make(
            self.name,
            json.loads(self.params),
            self.game_seed,
            self.seat,
            self.generation,
            self.max_seconds,
            self.game,
        )


_KEPT: OrderedDict[BotKey, Any] = OrderedDict()  # in a bot process: the bots it made


def choose_in_process(key: BotKey, state: State) -> str:
    """In a bot process: the seat's bot (made, or kept from its last turn) chooses."""
    bot = _KEPT.pop(key, None)
    if bot is None:
        bot = key.make()
    _KEPT[key] = bot
    while len(_KEPT) > KEPT_BOTS:
        _KEPT.popitem(last=False)
    action: str = bot.choose(state, key.seat)
    return action


def _ready() -> None:
    """Nothing: sent to a new bot process so that it imports this module (and with it the bots and
    the games) before the first turn needs them."""


class BotPlayers:
    def __init__(self, games: LiveGames, submit: Submit, processes: int = 0) -> None:
        self.games = games
        self.settings = games.settings
        self.submit = submit
        self.pool = ThreadPoolExecutor(
            max_workers=self.settings.bot_threads, thread_name_prefix="candlebox-bot"
        )
        self.processes = processes  # the built-in bot worker's size; 0: threads
        self._process_pool: ProcessPoolExecutor | None = None
        # the slots the bots think in, the games people play served first
        slots = processes if processes > 0 else self.settings.bot_threads
        self.queue = BotQueue(slots, self.settings.bot_table_slots)
        self.tables = BotTables(games)  # bot-only tables' time limit (and their creators' stop)

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
                if live.over or seat not in state.to_act or record.kind != "bot":
                    return
                if self.tables.due(live):
                    await self.tables.stop(live, "time-limit")
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
        """The bot's choice, made no sooner than the game's bot delay after it started thinking.
        Its search waits for a slot of :attr:`queue` (a bot-only table's behind every game with a
        person at it); the delay is waited without one."""
        loop = asyncio.get_running_loop()
        bot = self._bot(live, record, number)
        started = loop.time()
        snapshot = live.state.clone()
        try:
            async with self.queue.slot(live.id, bot_only(live.record)):
                search = asyncio.ensure_future(self._search(bot, snapshot, record.seat))
                try:
                    action = await asyncio.shield(search)
                except asyncio.CancelledError:
                    # the turn ends now (its table stopped), but a search cannot be interrupted:
                    # its process or thread, and so its slot, stays busy until it ends
                    await asyncio.wait([search])
                    raise
        except Exception:
            log.exception("bot %s failed in game %s; it plays at random", record.bot, live.id)
            action = random.choice(snapshot.legal_actions(record.seat))
        wait = live.record.bot_delay - (loop.time() - started)
        if wait > 0:
            await asyncio.sleep(wait)
        return action

    async def _search(self, bot: Any, snapshot: State, seat: int) -> str:
        """The bot's choice: in a bot process (``bot`` is its key) or a bot thread."""
        if isinstance(bot, BotKey):
            return await self.elsewhere(choose_in_process, bot, snapshot)
        choose = partial(bot.choose, snapshot, seat)
        action: str = await asyncio.get_running_loop().run_in_executor(self.pool, choose)
        return action

    async def elsewhere(self, work: Callable[..., T], *args: Any) -> T:
        """``work(*args)`` in a bot process (a thread of this process without them): for searches
        the players' requests must not wait on, a bot's choice or a hint. A pool whose process
        died (killed, out of memory) is replaced and asked once more; only then does a bot's
        caller fall back to a random move."""
        if self.processes <= 0:
            return await asyncio.to_thread(work, *args)
        for attempt in (1, 2):
            try:
                return await asyncio.wrap_future(self._processes().submit(work, *args))
            except BrokenProcessPool:
                log.warning("the bot process stopped (attempt %d); starting another", attempt)
                self._stop_processes()
        raise RuntimeError("the bot process stopped twice")

    def warm(self) -> None:
        """Start the bot process (if this process has one) without waiting for it: spawning it
        and importing the games takes about a second, which the first bot turn would otherwise wait."""
        if self.processes > 0:
            self._processes().submit(_ready)

    def _processes(self) -> ProcessPoolExecutor:
        if self._process_pool is None:
            self._process_pool = process_pool(self.processes)
        return self._process_pool

    def _stop_processes(self) -> None:
        if self._process_pool is not None:
            self._process_pool.shutdown(wait=False, cancel_futures=True)
            self._process_pool = None

    def _bot(self, live: LiveGame, record: SeatRecord, number: int) -> Any:
        """The seat's bot: made here (threads), or its key, by which the bot process makes it."""
        bot = live.bots.get(record.seat)
        if bot is None:
            assert record.bot is not None
            key = BotKey(
                live.id,
                record.bot,
                json.dumps(record.params, sort_keys=True),
                live.record.seed,
                record.seat,
                number,
                self.settings.max_bot_seconds,
                live.record.game,
            )
            bot = live.bots[record.seat] = key if self.processes > 0 else key.make()
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
        self._stop_processes()
