"""The games being played, as the routes see them: one object that assembles the parts, each its
own module —

- ``registry``: the live games of this process and finished ones rebuilt for replays;
- ``creating``: a new game's record from a checked request; ``seating``: seats and watchers;
- ``moves``: a move from the lock to the broadcast, refused in the engine's words;
- ``botplay``: bots at the table, ``botqueue`` the order they think in, ``bottables`` bot-only
  tables' limits; ``frames``: what each seat is sent;
- ``lobby``: the lobby's pages; ``expiry``: closing abandoned games, deleting old ones.

It takes typed values (``bodies``) and raises :class:`~candlebox.server.errors.Rejected`. Its
methods are the requests that need several parts; a request that is one part's work calls that
part (``service.seating.claim``, ``service.moves.submit``, ``service.pages``, ...) directly.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import time
import uuid
from typing import Any

from sqlalchemy import Connection as SqlConnection

import candlebox
from candlebox.server import bodies
from candlebox.server.accounts import DELETED, Account
from candlebox.server.botplay import BotPlayers
from candlebox.server.chat import CHAT_NOTE, TableChat
from candlebox.server.clockwatch import ClockWatch
from candlebox.server.coaching import Coach
from candlebox.server.config import Settings
from candlebox.server.creating import NewGame, new_game
from candlebox.server.errors import Rejected
from candlebox.server.expiry import Sweeper
from candlebox.server.frames import Frames, board_of
from candlebox.server.leaving import Leaving
from candlebox.server.live import LiveGame
from candlebox.server.lobby import Lobby
from candlebox.server.matchmaking import Matchmaker
from candlebox.server.moves import Moves
from candlebox.server.notify import CatchUp, Listener
from candlebox.server.presence import Presence
from candlebox.server.registry import LiveGames
from candlebox.server.seating import GUEST_AT_RATED, Seating
from candlebox.server.storage import Storage
from candlebox.server.taking_back import HEARD as TAKE_BACK_HEARD
from candlebox.server.taking_back import TakingBack

log = logging.getLogger("candlebox.server")


class GameService:
    def __init__(self, settings: Settings, storage: Storage | None = None) -> None:
        self.settings = settings
        self.frames = Frames(settings)
        self.registry = LiveGames(settings, storage or Storage(settings.db), self.frames)
        # the bots think in child processes (the built-in bot worker); where bot workers play
        # them ("workers"), the children search only the players' hints
        self.bots = BotPlayers(self.registry, self._bot_move, max(0, settings.bot_processes))
        self.moves = Moves(self.registry, self.bots.schedule)
        self.presence = Presence(self.registry)  # who is connected, across processes
        self.seating = Seating(self.registry, self.bots.schedule, self.presence)
        self.pages = Lobby(self.registry)
        self.sweeper = Sweeper(self.registry)
        self.leaving = Leaving(self.registry)
        # hints and reviews; hints are searched where the bots think
        self.coach = Coach(self.registry, settings.max_bot_seconds, self.bots.elsewhere)
        self.sweeping: asyncio.Task[None] | None = None
        # other processes' moves (PostgreSQL): heard, then caught up from the moves table
        self.catching = CatchUp(self.registry, self._caught_up)
        self.listener: Listener | None = None
        self.listening: asyncio.Task[None] | None = None
        self.beating: asyncio.Task[None] | None = None
        # quick play: the queue's tables are held here once made (this process made them)
        self.matchmaker = Matchmaker(
            settings, self.registry.storage.engine, lambda made: self._hold(made, None)
        )
        self.queueing: asyncio.Task[None] | None = None
        # the clocks (issue 35): this process watches those whose lease it holds
        name = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        self.clock_watch = ClockWatch(self.registry, self.seating, name)
        self.clocking: asyncio.Task[None] | None = None
        # take-backs (issue 35): asked, answered, done; other processes rebuild on hearing one
        self.taking_back = TakingBack(self.registry, self.bots.schedule)
        # the table chat (issue 35): its messages are part of every snapshot
        self.chat = TableChat(self.registry)
        self.frames.extras.append(self.chat.frame_part)

    # ------------------------------------------------------------------ start and stop
    async def start(self) -> None:
        """Rebuild every live game from its moves and let the bots carry on."""
        if self.settings.bots == "inline":
            self.bots.warm()  # the bot process starts now, not on the first bot's turn
        if self.settings.bots == "workers":
            # games are loaded when first asked for (other processes share them); bot workers
            # check stored bot seats when they load a game
            ids: list[str] = []
        else:
            ids = await asyncio.to_thread(self.registry.storage.live_game_ids)
        for game_id in ids:
            live = await self.registry.resume(game_id)
            if live is None:
                continue
            live.all_away_from(time.time())
            await self.bots.check_stored(live)
            self.registry.games[game_id] = live
            self.bots.schedule(live)
        if ids:
            log.info("resumed %d live games", len(self.registry.games))
        if self.settings.sweep_every > 0:
            self.sweeping = asyncio.create_task(self.sweeper.forever())
        if self.settings.queue_every > 0:
            self.queueing = asyncio.create_task(self.matchmaker.forever())
        if self.settings.clock_every > 0:
            self.clocking = asyncio.create_task(self.clock_watch.forever())
        if self.registry.shared:
            self.listener = Listener(self.registry.storage.url, self._heard)
            self.listening = asyncio.create_task(self.listener.forever())
            self.beating = asyncio.create_task(self.presence.forever())

    def _heard(self, game_id: str, what: str) -> None:
        """Another process's notification: who is connected, a review queued (for the bot
        workers: nothing to do here), or a move or seat change to catch up with."""
        if what == "presence":
            self.presence.heard(game_id)
        elif what == "clocks":
            self.clock_watch.heard(game_id)
        elif what == TAKE_BACK_HEARD:
            self.taking_back.heard(game_id)
        elif what == CHAT_NOTE:
            self.chat.heard(game_id)
        elif what != "review":
            self.catching.heard(game_id, what)

    def _caught_up(self, live: LiveGame) -> None:
        """A game caught up with another process's moves: its bots, and its clocks as stored."""
        self.bots.schedule(live)
        self.clock_watch.heard(live.id)

    async def stop(self) -> None:
        self.registry.closed = True
        games = self.registry.games.values()
        tasks = [task for live in games for task in live.bot_tasks.values()]
        if self.sweeping is not None:
            tasks.append(self.sweeping)
        if self.listening is not None:
            tasks.append(self.listening)
        if self.beating is not None:
            tasks.append(self.beating)
        self.matchmaker.closed = True
        if self.queueing is not None:
            tasks.append(self.queueing)
        if self.clocking is not None:
            tasks.append(self.clocking)
        tasks.extend(self.taking_back.tasks)
        await self.catching.stop()
        await self.chat.stop()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for live in games:
            for conns in live.watchers.values():
                for conn in conns:
                    conn.close()
        self.bots.stop()
        self.coach.close()
        await self.moves.turns.settle()  # notices being written go before the writer stops
        await self.presence.stop()
        await self.clock_watch.stop()
        await asyncio.to_thread(self.registry.writer.close)
        self.registry.storage.close()

    # ------------------------------------------------------------------ finding games and seats
    async def any_game(self, game_id: str) -> LiveGame:
        live = await self.registry.any_game(game_id)
        await self.presence.first_look(live)  # several processes: who is connected elsewhere
        await self.chat.load(live)  # its chat, for the snapshots
        return live

    def current(self, live: LiveGame) -> LiveGame:
        """The game object now held for ``live``'s id (a resync may have replaced it)."""
        return self.registry.games.get(live.id) or live

    async def player(self, game_id: str, token: str | None, account_id: int | None = None) -> int:
        """The seat ``token`` (else the signed-in ``account_id``) holds in the game; 403 for
        anything else (no credential included)."""
        live = await self.registry.any_game(game_id)
        return await self.registry.seat_of(live, token, account_id)

    # ------------------------------------------------------------------ creating and seats
    async def create(
        self, spec: bodies.CreateSpec, client: str | None = None, account: Account | None = None
    ) -> dict[str, Any]:
        """A new game; returns its id, the creator's seat credential and the invite codes of the
        other human seats. ``client`` (an address) may have at most ``max_open_games`` live games.
        Signed in (``account``), the creator's seat is the account's, under its name."""
        self._check_open_games(client)
        self.bots.tables.check_room(client, spec.seats)
        if spec.rated and spec.you is not None and account is None:
            raise Rejected("rated-guest", GUEST_AT_RATED, 403)
        made = new_game(spec, self.settings)
        record = made.record
        if account is not None and made.you is not None:
            mine = record.seats[made.you]
            mine.account_id, mine.name = account.id, account.name
        owes = self.settings.bots == "workers" and any(s.kind == "bot" for s in record.seats)

        def op(conn: SqlConnection) -> None:
            Storage.insert_game(conn, record)
            if owes:
                Storage.owe_bot_turn(conn, record.id, 0)

        await self.registry.writer.run(op)
        self._hold(made, client)
        return made.answer()

    def _hold(self, made: NewGame, client: str | None) -> LiveGame:
        """A new game stored (by ``create``, or by a quick play round) and held by this process
        from now: its bots start."""
        record = made.record
        live = LiveGame(
            record=record,
            state=made.state,
            title=candlebox.game_info(record.game).title,
            creator=client,
        )
        live.events_sent = made.state.event_count
        live.all_away_from(time.time())
        self.registry.games[record.id] = live
        self.bots.schedule(live)
        if record.hints:
            log.info("game %s created with hints allowed for every seat", record.id)
        return live

    def _check_open_games(self, client: str | None) -> None:
        cap = self.settings.max_open_games
        if client is None or cap <= 0:
            return
        mine = sum(1 for live in self.registry.games.values() if live.creator == client)
        if mine >= cap:
            # counted per address, not per browser or account: the words say so, and the body
            # carries the figures, so a player who sees two games of their own is not puzzled
            raise Rejected(
                "too-many-games",
                f"{mine} games started from your network address are still in play, and one "
                f"address may have at most {cap} at once (every browser and device on that "
                "network counts); finish or resign one of them first",
                429,
            ).with_details(limit=cap, count=mine, counts="live games started from this address")

    async def describe(self, game_id: str) -> dict[str, Any]:
        """The game and its seats (public)."""
        live = await self.any_game(game_id)
        return {"game": self.frames.game_public(live), "seats": self.frames.seats_public(live)}

    def seats_bound(self, account_id: int, bound: list[tuple[str, int]]) -> None:
        """The copies in memory of seats a guest's credentials just bound to an account (the
        database has them already): the account's session now stands for them here too."""
        for game_id, seat in bound:
            for live in (self.registry.games.get(game_id), self.registry.finished.get(game_id)):
                if live is not None and 0 <= seat < len(live.record.seats):
                    live.record.seats[seat].account_id = account_id

    async def check_invitable(
        self, game_id: str, seat: int, token: str | None, account_id: int
    ) -> None:
        """An invitation into ``seat`` may be sent by this player: they sit at the live game
        (their seat's credential, or their account's seat) and the seat is an open human one."""
        live = await self.registry.held(game_id)
        await self.registry.seat_of(live, token, account_id)
        if not 0 <= seat < live.record.players:
            raise Rejected("bad-seat", f"this game has seats 0–{live.record.players - 1}")
        record = live.seat(seat)
        if record.kind != "human" or record.token_hash is not None:
            raise Rejected("taken", f"seat {seat} is already taken", 409)

    def account_deleted(self, account_id: int, finished: list[str]) -> None:
        """The copies in memory of a deleted account's games, as its delete left the database:
        "deleted player" in its finished games, no account on its other seats."""
        for live in [*self.registry.games.values(), *self.registry.finished.values()]:
            for seat in live.record.seats:
                if seat.account_id != account_id:
                    continue
                seat.account_id = None
                if live.id in finished:
                    seat.name = DELETED

    async def to_act(self, game_id: str) -> tuple[int, ...]:
        """The seats a game waits for now (none once it is over, or if it cannot be loaded)."""
        try:
            live = await self.registry.any_game(game_id)
        except Rejected:
            return ()
        return () if live.over else tuple(live.state.to_act)

    async def hand_to_bot(
        self,
        game_id: str,
        seat: int,
        token: str | None,
        spec: bodies.BotSpec,
        account_id: int | None = None,
    ) -> None:
        live = await self.registry.held(game_id)
        by = await self.registry.seat_of(live, token, account_id)
        await self.seating.hand_to_bot(live, seat, by, spec)

    async def take_back(
        self, game_id: str, seat: int, token: str | None, account_id: int | None = None
    ) -> None:
        live = await self.registry.held(game_id)
        if await self.registry.seat_of(live, token, account_id) != seat:
            raise Rejected("credential", "that credential is not for this seat", 403)
        await self.seating.take_back(live, seat)

    async def time_out(
        self, game_id: str, seat: int, token: str | None, account_id: int | None = None
    ) -> str:
        """Another player hands ``seat``, out of time, to its bot (a rated table: the seat loses
        on time); "bot" or "lost" (candlebox/server/clockwatch.py)."""
        live = await self.registry.held(game_id)
        by = await self.registry.seat_of(live, token, account_id)
        return await self.clock_watch.time_out(live, seat, by)

    # ------------------------------------------------------------------ moves and frames
    async def _bot_move(self, game_id: str, seat: int, action: str, expect: int) -> int:
        return await self.moves.submit(game_id, seat, action, expect, bot=True)

    async def state_frame(
        self, game_id: str, token: str | None, account_id: int | None = None
    ) -> str:
        """What ``token``'s seat (None: a spectator; else the signed-in ``account_id``'s seat, if
        it holds one) sees now, as a snapshot."""
        live = await self.registry.any_game(game_id)
        await self.chat.load(live)
        if token is None and account_id is not None:
            return self.frames.frame(live, await self.account_seat(live, account_id))
        seat = None if token is None else await self.registry.seat_of(live, token)
        return self.frames.frame(live, seat)

    async def account_seat(self, live: LiveGame, account_id: int | None) -> int | None:
        """The seat a signed-in account holds in ``live`` (None: none, or a guest): a player who
        opens their game on another device plays it; anyone else watches."""
        if account_id is None:
            return None
        try:
            return await self.registry.seat_of(live, None, account_id)
        except Rejected:
            return None

    async def replay(self, game_id: str, token: str | None, at: int) -> dict[str, Any]:
        live = await self.registry.any_game(game_id)
        seat = None if token is None else self.registry.seat_for_token(live, token)
        frame = self.frames.replay_frame(live, seat, at)
        await self.chat.load(live)
        frame["chat"] = self.chat.replay_part(live, seat)  # the players' chat, to the seats
        return frame

    async def saved(self, game_id: str) -> tuple[str, dict[str, Any]]:
        """A finished game's file name and its saved-game file (its shuffle opened)."""
        live = await self.registry.any_game(game_id)
        data = self.frames.saved_game(live)
        spans = await asyncio.to_thread(self._stand_ins, live.id)
        if spans:  # the moves a bot made for a seat's player: a review of the file leaves them out
            data["stand_ins"] = [list(span) for span in spans]
        if live.record.hints_given:  # the hints the coach gave: (seat, move) each
            data["hints_given"] = [list(given) for given in live.record.hints_given]
        return f"candlebox-{live.record.game}-{live.id}.json", data

    def _stand_ins(self, game_id: str) -> list[tuple[int, int, int | None]]:
        with self.registry.storage.engine.connect() as conn:
            return Storage.every_stand_in(conn, game_id)

    async def rematch(
        self, game_id: str, token: str | None, client: str | None, account: Account | None = None
    ) -> dict[str, Any]:
        """A player of a finished game asks for the same table again (candlebox/server/endgame.py);
        the others' pages are sent the offer. Without a seat credential, the signed-in
        ``account``'s seat asks (a player on another device); signed in, the new seat is the
        account's unless the finished seat was another account's."""
        live = await self.registry.any_game(game_id)
        standing_in = account.id if account is not None and token is None else None
        seat = self.registry.seat_for_token(live, token, standing_in)
        held = live.record.seats[seat].account_id
        owner = account if account is not None and held in (None, account.id) else None
        answer = await self.frames.rematches.ask(
            live, seat, lambda spec: self.create(spec, client, owner)
        )
        self.frames.resend_snapshots(live)
        return answer

    async def board(self, game_id: str) -> dict[str, Any]:
        live = await self.registry.any_game(game_id)
        board = board_of(live.state)
        if board is None:
            raise Rejected("no-board", "this game has no map", 404)
        return board

    def clients(self) -> int:
        """Websockets open on this process (the metric)."""
        held = [*self.registry.games.values(), *self.registry.finished.values()]
        return sum(len(conns) for live in held for conns in live.watchers.values())
