"""Blind Bids' rule of thumb (the heuristic bot, and the ISMCTS bot's rollouts): bid high for a
prize above the middle, low for one below it, a middle card otherwise."""

from __future__ import annotations

from candlebox.engine import Rng

from .views import BidsView


def policy(view: BidsView, actions: list[str], rng: Rng) -> str:
    cards = sorted(int(action.split()[1]) for action in actions)
    middle = (view.rounds + 1) / 2
    if view.prize > middle:
        card = cards[-1]
    elif view.prize < middle:
        card = cards[0]
    else:
        card = cards[len(cards) // 2]
    return f"bid {card}"
