"""Leaving a game before its end: a player resigns (the game ends with their seat last, rulings
EG-1), or the host abandons a game nobody else plays in (it is closed and leaves every list)."""

from __future__ import annotations

from functools import partial
from typing import Any

from sqlalchemy import Connection

from candlebox.engine.leaving import resignation
from candlebox.server import ratings
from candlebox.server.errors import Rejected
from candlebox.server.frames import closed_frame
from candlebox.server.live import ABANDONED_MESSAGE, LiveGame
from candlebox.server.registry import LiveGames
from candlebox.server.storage import Storage


class Leaving:
    def __init__(self, games: LiveGames) -> None:
        self.games = games

    def _still_live(self, live: LiveGame) -> None:
        """Checked under the game's lock: it may have ended or been closed while we waited."""
        if live.over:
            raise Rejected("over", "the game is over", 409)
        if live.id not in self.games.games or live.record.status != "live":
            raise Rejected("closed", "this game is no longer being played", 410)

    async def resign(
        self, game_id: str, token: str | None, account_id: int | None = None
    ) -> dict[str, Any]:
        """The seat ``token`` (else the signed-in ``account_id``) holds resigns: the game ends at
        once; returns its result."""
        live = self.games.live(game_id)
        seat = self.games.seat_for_token(live, token, account_id)
        async with live.lock:
            self._still_live(live)
            outcome = resignation(live.record.players, seat).as_result()
            ending = ratings.resignation(live.record.players, seat)  # a loss, at a rated table too

            def op(conn: Connection) -> None:
                Storage.set_status(conn, live.id, "resigned", outcome)
                ratings.game_ended(conn, live.record, ending)

            await self.games.writer.run(op)
            live.record.status, live.record.result = "resigned", outcome
            self.games.frames.broadcast(live)  # every watcher sees the game over, and why
        self._stop_bots(live)
        self.games.games.pop(live.id, None)
        self.games.keep_finished(live)
        return outcome

    async def abandon(self, game_id: str, token: str | None, account_id: int | None = None) -> None:
        """The only player of the game closes it: allowed while no other seat has been taken by a
        person (bots do not count); otherwise the other players would lose their game."""
        live = self.games.live(game_id)
        seat = self.games.seat_for_token(live, token, account_id)
        async with live.lock:
            self._still_live(live)
            joined = [s.seat for s in live.record.seats if s.seat != seat and s.token_hash]
            if joined:
                names = ", ".join(str(n + 1) for n in joined)
                raise Rejected(
                    "not-alone",
                    f"another player has joined (seat {names}): resign instead of abandoning",
                    409,
                )
            await self.games.writer.run(
                partial(Storage.set_status, game_id=live.id, status="abandoned")
            )
            live.record.status = "abandoned"
            self.games.games.pop(live.id, None)
        self._stop_bots(live)
        frame = closed_frame("abandoned", ABANDONED_MESSAGE)
        for conns in live.watchers.values():
            for conn in conns:
                conn.push(frame)
                conn.close()

    @staticmethod
    def _stop_bots(live: LiveGame) -> None:
        for task in live.bot_tasks.values():
            task.cancel()
