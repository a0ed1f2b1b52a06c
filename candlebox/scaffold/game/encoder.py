"""Blind Bids for the RL adapters (Gymnasium, PettingZoo, OpenSpiel): the action numbering and the
observation of a seat's typed view, a float32 vector in [0, 1] (imports numpy)."""

from __future__ import annotations

import numpy as np

from candlebox.engine.encoding import Config, Layout, ViewEncoder
from candlebox.engine.plugin import Encoding

from .state import deck_size
from .views import BidsView


def action_texts(config: Config) -> list[str]:
    """Every bid the configuration's deck allows, in card order (the action numbering)."""
    return [f"bid {card}" for card in range(1, _deck(config) + 1)]


def max_game_length(config: Config) -> int:
    hand: int = config.options["hand"]
    return config.players * hand  # one bid per seat and round


def always_a_winner(config: Config) -> bool:
    return True  # ties share the win; someone always has the most points


def _deck(config: Config) -> int:
    return deck_size(config.players, config.options["hand"])


class BidsEncoder(ViewEncoder):
    bounded = True  # every number below is a 0/1 or a share of a bound it cannot pass

    def build(self, config: Config, layout: Layout) -> None:
        n = config.players
        self.rounds = config.options["hand"]
        self.total = self.rounds * (self.rounds + 1) // 2  # every prize's points together
        self.deck = _deck(config)
        for name in ("me", "active", "to_act", "winners", "bid", "points"):
            layout.add(name, n)
        layout.add("over", 1)
        layout.add("round", 1)
        layout.add("prize", self.rounds)
        layout.add("hand", self.deck)
        layout.add("my_bid", self.deck)
        layout.add("last", n * self.deck)

    def fill(self, view: BidsView, out: np.ndarray) -> None:
        at = self.layout.fields
        pending = view.pending
        self.fill_seats(out, view.seat, None, None if pending is None else pending.seats)
        self.fill_winners(out, view.winners)
        for seat in view.seats:
            out[at["points"].start + seat.seat] = seat.points / self.total
            out[at["bid"].start + seat.seat] = float(seat.has_bid)
            if seat.last_bid:
                out[at["last"].start + seat.seat * self.deck + seat.last_bid - 1] = 1.0
        out[at["round"].start] = view.round / self.rounds
        if view.prize:
            out[at["prize"].start + view.prize - 1] = 1.0
        for card in view.hand:
            out[at["hand"].start + card - 1] = 1.0
        if view.my_bid:
            out[at["my_bid"].start + view.my_bid - 1] = 1.0


def encoder(config: Config) -> BidsEncoder:
    return BidsEncoder(config)


ENCODING = Encoding(
    action_texts=action_texts,
    encoder=encoder,
    max_game_length=max_game_length,
    always_a_winner=always_a_winner,
)
