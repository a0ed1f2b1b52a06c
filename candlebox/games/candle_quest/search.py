"""Candle Quest's search hooks: how the ISMCTS bot judges an unfinished game.

A rollout cut off before the end is scored by each seat's standing from its own view: colours filled
(basic, junior) or the advanced score so far, turned into shares of one win.
"""

from __future__ import annotations

from candlebox.engine import State
from candlebox.engine.plugin import SearchHooks, shares_of
from candlebox.games.candle_quest.heuristic import state_policy
from candlebox.games.candle_quest.views import OpenSeat


def standing(state: State) -> list[float]:
    """Colours filled (basic, junior) or the advanced score so far, from each seat's own view."""
    values: list[float] = []
    advanced = state.variant == "advanced"
    for seat in range(state.num_players):
        me = state.typed_view(seat).seats[seat]
        assert isinstance(me, OpenSeat), "a seat sees behind its own screen"
        if advanced:
            value = me.candle_value
            assert isinstance(value, int), "the advanced game values every collection"
            values.append(value + min(me.shekels, value // 2))
        else:
            values.append(me.colours + me.shekels / 40)
    return shares_of(values, 6.0 if advanced else 0.75)


SEARCH_HOOKS = SearchHooks(evaluate=standing, state_policy=state_policy)
