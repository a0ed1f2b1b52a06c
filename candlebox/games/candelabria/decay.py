"""Decay Expansion (option ``decay``, 3–5 players): 16 Decay cards, the 8 printed effects twice each
(reconstructed: ``D1``–``D16``, card ``Dk`` has effect ``(k - 1) // 2``).

"Every House that arrives second in the rush to acquire the power of the Curse will instead draw a Decay
Card. This card must be immediately placed on the War Board to change one of the regular effects with an
enhanced one. This effect lasts until the current War Season is over. If a player is eligible to draw a
third decay, it's necessary to first discard one of the two others to place it. The discarded card must be
placed on the bottom of the Decay Deck (there is no Decay discard pile)."

Option ``decay_draw="every"`` gives a card to every house that put a flame in front of the curse and did
not win it, in turn order, instead of the second only (rulings CA-D1).

State: ``ddeck`` (the Decay deck, top last; [] when the option is off) and ``dslot`` (seat -> the decay
card over War Board slot 1 and 2, -1 none). Decisions: ``decay K`` (the slot it covers, DECAY_AT),
``either K`` (which half of an "A or B" effect, EITHER), ``shift R T`` / ``stay`` (move your candle one
territory, NUDGE).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candelabria.decision import Phase
from candlebox.games.candelabria.effects import gain_vp, push_effect
from candlebox.games.candelabria.marks import CANDLES, DECAY, DECKS, moved
from candlebox.games.candelabria.marks import VP as VP_PART
from candlebox.games.candelabria.notation import Verb
from candlebox.games.candelabria.schema import DESTROY, EXTINGUISH, IGNITE, STEAL, TACTIC, VP

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState

MOVE, STEAL_VP = 6, 7  # the two effects no tactic card has
COPIES = 2
# The printed effects, each a tuple of alternatives (icon, count).
EFFECTS: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = (
    ("move-candle", ((MOVE, 1),)),
    ("vp-or-ignite", ((VP, 1), (IGNITE, 1))),
    ("tactic", ((TACTIC, 1),)),
    ("extinguish-or-steal", ((EXTINGUISH, 1), (STEAL, 1))),
    ("steal-vp", ((STEAL_VP, 1),)),
    ("ignite-or-steal", ((IGNITE, 1), (STEAL, 1))),
    ("destroy-temple", ((DESTROY, 1),)),
    ("steal-or-vp", ((STEAL, 1), (VP, 1))),
)

CARDS = len(EFFECTS) * COPIES
CODES = tuple(f"D{k + 1}" for k in range(CARDS))
INDEX = {code: k for k, code in enumerate(CODES)}


def effect_of(card: int) -> tuple[str, tuple[tuple[int, int], ...]]:
    return EFFECTS[card // COPIES]


def set_up(st: CandelabriaState) -> None:
    """ "During the setup, place the Decay Cards in a pile face down near the Curse Cards." """
    st.decay_deck = list(range(CARDS))
    st.rng.shuffle(st.decay_deck)
    st.decay_slots = [[-1, -1] for _ in range(st.num_players)]
    moved(st, DECKS)
    moved(st, DECAY)


def second(st: CandelabriaState, row: list[int], winner: int) -> int:
    """The house that arrives second for a curse: the most flames after the winner's (ties: turn order),
    with at least one flame (rulings CA-D1)."""
    rest = [s for s in st.order if s != winner and row[s] > 0]
    if winner < 0 or not rest:
        return -1
    best = max(row[s] for s in rest)
    return next(s for s in rest if row[s] == best)


def receivers(st: CandelabriaState, row: list[int], winner: int) -> list[int]:
    """Who draws a Decay card for a curse, in turn order: the house second in the race (default), or
    with option ``decay_draw="every"`` every house that put a flame in front of it and did not win it
    (rulings CA-D1)."""
    if st.options.get("decay_draw", "second") == "every":
        return [s for s in st.order if s != winner and row[s] > 0] if winner >= 0 else []
    seat = second(st, row, winner)
    return [seat] if seat >= 0 else []


def receive(st: CandelabriaState, seats: list[int]) -> None:
    """Each seat, in order, draws a Decay card (while any is left) and places it: a decision each,
    taken in the same order."""
    drawn: list[tuple[int, int]] = []
    for seat in seats:
        if not st.decay_deck:
            break
        card = st.decay_deck.pop()
        moved(st, DECKS)
        st.events.append(("decay", seat, CODES[card]))
        drawn.append((seat, card))
    for seat, card in reversed(drawn):  # the stack: the first drawer's decision on top
        st.stack.append([Phase.DECAY_AT, seat, card])


def slot_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    slots = st.decay_slots[frame[1]]
    table = st.notation.decay
    regular = [table[k] for k in (0, 1) if slots[k] < 0]
    return regular or [table[0], table[1]]


def do_slot(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    st.stack.pop()
    seat, card = frame[1], frame[2]
    old = st.decay_slots[seat][a]
    if old >= 0:  # a third decay: the one it replaces goes under the Decay deck
        st.decay_deck.insert(0, old)
        st.events.append(("decay-discard", seat, CODES[old]))
    st.decay_slots[seat][a] = card
    moved(st, DECAY)
    moved(st, DECKS)
    st.events.append(("decay-place", seat, CODES[card], a + 1))


def resolve(st: CandelabriaState, seat: int, card: int, region: int) -> None:
    """The decay card over an uncovered War Board slot, resolved in the battle's region."""
    alternatives = effect_of(card)[1]
    if len(alternatives) == 1:
        push(st, seat, *alternatives[0], region)
    else:
        st.stack.append([Phase.EITHER, seat, card, region])


def push(st: CandelabriaState, seat: int, icon: int, count: int, region: int) -> None:

    if icon == MOVE:
        st.stack.append([Phase.NUDGE, seat])
    elif icon == STEAL_VP:
        # From the opponent in the battle with the most VP (ties: turn order; rulings CA-D3).
        rivals = [s for s in st.order if s in st.battle and s != seat and st.vp[s] > 0]
        if rivals:
            victim = max(rivals, key=lambda s: (st.vp[s], -st.order.index(s)))
            st.vp[victim] -= count
            moved(st, VP_PART)
            st.events.append(("vp", victim, -count, "decay"))
            gain_vp(st, seat, count, "decay")
    else:
        push_effect(st, seat, icon, count, region)


def either_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    return list(st.notation.either)


def do_either(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    st.stack.pop()
    seat, card, region = frame[1], frame[2], frame[3]
    push(st, seat, *effect_of(card)[1][a], region)


def nudge_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    seat = frame[1]
    table = st.notation.shift
    adj = st.board.adj
    return [
        table[r][n] for r, t in enumerate(st.candle_territories[seat]) if t >= 0 for n in adj[t]
    ]


def do_nudge(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    """ "Move an Allied Candle 1 territory": one of your candles to a neighbouring territory — no Land
    Flame, no territory action, no push (rulings CA-D3)."""
    st.stack.pop()
    if verb == Verb.STAY:
        return
    seat = frame[1]
    names = st.board.names
    st.events.append(("shift", seat, a, names[st.candle_territories[seat][a]], names[b]))
    st.candle_territories[seat][a] = b
    moved(st, CANDLES)


def epilogue(st: CandelabriaState) -> None:
    """ "This effect lasts until the current War Season is over": the cards go under the Decay deck."""
    for seat in st.order:
        for k in (0, 1):
            card = st.decay_slots[seat][k]
            if card >= 0:
                st.decay_deck.insert(0, card)
                st.decay_slots[seat][k] = -1
                moved(st, DECAY)
                moved(st, DECKS)
