"""Bot-only tables: games with no human seat (docs/server.md, "Bot-only tables").

Nobody holds a seat credential in such a game and its bots never go idle, so the server bounds them:
a client address may have ``max_bot_tables`` live at once; their creator is given a credential
(``owner_token``, stored hashed) with which ``POST /api/games/{id}/stop`` ends one; and each stops
itself ``bot_table_seconds`` after its creation (the time is stored, so it holds across a restart).
A stopped table is over, with nobody winning and the reason in its result, and its bots stop at once.
Their bots also yield to the bots of games people play (:class:`~candlebox.server.botqueue.BotQueue`).
"""

from __future__ import annotations

import asyncio
import logging
import time
from functools import partial
from typing import Any

from candlebox.server import security
from candlebox.server.errors import Rejected
from candlebox.server.live import LiveGame
from candlebox.server.registry import LiveGames
from candlebox.server.storage import GameRecord, Storage

log = logging.getLogger("candlebox.server")
# why a table stopped, as its result says it (``result["stopped"]`` is the key)
STOPPED_BY = {
    "creator": "its creator stopped this bot-only table",
    "time-limit": "this bot-only table reached its time limit",
}
# one answer for every stop without the table's credential, whatever the game (or no game)
NOT_YOURS = "that credential does not stop this game"


def bot_only(record: GameRecord) -> bool:
    """No seat is a person's: every seat is a bot nobody took over from a player."""
    return bool(record.seats) and all(
        seat.kind == "bot" and seat.token_hash is None and seat.invite_hash is None
        for seat in record.seats
    )


def stop_at(record: GameRecord, limit: float) -> float | None:
    """When a bot-only table stops itself (None: it does not, or it is not one). A table made
    before bot-only tables had a row stops ``limit`` seconds after its creation."""
    if not bot_only(record):
        return None
    if record.table is not None:
        return record.table.stop_at
    return record.created_at + limit if limit > 0 else None


def stopped_result(players: int, reason: str) -> dict[str, Any]:
    """A stopped table's result: nobody wins, and why it ended."""
    return {
        "winners": [],
        "scores": [0.0] * players,
        "stopped": reason,
        "message": STOPPED_BY[reason],
    }


class BotTables:
    def __init__(self, games: LiveGames) -> None:
        self.games = games
        self.settings = games.settings

    def check_room(self, client: str | None, seats: list[Any]) -> None:
        """429 when ``client`` already has ``max_bot_tables`` live bot-only tables and asks for
        another (``seats``: the creation's seat specs)."""
        cap = self.settings.max_bot_tables
        if client is None or cap <= 0 or any(seat.kind != "bot" for seat in seats):
            return
        mine = sum(
            1
            for live in self.games.games.values()
            if live.creator == client and not live.over and bot_only(live.record)
        )
        if mine >= cap:
            raise Rejected(
                "too-many-bot-tables",
                f"you already have {mine} bot-only tables playing (at most {cap} at once, "
                "max_bot_tables); stop one with its owner_token or let it finish first",
                429,
            )

    def due(self, live: LiveGame, now: float | None = None) -> bool:
        """Whether a live bot-only table has reached its time limit."""
        if live.over or live.record.status != "live":
            return False
        deadline = stop_at(live.record, self.settings.bot_table_seconds)
        return deadline is not None and (time.time() if now is None else now) >= deadline

    async def stop_by_owner(self, game_id: str, token: str | None) -> None:
        """The creator's stop: 403 for any credential but the table's own (and for a game that
        does not exist), 409 when the table is already over."""
        try:
            live = await self.games.any_game(game_id)
        except Rejected:
            raise Rejected("credential", NOT_YOURS, 403) from None
        table = live.record.table
        if table is None or not security.matches(token, table.owner_hash):
            raise Rejected("credential", NOT_YOURS, 403)
        if not await self.stop(live, "creator"):
            raise Rejected("over", "the game is over", 409)

    async def stop(self, live: LiveGame, reason: str) -> bool:
        """End a live bot-only table for ``reason`` (a key of ``STOPPED_BY``): stored, shown to
        its watchers, and its bots stopped. False when it was already over."""
        async with live.lock:
            if live.over or live.record.status != "live":
                return False
            result = stopped_result(live.record.players, reason)
            op = partial(Storage.stop_table, game_id=live.id, result=result)
            if not await self.games.writer.run(op):
                return False  # another process ended it first: catching up will show it
            live.record.status, live.record.result = "stopped", result
            self.games.frames.broadcast(live)  # every watcher sees the game over, and why
        self._stop_bots(live)
        self.games.games.pop(live.id, None)
        self.games.keep_finished(live)
        log.info("bot-only table %s stopped (%s)", live.id, reason)
        return True

    @staticmethod
    def _stop_bots(live: LiveGame) -> None:
        """Cancel the table's bot turns (a turn waiting for a bot slot leaves the queue at once);
        the turn that asked for the stop, if any, ends by itself."""
        current = asyncio.current_task()
        for task in list(live.bot_tasks.values()):
            if task is not current:
                task.cancel()

    async def stop_due(self, now: float | None = None) -> list[str]:
        """Stop every held bot-only table past its time limit; returns their ids."""
        due = [live for live in list(self.games.games.values()) if self.due(live, now)]
        return [live.id for live in due if await self.stop(live, "time-limit")]
