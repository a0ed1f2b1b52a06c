"""Instant Round Win: "triggered whenever a Player has three Cards of the same Candy type, with 4, 5,
and 6 Candies on the Cards. When this happens, that Player reveals their hand immediately and they win
the round. Opponents must immediately reveal their hand, they may NOT rotate the Cards in hand."

When it is checked (rulings SC-10): a hand changes only on its owner's turn and when it
is picked up, so it is checked when every player has oriented a new hand (several players may qualify
then: all of them win the round) and at the end of each turn's rotation, final turns included. With
``instant_win="top"`` (the default) the 4, 5 and 6 must be the top halves — the player turns them up;
with ``"held"`` the three cards need only hold those halves and are turned up for the player.
"""

from __future__ import annotations

from candlebox.games.sixteen_candies.cards import Tables


def shows_four_five_six(deck: Tables, halves: list[int]) -> bool:
    """Three halves of one candy showing 4, 5 and 6 (a Wild is no 4, 5 or 6: rulings SC-12)."""
    if len(halves) != 3:
        return False
    half_candy = deck.half_candy
    candy = half_candy[halves[0]]
    if candy < 0 or half_candy[halves[1]] != candy or half_candy[halves[2]] != candy:
        return False
    return sorted(deck.half_count[h] for h in halves) == [4, 5, 6]
