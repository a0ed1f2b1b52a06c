"""The policy bot's network: a trained policy read from an ``.npz`` file and run with numpy alone.

The file holds the policy half of an actor-critic trained by ``python -m candlebox.rl.train`` (tanh
layers, then the output layer) in float16, the token vocabulary and a JSON ``meta`` naming the
configuration it was trained for. The observation is the game's own RL encoding of the seat (read
from the state where the encoder can, else from the seat's view: either way only what the seat may
know); only legal actions are scored.

The output layer is *factored* so that a file stays small when a game numbers many actions (16
Candies: 15,666, of which 15,625 are ``top A B C``): every action text is cut into tokens
(:func:`action_tokens`), the network scores tokens, and an action's logit is the sum of its tokens'
scores. An action of a verb with few actions gets a token of its own (so its logit is free); a verb
with more than :data:`FACTOR_ABOVE` actions is scored word by word (``top`` scores each position's half
code, Candelabria's ``play A B`` each card), which keeps the layer a few hundred rows wide.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from candlebox.engine import State, game_info
from candlebox.engine.encoding import ActionNumbering, Config, ViewEncoder

# A verb with more actions than this is scored word by word rather than action by action.
FACTOR_ABOVE = 500
FORMAT = 1  # the file layout written by candlebox.rl.train (``meta["format"]``)


def action_tokens(texts: Sequence[str]) -> list[list[str]]:
    """The tokens whose scores add up to each action's logit, for the configuration's action texts.

    Every action has its verb (first word) as a token; an action of a verb with at most
    ``FACTOR_ABOVE`` actions also has a token of its own (its whole text); a verb with more has one
    token per later word and its position (``"top 2:Rc"``)."""
    verbs = Counter(text.split()[0] for text in texts)
    tokens = []
    for text in texts:
        words = text.split()
        verb = words[0]
        if len(words) == 1:
            tokens.append([verb])
        elif verbs[verb] <= FACTOR_ABOVE:
            tokens.append([verb, text])
        else:
            tokens.append([verb, *(f"{verb} {i}:{word}" for i, word in enumerate(words[1:], 1))])
    return tokens


def token_vocabulary(texts: Sequence[str]) -> list[str]:
    """Every token of the configuration's actions, in order of first use."""
    return list(dict.fromkeys(token for row in action_tokens(texts) for token in row))


def _unfit(meta: dict[str, Any], config: Config) -> str:
    """What the network plays, beside this table, when it is trained for another; else ""."""
    game, variant, players = meta["game"], meta["variant"], meta["players"]
    if (game, variant, players) == (config.game_id, config.variant, config.players):
        return ""
    plays = f"plays {game_info(game).title} ({variant}) with {players} players only"
    if (game, variant) == (config.game_id, config.variant):
        return f"{plays}; this table has {config.players}"
    return (
        f"{plays}; this table is {game_info(config.game_id).title} ({config.variant}) with "
        f"{config.players} players"
    )


@dataclass
class Network:
    """The policy half of a trained actor-critic, as numpy arrays, bound to one configuration."""

    meta: dict[str, Any]
    layers: list[tuple[Any, Any]]  # (weights [in, out], bias [out]), tanh after each
    head_w: Any  # [hidden, tokens]
    head_b: Any  # [tokens]
    index: Any  # [actions, most tokens an action has]: token numbers, padded with ``tokens``
    numbering: ActionNumbering
    encoder: ViewEncoder
    config: Config

    @classmethod
    def load(cls, path: Path, state: State) -> Network:
        """The network in ``path``, checked against the configuration of ``state``."""
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            count = int(meta["layers"])
            layers = [
                (data[f"w{i}"].astype(np.float32), data[f"b{i}"].astype(np.float32))
                for i in range(count)
            ]
            head_w = data["head_w"].astype(np.float32)
            head_b = data["head_b"].astype(np.float32)
            vocabulary = [str(token) for token in data["tokens"]]
        if meta.get("format") != FORMAT:
            raise ValueError(f"{path.name}: unknown policy file format {meta.get('format')!r}")
        config = Config.make(state.game_id, state.num_players, state.variant, **state.options)
        trained = f"{meta['game']} ({meta['variant']}, {meta['players']} players)"
        unfit = _unfit(meta, config)
        if unfit:
            raise ValueError(f"the policy network in {path.name} {unfit}")
        encoding = game_info(config.game_id).encoding()
        if encoding is None:  # pragma: no cover - a file exists only for a game with an encoding
            raise ValueError(f"game {config.game_id!r} has no observation encoding")
        numbering = ActionNumbering(encoding.action_texts(config))
        encoder = encoding.encoder(config)
        if encoder.size != layers[0][0].shape[0]:
            raise ValueError(
                f"the policy in {path.name} reads {layers[0][0].shape[0]} numbers, but these "
                f"options give {encoder.size}: it was trained for {trained} with the options "
                f"{meta['options']}"
            )
        place = {token: number for number, token in enumerate(vocabulary)}
        rows = action_tokens(numbering.texts)
        width = max(len(row) for row in rows)
        index = np.full((len(rows), width), len(vocabulary), dtype=np.int32)
        for action, row in enumerate(rows):
            try:
                index[action, : len(row)] = [place[token] for token in row]
            except KeyError as exc:
                raise ValueError(
                    f"the policy in {path.name} has no score for {exc.args[0]!r}: it was "
                    f"trained for {trained} with the options {meta['options']}"
                ) from None
        return cls(meta, layers, head_w, head_b, index, numbering, encoder, config)

    def logits(self, state: State, seat: int, legal: list[int]) -> Any:
        """The logits of the ``legal`` action ids for ``seat`` now."""
        if self.encoder.reads_state:
            hidden = self.encoder.encode_state(state, seat)
        else:
            hidden = self.encoder.encode(self.config.info.viewer()(state, seat))
        for weights, bias in self.layers:
            hidden = np.tanh(hidden @ weights + bias)
        scores = np.append(hidden @ self.head_w + self.head_b, np.float32(0.0))
        return scores[self.index[legal]].sum(axis=1)

    def pick(self, state: State, seat: int, temperature: float, draw: float) -> str:
        """The action for ``seat`` now: the best-scoring legal one at ``temperature`` 0, else the one
        where ``draw`` (uniform in [0, 1)) falls in the softmax of logits / temperature."""
        legal = self.numbering.ids(state.legal_actions(seat))
        logits = self.logits(state, seat, legal)
        if temperature == 0.0:
            return self.numbering.to_text(legal[int(np.argmax(logits))])
        weights = np.exp((logits - logits.max()) / temperature)
        cumulative = np.cumsum(weights / weights.sum())
        chosen = min(int(np.searchsorted(cumulative, draw, side="right")), len(legal) - 1)
        return self.numbering.to_text(legal[chosen])
