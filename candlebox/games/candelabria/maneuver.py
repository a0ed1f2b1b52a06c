"""Maneuver: discard a candle card, then two moves (the same model or two), each entry placing a Land
Flame where the house has none and triggering that territory's action; a candle may burn one of its own
flames once per maneuver to move again.

Movement abilities: the Explorer may skip one territory (two with the Year I upgrade), the Pilgrim may
go to any territory with the same icon, the Warrior pushes an enemy candle out of the territory it
enters (the active player chooses which and where), Cinis candles may pass over territories holding a
Cinis Land Flame. A castle that enters a territory destroys one enemy flame there (a Land Flame or a
candle's flame), and never shares a territory with another castle. The entry effects resolve on
entering, before the Land Flame and the territory action (rulings CA-19 to CA-24).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candelabria import extinguished, missions, territory
from candlebox.games.candelabria.decision import CASTLE, EXPLORER, PILGRIM, WARRIOR, Auto, Phase
from candlebox.games.candelabria.marks import CANDLES, MANEUVERED, hand_moved, moved
from candlebox.games.candelabria.notation import Verb
from candlebox.games.candelabria.pieces import (
    candle_flame_back,
    enemy_candles_at,
    enemy_flame_actions,
    enemy_flames_at,
    move_model,
    place_land_flame,
)
from candlebox.games.candelabria.schema import FORGE
from candlebox.games.candelabria.upgrades import action_count, has_power, total

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState

MOVES = 2  # "a player may move twice"


def maneuver_actions(st: CandelabriaState, seat: int) -> list[str]:
    table = st.notation.maneuver
    return [table[c] for c in st.hands[seat]]


def begin_maneuver(st: CandelabriaState, seat: int, card: int) -> None:
    """ "Discard a Candle Card from the hand to the left side of the House Board, face up." """
    st.hands[seat].remove(card)
    if card in st.known_hands[seat]:
        st.known_hands[seat].remove(card)
    hand_moved(st, seat)
    st.maneuvered[seat].append(card)
    moved(st, MANEUVERED)
    st.events.append(("maneuver", seat, st.content.candles[card].code))
    st.stack.append([Phase.MOVE, seat, MOVES, 0, 0])
    # Rota Aurea, Year I: "When you discard a Candle Card to perform a Maneuver, you can perform a
    # Forge action" (as many purchases as its Forge count; rulings CA-28).
    if has_power(st, seat, "maneuver-forge"):
        st.stack.append([Phase.FORGE, seat, action_count(st, seat, FORGE)])


def destinations(st: CandelabriaState, seat: int, model: int) -> list[int] | tuple[int, ...]:
    board = st.board
    if model == CASTLE:
        here = st.castles[seat]
        castles = st.castles
        return [t for t in board.adj[here] if t not in castles]
    here = st.candle_territories[seat][model]
    skips = 1 + total(st, seat, "explorer-skip") if model == EXPLORER else 0
    if has_power(st, seat, "skip-own-flames"):
        bit = 1 << seat
        free = 0
        for t, mask in enumerate(st.land_flames):
            if mask & bit:
                free |= 1 << t
        ends = board.reach_skipping(here, free, skips)
        if model == PILGRIM:
            return sorted(set(ends) | set(board.pilgrim[here]))
        return ends
    if model == EXPLORER:
        return board.explore[min(skips, 3)][here]
    if model == PILGRIM:
        return board.pilgrim[here]
    return board.adj[here]


def move_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    seat, left, extra_used, moved = frame[1], frame[2], frame[3], frame[4]
    actions: list[str] = []
    if left > 0:
        table = st.notation.move
        for model in (CASTLE, EXPLORER, PILGRIM, WARRIOR):
            if model != CASTLE and st.candle_territories[seat][model] < 0:
                continue
            row = table[model]
            actions.extend(row[t] for t in destinations(st, seat, model))
    if not extra_used:
        table = st.notation.extra
        for role in range(3):
            if moved >> role & 1 and st.candle_flames[seat][role] > 0:
                row = table[role]
                actions.extend(row[t] for t in destinations(st, seat, role))
    return actions


def do_move(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    seat = frame[1]
    if verb == Verb.DONE:
        st.stack.pop()
        return
    if verb == Verb.MOVE:
        frame[2] -= 1
        if a != CASTLE:
            frame[4] |= 1 << a
        enter(st, seat, a, b, extra=False)
    else:  # Verb.EXTRA: "remove (only 1 time) a Candle Flame from the moving Candle"
        frame[3] = 1
        candle_flame_back(st, seat, a)
        enter(st, seat, a, b, extra=True)


def enter(st: CandelabriaState, seat: int, model: int, t: int, extra: bool) -> None:
    """A model moves into territory ``t`` (a real movement: entry effects, Land Flame, action)."""
    names = st.board.names
    src = move_model(st, seat, model, t)
    st.events.append(("move", seat, model, names[src], names[t], extra))
    stack = st.stack
    stack.append([Auto.LAND, seat, t])
    if model == CASTLE:
        if enemy_flames_at(st, seat, t):
            stack.append([Phase.DESTROY, seat, t])
    elif model == WARRIOR and enemy_candles_at(st, seat, t):
        steps = min(3, 1 + total(st, seat, "warrior-push"))
        stack.append([Phase.PUSH, seat, t, steps])


# ----------------------------------------------------------------------------- castle entry
def destroy_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    n = st.notation
    return enemy_flame_actions(st, frame[1], frame[2], n.destroy_land, n.destroy_candle)


def do_destroy(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    st.stack.pop()
    seat, t = frame[1], frame[2]
    if verb == Verb.SPARE:
        st.events.append(("spare", seat, st.board.names[t]))
        return
    role = -1 if verb == Verb.DESTROY_LAND else b
    if extinguished.put_out(st, "destroy", seat, t, st.seat_of[a], role):
        missions.note(st, seat, "out-by-castle")


# ----------------------------------------------------------------------------- warrior push
def push_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    seat, t = frame[1], frame[2]
    n = st.notation
    actions: list[str] = []
    for other in range(st.num_players):
        if other != seat:
            row = n.push[st.house_of[other]]
            pos = st.candle_territories[other]
            actions.extend(row[role] for role in range(3) if pos[role] == t)
    return actions


def do_push(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    st.stack.pop()
    if verb == Verb.SPARE:
        st.events.append(("spare", frame[1], st.board.names[frame[2]]))
        return
    st.stack.append([Phase.PUSH_TO, frame[1], frame[2], frame[3], st.seat_of[a], b])


def push_to_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    table = st.notation.to
    return [table[t] for t in st.board.push[frame[3]][frame[2]]]


def do_push_to(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    """The pushed candle retreats: no Land Flame, no action, no push of its own (rulings CA-21)."""
    st.stack.pop()
    seat, t, owner, role = frame[1], frame[2], frame[4], frame[5]
    st.candle_territories[owner][role] = a
    moved(st, CANDLES)
    names = st.board.names
    st.events.append(("push", seat, owner, role, names[t], names[a]))


# ----------------------------------------------------------------------------- the Land Flame
def run_land(st: CandelabriaState, frame: list[int]) -> None:
    """ "Place a Land Flame of your own in the territory ... if there are no other flames of your house.
    If the Land Flame has been placed ..., the player must activate the action related to the
    territory." With no Land Flame left in the supply, none is placed and nothing is triggered."""
    st.stack.pop()
    seat, t = frame[1], frame[2]
    if st.land_flames[t] >> seat & 1:
        return
    if st.land_flame_supply[seat] <= 0:
        st.events.append(("no-land-flame", seat, st.board.names[t]))
        return
    place_land_flame(st, seat, t)
    icon = st.board.icon[t]
    count = action_count(st, seat, icon)
    st.events.append(("land", seat, st.board.names[t], count))
    territory.begin_action(st, seat, icon, count)
