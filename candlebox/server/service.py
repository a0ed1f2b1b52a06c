"""The games being played: one engine state per game, rebuilt from the database, a lock per game, and
the connections that watch it.

A move goes: per-game lock → legality from ``legal_actions`` → the move is committed to the database →
the engine applies it → every connection gets a frame built from ``view(seat)`` and ``log(seat)`` of its
own seat (never anything else of the state) → bots whose turn it is are scheduled. Frames for a seat are
built only from what that seat may see; the raw action history is never sent to anyone.
"""

from __future__ import annotations

import asyncio
import heapq
import logging
import os
import random
import re
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import msgspec

import candlebox
from candlebox.engine import IllegalAction, State, fairness
from candlebox.server import bots as botlib
from candlebox.server import security
from candlebox.server.config import Settings
from candlebox.server.sentences import entry_text, seat_words
from candlebox.server.storage import (
    FairRecord,
    GameRecord,
    MoveConflict,
    MoveRecord,
    SeatRecord,
    Storage,
    Writer,
)

log = logging.getLogger("candlebox.server")
_encode = msgspec.json.Encoder().encode
# Options that fix what chance would decide (a deck's order, the content itself): practice only.
FIXING_OPTIONS = ("deck", "decks", "content")
LOBBY_LISTS = ("open", "playing", "finished")
CLOSED_MESSAGE = "this game was closed: nobody moved in it for a long time"
_CURSOR = re.compile(r"^([0-9]{1,12}(?:\.[0-9]{1,20})?)~([A-Za-z0-9_-]{1,32})$")
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
    active_at: float = field(default_factory=time.time)  # its last move (or creation, or restart)
    creator: str | None = None  # the client address that created it (this process only)

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
        self.sweeper: asyncio.Task[None] | None = None

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
            await self._check_stored_bots(live)
            self.games[game_id] = live
            self._schedule_bots(live)
        if ids:
            log.info("resumed %d live games", len(self.games))
        if self.settings.sweep_every > 0:
            self.sweeper = asyncio.create_task(self._sweep_forever())

    async def stop(self) -> None:
        self.closed = True
        tasks = [t for live in self.games.values() for t in live.bot_tasks.values()]
        if self.sweeper is not None:
            tasks.append(self.sweeper)
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

    async def _check_stored_bots(self, live: LiveGame) -> None:
        """A stored bot seat is checked as a client's request would be: parameters outside the
        server's bounds (a hostile or old row) are clamped or dropped, with a log line, and the
        safe ones are stored; a bot that does not exist or play the game is replaced."""
        for record in live.record.seats:
            if record.kind != "bot":
                continue
            name = record.bot
            problems: list[str] = []
            try:
                name = botlib.check(name, live.record.game)
            except ValueError as exc:
                problems.append(f"{exc}; the heuristic bot plays instead")
                name = "heuristic"
            params, changed = botlib.sanitize(name, record.params, self.settings.max_bot_seconds)
            problems += changed
            if not problems:
                continue
            log.warning(
                "game %s seat %d: stored bot settings refused or clamped (%s)",
                live.id,
                record.seat,
                "; ".join(problems),
            )
            await self.writer.run(
                partial(
                    Storage.update_seat,
                    game_id=live.id,
                    seat=record.seat,
                    bot=name,
                    params=params,
                )
            )
            record.bot, record.params = name, params

    def _fresh_state(self, record: GameRecord) -> State:
        """The record's game at its start (a content pack's name becomes its folder here)."""
        options = record.options
        if options.get("content") is not None:
            try:
                folder = content_path(self.settings, options["content"])
            except Rejected as exc:
                raise ValueError(exc.message) from None
            options = {**options, "content": folder}
        return candlebox.new_game(
            record.game, record.players, record.variant, seed=record.seed, **options
        )

    def _rebuild(self, record: GameRecord, moves: list[MoveRecord]) -> LiveGame:
        state = self._fresh_state(record)
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
        if record.status == "expired":
            raise Rejected("closed", CLOSED_MESSAGE, 410)
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
    async def create(self, spec: dict[str, Any], client: str | None = None) -> dict[str, Any]:
        """A new game from the lobby's form (validated here); returns its id, the creator's seat
        credential and the invite codes of the other human seats. ``client`` (an address) may have
        at most ``max_open_games`` live games."""
        if client is not None and self.settings.max_open_games > 0:
            mine = sum(1 for live in self.games.values() if live.creator == client)
            if mine >= self.settings.max_open_games:
                raise Rejected(
                    "too-many-games",
                    f"you already have {mine} games in play (at most "
                    f"{self.settings.max_open_games}); finish or leave one first",
                    429,
                )
        record, you, secrets_out = self._new_record(spec)
        await self.writer.run(lambda conn: Storage.insert_game(conn, record))
        state = self._fresh_state(record)
        live = LiveGame(
            record=record,
            state=state,
            title=candlebox.game_info(record.game).title,
            creator=client,
        )
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
        self._check_options(game, variant, players, options)
        practice, seed_chosen = self._practice_rules(spec, seed, options)
        if seed is None:
            seed, nonce = fairness.draw()  # only the server knows it until the game is over
        else:
            nonce = fairness.draw()[1]
        pack = options.get("content")
        if pack is not None:
            options = {**options, "content": content_path(self.settings, pack)}
        try:
            state = candlebox.new_game(game, players, variant, seed=seed, **options)
        except TypeError:  # the engine's message would be Python's own words: never shown
            raise Rejected("bad-settings", "these options do not fit this game") from None
        except ValueError as exc:
            if pack is None:
                raise Rejected("bad-settings", str(exc)) from None
            message = scrub_path(str(exc), options["content"])
            raise Rejected(
                "bad-content", f"content pack {pack!r} does not load: {message}"
            ) from None
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
                strength = raw.get("level", raw.get("strength"))
                try:
                    params = botlib.params_for(
                        name, strength, params, self.settings.max_bot_seconds
                    )
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
        table = security.new_game_id()
        public = spec.get("public", True)
        if not isinstance(public, bool):
            raise Rejected("bad-public", "'public' is true or false")
        record = GameRecord(
            id=table,
            game=game,
            variant=state.variant,
            players=players,
            options=dict(state.options) if pack is None else {**state.options, "content": pack},
            seed=state.seed,
            public=public,
            bot_delay=float(delay),
            created_at=time.time(),
            seats=seats,
        )
        commitment = fairness.commit(
            table, game, record.variant, players, record.options, record.seed, nonce
        )
        record.fair = FairRecord(practice, seed_chosen, nonce, commitment)
        out: dict[str, Any] = {"invites": {str(k): v for k, v in invites.items()}}
        if you is not None:
            out["token"] = tokens[you]
        return record, you, out

    def _practice_rules(
        self, spec: dict[str, Any], seed: int | None, options: dict[str, Any]
    ) -> tuple[bool, bool]:
        """(practice, seed chosen). A chosen seed or fixed chance (``FIXING_OPTIONS``) lets its
        chooser know every hidden card, so it is allowed only in a game created as a practice game,
        which shows it to every player and spectator."""
        practice = spec.get("practice", False)
        if not isinstance(practice, bool):
            raise Rejected("bad-practice", "'practice' is true or false")
        fixed = [name for name in FIXING_OPTIONS if options.get(name) is not None]
        if not practice and (seed is not None or fixed):
            chosen = (["seed"] if seed is not None else []) + fixed
            raise Rejected(
                "practice-only",
                f"{' and '.join(chosen)} {'decides' if len(chosen) == 1 else 'decide'} the cards "
                f"in advance, so whoever sets {'it' if len(chosen) == 1 else 'them'} could know "
                'every hidden card: practice games only (add "practice": true; every player and '
                "spectator then sees what was fixed). Other games are dealt from a seed only the "
                "server knows.",
            )
        return practice, seed is not None

    def _check_options(
        self, game: str, variant: str | None, players: int, options: dict[str, Any]
    ) -> None:
        """Option names the variant knows (never the engine's own arguments such as ``seed``) and
        ``max_turns`` within this server's cap."""
        info = candlebox.game_info(game)
        try:
            name = variant or info.default_variant(players)
        except (ValueError, KeyError):
            return  # the engine names the problem with the player count
        chosen = next((v for v in info.variants if v.name == name), None)
        if chosen is None:
            return  # the engine names the unknown variant
        # An option another variant offers is accepted at the value it has here (Variant.fixed).
        known = {opt.name for opt in chosen.options} | {pin.option.name for pin in chosen.fixed}
        for key in options:
            if key not in known:
                raise Rejected(
                    "bad-settings",
                    f"unknown option {key!r}; options: {', '.join(sorted(known)) or 'none'}",
                )
        turns = options.get("max_turns")
        if isinstance(turns, int) and turns > self.settings.max_turns:
            raise Rejected(
                "bad-settings", f"max_turns is at most {self.settings.max_turns} on this server"
            )

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
                    name,
                    strength if isinstance(strength, int | float | str) else None,
                    {},
                    self.settings.max_bot_seconds,
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
        if isinstance(expect, bool) or not isinstance(expect, int):
            raise Rejected(
                "malformed",
                "'expect' is required: the number of the move the action answers (the frame's "
                "'move'), so that a retried move is refused instead of applied twice",
            )
        async with live.lock:
            state = live.state
            if live.record.status == "expired":  # closed while this move waited for the lock
                raise Rejected("closed", CLOSED_MESSAGE, 410)
            if state.is_over:
                raise Rejected("over", "the game is over; no move is legal", 409)
            if not bot and live.seat(seat).kind == "bot":
                raise Rejected("bot-seat", f"a bot plays seat {seat} now; take it back first", 409)
            if expect != live.moves:
                self._refuse_repeat(live, seat, action, expect)
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
            except Exception:
                log.exception("move %d of %s could not be saved", number, game_id)
                raise Rejected(
                    "unavailable", "the move could not be saved just now; try again shortly", 503
                ) from None
            state.apply(seat, action)  # legal, so this cannot fail
            live.moves += 1
            live.active_at = time.time()
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

    @staticmethod
    def _refuse_repeat(live: LiveGame, seat: int, action: str, expect: int) -> None:
        """A move answering a move number that is already taken by this very move (a retry, a
        double click, a resent message): refused, naming it, never applied again."""
        history = live.state.history
        if 0 <= expect < len(history) and tuple(history[expect]) == (seat, action):
            raise Rejected(
                "duplicate",
                f"{action!r} was already applied as move {expect}; it is not applied again",
                409,
            )

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
                    bot = botlib.make(
                        record.bot,
                        record.params,
                        live.record.seed,
                        seat,
                        number,
                        self.settings.max_bot_seconds,
                    )
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
        """Register a watcher and queue its snapshot (no await in between: no frame is missed).
        A game has at most ``max_spectators`` spectators' connections (:class:`Rejected`)."""
        if conn.seat is None and len(live.watchers.get(None, ())) >= self.settings.max_spectators:
            raise Rejected(
                "full", "this game has as many spectators as it can take; try again later", 503
            )
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
            **self.fairness_public(live),
        }

    def fairness_public(self, live: LiveGame) -> dict[str, Any]:
        """What every seat and spectator is shown about how the game is dealt: the commitment from
        the start, its opening once the game is over; in a practice game, what was fixed."""
        record, fair = live.record, live.record.fair
        if fair is None:
            return {"practice": False, "fixed": [], "seed": None, "fairness": None}
        fixed = [name for name in FIXING_OPTIONS if record.options.get(name) is not None]
        over = live.over
        shown_seed = record.seed if fair.seed_chosen else None
        return {
            "practice": fair.practice,
            "fixed": (["seed"] if fair.seed_chosen else []) + fixed,
            "seed": None if shown_seed is None else str(shown_seed),
            "fairness": fairness.reveal_block(
                record.id,
                fair.commitment,
                record.seed if over else None,
                fair.nonce if over else None,
            ),
        }

    def saved_game(self, live: LiveGame) -> dict[str, Any]:
        """A finished game as a saved-game file (``candlebox replay FILE --verify`` checks it): the
        engine's ``to_json`` with the content pack by name, and the opened commitment."""
        if not live.over:
            raise Rejected("not-over", "a game can be downloaded once it is over", 409)
        data = live.state.to_json()
        data["options"] = dict(live.record.options)  # a content pack's name, not its folder
        block = self.fairness_public(live)["fairness"]
        if block is not None:
            data["fairness"] = block
        return data

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
            **seat_words(state, seat),
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
                **seat_words(state, seat),
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
        state = self._fresh_state(record)
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
    async def lobby(self, limit: int | None = None) -> dict[str, Any]:
        """The first page of each of the lobby's lists (public games only: a private game is never
        listed, live or finished) and the cursor of each list's next page (None: no more)."""
        size = self._page_size(limit)
        out: dict[str, Any] = {"next": {}}
        for which in LOBBY_LISTS:
            games, cursor = await self.lobby_page(which, size, None)
            out[which] = games
            out["next"][which] = cursor
        return out

    async def lobby_page(
        self, which: str, limit: int | None, cursor: str | None
    ) -> tuple[list[dict[str, Any]], str | None]:
        """One page of a lobby list, newest first, after ``cursor`` (a previous page's ``next``)."""
        if which not in LOBBY_LISTS:
            raise Rejected("bad-list", f"the lobby's lists are {', '.join(LOBBY_LISTS)}")
        size = self._page_size(limit)
        after = _parse_cursor(cursor)
        if which == "finished":
            records = await asyncio.to_thread(self.storage.finished_games, size + 1, after)
            done = [self._finished_summary(record) for record in records[:size]]
            last = records[size - 1] if len(records) > size else None
            return done, None if last is None else _cursor(last.updated_at, last.id)
        wanted = which == "open"
        candidates = (
            live
            for live in self.games.values()
            if live.record.public
            and self._has_open_seat(live) == wanted
            and (after is None or (live.record.created_at, live.id) < after)
        )
        page = heapq.nlargest(size + 1, candidates, key=lambda g: (g.record.created_at, g.id))
        more = len(page) > size
        page = page[:size]
        cursor_out = _cursor(page[-1].record.created_at, page[-1].id) if more else None
        return [self._summary(live) for live in page], cursor_out

    def _page_size(self, limit: int | None) -> int:
        if limit is None:
            return self.settings.lobby_page
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 1:
            raise Rejected("bad-limit", "the limit is a whole number of games, 1 or more")
        return min(limit, self.settings.lobby_max_page)

    @staticmethod
    def _has_open_seat(live: LiveGame) -> bool:
        return any(s.kind == "human" and s.token_hash is None for s in live.record.seats)

    @staticmethod
    def _finished_summary(record: GameRecord) -> dict[str, Any]:
        return {
            "id": record.id,
            "game": record.game,
            "title": candlebox.game_info(record.game).title,
            "variant": record.variant,
            "players": record.players,
            "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind} for s in record.seats],
            "result": record.result,
            "finished_at": record.updated_at,
            "practice": bool(record.fair and record.fair.practice),
        }

    # ------------------------------------------------------------------ expiry
    async def _sweep_forever(self) -> None:
        while not self.closed:
            await asyncio.sleep(self.settings.sweep_every)
            try:
                await self.sweep()
            except Exception:  # the database may be down for a while: try again next time
                log.exception("the sweep for expired games failed")

    async def sweep(self, now: float | None = None) -> tuple[list[str], list[str]]:
        """Close live games with no move for ``expire_after`` seconds (their watchers are told and
        let go; they leave every list) and delete finished or closed games ``keep_finished`` seconds
        after they ended. Returns (closed ids, deleted ids)."""
        now = time.time() if now is None else now
        closed = []
        for live in list(self.games.values()):
            if now - live.active_at < self.settings.expire_after:
                continue
            async with live.lock:
                if live.id not in self.games or now - live.active_at < self.settings.expire_after:
                    continue
                await self.writer.run(
                    partial(Storage.set_status, game_id=live.id, status="expired")
                )
                live.record.status = "expired"
                self.games.pop(live.id, None)
            for task in live.bot_tasks.values():
                task.cancel()
            frame = _encode(
                {"type": "error", "error": "closed", "message": CLOSED_MESSAGE, "ref": None}
            ).decode()
            for conns in live.watchers.values():
                for conn in conns:
                    conn.push(frame)
                    conn.close()
            closed.append(live.id)
        cutoff = now - self.settings.keep_finished
        deleted: list[str] = await self.writer.run(partial(Storage.delete_ended, before=cutoff))
        for game_id in deleted:
            self.finished.pop(game_id, None)
        if closed or deleted:
            log.info("closed %d abandoned games, deleted %d old ones", len(closed), len(deleted))
        return closed, deleted

    def _summary(self, live: LiveGame) -> dict[str, Any]:
        info = self.game_public(live)
        info["seats"] = self.seats_public(live)
        return info


# ---------------------------------------------------------------------------- content packs
PACK_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")


def content_packs(settings: Settings) -> list[str]:
    """The content packs this server offers by name: the folders in ``Settings.content_dir``."""
    if not settings.content_dir:
        return []
    try:
        with os.scandir(settings.content_dir) as entries:
            names = [e.name for e in entries if e.is_dir() and PACK_NAME.match(e.name)]
    except OSError:
        log.warning("the content directory %s cannot be read", settings.content_dir)
        return []
    return sorted(name for name in names if ".." not in name)


def content_path(settings: Settings, name: object) -> str:
    """The folder of the content pack called ``name``. Over the network a pack is only ever chosen
    by name from the server's list, never by path, and the refusal names no server path (it reads
    the same whether or not any path exists)."""
    offered = content_packs(settings)
    if not isinstance(name, str) or name not in offered:
        listing = ", ".join(offered) if offered else "this server offers none"
        raise Rejected(
            "bad-content",
            f"'content' is the name of a content pack this server offers ({listing})",
        )
    assert settings.content_dir is not None
    return os.path.join(settings.content_dir, name)


def scrub_path(message: str, folder: str) -> str:
    """``message`` without the server's path of ``folder`` (nor its resolved form)."""
    for form in sorted({folder, os.path.realpath(folder)}, key=len, reverse=True):
        message = message.replace(form, "the pack")
    return message


def _cursor(stamp: float, game_id: str) -> str:
    return f"{stamp!r}~{game_id}"


def _parse_cursor(cursor: str | None) -> tuple[float, str] | None:
    if cursor is None:
        return None
    found = _CURSOR.match(cursor) if isinstance(cursor, str) else None
    if found is None:
        raise Rejected("bad-cursor", "that is not a cursor from this lobby's 'next'")
    return float(found.group(1)), found.group(2)


def _result(state: State) -> dict[str, Any] | None:
    if not state.is_over:
        return None
    return {"winners": list(state.winners), "scores": list(state.scores)}


def new_entries(state: State, seat: int | None, start: int) -> list[dict[str, Any]]:
    """``state.log(seat)`` for the events from index ``start`` on (what the seat has not had yet)."""
    return state.log(seat, since=start)
