"""The games being played: one engine state per game, rebuilt from the database, a lock per game, and
the connections that watch it.

A move goes: per-game lock → legality from ``legal_actions`` → the move is committed to the database →
the engine applies it → every connection gets a frame built from ``view(seat)`` and ``log(seat)`` of its
own seat (never anything else of the state) → bots whose turn it is are scheduled. Frames for a seat are
built only from what that seat may see; the raw action history is never sent to anyone.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import msgspec

import candlebox
from candlebox.engine import IllegalAction, State
from candlebox.server import bots as botlib
from candlebox.server import security
from candlebox.server.config import Settings
from candlebox.server.sentences import entry_text
from candlebox.server.storage import (
    GameRecord,
    MoveConflict,
    MoveRecord,
    SeatRecord,
    Storage,
    Writer,
)

log = logging.getLogger("candlebox.server")
_encode = msgspec.json.Encoder().encode
BOT_NAMES = ("Ember", "Wick", "Taper", "Lumen", "Flicker", "Tallow", "Beacon", "Glim")


class Rejected(Exception):
    """A request refused with a reason; nothing was changed. ``code`` is stable, ``message`` human."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def payload(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message}


# ---------------------------------------------------------------------------- connections
class Connection:
    """One watcher of one game (a websocket, or a test double): frames are queued and sent in order
    by the caller's sender loop; a client that falls too far behind is dropped and must reconnect."""

    def __init__(self, seat: int | None, limit: int) -> None:
        self.seat = seat
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()
        self.limit = limit
        self.dropped = False

    def push(self, frame: str) -> None:
        if self.dropped:
            return
        if self.queue.qsize() >= self.limit:
            self.dropped = True
            self.queue.put_nowait(None)  # the sender loop closes the socket
            return
        self.queue.put_nowait(frame)

    def close(self) -> None:
        self.dropped = True
        self.queue.put_nowait(None)


@dataclass
class LiveGame:
    record: GameRecord
    state: State
    moves: int = 0  # moves applied (= recorded)
    events_sent: int = 0  # engine events already turned into log frames
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    watchers: dict[int | None, set[Connection]] = field(default_factory=dict)
    away_since: dict[int, float] = field(default_factory=dict)  # seat -> when its last link went
    log_lengths: dict[int | None, int] = field(default_factory=dict)  # entries each watcher has
    bots: dict[int, Any] = field(default_factory=dict)
    bot_tasks: dict[int, asyncio.Task[None]] = field(default_factory=dict)
    title: str = ""

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def over(self) -> bool:
        return self.state.is_over

    def seat(self, number: int) -> SeatRecord:
        return self.record.seats[number]

    def connected(self, seat: int) -> bool:
        return bool(self.watchers.get(seat))


# ---------------------------------------------------------------------------- the service
class GameService:
    def __init__(self, settings: Settings, storage: Storage | None = None) -> None:
        self.settings = settings
        self.storage = storage or Storage(settings.db)
        self.writer = Writer(self.storage)
        self.games: dict[str, LiveGame] = {}
        self.finished: OrderedDict[str, LiveGame] = OrderedDict()  # rebuilt on demand, for replays
        self.bot_pool = ThreadPoolExecutor(
            max_workers=settings.bot_threads, thread_name_prefix="candlebox-bot"
        )
        self.closed = False
        self.stats = {"moves": 0, "bot_moves": 0, "rejected": 0}

    # ------------------------------------------------------------------ start and stop
    async def start(self) -> None:
        """Rebuild every live game from its moves and let the bots carry on."""
        ids = await asyncio.to_thread(self.storage.live_game_ids)
        for game_id in ids:
            loaded = await asyncio.to_thread(self.storage.load_game, game_id)
            if loaded is None:
                continue
            record, moves = loaded
            try:
                live = self._rebuild(record, moves)
            except Exception as exc:
                log.error("game %s does not replay (%s); marked broken", game_id, exc)
                await self.writer.run(partial(Storage.set_status, game_id=game_id, status="broken"))
                continue
            if live.over:
                await self._record_result(live)
                self._keep_finished(live)
                continue
            now = time.time()
            for seat in range(record.players):
                live.away_since[seat] = now
            self.games[game_id] = live
            self._schedule_bots(live)
        if ids:
            log.info("resumed %d live games", len(self.games))

    async def stop(self) -> None:
        self.closed = True
        tasks = [t for live in self.games.values() for t in live.bot_tasks.values()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        for live in self.games.values():
            for conns in live.watchers.values():
                for conn in conns:
                    conn.close()
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
        await asyncio.to_thread(self.writer.close)
        self.storage.close()

    def _rebuild(self, record: GameRecord, moves: list[MoveRecord]) -> LiveGame:
        state = candlebox.new_game(
            record.game, record.players, record.variant, seed=record.seed, **record.options
        )
        for expected, move in enumerate(moves):
            if move.number != expected:
                raise ValueError(f"move {expected} is missing (found {move.number})")
            state.apply(move.seat, move.action)
        live = LiveGame(record=record, state=state, moves=len(moves))
        live.events_sent = state.event_count
        live.title = candlebox.game_info(record.game).title
        return live

    # ------------------------------------------------------------------ finding games
    def live(self, game_id: str) -> LiveGame:
        live = self.games.get(game_id)
        if live is None:
            if game_id in self.finished:
                raise Rejected("over", "the game is over", 409)
            raise Rejected("no-game", f"there is no game {game_id!r} in progress", 404)
        return live

    async def any_game(self, game_id: str) -> LiveGame:
        """A live game, or a finished one rebuilt from the database."""
        live = self.games.get(game_id) or self.finished.get(game_id)
        if live is not None:
            return live
        if not isinstance(game_id, str) or len(game_id) > 32:
            raise Rejected("no-game", "there is no such game", 404)
        loaded = await asyncio.to_thread(self.storage.load_game, game_id)
        if loaded is None:
            raise Rejected("no-game", f"there is no game {game_id!r}", 404)
        record, moves = loaded
        if record.status == "broken":
            raise Rejected("broken", "this game's record does not replay", 410)
        live = self.games.get(game_id) or self.finished.get(game_id)  # loaded meanwhile?
        if live is not None:
            return live
        live = self._rebuild(record, moves)
        if not live.over:  # the record says live but this process does not have it: should not be
            self.games[game_id] = live
            return live
        self._keep_finished(live)
        return live

    def _keep_finished(self, live: LiveGame) -> None:
        self.finished[live.id] = live
        self.finished.move_to_end(live.id)
        while len(self.finished) > self.settings.finished_in_memory:
            oldest, game = next(iter(self.finished.items()))
            if any(game.watchers.values()):
                break
            del self.finished[oldest]

    def seat_for_token(self, live: LiveGame, token: object) -> int:
        """The seat whose credential ``token`` is; :class:`Rejected` (403) for anything else."""
        if security.well_formed(token):
            assert isinstance(token, str)
            digest = security.digest(token)
            for seat in live.record.seats:
                if seat.token_hash is not None and seat.token_hash == digest:
                    return seat.seat
        raise Rejected("credential", "that credential is not valid for this game", 403)

    # ------------------------------------------------------------------ creating and joining
    async def create(self, spec: dict[str, Any]) -> dict[str, Any]:
        """A new game from the lobby's form (validated here); returns its id, the creator's seat
        credential and the invite codes of the other human seats."""
        record, you, secrets_out = self._new_record(spec)
        await self.writer.run(lambda conn: Storage.insert_game(conn, record))
        state = candlebox.new_game(
            record.game, record.players, record.variant, seed=record.seed, **record.options
        )
        live = LiveGame(record=record, state=state, title=candlebox.game_info(record.game).title)
        live.events_sent = state.event_count
        now = time.time()
        for seat in range(record.players):
            live.away_since[seat] = now
        self.games[record.id] = live
        self._schedule_bots(live)
        return {"id": record.id, "seat": you, **secrets_out}

    def _new_record(self, spec: dict[str, Any]) -> tuple[GameRecord, int | None, dict[str, Any]]:
        game = spec.get("game")
        if not isinstance(game, str) or game not in candlebox.GAMES:
            raise Rejected(
                "bad-game", f"unknown game {game!r}; games: {', '.join(candlebox.GAMES)}"
            )
        seat_specs = spec.get("seats")
        if not isinstance(seat_specs, list) or not seat_specs:
            raise Rejected("bad-seats", "give a list of seats, one per player")
        players = len(seat_specs)
        variant = spec.get("variant")
        if variant is not None and not isinstance(variant, str):
            raise Rejected("bad-variant", "the variant is a name such as 'basic'")
        options = spec.get("options") or {}
        if not isinstance(options, dict):
            raise Rejected("bad-options", "options are an object of option names and values")
        seed = spec.get("seed")
        if seed is not None and (
            isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << 63
        ):
            raise Rejected("bad-seed", "the seed is a whole number from 0 to 2^63 - 1")
        try:
            state = candlebox.new_game(game, players, variant, seed=seed, **options)
        except (ValueError, TypeError) as exc:
            raise Rejected("bad-settings", str(exc)) from None
        delay = spec.get("bot_delay", self.settings.bot_delay)
        if isinstance(delay, bool) or not isinstance(delay, int | float):
            raise Rejected("bad-delay", "bot_delay is a number of seconds")
        if not 0 <= delay <= self.settings.max_bot_delay:
            raise Rejected(
                "bad-delay", f"bot_delay is from 0 to {self.settings.max_bot_delay:g} seconds"
            )
        you = spec.get("you")
        if you is not None and (
            isinstance(you, bool) or not isinstance(you, int) or not 0 <= you < players
        ):
            raise Rejected("bad-seat", f"'you' is the seat you take, 0–{players - 1}, or null")
        seats, tokens, invites = [], {}, {}
        for number, raw in enumerate(seat_specs):
            if not isinstance(raw, dict):
                raise Rejected("bad-seats", f"seat {number}: an object such as {{'kind': 'bot'}}")
            kind = raw.get("kind", "human")
            if kind == "bot":
                try:
                    name = botlib.check(raw.get("bot", "heuristic"), game)
                except ValueError as exc:
                    raise Rejected("bad-bot", f"seat {number}: {exc}") from None
                params = raw.get("params") or {}
                if not isinstance(params, dict):
                    raise Rejected("bad-bot", f"seat {number}: params are an object")
                try:
                    params = botlib.params_for(name, raw.get("strength"), params)
                except ValueError as exc:
                    raise Rejected("bad-bot", f"seat {number}: {exc}") from None
                label = security.clean_name(raw.get("name"), BOT_NAMES[number % len(BOT_NAMES)])
                seats.append(SeatRecord(number, "bot", label, bot=name, params=params))
                if number == you:
                    raise Rejected("bad-seat", f"seat {number} is a bot; you cannot take it")
            elif kind == "human":
                label = security.clean_name(raw.get("name"), f"Player {number + 1}")
                human = SeatRecord(number, "human", label)
                if number == you:
                    token = security.new_token()
                    human.token_hash = security.digest(token)
                    tokens[number] = token
                else:
                    invite = security.new_token()
                    human.invite_hash = security.digest(invite)
                    invites[number] = invite
                seats.append(human)
            else:
                raise Rejected("bad-seats", f"seat {number}: kind is 'human' or 'bot'")
        record = GameRecord(
            id=security.new_game_id(),
            game=game,
            variant=state.variant,
            players=players,
            options=dict(state.options),
            seed=state.seed,
            public=bool(spec.get("public", True)),
            bot_delay=float(delay),
            created_at=time.time(),
            seats=seats,
        )
        out: dict[str, Any] = {"invites": {str(k): v for k, v in invites.items()}}
        if you is not None:
            out["token"] = tokens[you]
        return record, you, out

    async def claim(self, game_id: str, seat: int, name: object, invite: object) -> str:
        """Take an open human seat; returns the seat's new credential (shown only this once)."""
        live = self.live(game_id)
        async with live.lock:
            if live.over:
                raise Rejected("over", "the game is over")
            if isinstance(seat, bool) or not isinstance(seat, int):
                raise Rejected("bad-seat", "the seat is a number")
            if not 0 <= seat < live.record.players:
                raise Rejected("bad-seat", f"this game has seats 0–{live.record.players - 1}")
            record = live.seat(seat)
            if record.kind != "human" or record.token_hash is not None:
                raise Rejected("taken", f"seat {seat} is already taken", 409)
            if not live.record.public and not security.matches(invite, record.invite_hash):
                raise Rejected(
                    "invite", "this game is private: use the join link you were sent", 403
                )
            token = security.new_token()
            digest = security.digest(token)
            label = security.clean_name(name, record.name)
            ok = await self.writer.run(
                lambda conn: Storage.claim_seat(conn, game_id, seat, label, digest)
            )
            if not ok:
                raise Rejected("taken", f"seat {seat} is already taken", 409)
            record.token_hash, record.invite_hash, record.name = digest, None, label
            self._broadcast_seats(live)
        return token

    async def hand_to_bot(
        self, game_id: str, seat: int, by: int, bot: object, strength: object
    ) -> None:
        """Zombie mode: a bot plays ``seat`` from now on. Its own player may do this at any time; any
        other player of the game when the seat was never taken or its player has been away for
        ``zombie_after`` seconds."""
        live = self.live(game_id)
        async with live.lock:
            if live.over:
                raise Rejected("over", "the game is over")
            if (
                isinstance(seat, bool)
                or not isinstance(seat, int)
                or not 0 <= seat < live.record.players
            ):
                raise Rejected("bad-seat", f"this game has seats 0–{live.record.players - 1}")
            record = live.seat(seat)
            if record.kind == "bot":
                raise Rejected("taken", f"a bot already plays seat {seat}", 409)
            if by != seat and record.token_hash is not None:
                away = time.time() - live.away_since.get(seat, time.time())
                if live.connected(seat) or away < self.settings.zombie_after:
                    wait = max(0.0, self.settings.zombie_after - away)
                    raise Rejected(
                        "not-away",
                        f"seat {seat}'s player is still here (or left less than "
                        f"{self.settings.zombie_after:g} s ago; {wait:.0f} s to wait)",
                        409,
                    )
            try:
                name = botlib.check(bot if bot is not None else "heuristic", live.record.game)
                params = botlib.params_for(
                    name, strength if isinstance(strength, int | float) else None, {}
                )
            except ValueError as exc:
                raise Rejected("bad-bot", str(exc)) from None
            await self.writer.run(
                lambda conn: Storage.update_seat(
                    conn, game_id, seat, kind="bot", bot=name, params=params, invite_hash=None
                )
            )
            record.kind, record.bot, record.params, record.invite_hash = "bot", name, params, None
            live.bots.pop(seat, None)
            self._broadcast_seats(live)
        self._schedule_bots(live)

    async def take_back(self, game_id: str, seat: int) -> None:
        """The seat's own player (who still holds its credential) takes it back from the bot."""
        live = self.live(game_id)
        async with live.lock:
            record = live.seat(seat)
            if record.kind != "bot" or record.token_hash is None:
                raise Rejected("not-yours", "only a seat you held can be taken back", 409)
            await self.writer.run(
                lambda conn: Storage.update_seat(conn, game_id, seat, kind="human")
            )
            record.kind = "human"
            task = live.bot_tasks.pop(seat, None)
            if task is not None:
                task.cancel()
            self._broadcast_seats(live)

    # ------------------------------------------------------------------ moves
    async def submit(
        self, game_id: str, seat: int, action: object, expect: object = None, bot: bool = False
    ) -> int:
        """Apply ``seat``'s ``action``; returns its move number once it is committed and broadcast.
        Anything refused raises :class:`Rejected` and changes nothing."""
        live = self.live(game_id)
        if not isinstance(action, str) or not action or len(action) > 200:
            raise Rejected("malformed", "an action is a short text in the game's notation")
        if expect is not None and (isinstance(expect, bool) or not isinstance(expect, int)):
            raise Rejected("malformed", "'expect' is the move number the action answers")
        async with live.lock:
            state = live.state
            if state.is_over:
                raise Rejected("over", "the game is over; no move is legal", 409)
            if not bot and live.seat(seat).kind == "bot":
                raise Rejected("bot-seat", f"a bot plays seat {seat} now; take it back first", 409)
            if expect is not None and expect != live.moves:
                raise Rejected(
                    "stale",
                    f"the game has moved on: that answers move {expect}, the game is at move "
                    f"{live.moves}",
                    409,
                )
            if action not in state.legal_actions(seat):
                self.stats["rejected"] += 1
                try:
                    message = self._why_illegal(live, seat, action)
                except AssertionError:  # the engine applied it after all: rebuild from the record
                    log.error("engine applied %r outside legal_actions in %s", action, game_id)
                    await self._resync(live)
                    message = f"{action!r} is not legal now"
                raise Rejected("illegal", message, 422)
            number = live.moves
            move = MoveRecord(number, seat, action)
            try:
                await self.writer.run(lambda conn: Storage.insert_move(conn, game_id, move))
            except MoveConflict:
                await self._resync(live)
                raise Rejected(
                    "conflict", "another move was recorded first; try again", 409
                ) from None
            except Exception as exc:
                log.exception("move %d of %s could not be saved", number, game_id)
                raise Rejected(
                    "unsaved", f"the move could not be saved ({exc}); try again", 503
                ) from None
            state.apply(seat, action)  # legal, so this cannot fail
            live.moves += 1
            self.stats["moves"] += 1
            if bot:
                self.stats["bot_moves"] += 1
            self._broadcast(live)
            if state.is_over:
                await self._record_result(live)
        if live.over:
            self.games.pop(game_id, None)
            self._keep_finished(live)
        else:
            self._schedule_bots(live)
        return number

    def _why_illegal(self, live: LiveGame, seat: int, action: str) -> str:
        """The engine's own explanation: ``apply`` raises it and changes nothing."""
        try:
            live.state.apply(seat, action)
        except IllegalAction as exc:
            return str(exc)
        raise AssertionError(f"{action!r} was applied although not in legal_actions")

    async def _record_result(self, live: LiveGame) -> None:
        state = live.state
        result = {"winners": list(state.winners), "scores": list(state.scores)}
        live.record.status, live.record.result = "over", result
        await self.writer.run(lambda conn: Storage.set_status(conn, live.id, "over", result))

    async def _resync(self, live: LiveGame) -> None:
        """Another writer recorded moves this process has not applied: rebuild from the database."""
        loaded = await asyncio.to_thread(self.storage.load_game, live.id)
        if loaded is None:
            return
        record, moves = loaded
        fresh = self._rebuild(record, moves)
        live.state, live.moves, live.record.seats = fresh.state, fresh.moves, record.seats
        live.events_sent = live.state.event_count
        for seat, conns in live.watchers.items():
            frame, live.log_lengths[seat] = self._snapshot(live, seat, "snapshot")
            for conn in conns:
                conn.push(frame)

    # ------------------------------------------------------------------ bots
    def _schedule_bots(self, live: LiveGame) -> None:
        if self.closed or live.over:
            return
        for seat in live.state.to_act:
            if live.seat(seat).kind == "bot" and seat not in live.bot_tasks:
                live.bot_tasks[seat] = asyncio.create_task(self._bot_turns(live, seat))

    async def _bot_turns(self, live: LiveGame, seat: int) -> None:
        loop = asyncio.get_running_loop()
        try:
            while not self.closed:
                state = live.state
                record = live.seat(seat)
                if state.is_over or seat not in state.to_act or record.kind != "bot":
                    return
                number = live.moves
                bot = live.bots.get(seat)
                if bot is None:
                    assert record.bot is not None
                    bot = botlib.make(record.bot, record.params, live.record.seed, seat, number)
                    live.bots[seat] = bot
                started = loop.time()
                snapshot = state.clone()
                try:
                    action = await loop.run_in_executor(self.bot_pool, bot.choose, snapshot, seat)
                except Exception:
                    log.exception(
                        "bot %s failed in game %s; it plays at random", record.bot, live.id
                    )
                    action = random.choice(snapshot.legal_actions(seat))
                wait = live.record.bot_delay - (loop.time() - started)
                if wait > 0:
                    await asyncio.sleep(wait)
                try:
                    await self.submit(live.id, seat, action, expect=number, bot=True)
                except Rejected as exc:
                    if exc.code not in ("stale", "conflict", "illegal", "bot-seat"):
                        log.warning("bot move refused in %s: %s", live.id, exc.message)
                        return
        except asyncio.CancelledError:
            raise
        except Rejected:
            return
        finally:
            if live.bot_tasks.get(seat) is asyncio.current_task():
                del live.bot_tasks[seat]

    # ------------------------------------------------------------------ watching
    def attach(self, live: LiveGame, conn: Connection) -> None:
        """Register a watcher and queue its snapshot (no await in between: no frame is missed)."""
        frame, length = self._snapshot(live, conn.seat, "snapshot")
        conn.push(frame)
        live.log_lengths[conn.seat] = length
        first = not live.watchers.get(conn.seat)
        live.watchers.setdefault(conn.seat, set()).add(conn)
        if conn.seat is not None and first:
            live.away_since.pop(conn.seat, None)
            self._broadcast_seats(live)

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
                self._broadcast_seats(live)

    def seats_public(self, live: LiveGame) -> list[dict[str, Any]]:
        now = time.time()
        out = []
        for record in live.record.seats:
            away = live.away_since.get(record.seat)
            out.append(
                {
                    "seat": record.seat,
                    "name": record.name,
                    "kind": record.kind,
                    "bot": record.bot if record.kind == "bot" else None,
                    "strength": (
                        botlib.strength_of(record.bot, record.params)
                        if record.kind == "bot"
                        else None
                    ),
                    "taken": record.kind == "bot" or record.token_hash is not None,
                    "connected": live.connected(record.seat),
                    "away": None if away is None else round(now - away, 1),
                }
            )
        return out

    def game_public(self, live: LiveGame) -> dict[str, Any]:
        record = live.record
        return {
            "id": record.id,
            "game": record.game,
            "title": live.title,
            "variant": record.variant,
            "players": record.players,
            "options": record.options,
            "public": record.public,
            "bot_delay": record.bot_delay,
            "status": "over" if live.over else "live",
            "moves": live.moves,
            "created_at": record.created_at,
            "zombie_after": self.settings.zombie_after,
        }

    def frame(self, live: LiveGame, seat: int | None, kind: str = "snapshot") -> str:
        """A snapshot: everything ``seat`` may see now, its whole log included."""
        return self._snapshot(live, seat, kind)[0]

    def _snapshot(self, live: LiveGame, seat: int | None, kind: str) -> tuple[str, int]:
        state = live.state
        entries = state.log(seat)
        payload = {
            "type": kind,
            "game": self.game_public(live),
            "seats": self.seats_public(live),
            "you": seat,
            "move": live.moves,
            "view": state.view(seat),
            "legal": state.legal_actions(seat) if seat is not None else [],
            "log": [entry_text(live.record.game, entry) for entry in entries],
            "over": state.is_over,
            "result": _result(state),
        }
        return _encode(payload).decode(), len(entries)

    def _broadcast(self, live: LiveGame) -> None:
        """An update to every watcher: the new log entries since the last broadcast, as each seat may
        see them, and its view and legal actions."""
        state = live.state
        start = live.events_sent
        live.events_sent = state.event_count
        if not live.watchers:
            return
        seats = self.seats_public(live)
        game = self.game_public(live)
        for seat, conns in live.watchers.items():
            if not conns:
                continue
            known = live.log_lengths.get(seat, 0)
            entries = new_entries(state, seat, start)
            live.log_lengths[seat] = known + len(entries)
            payload = {
                "type": "update",
                "game": game,
                "seats": seats,
                "you": seat,
                "move": live.moves,
                "view": state.view(seat),
                "legal": state.legal_actions(seat) if seat is not None else [],
                "log_from": known,
                "log": [entry_text(live.record.game, entry) for entry in entries],
                "over": state.is_over,
                "result": _result(state),
            }
            frame = _encode(payload).decode()
            for conn in conns:
                conn.push(frame)

    def _broadcast_seats(self, live: LiveGame) -> None:
        frame = _encode(
            {"type": "seats", "seats": self.seats_public(live), "move": live.moves}
        ).decode()
        for conns in live.watchers.values():
            for conn in conns:
                conn.push(frame)

    # ------------------------------------------------------------------ replays
    def replay_frame(self, live: LiveGame, seat: int | None, at: int) -> dict[str, Any]:
        """A finished game as ``seat`` saw it after ``at`` moves (0: the start)."""
        if not live.over:
            raise Rejected("not-over", "a game can be replayed once it is over", 409)
        history = live.state.history
        if isinstance(at, bool) or not isinstance(at, int) or not 0 <= at <= len(history):
            raise Rejected("bad-move", f"the move number is from 0 to {len(history)}")
        record = live.record
        state = candlebox.new_game(
            record.game, record.players, record.variant, seed=record.seed, **record.options
        )
        for mover, action in history[:at]:
            state.apply(mover, action)
        return {
            "type": "replay",
            "game": self.game_public(live),
            "seats": self.seats_public(live),
            "you": seat,
            "move": at,
            "moves": len(history),
            "view": state.view(seat),
            "legal": [],
            "log": [entry_text(record.game, entry) for entry in state.log(seat)],
            "over": state.is_over,
            "result": _result(state),
        }

    # ------------------------------------------------------------------ the lobby
    async def lobby(self) -> dict[str, Any]:
        open_games, playing = [], []
        for live in self.games.values():
            summary = self._summary(live)
            if live.record.public and any(
                s.kind == "human" and s.token_hash is None for s in live.record.seats
            ):
                open_games.append(summary)
            else:
                playing.append(summary)
        finished = await asyncio.to_thread(
            self.storage.finished_games, self.settings.lobby_finished
        )
        done = []
        for record in finished:
            done.append(
                {
                    "id": record.id,
                    "game": record.game,
                    "title": candlebox.game_info(record.game).title,
                    "variant": record.variant,
                    "players": record.players,
                    "seats": [
                        {"seat": s.seat, "name": s.name, "kind": s.kind} for s in record.seats
                    ],
                    "result": record.result,
                    "finished_at": record.updated_at,
                }
            )
        key = lambda g: -g["created_at"]  # noqa: E731
        return {
            "open": sorted(open_games, key=key),
            "playing": sorted((g for g in playing if g["public"]), key=key)[:50],
            "finished": done,
        }

    def _summary(self, live: LiveGame) -> dict[str, Any]:
        info = self.game_public(live)
        info["seats"] = self.seats_public(live)
        return info


def _result(state: State) -> dict[str, Any] | None:
    if not state.is_over:
        return None
    return {"winners": list(state.winners), "scores": list(state.scores)}


def new_entries(state: State, seat: int | None, start: int) -> list[dict[str, Any]]:
    """``state.log(seat)`` for the events from index ``start`` on (what the seat has not had yet)."""
    return state.log(seat, since=start)
