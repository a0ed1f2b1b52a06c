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
    # Issue 36: "1st in the turn order" beside every row left a newcomer guessing; the tie is said
    # in words, with the rulebook's own sentence, and only the tied rows carry a note
    assert standings.summary == (
        f"{names[second]} wins with 8 VP. {names[third]} has 8 VP too: a tie goes to the player"
        " who comes first in the Turn Order (the order in which players take their turns), and"
        f" {names[second]} plays before {names[third]}. The rulebook: \u201cIn the event of a"
        " tie, the first of those players in the Turn Order is declared the winner.\u201d"
    )
    notes = [row.note for row in standings.rows]
    assert notes == [
        f"Same VP as {names[third]}: a tie goes to whoever plays first in the Turn Order, so"
        f" placed before {names[third]}",
        f"Same VP as {names[second]}: a tie goes to whoever plays first in the Turn Order, so"
        f" placed after {names[second]}",
        "",
    ]


def test_a_three_way_tie_places_the_middle_seat_between_the_others() -> None:
    """Every place is decided the same way (rulings CA-43): the seat between two others in the Turn
    Order comes after the one and before the other."""
    state = candlebox.new_game("candelabria", players=3, seed=3)
    assert isinstance(state, CandelabriaState)
    first, second, third = state.order
    for seat in state.order:
        gain_vp(state, seat, 5, "battle")
    end_game(state, "end")
    names = ["Ann", "Bob", "Cy"]
    standings = state.standings(names)
    assert [row.seat for row in standings.rows] == [first, second, third]
    assert standings.rows[1].note.endswith(
        f"so placed after {names[first]} and before {names[third]}"
    )
    assert f"{names[second]} and {names[third]} have 5 VP too" in standings.summary
