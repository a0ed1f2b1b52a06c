"""Territory Actions: the six actions a Land Flame triggers, each performed once per territory with that
icon holding the house's Land Flame (plus the "additional territory" upgrades).

* Curse Influence: a Land Flame from the supply in front of a Curse card, per count.
* Barracks: take Tactic cards from the face-up Tactics board, per count; the board is refilled from the
  deck when the action is over (or when it runs empty first; rulings CA-32).
* Forge: buy Upgrade tiles (their year in gold, top of a pile, six slots on the House Board) or Temple
  levels (2 gold), up to the count; may stop (``done``).
* Mine: resources from the reserve, any mix of gold and wax; what the warehouse of 10 cannot hold is
  discarded, so the count is capped by the free space (CA-31).
* Portal: relocate own miniatures (each at most once) anywhere; no Land Flame, no action, no entry.
* Inn: draw Advanced cards, then return as many candle cards (house cards allowed) under the deck.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candelabria import missions
from candlebox.games.candelabria.decision import CASTLE, MODEL_LETTER, Auto, Phase
from candlebox.games.candelabria.marks import (
    CURSE_BOARD,
    DECKS,
    FLAME_SUPPLY,
    RESOURCES,
    TACTICS,
    UPGRADE_PILES,
    UPGRADES,
    hand_moved,
    moved,
)
from candlebox.games.candelabria.marks import (
    TACTICS_BOARD as TACTICS_BOARD_PART,
)
from candlebox.games.candelabria.notation import MAX_WAREHOUSE, Verb
from candlebox.games.candelabria.pieces import has_piece_in_region, move_model, pay_gold
from candlebox.games.candelabria.schema import BARRACKS, CURSE, FORGE, INN, MINE, PORTAL
from candlebox.games.candelabria.temples import TEMPLE_COST, place_temple
from candlebox.games.candelabria.upgrades import has_power

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState

TACTICS_BOARD = 6
UPGRADE_SLOTS = 6


def begin_action(st: CandelabriaState, seat: int, icon: int, count: int) -> None:
    stack = st.stack
    if icon == CURSE:
        # 2-player: "move any Curse 1 territory (not Region) for each territory with this icon".
        stack.append([Phase.HAUNT if st.two_player else Phase.INFLUENCE, seat, count])
    elif icon == BARRACKS:
        stack.append([Auto.REFILL, -1])
        stack.append([Phase.TAKE, seat, count])
    elif icon == FORGE:
        stack.append([Phase.FORGE, seat, count])
    elif icon == MINE:
        stack.append([Phase.MINE, seat, count])
    elif icon == PORTAL:
        stack.append([Phase.PORTAL, seat, count, 0])
    else:
        assert icon == INN
        stack.append([Auto.DRAW, seat, count, 1, 0])


# ----------------------------------------------------------------------------- Curse Influence
def influence_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    if frame[2] <= 0 or st.land_flame_supply[frame[1]] <= 0:
        return []
    return st.notation.curse[: len(st.curses)]


def do_influence(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    seat = frame[1]
    frame[2] -= 1
    st.land_flame_supply[seat] -= 1
    st.curse_influence[a][seat] += 1
    moved(st, FLAME_SUPPLY)
    moved(st, CURSE_BOARD)
    st.events.append(("influence", seat, a))


# ----------------------------------------------------------------------------- Barracks / Draw Tactic
def refill(st: CandelabriaState) -> None:
    """ "Every time one or more Tactic Cards is picked from the Tactics Board, replace them with cards
    from the Tactics deck." """
    added: list[str] = []
    while len(st.tactics_board) < TACTICS_BOARD and st.tactics_deck:
        card = st.tactics_deck.pop()
        st.tactics_board.append(card)
        added.append(st.content.tactics[card].code)
    if added:
        moved(st, DECKS)
        moved(st, TACTICS_BOARD_PART)
        st.events.append(("refill", tuple(added)))


def run_refill(st: CandelabriaState, frame: list[int]) -> None:
    st.stack.pop()
    refill(st)


def take_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    if frame[2] <= 0:
        return []
    table = st.notation.take
    seen: list[int] = []
    for card in st.tactics_board:
        if card not in seen:
            seen.append(card)
    return [table[card] for card in seen]


def do_take(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    seat = frame[1]
    frame[2] -= 1
    st.tactics_board.remove(a)
    st.tactics[seat].append(a)
    moved(st, TACTICS_BOARD_PART)
    moved(st, TACTICS)
    st.events.append(("take", seat, st.content.tactics[a].code))
    missions.tally(st, seat, 2)
    if frame[2] > 0 and not st.tactics_board:
        refill(st)  # the board ran empty in the middle of an action (rulings CA-32)


# ----------------------------------------------------------------------------- Forge
def forge_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    seat = frame[1]
    if frame[2] <= 0:
        return []
    gold = st.gold[seat]
    n = st.notation
    actions: list[str] = []
    if len(st.upgrades[seat]) < UPGRADE_SLOTS:
        tiles = st.content.tiles
        for p, pile in enumerate(st.upgrade_piles):
            if pile and tiles[pile[-1]].year <= gold:
                actions.append(n.upgrade[p])
    if gold >= TEMPLE_COST:
        regions = [r for r in st.board.regions if has_piece_in_region(st, seat, r)]
        for colour, left in enumerate(st.temple_supply):
            if left > 0:
                row = n.temple[colour]
                actions.extend(row[r] for r in regions)
    return actions


def do_forge(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    seat = frame[1]
    if verb == Verb.DONE:
        st.stack.pop()
        return
    frame[2] -= 1
    if verb == Verb.UPGRADE:
        tile = st.upgrade_piles[a].pop()
        cost = st.content.tiles[tile].year  # "1 Gold per Year"
        pay_gold(st, seat, cost)
        st.upgrades[seat].append(tile)
        moved(st, UPGRADE_PILES)
        moved(st, UPGRADES)
        st.events.append(("upgrade", seat, a, st.content.tiles[tile].code, cost))
        missions.note(st, seat, f"tier-{cost}")
    else:
        pay_gold(st, seat, TEMPLE_COST)
        place_temple(st, seat, a, b)
    missions.tally(st, seat, 1)


# ----------------------------------------------------------------------------- Mine
def mine_total(st: CandelabriaState, seat: int, count: int) -> int:
    space = MAX_WAREHOUSE - st.gold[seat] - st.wax[seat]
    return max(0, min(count, space, st.reserve_gold + st.reserve_wax))


def mine_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    seat = frame[1]
    take = mine_total(st, seat, frame[2])
    if take <= 0:
        return []
    table = st.notation.mine
    low = max(0, take - st.reserve_wax)
    high = min(take, st.reserve_gold)
    return [table[g][take - g] for g in range(low, high + 1)]


def do_mine(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    st.stack.pop()
    seat = frame[1]
    st.gold[seat] += a
    st.wax[seat] += b
    st.reserve_gold -= a
    st.reserve_wax -= b
    moved(st, RESOURCES)
    st.events.append(("mine", seat, a, b, frame[2] - a - b))
    missions.tally(st, seat, 0, a + b)


# ----------------------------------------------------------------------------- Portal
def portal_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    seat, left, moved = frame[1], frame[2], frame[3]
    if left <= 0:
        return []
    table = st.notation.relocate
    actions = [] if moved >> CASTLE & 1 else [table[CASTLE]]
    for role in range(3):
        if st.candle_territories[seat][role] >= 0 and not moved >> role & 1:
            actions.append(table[role])
    return actions


def do_portal(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    if verb == Verb.DONE:
        st.stack.pop()
        return
    frame[2] -= 1
    frame[3] |= 1 << a
    st.stack.append([Phase.PORTAL_TO, frame[1], a])


def portal_to_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    seat, model = frame[1], frame[2]
    table = st.notation.to
    if model == CASTLE:
        castles = st.castles  # "There may only be one Wandering Castle in a territory at any time."
        return [table[t] for t in range(st.board.size) if t not in castles]
    here = st.candle_territories[seat][model]
    return [table[t] for t in range(st.board.size) if t != here]


def do_portal_to(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    """ "This movement is not considered deployment or movement": no Land Flame, action or entry."""
    st.stack.pop()
    seat, model = frame[1], frame[2]
    src = move_model(st, seat, model, a)
    names = st.board.names
    st.events.append(("relocate", seat, MODEL_LETTER[model], names[src], names[a]))


# ----------------------------------------------------------------------------- Inn and card draws
def draw_card(st: CandelabriaState) -> int:
    """The top card of the Advanced deck, or -1 when it is empty (rulings CA-37)."""
    if not st.advanced_deck:
        return -1
    st.advanced_known_by.pop()
    moved(st, DECKS)
    return st.advanced_deck.pop()


def to_bottom(st: CandelabriaState, card: int, mark: int) -> None:
    st.advanced_deck.insert(0, card)
    st.advanced_known_by.insert(0, mark)
    moved(st, DECKS)


def run_draw(st: CandelabriaState, frame: list[int]) -> None:
    """Draw ``left`` Advanced cards (Nova Vita: each draw is three, keep one); an Inn then returns as
    many cards as were drawn."""
    seat, left = frame[1], frame[2]
    if left <= 0:
        st.stack.pop()
        if frame[3] and frame[4] > 0:
            st.stack.append([Phase.RETURN, seat, frame[4]])
        return
    frame[2] = left - 1
    if has_power(st, seat, "draw-three"):
        for _ in range(3):
            card = draw_card(st)
            if card >= 0:
                st.set_aside.append(card)
                st.events.append(("draw", seat, st.content.candles[card].code))
        if st.set_aside:
            frame[4] += 1
            if len(st.set_aside) == 1:
                keep(st, seat, st.set_aside[0])
            else:
                st.stack.append([Phase.KEEP, seat])
        return
    card = draw_card(st)
    if card < 0:
        st.events.append(("deck-empty", seat))
        return
    frame[4] += 1
    st.hands[seat].append(card)
    hand_moved(st, seat)
    st.events.append(("draw", seat, st.content.candles[card].code))


def keep_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    table = st.notation.keep
    return [table[c] for c in st.set_aside]


def keep(st: CandelabriaState, seat: int, card: int) -> None:
    """Nova Vita keeps one card; the others go under the Advanced deck (rulings CA-29)."""
    st.hands[seat].append(card)
    hand_moved(st, seat)
    others = [c for c in st.set_aside if c != card]
    st.set_aside.clear()
    codes = st.content.candles
    st.events.append(("keep", seat, codes[card].code, tuple(codes[c].code for c in others)))
    for other in others:
        to_bottom(st, other, seat)
    if others:
        st.events.append(("bottom", seat, len(others)))


def do_keep(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    st.stack.pop()
    keep(st, frame[1], a)


def return_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    if frame[2] <= 0:
        return []
    table = st.notation.ret
    return [table[c] for c in st.hands[frame[1]]]


def do_return(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    """ "Return as many Candle Cards (you may return House Candle cards as well) to the bottom of the
    deck as the number of cards drawn." Face down: only the returning seat knows which (CA-39)."""
    seat = frame[1]
    frame[2] -= 1
    st.hands[seat].remove(a)
    if a in st.known_hands[seat]:
        st.known_hands[seat].remove(a)
    st.known_hands[seat].clear()  # the others no longer know which of its cards it still holds
    hand_moved(st, seat)
    to_bottom(st, a, seat)
    st.events.append(("return", seat, st.content.candles[a].code))
