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

from sqlalchemy import Connection

from candlebox.server import clocks, ratings
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
            before = now - self.settings.expire_after
            closed += await self.games.writer.run(partial(Storage.expire_quiet, before=before))
            closed += await self._close_rated_elsewhere(before)
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

    async def _close_rated_elsewhere(self, before: float) -> list[str]:
        """Close the quiet rated games, each with its count in one transaction; one that fails is
        left live and logged, and the next sweep tries it again."""
        quiet = await self.games.writer.run(partial(Storage.quiet_rated, before=before))
        closed = []
        for game_id in quiet:
            try:
                if await self._close_rated(game_id):
                    closed.append(game_id)
            except Exception:
                log.exception("closing quiet rated game %s failed; the next sweep retries", game_id)
        return closed

    async def _close_rated(self, game_id: str) -> bool:
        """A rated game closed here without being held here (bot workers): rebuilt from its moves
        to see whom it waited for, then closed and counted in one transaction, so that no failure
        leaves it closed and uncounted. False when a move came meanwhile (it is not quiet)."""
        loaded = await asyncio.to_thread(self.games.storage.load_game, game_id)
        if loaded is None:
            return False
        record, moves = loaded
        ending = None
        try:
            ending = lost_on_time(self.games.rebuild(record, moves))
        except Exception:  # it does not replay: nobody can say whom it waited for
            log.exception("quiet game %s does not replay; closed, not counted", game_id)

        def op(conn: Connection) -> bool:
            if not Storage.expire_if_unmoved(conn, game_id, len(moves)):
                return False
            if ending is not None:
                ratings.game_ended(conn, record, ending)
            return True

        return bool(await self.games.writer.run(op))

    def _quiet(self, live: LiveGame, now: float) -> bool:
        allowed = self.settings.expire_after + clocks.allowance(live.record.clock)  # issue 35
        return now - live.active_at >= allowed

    async def _close(self, live: LiveGame, now: float) -> bool:
        if not self._quiet(live, now):
            return False
        async with live.lock:
            if live.id not in self.games.games or not self._quiet(live, now):
                return False
            ending = lost_on_time(live)

            def op(conn: Connection) -> None:
                Storage.set_status(conn, live.id, "expired")
                if ending is not None:
                    ratings.game_ended(conn, live.record, ending)

            await self.games.writer.run(op)
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


def lost_on_time(live: LiveGame) -> ratings.Ending | None:
    """A rated game closed for want of a move: the seats it waited for lost on time (there is no
    clock: this is how a seat is lost or abandoned); None for any other game, or a rated one
    closed before its first move (nobody played it: not counted)."""
    if not live.record.rated or live.moves == 0:
        return None
    return ratings.lost_on_time(live.record.players, live.state.to_act)
