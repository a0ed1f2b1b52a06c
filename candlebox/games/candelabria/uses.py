"""What each seat did with which components in a finished game (``Capabilities.uses``): the Candle
cards it played (deployed or maneuvered) and kept, the Tactic cards it took and played, the Upgrade
tiles it took, the Missions it scored and its house. Read from the game's events, after the game, for
the per-card statistics of ``candlebox report``."""

from __future__ import annotations

from candlebox.engine.state import State
from candlebox.games.candelabria.state import CandelabriaState

# event name -> (how the seat used the component, the event field holding its code)
USES: dict[str, tuple[str, int]] = {
    "deploy": ("played", 2),
    "maneuver": ("played", 2),
    "keep": ("kept", 2),
    "take": ("taken", 2),
    "resolve": ("played", 2),
    "upgrade": ("taken", 3),
    "mission": ("scored", 2),
}


def uses(state: State) -> list[dict[str, list[str]]]:
    """For every seat, how -> the codes of the components it used so (a code once per use)."""
    assert isinstance(state, CandelabriaState)
    found: list[dict[str, list[str]]] = [{} for _ in range(state.num_players)]
    for event in state.events:
        use = USES.get(event[0])
        if use is None:
            continue
        how, at = use
        seat = event[1]
        if isinstance(seat, int) and 0 <= seat < state.num_players:
            found[seat].setdefault(how, []).append(str(event[at]))
    for seat, house in enumerate(state.house_of):
        if house >= 0:  # its house powers: the house it played, by its words' code
            found[seat].setdefault("played", []).append(f"house:{state.content.houses[house].code}")
    return found
