"""Who sits where: taking an open seat, handing a seat to a bot (zombie mode) and taking it back,
and the watchers of a game coming and going."""

from __future__ import annotations

import time
from collections.abc import Callable

from sqlalchemy import Connection as SqlConnection

from candlebox.server import bots as botlib
from candlebox.server import security
from candlebox.server.accounts import Account
from candlebox.server.bodies import BotSpec, ClaimSpec
from candlebox.server.errors import Rejected
from candlebox.server.live import Connection, LiveGame
from candlebox.server.presence import Presence
from candlebox.server.registry import LiveGames
from candlebox.server.storage import Storage

GUEST_AT_RATED = "a rated table is for signed-in players: sign in (or sign up) to take a seat"


class Seating:
    def __init__(
        self,
        games: LiveGames,
        schedule_bots: Callable[[LiveGame], None],
        presence: Presence | None = None,
    ) -> None:
        self.games = games
        self.settings = games.settings
        self.frames = games.frames
        self.schedule_bots = schedule_bots
        # who is connected through other processes (several on PostgreSQL); None: this one only
        self.presence = presence

    def _seat_of(self, live: LiveGame, seat: int) -> None:
        if live.over:
            raise Rejected("over", "the game is over")
        if not 0 <= seat < live.record.players:
            raise Rejected("bad-seat", f"this game has seats 0–{live.record.players - 1}")

    async def claim(
        self,
        game_id: str,
        seat: int,
        claim: ClaimSpec,
        account: Account | None = None,
        invited: bool = False,
    ) -> str:
        """Take an open human seat (for ``account``, under its name, when signed in; ``invited``:
        the account was invited into it by name, which stands for a private game's join code);
        returns the seat's new credential (shown only this once)."""
        live = await self.games.held(game_id)
        async with live.lock:
            self._seat_of(live, seat)
            record = live.seat(seat)
            if record.kind == "human" and record.token_hash is None and self.games.shared:
                await self.games.catch_up(live)  # taken through another process meanwhile?
            if record.kind != "human" or record.token_hash is not None:
                raise Rejected("taken", f"seat {seat} is already taken", 409)
            private = not live.record.public and not invited
            if private and not security.matches(claim.invite, record.invite_hash):
                raise Rejected(
                    "invite", "this game is private: use the join link you were sent", 403
                )
            if live.record.rated:
                self._rated_claim(live, account)
            token = security.new_token()
            digest = security.digest(token)
            label = security.clean_name(claim.name, record.name)
            owner = None
            if account is not None:
                label, owner = account.name, account.id
            ok = await self.games.writer.run(
                lambda conn: (
                    Storage.claim_seat(conn, game_id, seat, label, digest, owner)
                    and _told(conn, game_id)
                )
            )
            if not ok:
                raise Rejected("taken", f"seat {seat} is already taken", 409)
            record.token_hash, record.invite_hash, record.name = digest, None, label
            record.account_id = owner
            self.frames.broadcast_seats(live)
        return token

    async def hand_to_bot(
        self, live: LiveGame, seat: int, by: int, spec: BotSpec, out_of_time: bool = False
    ) -> None:
        """Zombie mode: a bot plays ``seat`` from now on. Its own player may do this at any time; any
        other player of the game when the seat was never taken or its player has been away for
        ``zombie_after`` seconds, or (``out_of_time``, checked by candlebox/server/clockwatch.py)
        when the seat ran out of time, present or not."""
        async with live.lock:
            self._seat_of(live, seat)
            if live.record.rated:
                raise Rejected(
                    "rated-bots",
                    "a rated game is played by its players only: no bot may take a seat "
                    "(a player who cannot go on resigns; an absent one loses when the game is "
                    "closed for want of a move)",
                    409,
                )
            record = live.seat(seat)
            if record.kind == "bot":
                raise Rejected("taken", f"a bot already plays seat {seat}", 409)
            if by != seat and record.token_hash is not None and not out_of_time:
                if self.presence is not None:  # connected through another process?
                    await self.presence.refresh(live)
                self._check_away(live, seat)
            try:
                name, params = botlib.seat_bot(
                    live.record.game, spec.bot, spec.strength, None, self.settings.max_bot_seconds
                )
            except ValueError as exc:
                raise Rejected("bad-bot", str(exc)) from None
            owes = self.settings.bots == "workers"

            played = record.token_hash is not None  # a player's seat: the bot stands in for them
            moves = live.moves

            def op(conn: SqlConnection) -> None:
                Storage.update_seat(
                    conn, live.id, seat, kind="bot", bot=name, params=params, invite_hash=None
                )
                if played:
                    Storage.stand_in(conn, live.id, seat, moves)
                if owes:
                    Storage.owe_bot_turn(conn, live.id, live.moves)
                Storage.notify(conn, live.id, "seats")

            await self.games.writer.run(op)
            record.kind, record.bot, record.params, record.invite_hash = "bot", name, params, None
            live.bots.pop(seat, None)
            self.frames.broadcast_seats(live)
        self.schedule_bots(live)

    @staticmethod
    def _rated_claim(live: LiveGame, account: Account | None) -> None:
        """A rated table's seat goes to a signed-in player holding no other seat of it."""
        if account is None:
            raise Rejected("rated-guest", GUEST_AT_RATED, 403)
        mine = [s.seat for s in live.record.seats if s.account_id == account.id]
        if mine:
            raise Rejected(
                "rated-twice",
                f"you already hold seat {mine[0]} of this rated table: one seat per player",
                409,
            )

    def _check_away(self, live: LiveGame, seat: int) -> None:
        away = time.time() - live.away_since.get(seat, time.time())
        if live.connected(seat) or away < self.settings.zombie_after:
            wait = max(0.0, self.settings.zombie_after - away)
            raise Rejected(
                "not-away",
                f"seat {seat}'s player is still here (or left less than "
                f"{self.settings.zombie_after:g} s ago; {wait:.0f} s to wait)",
                409,
            )

    async def take_back(self, live: LiveGame, seat: int) -> None:
        """The seat's own player (who still holds its credential) takes it back from the bot."""
        async with live.lock:
            record = live.seat(seat)
            if record.kind != "bot" or record.token_hash is None:
                raise Rejected("not-yours", "only a seat you held can be taken back", 409)
            moves = live.moves

            def op(conn: SqlConnection) -> None:
                Storage.update_seat(conn, live.id, seat, kind="human")
                Storage.stand_in_ends(conn, live.id, seat, moves)
                _told(conn, live.id)

            await self.games.writer.run(op)
            record.kind = "human"
            task = live.bot_tasks.pop(seat, None)
            if task is not None:
                task.cancel()
            self.frames.broadcast_seats(live)

    # ------------------------------------------------------------------ watchers
    def attach(self, live: LiveGame, conn: Connection) -> None:
        """Register a watcher and queue its snapshot (no await in between: no frame is missed).
        A game has at most ``max_spectators`` spectators' connections, and a seat at most
        ``max_seat_sockets`` (a player's tabs; issue 33) (:class:`Rejected`)."""
        here = len(live.watchers.get(conn.seat, ()))
        if conn.seat is None and here >= self.settings.max_spectators:
            raise Rejected(
                "full", "this game has as many spectators as it can take; try again later", 503
            )
        tabs = self.settings.max_seat_sockets
        if conn.seat is not None and 0 < tabs <= here:
            raise Rejected(
                "too-many-tabs",
                f"seat {conn.seat} has {tabs} connections to this game open, the most it may "
                "(max_seat_sockets); close a tab",
                429,
            )
        frame, length = self.frames.snapshot(live, conn.seat, "snapshot")
        conn.push(frame)
        live.log_lengths[conn.seat] = length
        first = not live.watchers.get(conn.seat)
        live.watchers.setdefault(conn.seat, set()).add(conn)
        if conn.seat is not None and first:
            live.away_since.pop(conn.seat, None)
            if self.presence is not None:
                self.presence.changed(live, conn.seat, connected=True)
            self.frames.broadcast_seats(live)

    def detach(self, live: LiveGame, conn: Connection) -> None:
        conns = live.watchers.get(conn.seat)
        if conns is None:
            return
        conns.discard(conn)
        if not conns:
            del live.watchers[conn.seat]
            live.log_lengths.pop(conn.seat, None)
            if conn.seat is not None:
                live.away_since[conn.seat] = time.time()
                if self.presence is not None:
                    self.presence.changed(live, conn.seat, connected=False)
                self.frames.broadcast_seats(live)


def _told(conn: SqlConnection, game_id: str, result: object = True) -> object:
    """Notify the other processes of a seat change (in the same transaction); returns ``result``."""
    Storage.notify(conn, game_id, "seats")
    return result
