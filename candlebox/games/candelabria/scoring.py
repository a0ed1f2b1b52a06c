"""End of the Game: "the player with the most Victory Points is considered the winner. In the event of a
tie, the first of those players in the Turn Order is declared the winner."

Only the cut-off by ``max_turns`` reaches this yet (the end-of-game upgrades are counted after War is
built); it decides the same way, by the Victory Points so far.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candelabria.decision import Phase

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState


def end_game(st: CandelabriaState, reason: str) -> None:
    best = max(st.vp)
    winner = next(seat for seat in st.order if st.vp[seat] == best)
    st.win = (winner,)
    st.final = tuple(float(v) for v in st.vp)
    st.end_reason = reason
    st.stack[:] = [[Phase.OVER, -1]]
    st.events.append(("game-over", reason, (winner,)))
