"""The heuristic bot: the game's own rule-of-thumb policy (its ``heuristic`` capability)."""

from __future__ import annotations

from candlebox.engine import Rng, State, game_info
from candlebox.engine.plugin import Policy, Viewer
from candlebox.engine.rng import fresh_seed


class HeuristicBot:
    """``epsilon`` weakens it: the chance of playing a uniformly random legal action instead."""

    name = "heuristic"

    def __init__(self, seed: int | None = None, epsilon: float = 0.0) -> None:
        if not isinstance(epsilon, int | float) or not 0.0 <= epsilon <= 1.0:
            raise ValueError(f"epsilon must be a probability between 0 and 1, got {epsilon!r}")
        self.rng = Rng(fresh_seed() if seed is None else seed)
        self.epsilon = float(epsilon)
        # The policy of the last game played and how to get the view it reads (typed, or the
        # plain dict), looked up once per game rather than per decision.
        self._game: tuple[str, Policy | None, Viewer] | None = None

    def policy(self, game_id: str) -> Policy | None:
        """The game's policy (None when the game has no heuristic)."""
        return self._lookup(game_id)[1]

    def plays(self, game_id: str) -> bool:
        """The games with a heuristic."""
        return self.policy(game_id) is not None

    def _lookup(self, game_id: str) -> tuple[str, Policy | None, Viewer]:
        if self._game is None or self._game[0] != game_id:
            info = game_info(game_id)
            self._game = (game_id, info.policy(), info.policy_viewer())
        return self._game

    def choose(self, state: State, seat: int) -> str:
        actions = state.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no decision to make now")
        if len(actions) == 1:
            return actions[0]
        if self.epsilon and self.rng.below(1 << 30) < self.epsilon * (1 << 30):
            return actions[self.rng.below(len(actions))]
        _, policy, viewer = self._lookup(state.game_id)
        if policy is None:
            raise ValueError(f"the heuristic bot has no policy for {state.game_id!r}")
        choice = policy(viewer(state, seat), actions, self.rng)
        if choice not in actions:  # pragma: no cover - a policy bug must not make an illegal move
            raise AssertionError(f"heuristic chose {choice!r}, not among {actions}")
        return choice
