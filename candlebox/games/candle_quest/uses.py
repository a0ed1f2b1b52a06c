"""What each seat did with which candles in a finished game (``Capabilities.uses``): the candles it
bought (from the bank or at an auction), looted from a discard pile and sold. Read from the game's
events, after the game, for the per-card statistics of ``candlebox report``."""

from __future__ import annotations

from candlebox.engine.state import State
from candlebox.games.candle_quest.state import CandleQuestState

# event name -> (how the seat used the candle, the event field holding its code)
USES: dict[str, tuple[str, int]] = {
    "buy": ("bought", 2),
    "auction-won": ("bought", 2),
    "loot": ("looted", 3),
    "sell": ("sold", 2),
}


def uses(state: State) -> list[dict[str, list[str]]]:
    """For every seat, how -> the codes of the candles it used so (a code once per use)."""
    assert isinstance(state, CandleQuestState)
    found: list[dict[str, list[str]]] = [{} for _ in range(state.num_players)]
    for event in state.events:
        use = USES.get(event[0])
        if use is not None and 0 <= event[1] < state.num_players:
            found[event[1]].setdefault(use[0], []).append(str(event[use[1]]))
    return found
