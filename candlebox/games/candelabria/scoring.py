"""End of the Game: "When the Third Year has passed, the game is over and the player with the most Victory
Points is considered the winner. In the event of a tie, the first of those players in the Turn Order is
declared the winner."

Before the winner is named, the end-of-game upgrades and house powers score (their year has come by then):
2 VP per territory of an icon the house controls — holds its Land Flame in (rulings CA-26) — and the
Luminis Knights' 1 VP per Land Flame on the map. The cut-off by ``max_turns`` decides the same way, by the
Victory Points so far, without the end-of-game scoring.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candelabria.decision import Phase
from candlebox.games.candelabria.pieces import gain_vp

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState


def final_vp(st: CandelabriaState) -> None:
    """The end-of-game Victory Points of tiles and house powers, seat by seat in turn order."""
    tiles = st.content.tiles
    for seat in st.order:
        effects = [(tiles[t].effect, tiles[t].amount, tiles[t].icon) for t in st.upgrades[seat]]
        effects += [
            (name, value, icon)
            for _, name, value, icon in st.content.houses[st.house_of[seat]].powers
        ]
        for effect, amount, icon in effects:
            if effect == "end-vp-territory":
                gain = amount * st.land_flames_by_icon[seat][icon]
            elif effect == "end-vp-land-flame":
                gain = amount * sum(st.land_flames_by_icon[seat])
            else:
                continue
            if gain:
                gain_vp(st, seat, gain, "end-of-game")


def end_game(st: CandelabriaState, reason: str) -> None:
    best = max(st.vp)
    winner = next(seat for seat in st.order if st.vp[seat] == best)
    st.winning_seats = (winner,)
    st.final_scores = tuple(float(v) for v in st.vp)
    st.end_reason = reason
    st.stack[:] = [[Phase.OVER, -1]]
    st.events.append(("game-over", reason, (winner,)))
