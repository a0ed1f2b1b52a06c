"""The RL encoding of Candelabria's view, fed the plain view.

The encoder (encoder.py) reads the plain ``view(seat)`` dict, while the game's capabilities are given
its typed view (``GameInfo.viewer()``); this adapter hands the encoder the typed view's plain form, so
the encoding stays exactly what it was until the encoder reads the typed view (or the state) itself.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from msgspec import to_builtins

from candlebox.engine.encoding import Config
from candlebox.engine.plugin import Encoding
from candlebox.games.candelabria.encoder import ENCODING as _PLAIN
from candlebox.games.candelabria.encoder import CandelabriaEncoder


class PlainViewEncoder(CandelabriaEncoder):
    def fill(self, view: Any, out: np.ndarray) -> None:
        super().fill(view if isinstance(view, dict) else to_builtins(view), out)


def encoder(config: Config) -> PlainViewEncoder:
    return PlainViewEncoder(config)


ENCODING = Encoding(
    action_texts=_PLAIN.action_texts,
    encoder=encoder,
    max_game_length=_PLAIN.max_game_length,
    always_a_winner=_PLAIN.always_a_winner,
)
