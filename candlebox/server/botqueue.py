"""Who thinks next: the bot work slots of a process (its bot processes, or its bot threads) handed
out so that the bots of games people play never queue behind bot-only tables.

Every bot decision takes a slot for its search (not for its table's bot delay, which it waits
without one). A slot that frees goes to the longest-waiting turn of a game with a person at it
first; a bot-only table's turn gets one only when no such turn waits, and bot-only tables hold at
most ``bot_only`` slots at once, so at least one slot is always left for the others (a process with
a single slot shares it, people's games first). Whether a game is bot-only follows from its stored
seats, so the order holds across a restart too.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass


@dataclass
class Waiting:
    game_id: str
    bot_only: bool
    granted: asyncio.Future[None]


class BotQueue:
    def __init__(self, slots: int, bot_only: int) -> None:
        self.slots = max(1, slots)
        # bot-only tables never take every slot: one at least stays with the games people play
        self.bot_only_slots = max(0, min(bot_only, self.slots - 1)) if self.slots > 1 else 1
        self.busy = 0
        self.busy_bot_only = 0
        self.people: deque[Waiting] = deque()  # turns of games with a person at the table
        self.bots: deque[Waiting] = deque()  # turns of bot-only tables

    @asynccontextmanager
    async def slot(self, game_id: str, bot_only: bool) -> AsyncIterator[None]:
        """Hold a slot for one decision's search (waiting in line for it first)."""
        await self._acquire(game_id, bot_only)
        try:
            yield
        finally:
            self._release(bot_only)

    def waiting(self, bot_only: bool) -> list[str]:
        """The games whose turns wait for a slot, in the order they will get one."""
        line = self.bots if bot_only else self.people
        return [item.game_id for item in line]

    async def _acquire(self, game_id: str, bot_only: bool) -> None:
        line = self.bots if bot_only else self.people
        if not line and self._fits(bot_only) and (bot_only is False or not self.people):
            self._take(bot_only)
            return
        item = Waiting(game_id, bot_only, asyncio.get_running_loop().create_future())
        line.append(item)
        try:
            await item.granted
        except asyncio.CancelledError:
            if item.granted.done() and not item.granted.cancelled():
                self._release(bot_only)  # granted as it was cancelled: hand the slot on
            elif item in line:
                line.remove(item)
            raise

    def _fits(self, bot_only: bool) -> bool:
        if self.busy >= self.slots:
            return False
        return not bot_only or self.busy_bot_only < self.bot_only_slots

    def _take(self, bot_only: bool) -> None:
        self.busy += 1
        self.busy_bot_only += bot_only

    def _release(self, bot_only: bool) -> None:
        self.busy -= 1
        self.busy_bot_only -= bot_only
        self._hand_on()

    def _hand_on(self) -> None:
        """Free slots to the waiting turns: people's games first, then bot-only tables."""
        for line, bot_only in ((self.people, False), (self.bots, True)):
            while line and self._fits(bot_only):
                item = line.popleft()
                if item.granted.done():  # cancelled while waiting
                    continue
                self._take(bot_only)
                item.granted.set_result(None)
