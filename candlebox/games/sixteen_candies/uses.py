"""What each seat did with which cards in a finished game (``Capabilities.uses``): the cards it held
when the hands were revealed, and the cards it discarded. Read from the game's events, after the game,
for the per-card statistics of ``candlebox report``."""

from __future__ import annotations

from candlebox.engine.state import State
from candlebox.games.sixteen_candies.state import SixteenCandiesState


def uses(state: State) -> list[dict[str, list[str]]]:
    """For every seat, how -> the codes of the cards it used so (a code once per use)."""
    assert isinstance(state, SixteenCandiesState)
    found: list[dict[str, list[str]]] = [{} for _ in range(state.num_players)]
    for event in state.events:
        if event[0] == "reveal":  # ("reveal", seat, card codes, tops, value, candy, penalty)
            found[event[1]].setdefault("held", []).extend(str(code) for code in event[2])
        elif event[0] == "discard":  # ("discard", seat, card code)
            found[event[1]].setdefault("discarded", []).append(str(event[2]))
    return found
