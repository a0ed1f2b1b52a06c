"""A move: per-game lock → the move number it answers → the engine's verdict (``State.refusal``:
malformed text or an illegal move, refused in the engine's words) → committed to the database → applied
→ broadcast → bots whose turn it is are scheduled."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from sqlalchemy import Connection

from candlebox.engine import MalformedAction
from candlebox.server import clocks
from candlebox.server.errors import Rejected
from candlebox.server.live import ABANDONED_MESSAGE, CLOSED_MESSAGE, LiveGame
from candlebox.server.metrics import Histogram
from candlebox.server.notices import TurnNotices
from candlebox.server.registry import LiveGames
from candlebox.server.storage import MoveConflict, MoveRecord, Storage

log = logging.getLogger("candlebox.server")
RETRIES = 3  # catch up and check again at most this often when other processes move first


class Moves:
    def __init__(self, games: LiveGames, schedule_bots: Callable[[LiveGame], None]) -> None:
        self.games = games
        self.schedule_bots = schedule_bots
        self.stats = {"moves": 0, "bot_moves": 0, "rejected": 0}
        self.latency = Histogram()  # seconds from a move's arrival to its broadcast
        self.turns = TurnNotices(games)  # "your turn" notices, written after the broadcast

    async def submit(
        self, game_id: str, seat: int, action: str, expect: int, bot: bool = False
    ) -> int:
        """Apply ``seat``'s ``action`` answering move ``expect``; returns its move number once it is
        committed and broadcast. Anything refused raises :class:`Rejected` and changes nothing.

        Several processes may hold the game: the database's ``(game_id, number)`` key decides which
        move is move *n*. A process whose copy is behind (a move that answers a later number than it
        has, or a conflict on insert) catches up from the moves table and checks the move again."""
        started = time.monotonic()
        live = await self.games.held(game_id)
        async with live.lock:
            for attempt in range(RETRIES):
                if expect > live.moves or attempt > 0:
                    await self.games.catch_up(live)
                self._check(live, seat, action, expect, bot)
                now = self.games.settings.clock_now()
                tick = clocks.after_move(live, seat, action, now)  # None: no clock
                waiting = self.turns.waiting(live)
                try:
                    number = await self._commit(live, MoveRecord(live.moves, seat, action), tick)
                except MoveConflict:
                    continue
                break
            else:
                raise Rejected("conflict", "another move was recorded first; try again", 409)
            live.state.apply(seat, action)  # legal, so this cannot fail
            live.moves += 1
            clocks.ticked(live, tick)
            live.active_at = time.time()
            self.stats["moves"] += 1
            self.stats["bot_moves"] += bot
            self.games.frames.broadcast(live)
            self.turns.after_move(live, waiting)
            if live.over:
                await self.games.record_result(live)
        if live.over:
            self.games.games.pop(game_id, None)
            self.games.keep_finished(live)
        else:
            self.schedule_bots(live)
        self.latency.observe(time.monotonic() - started)
        return number

    def _check(self, live: LiveGame, seat: int, action: str, expect: int, bot: bool) -> None:
        if live.record.status == "expired":  # closed while this move waited for the lock
            raise Rejected("closed", CLOSED_MESSAGE, 410)
        if live.record.status == "abandoned":
            raise Rejected("abandoned", ABANDONED_MESSAGE, 410)
        if live.over:
            raise Rejected("over", "the game is over; no move is legal", 409)
        if not bot and live.seat(seat).kind == "bot":
            raise Rejected("bot-seat", f"a bot plays seat {seat} now; take it back first", 409)
        if bot and live.seat(seat).kind != "bot":  # taken back while the bot thought
            raise Rejected("bot-seat", f"a player took seat {seat} back from the bot", 409)
        if expect != live.moves:
            refuse_repeat(live, seat, action, expect)
            raise Rejected(
                "stale",
                f"the game has moved on: that answers move {expect}, the game is at move "
                f"{live.moves}",
                409,
            )
        refused = live.state.refusal(seat, action)
        if refused is not None:
            self.stats["rejected"] += 1
            if isinstance(refused, MalformedAction):
                raise Rejected("malformed-action", str(refused), 422)
            raise Rejected("illegal", str(refused), 422)

    async def _commit(
        self, live: LiveGame, move: MoveRecord, tick: clocks.Tick | None = None
    ) -> int:
        """Record the move (MoveConflict if another process recorded move *n* first), with, in one
        transaction, the bot turn it may make owed (bot workers), the clocks it stops and starts,
        and the notification to the other processes."""
        owes = self.games.settings.bots == "workers" and any(
            seat.kind == "bot" for seat in live.record.seats
        )

        def op(conn: Connection) -> None:
            Storage.record_move(conn, live.id, move, owe_next=owes)
            if tick is not None:
                tick.write(conn)

        try:
            await self.games.writer.run(op)
        except MoveConflict:
            raise
        except Exception:
            log.exception("move %d of %s could not be saved", move.number, live.id)
            raise Rejected(
                "unavailable", "the move could not be saved just now; try again shortly", 503
            ) from None
        return move.number


def refuse_repeat(live: LiveGame, seat: int, action: str, expect: int) -> None:
    """A move answering a move number that is already taken by this very move (a retry, a double
    click, a resent message): refused, naming it, never applied again."""
    history = live.state.history
    if 0 <= expect < len(history) and tuple(history[expect]) == (seat, action):
        raise Rejected(
            "duplicate",
            f"{action!r} was already applied as move {expect}; it is not applied again",
            409,
        )
