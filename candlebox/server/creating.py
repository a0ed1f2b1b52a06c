"""A new game's record from a checked :class:`~candlebox.server.bodies.CreateSpec`: the game set up
by the engine, its seats (bots with the server's parameters, humans with credentials or invites), and
its fairness commitment (the seed only the server knows, unless it is a practice game)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

import candlebox
from candlebox import bots
from candlebox.engine import State, fairness
from candlebox.server import bots as botlib
from candlebox.server import clocks, security
from candlebox.server.bodies import CreateSpec, SeatSpec
from candlebox.server.config import Settings
from candlebox.server.errors import Rejected
from candlebox.server.frames import FIXING_OPTIONS
from candlebox.server.packs import content_path, scrub_path
from candlebox.server.storage import BotTable, FairRecord, GameRecord, SeatRecord

BOT_NAMES = ("Ember", "Wick", "Taper", "Lumen", "Flicker", "Tallow", "Beacon", "Glim")


@dataclass
class NewGame:
    record: GameRecord
    state: State
    you: int | None
    token: str | None = None  # the creator's credential (when ``you`` is a seat)
    invites: dict[int, str] = field(default_factory=dict)  # the other human seats' invite codes
    owner_token: str | None = None  # a bot-only table's: the credential that stops it

    def answer(self) -> dict[str, Any]:
        """What the creator is told (the only time the credentials and invites are shown)."""
        out: dict[str, Any] = {"id": self.record.id, "seat": self.you}
        out["invites"] = {str(k): v for k, v in self.invites.items()}
        if self.token is not None:
            out["token"] = self.token
        if self.owner_token is not None:
            out["owner_token"] = self.owner_token
            assert self.record.table is not None
            out["stop_at"] = self.record.table.stop_at
        return out


def new_game(spec: CreateSpec, settings: Settings) -> NewGame:
    games = candlebox.game_ids()  # as registered now: a game registered after import is a game
    if spec.game not in games:
        raise Rejected("bad-game", f"unknown game {spec.game!r}; games: {', '.join(games)}")
    players = len(spec.seats)
    options = spec.options or {}
    check_options(settings, spec.game, spec.variant, players, options)
    rated_rules(spec)
    seed_chosen = practice_rules(spec.practice, spec.seed, options)
    state, pack = _set_up(settings, spec, options)
    delay = _bot_delay(settings, spec.bot_delay)
    you = spec.you
    if you is not None and not 0 <= you < players:
        raise Rejected("bad-seat", f"'you' is the seat you take, 0–{players - 1}, or null")
    made = NewGame(_record(spec, state, pack, delay), state, you)
    made.record.seats = [_seat(settings, spec, number, made) for number in range(players)]
    if not any(seat.kind == "human" for seat in made.record.seats):
        _bot_table(settings, made)
    made.record.clock = clocks.choose(spec.clock, made.record, spec.practice)  # issue 35
    if made.record.clock is not None:
        clocks.started(made.record.clock, made.record, state.to_act, settings.clock_now())
    nonce = fairness.draw()[1]
    record = made.record
    commitment = fairness.commit(
        record.id, record.game, record.variant, players, record.options, record.seed, nonce
    )
    record.fair = FairRecord(spec.practice, seed_chosen, nonce, commitment)
    return made


def _set_up(settings: Settings, spec: CreateSpec, options: dict[str, Any]) -> tuple[State, Any]:
    """The engine's game from the spec, and the content pack's name (None: shipped content)."""
    # Without a chosen seed only the server knows it until the game is over.
    seed = spec.seed if spec.seed is not None else fairness.draw()[0]
    if options.get("design"):
        # A designer's changed values are for candlebox simulate; a server plays its packs as printed.
        raise Rejected("bad-settings", "option 'design' is not offered here: packs play as printed")
    pack = options.get("content")
    if pack is not None:
        options = {**options, "content": content_path(settings, pack)}
    try:
        state = candlebox.new_game(spec.game, len(spec.seats), spec.variant, seed=seed, **options)
    except TypeError:  # the engine's message would be Python's own words: never shown
        raise Rejected("bad-settings", "these options do not fit this game") from None
    except ValueError as exc:
        if pack is None:
            raise Rejected("bad-settings", str(exc)) from None
        message = scrub_path(str(exc), options["content"])
        raise Rejected("bad-content", f"content pack {pack!r} does not load: {message}") from None
    return state, pack


def _bot_delay(settings: Settings, asked: float | None) -> float:
    delay = settings.bot_delay if asked is None else asked
    if not 0 <= delay <= settings.max_bot_delay:
        raise Rejected("bad-delay", f"bot_delay is from 0 to {settings.max_bot_delay:g} seconds")
    return float(delay)


def _record(spec: CreateSpec, state: State, pack: Any, delay: float) -> GameRecord:
    return GameRecord(
        id=security.new_game_id(),
        game=spec.game,
        variant=state.variant,
        players=len(spec.seats),
        options=dict(state.options) if pack is None else {**state.options, "content": pack},
        seed=state.seed,
        public=spec.public,
        bot_delay=delay,
        created_at=time.time(),
        hints=spec.hints,
        seats=[],
        rated=spec.rated,
    )


def _seat(settings: Settings, spec: CreateSpec, number: int, made: NewGame) -> SeatRecord:
    asked = spec.seats[number]
    if asked.kind == "bot":
        if number == made.you:
            raise Rejected("bad-seat", f"seat {number} is a bot; you cannot take it")
        return _bot_seat(settings, made.state, number, asked)
    human = SeatRecord(number, "human", security.clean_name(asked.name, f"Player {number + 1}"))
    secret = security.new_token()
    if number == made.you:
        human.token_hash, made.token = security.digest(secret), secret
    else:
        human.invite_hash, made.invites[number] = security.digest(secret), secret
    return human


def _bot_table(settings: Settings, made: NewGame) -> None:
    """A table with no human seat: nobody holds a seat credential to end it, so its creator is
    given one to stop it, and it stops itself ``bot_table_seconds`` after its creation."""
    secret = security.new_token()
    limit = settings.bot_table_seconds
    stop_at = made.record.created_at + limit if limit > 0 else None
    made.record.table = BotTable(security.digest(secret), stop_at)
    made.owner_token = secret


def _bot_seat(settings: Settings, state: State, number: int, asked: SeatSpec) -> SeatRecord:
    strength = asked.level if asked.level is not None else asked.strength
    try:
        name, params = botlib.seat_bot(
            state.game_id, asked.bot, strength, asked.params, settings.max_bot_seconds
        )
        bots.check_table(name, state, **params)  # the check candlebox play and simulate make
    except ValueError as exc:
        raise Rejected("bad-bot", f"seat {number}: {exc}") from None
    label = security.clean_name(asked.name, BOT_NAMES[number % len(BOT_NAMES)])
    return SeatRecord(number, "bot", label, bot=name, params=params)


def rated_rules(spec: CreateSpec) -> None:
    """A rated table is a contest between people on equal terms: every seat a person's (each
    signed in, checked as they take it), no bot, no practice game, no hints."""
    if not spec.rated:
        return
    bots_asked = [n for n, seat in enumerate(spec.seats) if seat.kind == "bot"]
    if bots_asked:
        raise Rejected(
            "rated-bots",
            f"a rated table has no bots (seat {', '.join(map(str, bots_asked))} is one): "
            "every seat is a signed-in player's",
        )
    if len(spec.seats) < 2:
        raise Rejected("rated-players", "a rated table has at least two players")
    if spec.practice or spec.seed is not None:
        raise Rejected("rated-practice", "a practice game cannot be rated")
    if spec.hints:
        raise Rejected("rated-hints", "a rated table allows no hints: leave hints off")


def practice_rules(practice: bool, seed: int | None, options: dict[str, Any]) -> bool:
    """Whether the seed was chosen. A chosen seed or fixed chance (``FIXING_OPTIONS``) lets its
    chooser know every hidden card, so it is allowed only in a game created as a practice game,
    which shows it to every player and spectator."""
    fixed = [name for name in FIXING_OPTIONS if options.get(name) is not None]
    if not practice and (seed is not None or fixed):
        chosen = (["seed"] if seed is not None else []) + fixed
        one = len(chosen) == 1
        raise Rejected(
            "practice-only",
            f"{' and '.join(chosen)} {'decides' if one else 'decide'} the cards "
            f"in advance, so whoever sets {'it' if one else 'them'} could know "
            'every hidden card: practice games only (add "practice": true; every player and '
            "spectator then sees what was fixed). Other games are dealt from a seed only the "
            "server knows.",
        )
    return seed is not None


def check_options(
    settings: Settings, game: str, variant: str | None, players: int, options: dict[str, Any]
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
    if isinstance(turns, int) and turns > settings.max_turns:
        raise Rejected("bad-settings", f"max_turns is at most {settings.max_turns} on this server")
