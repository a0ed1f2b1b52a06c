"""Abandoned and old games: a live game with no move for ``expire_after`` seconds is closed (its
watchers are told and let go; it leaves every list), finished or closed games are deleted
``keep_finished`` seconds after they ended, and a bot-only table past its time limit is stopped (its
bots stop it at their next turn; the sweep catches one whose bots are not playing). Ended sessions,
reset and confirmation links and passkey ceremonies, failed sign-ins counted long enough ago, and
mail sent (or given up) a month ago are deleted by the same sweep."""

from __future__ import annotations

import asyncio
import logging
import time
from functools import partial

from candlebox.server.bottables import BotTables
from candlebox.server.frames import closed_frame
from candlebox.server.live import LiveGame
from candlebox.server.registry import LiveGames
from candlebox.server.storage import Storage

log = logging.getLogger("candlebox.server")


class Sweeper:
    def __init__(self, games: LiveGames) -> None:
        self.games = games
        self.settings = games.settings
        self.tables = BotTables(games)

    async def forever(self) -> None:
        while not self.games.closed:
            await asyncio.sleep(self.settings.sweep_every)
            try:
                await self.sweep()
            except Exception:  # the database may be down for a while: try again next time
                log.exception("the sweep for expired games failed")

    async def sweep(self, now: float | None = None) -> tuple[list[str], list[str]]:
        """Close abandoned games and delete old ones. Returns (closed ids, deleted ids)."""
        now = time.time() if now is None else now
        await self.tables.stop_due(now)
        closed = [
            live.id for live in list(self.games.games.values()) if await self._close(live, now)
        ]
        if self.settings.bots == "workers":  # games no process of this one's holds
            closed += await self.games.writer.run(
                partial(Storage.expire_quiet, before=now - self.settings.expire_after)
            )
        cutoff = now - self.settings.keep_finished
        deleted: list[str] = await self.games.writer.run(
            partial(Storage.delete_ended, before=cutoff)
        )
        for game_id in deleted:
            self.games.finished.pop(game_id, None)
        await self.games.writer.run(
            partial(Storage.forget_expired_sign_ins, now=now, window=self.settings.sign_in_window)
        )
        if closed or deleted:
            log.info("closed %d abandoned games, deleted %d old ones", len(closed), len(deleted))
        return closed, deleted

    def _quiet(self, live: LiveGame, now: float) -> bool:
        return now - live.active_at >= self.settings.expire_after

    async def _close(self, live: LiveGame, now: float) -> bool:
        if not self._quiet(live, now):
            return False
        async with live.lock:
            if live.id not in self.games.games or not self._quiet(live, now):
                return False
            await self.games.writer.run(
                partial(Storage.set_status, game_id=live.id, status="expired")
            )
            live.record.status = "expired"
            self.games.games.pop(live.id, None)
        for task in live.bot_tasks.values():
            task.cancel()
        frame = closed_frame()
        for conns in live.watchers.values():
            for conn in conns:
                conn.push(frame)
                conn.close()
        return True
