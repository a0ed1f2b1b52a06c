"""A tiny test-only game with simultaneous secret choices, to prove the adapters' design for them
(Candelabria will have such choices; it does not exist yet).

Secret Numbers: each round every seat secretly picks a number 1–3 (all seats are in ``to_act`` at
once); when the last has picked, the picks are revealed and the highest unique pick scores a point.
After ``rounds`` rounds the most points win. Chance: the first round's "bonus" number, dealt face down
from the state's generator, which nobody sees until the end (so ``resample`` has something to deal).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from candlebox.engine import (
    Capabilities,
    GameInfo,
    Lazy,
    MoveKind,
    Option,
    Rng,
    State,
    Variant,
    register,
    unregister,
)
from candlebox.engine.encoding import Config, Layout, ViewEncoder
from candlebox.engine.plugin import Encoding

GAME_ID = "secret-numbers"
PICKS = ("pick 1", "pick 2", "pick 3")


class SecretState(State):
    __slots__ = ("bonus", "picks", "points", "round", "rounds", "winners_")
    MOVES = (MoveKind("pick", "a secret number", redact=True),)

    def __init__(self, variant: str, players: int, seed: int, options: dict[str, Any]) -> None:
        super().__init__(GAME_ID, variant, players, seed, options)
        self.rounds = options["rounds"]
        self.round = 0
        self.picks: list[int] = [0] * players
        self.points = [0] * players
        self.bonus = 1 + self.rng.below(3)
        self.winners_: tuple[int, ...] = ()

    @property
    def to_act(self) -> tuple[int, ...]:
        if self.round >= self.rounds:
            return ()
        return tuple(s for s in range(self.num_players) if not self.picks[s])

    def pending(self) -> dict[str, Any] | None:
        return None if self.is_over else {"decision": "pick", "seats": list(self.to_act)}

    def describe_pending(self) -> str:
        return "over" if self.is_over else f"seats {list(self.to_act)} pick"

    def _legal_for(self, seat: int) -> list[str]:
        return list(PICKS) if seat in self.to_act else []

    def _do(self, seat: int, action: str) -> None:
        self.picks[seat] = int(action.split()[1])
        self.events.append(("picked", seat, self.picks[seat]))
        if all(self.picks):
            counts = [self.picks.count(v) for v in self.picks]
            unique = [
                (v, s) for s, (v, c) in enumerate(zip(self.picks, counts, strict=False)) if c == 1
            ]
            if unique:
                self.points[max(unique)[1]] += 1
            self.events.append(("reveal", tuple(self.picks)))
            self.picks = [0] * self.num_players
            self.round += 1
            if self.round >= self.rounds:
                top = max(self.points)
                self.winners_ = tuple(s for s, p in enumerate(self.points) if p == top)

    @property
    def is_over(self) -> bool:
        return self.round >= self.rounds

    @property
    def truncated(self) -> bool:
        return False

    @property
    def winners(self) -> tuple[int, ...]:
        return self.winners_

    @property
    def scores(self) -> tuple[float, ...]:
        return tuple(float(p) for p in self.points)

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {
            "seat": seat,
            "round": self.round,
            "points": list(self.points),
            "picked": [bool(p) for p in self.picks],  # who has picked, never what
            "my_pick": self.picks[seat] if seat is not None else None,
            "bonus": self.bonus if self.is_over else None,
            "pending": self.pending(),
        }

    def _event_view(self, event: tuple, seat: int | None) -> dict[str, Any] | None:
        if event[0] == "picked":
            entry: dict[str, Any] = {"event": "picked", "seat": event[1]}
            if seat == event[1]:
                entry["pick"] = event[2]
            return entry
        return {"event": "reveal", "picks": list(event[1])}

    def _resample(self, seat: int, seed: int) -> State:
        twin = self.clone()
        assert isinstance(twin, SecretState)
        twin.rng = Rng(seed)
        for other in range(self.num_players):
            if other != seat and twin.picks[other]:
                twin.picks[other] = 1 + twin.rng.below(3)  # a hidden pick, dealt anew
        twin.bonus = 1 + twin.rng.below(3)
        return twin

    def _snapshot(self) -> dict[str, Any]:
        return {"picks": list(self.picks), "points": list(self.points), "round": self.round}


def _create(variant: str, players: int, seed: int, options: dict[str, Any]) -> SecretState:
    return SecretState(variant, players, seed, options)


# ------------------------------------------------------------------ the RL module of the test game
def action_texts(config: Config) -> list[str]:
    return list(PICKS)


def max_game_length(config: Config) -> int:
    return config.players * config.options["rounds"]


def always_a_winner(config: Config) -> bool:
    return True


class SecretEncoder(ViewEncoder):
    def build(self, config: Config, layout: Layout) -> None:
        n = config.players
        layout.add("me", n)
        layout.add("picked", n)
        layout.add("my_pick", 3)
        layout.add("points", n)
        layout.add("round", 1)
        self.rounds = config.options["rounds"]

    def fill(self, view: dict[str, Any], out: np.ndarray) -> None:
        at = self.layout.fields
        if view["seat"] is not None:
            out[at["me"].start + view["seat"]] = 1.0
        for s, done in enumerate(view["picked"]):
            out[at["picked"].start + s] = float(done)
            out[at["points"].start + s] = view["points"][s] / self.rounds
        if view["my_pick"]:
            out[at["my_pick"].start + view["my_pick"] - 1] = 1.0
        out[at["round"].start] = view["round"] / self.rounds


def encoder(config: Config) -> SecretEncoder:
    return SecretEncoder(config)


ENCODING = Encoding(
    action_texts=action_texts,
    encoder=encoder,
    max_game_length=max_game_length,
    always_a_winner=always_a_winner,
)

# The test game's plug-in object, as a real game's (candlebox/games/<game>/__init__.py): rules, facts
# and its one capability, the RL encoding, named by module path and loaded on first use.
INFO = GameInfo(
    id=GAME_ID,
    title="Secret Numbers",
    variants=(
        Variant(
            "standard",
            2,
            4,
            (Option("rounds", "int", 3, "rounds to play", minimum=1, nullable=False),),
            "test game",
        ),
    ),
    default_variant=lambda players: "standard",
    max_turns=3,
    create=_create,
    capabilities=Capabilities(encoding=Lazy("tests.rl.secret_game", "ENCODING")),
)


def register_game() -> None:
    """Register the test game with the engine's own call (tests unregister it after)."""
    register(INFO)


def unregister_game() -> None:
    unregister(GAME_ID)
