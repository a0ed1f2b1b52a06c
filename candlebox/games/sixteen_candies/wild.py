"""Wild Card and the hand's value: "it will count as three of any Candy Type that you declare at the end
of a round. The orientation of this Card in your hand does not matter. The penalty associated with this
Card is 2 Penalty Candies."

A hand's value is the largest total count of one candy on its top halves, each Wild adding three of the
declared candy. Declaring anything but the best candy only lowers the hand, and a lower hand never
helps its owner under either scoring table, so the declaration is made automatically: the candy with
the largest total, ties going to the first in the deck file's order (rulings SC-12).
"""

from __future__ import annotations

from collections.abc import Iterable

from candlebox.games.sixteen_candies.cards import Tables


def hand_value(deck: Tables, halves: Iterable[int]) -> tuple[int, int]:
    """(value, index of the candy counted — the Wild's declared candy) of the given top halves."""
    n_candies = deck.n_candies
    half_candy = deck.half_candy
    half_count = deck.half_count
    totals = [0] * n_candies
    wild = 0
    for half in halves:
        candy = half_candy[half]
        if candy < 0:
            wild += half_count[half]
        else:
            totals[candy] += half_count[half]
    best = 0
    for candy in range(1, n_candies):
        if totals[candy] > totals[best]:
            best = candy
    return totals[best] + wild, best


def hand_penalty(deck: Tables, halves: Iterable[int]) -> int:
    """The Penalty Candy amount of a hand: the sum of its top halves' penalties."""
    half_penalty = deck.half_penalty
    return sum(half_penalty[half] for half in halves)
