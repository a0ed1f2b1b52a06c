"""Castle Upgrades and house powers: which effects a seat has, by year (sections 'Castle Upgrades' and
'House Icons and Castle Upgrades').

A tile or power works from its year on ("those effects will manifest only when the Year indicated on the
Upgrade Tile is reached"); end-of-game effects are counted at the end whatever their year. These queries
walk at most six tiles and three powers, so they are computed when needed rather than cached.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState


def has_power(st: CandelabriaState, seat: int, effect: str) -> bool:
    """Whether the seat's house has an active house power with this effect."""
    for year, name, _, _ in st.content.houses[st.house_of[seat]].powers:
        if name == effect and year <= st.year:
            return True
    return False


def total(st: CandelabriaState, seat: int, effect: str, icon: int = -1) -> int:
    """The summed amount of an effect from the seat's active tiles and powers (1 per copy when the
    effect has no amount, e.g. an additional territory)."""
    amount = 0
    tiles = st.content.tiles
    for tile in st.upgrades[seat]:
        t = tiles[tile]
        if t.effect == effect and t.year <= st.year and (icon < 0 or t.icon == icon):
            amount += t.amount or 1
    for year, name, value, power_icon in st.content.houses[st.house_of[seat]].powers:
        if name == effect and year <= st.year and (icon < 0 or power_icon == icon):
            amount += value or 1
    return amount


def triggers(st: CandelabriaState, seat: int, prefix: str) -> list[tuple[str, int]]:
    """The active tiles and powers whose effect starts with ``prefix`` ('deploy-', 'temple-'), in the
    order they sit on the House Board (tiles in the order bought), the house powers after them."""
    found: list[tuple[str, int]] = []
    tiles = st.content.tiles
    for tile in st.upgrades[seat]:
        t = tiles[tile]
        if t.year <= st.year and t.effect.startswith(prefix):
            found.append((t.effect, t.amount))
    for year, name, value, _ in st.content.houses[st.house_of[seat]].powers:
        if year <= st.year and name.startswith(prefix):
            found.append((name, value))
    return found


def action_count(st: CandelabriaState, seat: int, icon: int) -> int:
    """How many times a territory action is performed: territories with the icon holding the seat's
    Land Flame, plus the active "counts as if you control an additional ... territory" effects."""
    return st.land_flames_by_icon[seat][icon] + total(st, seat, "extra-territory", icon)
