"""The Curse of Candelabria's standings: VP by source, ties to the first in the turn order (issue 14)."""

from __future__ import annotations

import candlebox
from candlebox.games.candelabria.pieces import gain_vp
from candlebox.games.candelabria.scoring import end_game
from candlebox.games.candelabria.state import CandelabriaState


def test_vp_by_source_and_the_turn_order_breaks_the_tie() -> None:
    """'In the event of a tie, the first of those players in the Turn Order is declared the
    winner.' Battles in the First Year give 4 VP; a White Temple 4."""
    state = candlebox.new_game("candelabria", players=3, seed=3)
    assert isinstance(state, CandelabriaState)
    first, second, third = state.order
    gain_vp(state, second, 4, "battle")
    gain_vp(state, second, 4, "white-temple")
    gain_vp(state, third, 8, "battle")
    gain_vp(state, first, 3, "mission")
    end_game(state, "end")
    names = ["Ann", "Bob", "Cy"]
    standings = state.standings(names)
    assert [row.seat for row in standings.rows] == [second, third, first]
    assert [row.rank for row in standings.rows] == [1, 2, 3], "ties never share a place"
    top = standings.rows[0]
    assert {p.source: p.points for p in top.parts} == {"Battles won": 4, "White Temples": 4}
    assert top.winner and state.winners == (second,)
    assert standings.summary == (
        f"{names[second]} wins with 8 VP, tied with {names[third]} but first of them in the turn"
        " order: the tie-break."
    )
