"""Game Set Up: shuffle, deal 3 cards face-down to each player, 16 candies each, the First Player
Marker, the draw pile, and one card flipped to start the discard pile.

How a round is dealt (and how the option ``deck`` is consumed, top first): one card at a time to each
player still in, starting with the holder of the First Player Marker and going clockwise (increasing
seat numbers), three times around; the next card is flipped to start the discard pile; the rest, in
order, is the draw pile. Cards the ``deck`` option does not list are shuffled and go beneath it.
Then every player, from the marker clockwise, picks up and orients their cards.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from candlebox.games.sixteen_candies.cards import HAND
from candlebox.games.sixteen_candies.decision import Phase

if TYPE_CHECKING:
    from candlebox.games.sixteen_candies.state import SixteenCandiesState


def shuffled_box(st: SixteenCandiesState) -> list[int]:
    """Every card of the box, shuffled; the top is the end of the list."""
    pile = list(st.content.full_set)
    st.rng.shuffle(pile)
    return pile


def pile_from_deck(st: SixteenCandiesState, deck: list[str]) -> list[int]:
    """The pile with ``deck`` on top (top first) and the remaining cards shuffled beneath."""
    type_of = st.content.type_of
    wanted = []
    for code in deck:
        if code not in type_of:
            raise ValueError(
                f"option 'deck': {code!r} is not a card code (codes such as G6-K1, C4-G3 or W; "
                "see docs/notation/sixteen-candies.md)"
            )
        wanted.append(type_of[code])
    available = Counter(st.content.full_set)
    too_many = Counter(wanted) - available
    if too_many:
        extra = ", ".join(f"{st.content.code[t]}×{k}" for t, k in sorted(too_many.items()))
        raise ValueError(f"option 'deck': more cards than the box holds ({extra} too many)")
    rest = list((available - Counter(wanted)).elements())
    st.rng.shuffle(rest)
    return rest + wanted[::-1]  # the top of the pile is the end of the list


def deal(st: SixteenCandiesState, pile: list[int], order: list[int]) -> None:
    n = st.num_players
    events = st.events
    st.round_start = len(events)
    events.append(("round", st.round, st.marker, tuple(order)))
    seats = len(order)
    dealt = pile[: -HAND * seats - 1 : -1]  # the top cards, in the order they are dealt
    del pile[-HAND * seats :]
    first = len(events)  # card k of the deal is event first + k
    code = st.content.code
    events.extend([("deal", order[k % seats], code[card]) for k, card in enumerate(dealt)])
    hands: list[list[int]] = [[] for _ in range(n)]
    srcs: list[list[int]] = [[] for _ in range(n)]
    for place, seat in enumerate(order):  # hands are kept sorted by card type, equal cards by deal
        hand = dealt[place::seats]
        ranks = sorted(range(HAND), key=hand.__getitem__)
        hands[seat] = [hand[i] for i in ranks]
        srcs[seat] = [first + place + seats * i for i in ranks]
    st.hands = hands
    st.srcs = srcs
    st.ups = [[0] * len(hand) for hand in hands]
    flip = pile.pop()
    st.discard = [flip]
    events.append(("flip", code[flip]))
    st.draw = pile
    st.caller = -1
    st.taken = -1
    st.epoch = 0
    st.queue = list(order)
    st.active = st.actor = order[0]
    st.phase = Phase.SETUP


def set_up(
    st: SixteenCandiesState, deck: list[str] | None, first_player: int | None
) -> list[int] | None:
    """The marker's first seat; the pile the first round deals from (None: a shuffled box), which
    the caller passes to rounds.start_round (rounds.py builds on this module, not the reverse)."""
    n = st.num_players
    if first_player is not None and first_player >= n:
        raise ValueError(f"option 'first_player': seat {first_player} is not in a {n}-player game")
    st.marker = 0 if first_player is None else first_player  # seat 0: the youngest player
    return pile_from_deck(st, deck) if deck is not None else None
