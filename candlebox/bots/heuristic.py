"""The heuristic bot: one rule-of-thumb policy per game, chosen by the state's game id."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from candlebox.engine import Rng, State
from candlebox.engine.rng import fresh_seed

# A policy reads the seat's view and legal actions and returns one of them.
Policy = Callable[[dict[str, Any], list[str], Rng], str]


def _policies() -> dict[str, Policy]:
    from candlebox.bots import candelabria, candle_quest, sixteen_candies

    return {
        "candle-quest": candle_quest.policy,
        "sixteen-candies": sixteen_candies.policy,
        "candelabria": candelabria.policy,
    }


class HeuristicBot:
    """``epsilon`` weakens it: the chance of playing a uniformly random legal action instead."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, epsilon: float = 0.0) -> None:
        if not isinstance(epsilon, int | float) or not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be a probability between 0 and 1, got {epsilon!r}")
        self.rng = Rng(fresh_seed() if seed is None else seed)
        self.epsilon = float(epsilon)
        self.policies = _policies()

    def choose(self, state: State, seat: int) -> str:
        actions = state.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no decision to make now")
        if len(actions) == 1:
            return actions[0]
        if self.epsilon and self.rng.below(1 << 30) < self.epsilon * (1 << 30):
            return actions[self.rng.below(len(actions))]
        policy = self.policies.get(state.game_id)
        if policy is None:
            raise ValueError(f"the heuristic bot has no policy for {state.game_id!r}")
        choice = policy(state.view(seat), actions, self.rng)
        if choice not in actions:  # pragma: no cover - a policy bug must not make an illegal move
            raise AssertionError(f"heuristic chose {choice!r}, not among {actions}")
        return choice
