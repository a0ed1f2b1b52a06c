"""What the adapters need from a game beyond the engine contract: a fixed action numbering and a view
encoder, the game's ``encoding`` capability (``candlebox/games/<game>/encoder.py``), reached through
``candlebox.game_info(id).encoding()``.

The interfaces (:class:`Config`, :class:`ActionNumbering`, :class:`Layout`, :class:`ViewEncoder`) live
in candlebox/engine/encoding.py, where a game may import them; they are re-exported here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from candlebox.engine import State
from candlebox.engine.encoding import ActionNumbering, Config, Layout, ViewEncoder
from candlebox.engine.plugin import Encoding, Viewer
from candlebox.engine.registry import game_ids, game_info

__all__ = [
    "ActionNumbering",
    "Config",
    "Encoding",
    "Layout",
    "Spec",
    "ViewEncoder",
    "covered_games",
    "game_encoding",
    "rewards",
]


def game_encoding(game_id: str) -> Encoding:
    """The game's RL encoding capability; ValueError for a game without one."""
    encoding = game_info(game_id).encoding()
    if encoding is None:
        known = ", ".join(covered_games())
        raise ValueError(
            f"game {game_id!r} has no reinforcement-learning encoding yet; covered: {known}"
        )
    return encoding


def covered_games() -> list[str]:
    """The registered games that have an RL encoding (in registration order)."""
    return [game for game in game_ids() if game_info(game).capabilities.encoding is not None]


class Spec:
    """Everything the adapters share for one configuration: numbering, encoder, length bound."""

    def __init__(self, config: Config) -> None:
        self.config = config
        encoding = game_encoding(config.game_id)  # looked up once per configuration
        self.encoding = encoding
        self.actions = ActionNumbering(encoding.action_texts(config))
        self.encoder: ViewEncoder = encoding.encoder(config)
        self.max_game_length = encoding.max_game_length(config)
        self.always_a_winner = encoding.always_a_winner(config)
        # The view in the form the encoder reads (the game's typed view, or the plain dict).
        self.viewer: Viewer = game_info(config.game_id).viewer()

    @classmethod
    def make(
        cls, game_id: str, players: int = 2, variant: str | None = None, **options: Any
    ) -> Spec:
        return cls(Config.make(game_id, players, variant, **options))

    @property
    def num_distinct_actions(self) -> int:
        return self.actions.num_distinct_actions

    @property
    def observation_size(self) -> int:
        return self.encoder.size

    def observe(
        self, state: State, seat: int, out: np.ndarray | None = None, clip: bool = True
    ) -> np.ndarray:
        """The seat's observation (into ``out`` when given), read from the state when the game's
        encoder can (``ViewEncoder.fill_state``), else from a fresh view; ``clip=False``: not yet
        clipped to [0, 1] (for a caller that clips many rows at once)."""
        if self.encoder.reads_state:
            return self.encoder.encode_state(state, seat, out, clip)
        return self.encoder.encode(self.viewer(state, seat), out, clip)

    def observe_view(self, state: State, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """The seat's observation encoded from its view (the reference ``observe`` must equal)."""
        return self.encoder.encode(self.viewer(state, seat), out)


def rewards(state: State) -> list[float]:
    """1 split evenly among the winners once the game is over, 0 to everyone else (and before)."""
    n = state.num_players
    if not state.is_over:
        return [0.0] * n
    winners = state.winners
    if not winners:
        return [0.0] * n
    share = 1.0 / len(winners)
    return [share if seat in winners else 0.0 for seat in range(n)]
