"""Take-back requests and answers (issue 35): ``POST /api/games/{id}/undo`` by a seat, then
``.../undo/accept`` or ``.../undo/refuse`` by each other player (all must accept).

Against bots alone it is immediate. The moves taken back leave the moves table in one transaction
(with the request), which notifies the other processes ("take-back"): each rebuilds the game from
the table and sends every watcher a fresh snapshot. A request is stored too, so that a player whose
page is served by another process sees it and may answer it there. Anything refused raises
:class:`Rejected` and changes nothing; a refused take-back changes nothing but the request.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from functools import partial

import msgspec
from sqlalchemy import Connection, delete, func, insert, select, update

from candlebox.server.bodies import Number
from candlebox.server.errors import Rejected
from candlebox.server.live import ABANDONED_MESSAGE, CLOSED_MESSAGE, LiveGame
from candlebox.server.registry import LiveGames
from candlebox.server.storage import MoveConflict, Storage, moves, take_backs
from candlebox.server.takeback_cut import HEARD, Cut
from candlebox.server.takebacks import RATED, Plan, Request, deciders

__all__ = ["HEARD", "TakeBackSpec", "TakingBack"]


class TakeBackSpec(msgspec.Struct, forbid_unknown_fields=True):
    """The body of each take-back route: the move number the page shows, so that an answer meant
    for one position is never applied to another."""

    expect: Number


class TakingBack:
    def __init__(self, games: LiveGames, schedule_bots: Callable[[LiveGame], None]) -> None:
        self.games = games
        self.frames = games.frames.take_backs
        self.schedule_bots = schedule_bots
        self.tasks: set[asyncio.Task[None]] = set()  # reloads after another process's change

    # ------------------------------------------------------------------ the routes' work
    async def ask(self, game_id: str, seat: int, expect: int) -> dict[str, object]:
        """``seat`` asks to take back its last moves: done at once against bots alone, else a
        request the other players answer."""
        live = await self.games.held(game_id)
        async with live.lock:
            await self._fresh(live)
            self._check(live, expect)
            if live.record.rated:
                raise Rejected("rated", RATED, 409)
            if self.frames.waiting(live) is not None:
                raise Rejected(
                    "take-back-waiting", "a take-back is already waiting for answers", 409
                )
            found = self.frames.plan(live, seat)
            if found.moves == 0:
                raise Rejected("not-undoable", f"nothing to take back: {found.reason}", 409)
            others = deciders(live, seat)
            if not others:
                await self._take_back(live, found)
                return {"taken_back": found.moves, "move": live.moves}
            request = Request(seat, live.moves, found.moves, [], time.time())
            await self.games.writer.run(partial(_store, game_id=live.id, request=request))
            self.frames.requests[live.id] = request
            self.games.frames.resend_snapshots(live)
            return {"asked": found.moves, "waiting": others}

    async def accept(self, game_id: str, seat: int, expect: int) -> dict[str, object]:
        """``seat`` accepts the request; the last acceptance takes the moves back."""
        live = await self.games.held(game_id)
        async with live.lock:
            await self._fresh(live)
            self._check(live, expect)
            request = self._answerable(live, seat)
            if seat in request.accepted:
                raise Rejected("answered", "you have already accepted this take-back", 409)
            accepted = [*request.accepted, seat]
            if set(deciders(live, request.seat)) - set(accepted):
                await self.games.writer.run(
                    partial(_accept, game_id=live.id, accepted=_seats_text(accepted))
                )
                request.accepted = accepted
                self.games.frames.resend_snapshots(live)
                return {"accepted": accepted, "taken_back": 0}
            found = self.frames.plan(live, request.seat)
            if found.moves != request.moves:  # should not be: the game is where it was asked
                raise Rejected("stale", "the game has changed since the take-back was asked", 409)
            await self._take_back(live, found)
            return {"accepted": accepted, "taken_back": found.moves, "move": live.moves}

    async def refuse(self, game_id: str, seat: int, expect: int) -> dict[str, object]:
        """``seat`` refuses the request: it goes, and every move stands."""
        live = await self.games.held(game_id)
        async with live.lock:
            await self._fresh(live)
            self._check(live, expect)
            self._answerable(live, seat)
            await self.games.writer.run(partial(_forget, game_id=live.id))
            self.frames.requests.pop(live.id, None)
            self.games.frames.resend_snapshots(live)
            return {"refused": True}

    def heard(self, game_id: str) -> None:
        """Another process changed a take-back of a game (asked, answered, or the moves taken
        back): this process's copy is rebuilt from the tables and its watchers sent snapshots."""
        live = self.games.games.get(game_id)
        if live is not None:
            task = asyncio.create_task(self._reload(live))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    # ------------------------------------------------------------------ its parts
    def _check(self, live: LiveGame, expect: int) -> None:
        if live.record.status == "expired":
            raise Rejected("closed", CLOSED_MESSAGE, 410)
        if live.record.status == "abandoned":
            raise Rejected("abandoned", ABANDONED_MESSAGE, 410)
        if live.over:
            raise Rejected("over", "the game is over; every move stands", 409)
        if expect != live.moves:
            raise Rejected(
                "stale",
                f"the game has moved on: expect is {expect}, the game is at move {live.moves}",
                409,
            )

    def _answerable(self, live: LiveGame, seat: int) -> Request:
        request = self.frames.waiting(live)
        if request is None:
            raise Rejected("no-take-back", "no take-back is waiting for an answer", 409)
        if seat == request.seat:
            raise Rejected("own-take-back", "you asked for this take-back: the others answer", 409)
        if seat not in deciders(live, request.seat):
            raise Rejected("not-asked", f"seat {seat} is not asked to answer", 403)
        return request

    async def _fresh(self, live: LiveGame) -> None:
        """Several processes: the game's moves and its request as the tables have them now."""
        if not self.games.shared:
            return
        await self.games.catch_up(live)
        stored, count = await asyncio.to_thread(self._stored, live.id)
        self._keep(live, stored)
        if count < live.moves:  # taken back elsewhere, its notification not heard yet
            self.frames.forget(live)
            await self.games.resync(live)

    async def _reload(self, live: LiveGame) -> None:
        async with live.lock:
            stored, _ = await asyncio.to_thread(self._stored, live.id)
            self._keep(live, stored)
            self.frames.forget(live)
            await self.games.resync(live)  # sends every watcher a snapshot
        self.schedule_bots(live)

    def _keep(self, live: LiveGame, stored: Request | None) -> None:
        if stored is None:
            self.frames.requests.pop(live.id, None)
        else:
            self.frames.requests[live.id] = stored

    def _stored(self, game_id: str) -> tuple[Request | None, int]:
        """The game's request as the tables have it, and how many moves they hold."""
        with self.games.storage.engine.connect() as conn:
            row = conn.execute(select(take_backs).where(take_backs.c.game_id == game_id)).first()
            count = conn.execute(
                select(func.count()).select_from(moves).where(moves.c.game_id == game_id)
            ).scalar_one()
        if row is None:
            return None, count
        accepted = [int(s) for s in row.accepted.split(",") if s]
        return Request(row.seat, row.at_move, row.moves, accepted, row.asked_at), count

    async def _take_back(self, live: LiveGame, found: Plan) -> None:
        """The moves leave the table and the game, with everything recorded about them
        (candlebox/server/takeback_cut.py); every watcher is sent a snapshot. The caller holds
        ``live.lock``. Another process that recorded a move first wins: this copy is rebuilt from
        the tables and the take-back refused, nothing taken back."""
        assert found.state is not None
        settings = self.games.settings
        cut = Cut.of(live, found.state, settings.bots == "workers", settings.clock_now())
        try:
            await self.games.writer.run(cut.write)
        except MoveConflict:
            self.frames.forget(live)
            await self.games.resync(live)
            raise Rejected(
                "stale",
                f"the game has moved on: a move was made meanwhile, and the game is at move "
                f"{live.moves}; nothing was taken back",
                409,
            ) from None
        cut.applied(live)
        live.state = found.state
        live.moves = cut.keep
        live.events_sent = found.state.event_count
        live.active_at = time.time()
        self.frames.requests.pop(live.id, None)
        self.frames.forget(live)
        self.games.frames.resend_snapshots(live)
        self.schedule_bots(live)


def _seats_text(seats: list[int]) -> str:
    return ",".join(str(s) for s in sorted(seats))


def _store(conn: Connection, game_id: str, request: Request) -> None:
    conn.execute(delete(take_backs).where(take_backs.c.game_id == game_id))
    conn.execute(
        insert(take_backs).values(
            game_id=game_id,
            seat=request.seat,
            at_move=request.at_move,
            moves=request.moves,
            accepted=_seats_text(request.accepted),
            asked_at=request.asked_at,
        )
    )
    Storage.notify(conn, game_id, HEARD)


def _accept(conn: Connection, game_id: str, accepted: str) -> None:
    conn.execute(
        update(take_backs).where(take_backs.c.game_id == game_id).values(accepted=accepted)
    )
    Storage.notify(conn, game_id, HEARD)


def _forget(conn: Connection, game_id: str) -> None:
    conn.execute(delete(take_backs).where(take_backs.c.game_id == game_id))
    Storage.notify(conn, game_id, HEARD)
