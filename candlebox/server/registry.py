"""The games this process holds: live ones, and finished ones rebuilt from the database on demand
(for replays); each rebuilt by replaying its stored moves through the engine."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict
from functools import partial

from sqlalchemy import Connection

import candlebox
from candlebox.server import ratings, security
from candlebox.server.config import Settings
from candlebox.server.errors import Rejected
from candlebox.server.frames import Frames
from candlebox.server.live import ABANDONED_MESSAGE, CLOSED_MESSAGE, ENDED_EARLY, LiveGame
from candlebox.server.packs import fresh_state
from candlebox.server.storage import GameRecord, MoveRecord, Storage, Writer

log = logging.getLogger("candlebox.server")


class LiveGames:
    def __init__(self, settings: Settings, storage: Storage, frames: Frames) -> None:
        self.settings = settings
        self.storage = storage
        self.writer = Writer(storage)
        self.frames = frames
        self.games: dict[str, LiveGame] = {}
        self.finished: OrderedDict[str, LiveGame] = OrderedDict()  # rebuilt on demand
        self.closed = False
        # PostgreSQL: other processes may share the database (moves, seats); SQLite: this one only
        self.shared = storage.engine.dialect.name == "postgresql"

    def rebuild(self, record: GameRecord, moves: list[MoveRecord]) -> LiveGame:
        state = fresh_state(self.settings, record)
        for expected, move in enumerate(moves):
            if move.number != expected:
                raise ValueError(f"move {expected} is missing (found {move.number})")
            state.apply(move.seat, move.action)
        live = LiveGame(record=record, state=state, moves=len(moves))
        live.events_sent = state.event_count
        live.title = candlebox.game_info(record.game).title
        return live

    async def resume(self, game_id: str) -> LiveGame | None:
        """A stored live game rebuilt at start-up; None when it does not replay (it is then marked
        broken) or is over (it is then recorded as over and kept for replays)."""
        loaded = await asyncio.to_thread(self.storage.load_game, game_id)
        if loaded is None:
            return None
        try:
            live = self.rebuild(*loaded)
        except Exception as exc:
            log.error("game %s does not replay (%s); marked broken", game_id, exc)
            await self.writer.run(partial(Storage.set_status, game_id=game_id, status="broken"))
            return None
        if live.over:
            await self.record_result(live)
            self.keep_finished(live)
            return None
        return live

    # ------------------------------------------------------------------ finding games
    def live(self, game_id: str) -> LiveGame:
        live = self.games.get(game_id)
        if live is None:
            if game_id in self.finished:
                raise Rejected("over", "the game is over", 409)
            raise Rejected("no-game", f"there is no game {game_id!r} in progress", 404)
        return live

    async def held(self, game_id: str) -> LiveGame:
        """A live game to change (a move, a seat): this process's copy, or loaded from the database
        when another process created it or this one has not held it yet."""
        live = self.games.get(game_id)
        if live is not None:
            return live
        if game_id not in self.finished:
            live = await self.any_game(game_id)
            if not live.over:
                return live
        raise Rejected("over", "the game is over", 409)

    async def any_game(self, game_id: str) -> LiveGame:
        """A live game, or a finished one rebuilt from the database."""
        live = self.games.get(game_id) or self.finished.get(game_id)
        if live is not None:
            return live
        if len(game_id) > 32:
            raise Rejected("no-game", "there is no such game", 404)
        loaded = await asyncio.to_thread(self.storage.load_game, game_id)
        if loaded is None:
            raise Rejected("no-game", f"there is no game {game_id!r}", 404)
        record, moves = loaded
        if record.status == "broken":
            raise Rejected("broken", "this game's record does not replay", 410)
        if record.status == "expired":
            raise Rejected("closed", CLOSED_MESSAGE, 410)
        if record.status == "abandoned":
            raise Rejected("abandoned", ABANDONED_MESSAGE, 410)
        live = self.games.get(game_id) or self.finished.get(game_id)  # loaded meanwhile?
        if live is not None:
            return live
        live = self.rebuild(record, moves)
        if not live.over:  # the record says live but this process does not have it: should not be
            self.games[game_id] = live
            return live
        self.keep_finished(live)
        return live

    def keep_finished(self, live: LiveGame) -> None:
        self.finished[live.id] = live
        self.finished.move_to_end(live.id)
        while len(self.finished) > self.settings.finished_in_memory:
            oldest, game = next(iter(self.finished.items()))
            if any(game.watchers.values()):
                break
            del self.finished[oldest]

    @staticmethod
    def seat_for_token(live: LiveGame, token: str | None, account_id: int | None = None) -> int:
        """The seat whose credential ``token`` is, else (``account_id``: a signed-in player's
        checked session) the seat that account holds; :class:`Rejected` (403) for anything else.
        The account is a credential of its own, so that a player who signed in on another device
        plays there without the seat link's token, which the first device keeps."""
        if security.well_formed(token):
            assert isinstance(token, str)
            digest = security.digest(token)
            for seat in live.record.seats:
                if seat.token_hash is not None and seat.token_hash == digest:
                    return seat.seat
        if account_id is not None:
            for seat in live.record.seats:
                if seat.account_id == account_id and seat.token_hash is not None:
                    return seat.seat
        raise Rejected("credential", "that credential is not valid for this game", 403)

    async def seat_of(
        self, live: LiveGame, token: str | None, account_id: int | None = None
    ) -> int:
        """:meth:`seat_for_token`, after catching up once when another process may have given the
        seat its credential or its account (a player who claimed it there and connects here)."""
        try:
            return self.seat_for_token(live, token, account_id)
        except Rejected:
            asked = security.well_formed(token) or account_id is not None
            if not self.shared or live.over or not asked:
                raise
        async with live.lock:
            await self.catch_up(live)
        return self.seat_for_token(live, token, account_id)

    # ------------------------------------------------------------------ records
    async def record_result(self, live: LiveGame) -> None:
        """The game was played to its end: its result, and (in the same transaction, once) its
        players' records and ratings."""
        state = live.state
        result = {"winners": list(state.winners), "scores": list(state.scores)}
        live.record.status, live.record.result = "over", result
        ending = ratings.played_out(state)

        def op(conn: Connection) -> None:
            Storage.set_status(conn, live.id, "over", result)
            ratings.game_ended(conn, live.record, ending)

        await self.writer.run(op)

    async def catch_up(self, live: LiveGame) -> bool:
        """Apply the moves (and seat changes) other processes recorded since this process's copy of
        the game; broadcast them to its watchers. True if anything changed. The caller holds
        ``live.lock``."""
        # from this copy's last move: whether the tables still have it (a take-back elsewhere)
        loaded = await asyncio.to_thread(self.storage.since, live.id, max(0, live.moves - 1))
        if loaded is None:
            return False
        record, moves = loaded
        if record.status in ENDED_EARLY and live.record.status == "live":
            self._ended_elsewhere(live, record)
            return True
        if live.moves > 0:
            if not moves or _differs(live, moves[0]):  # taken back elsewhere, perhaps moved on
                self.frames.take_backs.forget(live)
                await self.resync(live)
                return True
            moves = moves[1:]
        changed = _seats_changed(live, record)
        if changed:
            live.record.seats = record.seats
            live.bots.clear()  # a bot handed back or replaced: made afresh when next needed
        for move in moves:
            if move.number != live.moves:  # a gap: should not be, so start from scratch
                await self.resync(live)
                return True
            live.state.apply(move.seat, move.action)
            live.moves += 1
        if moves:
            self._moved_elsewhere(live)
        elif changed:
            self.frames.broadcast_seats(live)
        return bool(moves) or changed

    async def apply_heard(self, live: LiveGame, number: int, seat: int, action: str) -> bool:
        """A move another process committed, as its notification carried it, applied and broadcast
        without reading the moves table when this copy is exactly at move ``number``; nothing when
        the copy is past it. False when the copy is behind it: the caller must :meth:`catch_up`.
        The caller holds ``live.lock``. The move was checked by the process that committed it,
        under the same rules; should this copy refuse it all the same, it is rebuilt from the
        database."""
        if number < live.moves or live.over:
            return True
        if number > live.moves:
            return False
        if live.state.refusal(seat, action) is not None:
            log.warning("a heard move %d of %s does not fit this copy; reloading", number, live.id)
            await self.resync(live)
            return True
        live.state.apply(seat, action)
        live.moves += 1
        self._moved_elsewhere(live)
        return True

    def _ended_elsewhere(self, live: LiveGame, record: GameRecord) -> None:
        """Another process ended the game early (a resignation, a bot-only table's stop): no move
        may follow here; its watchers here are shown why, and it is kept for replays."""
        live.record.status, live.record.result = record.status, record.result
        self.frames.broadcast(live)
        current = asyncio.current_task()
        for task in list(live.bot_tasks.values()):
            if task is not current:  # the turn that caught up ends by itself
                task.cancel()
        if self.games.get(live.id) is live:
            self.games.pop(live.id, None)
            self.keep_finished(live)

    def _moved_elsewhere(self, live: LiveGame) -> None:
        live.active_at = time.time()
        self.frames.broadcast(live)
        if live.over and live.id in self.games:
            state = live.state  # the process that made the last move records the result
            live.record.status = "over"
            live.record.result = {"winners": list(state.winners), "scores": list(state.scores)}
            self.games.pop(live.id, None)
            self.keep_finished(live)

    async def resync(self, live: LiveGame) -> None:
        """Another writer recorded moves this process has not applied: rebuild from the database."""
        loaded = await asyncio.to_thread(self.storage.load_game, live.id)
        if loaded is None:
            return
        record, moves = loaded
        fresh = self.rebuild(record, moves)
        live.state, live.moves, live.record.seats = fresh.state, fresh.moves, record.seats
        # what a take-back elsewhere changed with the moves (candlebox/server/takeback_cut.py)
        live.record.clock, live.record.hints_given = record.clock, record.hints_given
        live.events_sent = live.state.event_count
        self.frames.resend_snapshots(live)


def _differs(live: LiveGame, last: MoveRecord) -> bool:
    """The stored move is not this copy's last move (it was taken back, and perhaps another made
    in its place)."""
    mine = live.state.history[-1]
    return last.number != live.moves - 1 or (last.seat, last.action) != (mine[0], mine[1])


def _seats_changed(live: LiveGame, record: GameRecord) -> bool:
    def key(r: GameRecord) -> list[tuple[object, ...]]:
        return [(s.kind, s.bot, s.name, s.token_hash, s.invite_hash, s.account_id) for s in r.seats]

    return key(live.record) != key(record)
