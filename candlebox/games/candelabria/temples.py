"""Temples: bought at a Forge (2 gold, limited by colour), placed on a region where the house has a piece,
stacked; only the top one acts. White: 4 VP to whoever places it and to whoever destroys it. Grey and
Black act in the War Season.

Placing or destroying a temple also wakes: the placer's "when you deploy a Temple" upgrades (VP, then
Ignite) and the Luminis Knights' Year I power (move one of their candles within that region).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candelabria import missions
from candlebox.games.candelabria.decision import Phase
from candlebox.games.candelabria.marks import DECKS, REGIONS, moved
from candlebox.games.candelabria.pieces import gain_vp
from candlebox.games.candelabria.schema import WHITE
from candlebox.games.candelabria.upgrades import has_power, triggers

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState

TEMPLE_COST = 2  # "Temple Levels ... always cost 2 Gold regardless of the Year"
WHITE_VP = 4


def place_temple(st: CandelabriaState, seat: int, colour: int, region: int) -> None:
    st.temple_supply[colour] -= 1
    st.temples[region].append(colour)
    moved(st, DECKS)
    moved(st, REGIONS)
    st.events.append(("temple", seat, colour, region))
    missions.note(st, seat, "build-temple")
    if colour == WHITE:
        gain_vp(st, seat, WHITE_VP, "white-temple")
    # Pushed in reverse: the Luminis move comes last, after the placer's own upgrades.
    _luminis_shift(st, region)
    for effect, amount in reversed(triggers(st, seat, "temple-")):
        if effect == "temple-vp":
            gain_vp(st, seat, amount, "upgrade")
        elif effect == "temple-ignite":
            st.stack.append([Phase.IGNITE, seat, amount, -1])


def raze_temple(st: CandelabriaState, seat: int, region: int) -> None:
    """ "Remove the top layer of a Temple, and place it back in the Upgrades area." """
    colour = st.temples[region].pop()
    st.temple_supply[colour] += 1
    moved(st, DECKS)
    moved(st, REGIONS)
    st.events.append(("raze", seat, colour, region))
    missions.note(st, seat, "destroy-temple")
    if colour == WHITE:
        gain_vp(st, seat, WHITE_VP, "white-temple")
    _luminis_shift(st, region)


def _luminis_shift(st: CandelabriaState, region: int) -> None:
    """ "Each time a Temple is placed or destroyed in a Region, you can move a Candle you own to any
    territory of that Region." — whoever placed or destroyed it."""
    for seat in range(st.num_players):
        if has_power(st, seat, "temple-shift") and any(p >= 0 for p in st.candle_territories[seat]):
            st.stack.append([Phase.SHIFT, seat, region])
