"""Rounds and the end of the game.

"A round will not end until someone calls." "To begin a new round after someone calls, score the round
based on everyone's Cards, shuffle them and then deal 3 to each Player. Don't Forget to move the First
Player Marker each new round, the Player with the First Player Marker will begin the new round."

The rulebook has no end of game; the publisher's (rulings SC-18): a player whose Health Pool
is empty is out, and the game ends when only one player has candy left, who wins. The options ``rounds``
and ``max_turns`` end it early; then the most candy wins (ties share).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.sixteen_candies import setup
from candlebox.games.sixteen_candies.cards import Tables
from candlebox.games.sixteen_candies.decision import Phase
from candlebox.games.sixteen_candies.scoring import apply_change, round_changes
from candlebox.games.sixteen_candies.wild import hand_value

if TYPE_CHECKING:
    from candlebox.games.sixteen_candies.state import SixteenCandiesState


def seats_in(st: SixteenCandiesState) -> list[int]:
    """The seats still in the game (with candy), in seat order."""
    return [seat for seat, pool in enumerate(st.pools) if pool > 0]


def reveal(st: SixteenCandiesState) -> tuple[dict[int, int], dict[int, int]]:
    """Everyone in the round shows their hand; (values, penalties) by seat."""
    values: dict[int, int] = {}
    penalties: dict[int, int] = {}
    events = st.events
    for seat, hand in enumerate(st.hands):
        if not hand:
            continue
        shown = _shown(st.content, tuple(hand), tuple(st.ups[seat]))
        values[seat] = shown[2]
        penalties[seat] = shown[4]
        events.append(("reveal", seat, *shown))
    return values, penalties


def _shown(deck: Tables, hand: tuple[int, ...], ups: tuple[int, ...]) -> tuple:
    """What a reveal shows of a hand: the card codes, the top halves' codes, the value, the declared
    candy and the penalty. Worked out at each reveal from per-half tables, in C where it can be
    (``map``): a cache of it met thousands of new hands in a fresh process's first hundred games, so
    that they ran well below the warm speed (issue 18), and saved little once warm."""
    halves = [2 * t + o for t, o in zip(hand, ups, strict=True)]
    value, candy = hand_value(deck, halves)
    return (
        tuple(map(deck.code.__getitem__, hand)),
        tuple(map(deck.half_code.__getitem__, halves)),
        value,
        deck.deck.candy_codes[candy],
        sum(map(deck.half_penalty.__getitem__, halves)),
    )


def instant_win(st: SixteenCandiesState, winners: tuple[int, ...]) -> None:
    for seat in winners:
        st.events.append(("instant-win", seat))
    end_round(st, winners)


def end_round(st: SixteenCandiesState, instant: tuple[int, ...]) -> None:
    """Reveal, score by the tables, put out the emptied players, then end the game or deal anew."""
    values, penalties = reveal(st)
    changes = round_changes(
        list(values), values, penalties, st.caller, instant, st.all_tied, st.instant_gain
    )
    for seat in sorted(changes):
        role, rank, due = changes[seat]
        st.pools[seat] = apply_change(st.pools[seat], due, st.cap)
        st.events.append(("score", seat, role, rank, due, st.pools[seat]))
    for seat in sorted(changes):
        if st.pools[seat] == 0:
            st.events.append(("out", seat))
    st.rounds_played += 1
    left = seats_in(st)
    if len(left) <= 1:
        end_game(st, "last-candy")
    elif st.rounds_limit is not None and st.rounds_played >= st.rounds_limit:
        end_game(st, "rounds")
    elif st.turns >= st.max_turns:
        end_game(st, "max-turns")
    else:
        start_round(st)


def end_game(st: SixteenCandiesState, reason: str, reveal_hands: bool = False) -> None:
    """The game is over: the last player with candy wins, or (ended early) the most candy."""
    if reveal_hands:  # ended in the middle of a round: the hands are shown, not scored
        reveal(st)
    best = max(st.pools)
    st.winners = tuple(seat for seat, pool in enumerate(st.pools) if pool == best)
    st.final = tuple(float(pool) for pool in st.pools)
    st.end_reason = reason
    st.phase = Phase.OVER
    st.actor = -1
    st.queue = []
    st.events.append(("game-over", reason, st.winners))


def start_round(st: SixteenCandiesState, pile: list[int] | None = None) -> None:
    """Shuffle every card, move the marker, deal 3 to each player still in, flip the first discard."""
    left = seats_in(st)
    n = st.num_players
    if len(left) < n:  # someone is out: clockwise now skips them (else it is seat + 1, set up once)
        for seat in range(n):
            following = (seat + 1) % n
            while st.pools[following] == 0 and following != seat:
                following = (following + 1) % n
            st.next_seat[seat] = following
    if st.round > 0:  # the marker moves clockwise, skipping players who are out
        st.marker = st.next_seat[st.marker]
    st.round += 1
    if pile is None:
        pile = setup.shuffled_box(st)
    order = [st.marker]
    while len(order) < len(left):
        order.append(st.next_seat[order[-1]])
    setup.deal(st, pile, order)
