"""The random bot: a uniformly random legal action, from its own seeded generator."""

from __future__ import annotations

from candlebox.engine import Rng, State
from candlebox.engine.rng import fresh_seed


class RandomBot:
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = Rng(fresh_seed() if seed is None else seed)

    def plays(self, game_id: str) -> bool:
        """Every game: any legal action will do."""
        return True

    def choose(self, state: State, seat: int) -> str:
        actions = state.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no decision to make now")
        return actions[self.rng.below(len(actions))]
