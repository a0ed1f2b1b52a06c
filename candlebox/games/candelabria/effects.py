"""Tactic and Candle Cards Effects: VP, Ignite, Extinguish, Steal, Draw Tactic, Destroy Temple.

"If there is a number before the icon, the effect of the icon is repeated that number of times. The
effects of a Tactic Card are always performed in the territory where you are fighting. Alternatively, the
effects of the Candles may be performed in any territory of the map." — so each effect frame carries a
region (-1: anywhere). Every effect but VP says "allows you to": each repetition is a choice, and the rest
of an effect may be declined with ``skip`` (rulings CA-36).

* Ignite: a flame from your supply onto one of your candles, or one of your Land Flames onto a territory
  without one (no territory action: that is not a movement).
* Extinguish: a flame off an enemy candle (back to its owner), or an enemy Land Flame off the board (its
  owner places it: extinguished.py). Two steps: the territory, then the flame.
* Steal: one resource from one opponent; with a full warehouse it is taken but discarded (CA-31).
* Draw Tactic: from the face-up Tactics board (territory.py's TAKE).
* Destroy Temple: the top level of a temple.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candelabria import extinguished, missions
from candlebox.games.candelabria.decision import FIRST_AUTO, Auto, Phase
from candlebox.games.candelabria.marks import CANDLES, FLAME_SUPPLY, RESOURCES, moved
from candlebox.games.candelabria.notation import MAX_WAREHOUSE, Verb
from candlebox.games.candelabria.pieces import (
    enemy_flame_actions,
    gain_vp,
    place_land_flame,
)
from candlebox.games.candelabria.schema import DESTROY, EXTINGUISH, IGNITE, STEAL, TACTIC, VP
from candlebox.games.candelabria.temples import raze_temple

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState


def push_effect(st: CandelabriaState, seat: int, icon: int, count: int, region: int) -> None:
    """One printed effect (icon and count) onto the stack, or done at once for VP."""
    if icon == VP:
        gain_vp(st, seat, count, "effect")
    elif icon == IGNITE:
        st.stack.append([Phase.IGNITE, seat, count, region])
    elif icon == EXTINGUISH:
        st.stack.append([Phase.EXTINGUISH, seat, count, region])
    elif icon == STEAL:
        st.stack.append([Phase.STEAL, seat, count])
    elif icon == TACTIC:
        st.stack.append([Auto.REFILL, -1])
        st.stack.append([Phase.TAKE, seat, count])
    else:
        assert icon == DESTROY
        st.stack.append([Phase.RAZE, seat, count, region])


def run_effects(st: CandelabriaState, frame: list[int]) -> None:
    """A deployed candle card's effects, in printed order, if its year has been reached."""
    seat, card, index = frame[1], frame[2], frame[3]
    printed = st.content.candles[card]
    if printed.year > st.year or index >= len(printed.effects):
        st.stack.pop()
        return
    frame[3] = index + 1
    icon, count = printed.effects[index]
    push_effect(st, seat, icon, count, -1)


def _in(st: CandelabriaState, t: int, region: int) -> bool:
    return region < 0 or st.board.region[t] == region


# ----------------------------------------------------------------------------- Ignite
def ignite_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    seat, left, region = frame[1], frame[2], frame[3]
    if left <= 0:
        return []
    n = st.notation
    actions: list[str] = []
    if st.candle_flame_supply[seat] > 0:
        for role, t in enumerate(st.candle_territories[seat]):
            if t >= 0 and _in(st, t, region):
                actions.append(n.ignite_candle[role])
    if st.land_flame_supply[seat] > 0:
        bit = 1 << seat
        lf = st.land_flames
        terr = range(st.board.size) if region < 0 else st.board.region_terr[region]
        actions.extend(n.ignite_land[t] for t in terr if not lf[t] & bit)
    return actions


def do_ignite(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    seat = frame[1]
    if verb == Verb.SKIP:
        st.stack.pop()
        return
    frame[2] -= 1
    if verb == Verb.IGNITE_CANDLE:
        st.candle_flame_supply[seat] -= 1
        st.candle_flames[seat][a] += 1
        moved(st, FLAME_SUPPLY)
        moved(st, CANDLES)
        st.events.append(("ignite", seat, a, None))
    else:
        place_land_flame(st, seat, a)
        st.events.append(("ignite", seat, -1, st.board.names[a]))


# ----------------------------------------------------------------------------- Extinguish
def _enemy_targets(st: CandelabriaState, seat: int, t: int) -> bool:
    if st.land_flames[t] & ~(1 << seat):
        return True
    for other in range(st.num_players):
        if other != seat:
            pos, fl = st.candle_territories[other], st.candle_flames[other]
            if (pos[0] == t and fl[0]) or (pos[1] == t and fl[1]) or (pos[2] == t and fl[2]):
                return True
    return False


def extinguish_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    seat, left, region = frame[1], frame[2], frame[3]
    if left <= 0:
        return []
    table = st.notation.extinguish_at
    terr = range(st.board.size) if region < 0 else st.board.region_terr[region]
    return [table[t] for t in terr if _enemy_targets(st, seat, t)]


def do_extinguish(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    if verb == Verb.SKIP:
        st.stack.pop()
        return
    frame[2] -= 1
    st.stack.append([Phase.EXTINGUISH_AT, frame[1], a])


def extinguish_at_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    n = st.notation
    return enemy_flame_actions(st, frame[1], frame[2], n.extinguish_land, n.extinguish_candle)


def do_extinguish_at(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    st.stack.pop()
    seat, t = frame[1], frame[2]
    role = -1 if verb == Verb.EXTINGUISH_LAND else b
    if extinguished.put_out(st, "extinguish", seat, t, st.seat_of[a], role) and _by_candle(st):
        missions.note(st, seat, "out-by-candle")


def _by_candle(st: CandelabriaState) -> bool:
    """Whether the Extinguish under way is a candle card's effect (rulings CA-M3)."""
    for frame in reversed(st.stack):
        if frame[0] >= FIRST_AUTO:
            return frame[0] == Auto.EFFECTS
    return False


# ----------------------------------------------------------------------------- Steal
def steal_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    seat, left = frame[1], frame[2]
    if left <= 0:
        return []
    table = st.notation.steal
    actions: list[str] = []
    fight = st.battle  # in a battle, only from an opponent fighting in it (rulings CA-W10)
    for other in range(st.num_players):
        if other != seat and (not fight or other in fight):
            row = table[st.house_of[other]]
            if st.gold[other]:
                actions.append(row[0])
            if st.wax[other]:
                actions.append(row[1])
    return actions


def do_steal(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    seat = frame[1]
    if verb == Verb.SKIP:
        st.stack.pop()
        return
    frame[2] -= 1
    victim = st.seat_of[a]
    kept = st.gold[seat] + st.wax[seat] < MAX_WAREHOUSE
    if b == 0:
        st.gold[victim] -= 1
        if kept:
            st.gold[seat] += 1
        else:
            st.reserve_gold += 1
    else:
        st.wax[victim] -= 1
        if kept:
            st.wax[seat] += 1
        else:
            st.reserve_wax += 1
    moved(st, RESOURCES)
    st.events.append(("steal", seat, victim, b, kept))
    if kept:
        missions.tally(st, seat, 0)


# ----------------------------------------------------------------------------- Destroy Temple
def raze_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    left, region = frame[2], frame[3]
    if left <= 0:
        return []
    table = st.notation.raze
    return [table[r] for r in st.board.regions if st.temples[r] and (region < 0 or r == region)]


def do_raze(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    if verb == Verb.SKIP:
        st.stack.pop()
        return
    frame[2] -= 1
    raze_temple(st, frame[1], a)


# ----------------------------------------------------------------------------- Luminis Knights, Year I
def shift_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    seat, region = frame[1], frame[2]
    table = st.notation.shift
    actions: list[str] = []
    for role, here in enumerate(st.candle_territories[seat]):
        if here >= 0:
            row = table[role]
            actions.extend(row[t] for t in st.board.region_terr[region] if t != here)
    return actions


def do_shift(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    """ "You don't place any Temples, flames, or perform territory actions with this ability." """
    st.stack.pop()
    seat = frame[1]
    if verb == Verb.STAY:
        return
    names = st.board.names
    src = st.candle_territories[seat][a]
    st.candle_territories[seat][a] = b
    moved(st, CANDLES)
    st.events.append(("shift", seat, a, names[src], names[b]))
