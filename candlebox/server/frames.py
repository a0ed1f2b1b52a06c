"""What watchers are sent: every frame for a seat is built from ``view(seat)``, ``legal_actions(seat)``
and ``log(seat)`` of that seat (spectators: ``None``), never the action history, the RNG or another
seat's credential; and the public facts of a game (its seats, its fairness commitment, its map)."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

import msgspec

from candlebox.engine import State, fairness
from candlebox.engine.howto import rule_link
from candlebox.server import bots as botlib
from candlebox.server import clocks, timeloss
from candlebox.server.config import Settings
from candlebox.server.endgame import Rematches
from candlebox.server.errors import Rejected
from candlebox.server.live import CLOSED_MESSAGE, LiveGame
from candlebox.server.packs import fresh_state
from candlebox.server.sentences import entry_text, seat_words
from candlebox.server.takebacks import TakeBackFrames

encode = msgspec.json.Encoder().encode
# Options that fix what chance would decide (a deck's order, the content itself): practice only.
FIXING_OPTIONS = ("deck", "decks", "content")


class Frames:
    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.rematches = Rematches()  # the end screen: standings and rematch offers
        self.take_backs = TakeBackFrames()  # take-backs: what a seat may take back, requests
        # more parts of a snapshot, each from its own module (the table chat: chat.py)
        self.extras: list[Callable[[LiveGame, int | None], dict[str, Any]]] = []

    # ------------------------------------------------------------------ public facts
    def seats_public(self, live: LiveGame) -> list[dict[str, Any]]:
        now = time.time()
        out = []
        for record in live.record.seats:
            away = live.away_since.get(record.seat)
            bot = record.kind == "bot"
            out.append(
                {
                    "seat": record.seat,
                    "name": record.name,
                    "kind": record.kind,
                    "bot": record.bot if bot else None,
                    "strength": botlib.strength_of(record.bot, record.params) if bot else None,
                    # what the page's "thinking" spinner says: the bot's level and time budget
                    "level": botlib.level_of(record.bot, record.params, live.record.game)
                    if bot
                    else None,
                    "budget": botlib.budget_of(record.params, live.record.bot_delay)
                    if bot
                    else None,
                    "taken": bot or record.token_hash is not None,
                    # a bot playing for the seat's player, who may take it back: still a person's
                    # seat (hints between people need the table's permission, issue 33)
                    "stands_in": bot and record.token_hash is not None,
                    "connected": live.connected(record.seat),
                    "away": None if away is None else round(now - away, 1),
                    # hints the coach gave this seat: every player sees that hints were used
                    "hints": sum(1 for s, _ in live.record.hints_given if s == record.seat),
                    # a signed-in player's seat: the name is theirs, with a profile at /u/NAME
                    "account": record.account_id is not None,
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
            "result": live.result(),
            "moves": live.moves,
            "created_at": record.created_at,
            "zombie_after": self.settings.zombie_after,
            "hints": record.hints,  # the table allowed hints for every seat (issue 16)
            "rated": record.rated,  # a rated table (issue 34)
            "clock": clocks.config_public(record.clock),  # the table's clock (issue 35)
            **fairness_public(live),
        }

    def summary(self, live: LiveGame) -> dict[str, Any]:
        """A lobby entry of a live game."""
        return {**self.game_public(live), "seats": self.seats_public(live)}

    # ------------------------------------------------------------------ frames
    def frame(self, live: LiveGame, seat: int | None, kind: str = "snapshot") -> str:
        """A snapshot: everything ``seat`` may see now, its whole log included."""
        return self.snapshot(live, seat, kind)[0]

    def snapshot(self, live: LiveGame, seat: int | None, kind: str) -> tuple[str, int]:
        """A snapshot frame and the length of the log it holds."""
        entries = live.state.log(seat)
        payload = {
            "type": kind,
            "game": self.game_public(live),
            "seats": self.seats_public(live),
            "you": seat,
            **_seen(live, seat, entries),
            **self.rematches.frame_part(live, seat),
            **clocks.frame_part(live, self.settings.clock_now()),  # every seat's clock (issue 35)
            **self.take_backs.frame_part(live, seat),
        }
        for extra in self.extras:
            payload.update(extra(live, seat))
        return encode(payload).decode(), len(entries)

    def broadcast(self, live: LiveGame) -> None:
        """An update to every watcher: the new log entries since the last broadcast, as each seat may
        see them, and its view and legal actions."""
        start = live.events_sent
        live.events_sent = live.state.event_count
        if not live.watchers:
            return
        seats = self.seats_public(live)
        game = self.game_public(live)
        timing = clocks.frame_part(live, self.settings.clock_now())
        for seat, conns in live.watchers.items():
            if not conns:
                continue
            known = live.log_lengths.get(seat, 0)
            entries = live.state.log(seat, since=start)
            live.log_lengths[seat] = known + len(entries)
            payload = {"type": "update", "game": game, "seats": seats, "you": seat}
            end = {
                **self.rematches.frame_part(live, seat),
                **self.take_backs.frame_part(live, seat),
            }
            frame = encode(
                {**payload, "log_from": known, **_seen(live, seat, entries), **end, **timing}
            ).decode()
            for conn in conns:
                conn.push(frame)

    def resend_snapshots(self, live: LiveGame) -> None:
        """A fresh snapshot to every watcher (after the state was rebuilt)."""
        for seat, conns in live.watchers.items():
            frame, live.log_lengths[seat] = self.snapshot(live, seat, "snapshot")
            for conn in conns:
                conn.push(frame)

    def broadcast_seats(self, live: LiveGame) -> None:
        seats = {"type": "seats", "seats": self.seats_public(live), "move": live.moves}
        seats.update(clocks.frame_part(live, self.settings.clock_now()))  # a bot's seat: no clock
        live.push_all(encode(seats).decode())

    def broadcast_clocks(self, live: LiveGame) -> None:
        """Every seat's clock to every watcher (a seat ran out of time, or another process moved)."""
        timing = {"type": "clocks", **clocks.frame_part(live, self.settings.clock_now())}
        live.push_all(encode(timing).decode())

    # ------------------------------------------------------------------ finished games
    def replay_frame(self, live: LiveGame, seat: int | None, at: int) -> dict[str, Any]:
        """A finished game as ``seat`` saw it after ``at`` moves (0: the start)."""
        if not live.over:
            raise Rejected("not-over", "a game can be replayed once it is over", 409)
        history = live.state.history
        if not 0 <= at <= len(history):
            raise Rejected("bad-move", f"the move number is from 0 to {len(history)}")
        state = fresh_state(self.settings, live.record)
        for mover, action in history[:at]:
            state.apply(mover, action)
        entries = state.log(seat)
        last = at == len(history)  # a resigned game ends after its last move, not in it
        return {
            "type": "replay",
            "game": self.game_public(live),
            "seats": self.seats_public(live),
            "you": seat,
            "move": at,
            "moves": len(history),
            "view": state.view(seat),
            "legal": [],
            "log": [entry_text(live.record.game, entry) for entry in entries],
            "over": live.over if last else state.is_over,
            "result": live.result() if last else result(state),
        }

    def saved_game(self, live: LiveGame) -> dict[str, Any]:
        """A finished game as a saved-game file (``candlebox replay FILE --verify`` checks it): the
        engine's ``to_json`` with the content pack by name, and the opened commitment."""
        if not live.over:
            raise Rejected("not-over", "a game can be downloaded once it is over", 409)
        data = live.state.to_json()
        data["options"] = dict(live.record.options)  # a content pack's name, not its folder
        block = fairness_public(live)["fairness"]
        if block is not None:
            data["fairness"] = block
        result = live.result()
        if live.resigned and result is not None:  # the end the replay cannot reach by itself
            data["resigned"] = result["resigned"]
        late = timeloss.lost_on_time(live)
        if late is not None:  # a rated seat out of time: likewise, and said as what it was
            data["out_of_time"] = late
        return data


def _seen(live: LiveGame, seat: int | None, entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The part of a frame that is the seat's own: its view, legal actions and log entries."""
    state = live.state
    return {
        "move": live.moves,
        "view": state.view(seat),
        "legal": state.legal_actions(seat) if seat is not None and not live.over else [],
        **seat_words(state, seat),  # the pending decision and the legal actions in words
        "rule": rule_link(state),  # the how-to-play section behind the pending decision
        "log": [entry_text(live.record.game, entry) for entry in entries],
        "over": live.over,
        "result": live.result(),
    }


def fairness_public(live: LiveGame) -> dict[str, Any]:
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


def closed_frame(code: str = "closed", message: str = CLOSED_MESSAGE) -> str:
    """The error frame watchers of a game closed (nobody moved for long, or its host left) get."""
    payload = {"type": "error", "error": code, "message": message, "ref": None}
    return encode(payload).decode()


def result(state: State) -> dict[str, Any] | None:
    if not state.is_over:
        return None
    return {"winners": list(state.winners), "scores": list(state.scores)}


def board_of(state: Any) -> dict[str, Any] | None:
    """The side of the map a game is played on, as plain public data (content packs are public: the
    regions with their colours and territories' icons, borders, bridges and the grid of cells the map is
    drawn from, rulings CA-1); None for a game without a map."""
    content = getattr(state, "content", None)
    sides = getattr(content, "sides", None)
    side = getattr(state, "side", None)
    if not isinstance(sides, dict) or side not in sides:
        return None
    data = msgspec.to_builtins(sides[side])
    return data if isinstance(data, dict) else None
