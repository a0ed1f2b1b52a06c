"""One seeded bot-only game, played to the end and described as one row of the results table.

Everything here reads the game through the engine contract only, so every registered game (and every
game still to come) produces the same columns: nothing in this package names a game.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import candlebox
from candlebox import bots
from candlebox.engine import State
from candlebox.engine.packs import pack_hash


@dataclass(frozen=True)
class Seat:
    """The bot in one seat: a registry name, its parameters, and the label shown in tables."""

    name: str
    params: dict[str, Any] = field(default_factory=dict)
    label: str = ""

    @property
    def shown(self) -> str:
        return self.label or self.name


@dataclass(frozen=True)
class Plan:
    """N games of one configuration: game ``i`` uses seed ``seed + i``; bots are seeded from it."""

    game: str
    players: int
    variant: str | None
    options: dict[str, Any]
    seats: tuple[Seat, ...]  # one per seat, in seat order
    games: int
    seed: int = 0
    rotate: bool = False  # game i moves the line-up i seats on: seat s gets seats[(s + i) % n]

    @property
    def seeds(self) -> list[int]:
        return [self.seed + i for i in range(self.games)]

    def lineup(self, seed: int) -> tuple[Seat, ...]:
        """The bots of game ``seed``, in seat order."""
        if not self.rotate:
            return self.seats
        n = len(self.seats)
        shift = (seed - self.seed) % n
        return tuple(self.seats[(seat + shift) % n] for seat in range(n))


def bot_seed(game_seed: int, seat: int) -> int:
    """A bot's seed follows from its game's (the same rule as ``candlebox play``)."""
    return game_seed * 100 + seat


def action_kind(action: str) -> str:
    """The kind of an action for counting: its verb, with a keyword argument kept ('draw pile').

    Numbers and card codes are dropped ('auction 3' → 'auction', 'discard R7' → 'discard').
    """
    verb, _, rest = action.partition(" ")
    word = rest.split(" ", 1)[0]
    if word.isalpha() and word.islower() and " " not in rest:
        return f"{verb} {word}"
    return verb


def _scalar(value: Any) -> bool:
    return isinstance(value, bool | int | float | str)


# Fields of the final spectator view that are columns of their own, or say nothing about balance.
_NOT_FACTS = {
    "game",
    "variant",
    "players",
    "seat",
    "over",
    "pending",
    "winners",
    "scores",
    "end_reason",
    "truncated",
    "max_turns",
    "active",
    "turn",
}


def facts(view: dict[str, Any]) -> dict[str, Any]:
    """Per-game facts from the final spectator view: its scalar fields, and each seat's scalar fields."""
    found: dict[str, Any] = {
        key: value for key, value in view.items() if key not in _NOT_FACTS and _scalar(value)
    }
    seats = view.get("seats")
    if isinstance(seats, list) and all(isinstance(entry, dict) for entry in seats):
        found["seats"] = [
            {key: value for key, value in entry.items() if key != "seat" and _scalar(value)}
            for entry in seats
        ]
    return found


def new_state(plan: Plan, seed: int) -> State:
    return candlebox.new_game(
        plan.game, players=plan.players, variant=plan.variant, seed=seed, **plan.options
    )


def check(plan: Plan) -> None:
    """A ValueError naming the first seat whose bot cannot play the plan's table (a policy trained
    for two players at a table of three), before any game starts rather than in the middle of one."""
    state = new_state(plan, plan.seed)
    for seat, spec in enumerate(plan.seats):
        try:
            bots.check_table(spec.name, state, **spec.params)
        except ValueError as exc:
            raise ValueError(f"seat {seat} ({spec.shown}): {exc}") from None


def play(plan: Plan, seed: int) -> dict[str, Any]:
    """Play game ``seed`` of the plan to the end; its row of the results table."""
    state = new_state(plan, seed)
    lineup = plan.lineup(seed)
    robots = [
        bots.make(spec.name, seed=bot_seed(seed, seat), **spec.params)
        for seat, spec in enumerate(lineup)
    ]
    while not state.is_over:
        # Seats that decide at the same time all choose before any choice is applied.
        choices = [(seat, robots[seat].choose(state, seat)) for seat in sorted(state.to_act)]
        for seat, action in choices:
            if seat in state.to_act:
                state.apply(seat, action)
    return row(lineup, seed, state)


def row(lineup: tuple[Seat, ...], seed: int, state: State) -> dict[str, Any]:
    final = state.view(None)
    turn = final.get("turn")
    reason = final.get("end_reason")
    kinds: list[Counter[str]] = [Counter() for _ in range(state.num_players)]
    for seat, action in state.history:
        kinds[seat][action_kind(action)] += 1
    return {
        "seed": seed,
        "game": state.game_id,
        "variant": state.variant,
        "players": state.num_players,
        "options": dict(sorted(state.options.items())),
        "bots": [spec.shown for spec in lineup],
        "winners": sorted(state.winners),
        "scores": [float(score) for score in state.scores],
        "steps": len(state.history),
        # Games that count turns say so in their view; otherwise every step is a turn.
        "turns": turn
        if isinstance(turn, int) and not isinstance(turn, bool)
        else len(state.history),
        "first_player": state.history[0][0] if state.history else -1,
        "end_reason": reason if isinstance(reason, str) else "",
        "truncated": bool(state.truncated),
        "actions": [dict(sorted(counts.items())) for counts in kinds],
        "facts": facts(final),
        "uses": uses_of(state),
        "pack": pack_of(state),
    }


def uses_of(state: State) -> list[dict[str, list[str]]]:
    """What each seat did with which components, by the game's own hook (none: no hook)."""
    hook = candlebox.game_info(state.game_id).uses()
    return hook(state) if hook is not None else []


def pack_of(state: State) -> dict[str, Any]:
    """The content pack a game played, by the hash of its files, and whether in design mode (the
    option names are the game's own, from its ContentPacks); empty for the shipped content."""
    packs = candlebox.game_info(state.game_id).content_packs()
    if packs is None or packs.option is None:
        return {}
    folder = state.options.get(packs.option)
    if not isinstance(folder, str):
        return {}
    design = bool(packs.design_option and state.options.get(packs.design_option))
    return {"hash": pack_hash(str(Path(folder).expanduser().resolve())), "design": design}
