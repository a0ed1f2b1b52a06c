"""Candle Quest's standings from the rulebook's scoring text (issue 14)."""

from __future__ import annotations

from tests.candle_quest.helpers import craft, game, play


def parts(state, seat):  # type: ignore[no-untyped-def]
    row = next(row for row in state.standings().rows if row.seat == seat)
    return {part.source: part.points for part in row.parts}


def test_advanced_example_breaks_56_into_candles_shekels_and_bonus() -> None:
    """'Cards = 44, Coins = 9, Bonus = 3': the completer's 56 in three parts, in rank order."""
    state = game(variant="advanced", players=3, deck=["S5"])
    state = craft(
        state,
        screens={0: ["Y6", "O5", "G4", "W4", "R8", "B7", "P5"], 2: ["R7", "R5", "U4"]},
        shekels={0: 14, 2: 20},
    )
    play(state, (0, "flip"), (0, "buy"))
    standings = state.standings(["Ann", "Bob", "Cy"])
    assert [row.seat for row in standings.rows] == [0, 2, 1]
    assert parts(state, 0) == {
        "Candle value": 44,
        "Shekels (up to half the candle value)": 9,
        "Menorah completer bonus": 3,
    }
    # A duplicate colour and an Unlit candle count nothing; shekels only up to half of 7.
    assert parts(state, 2) == {"Candle value": 7, "Shekels (up to half the candle value)": 3}
    assert [row.score for row in standings.rows] == [56, 10, 0]
    assert [row.rank for row in standings.rows] == [1, 2, 3]
    assert standings.summary.startswith("Ann completed the Menorah. Ann wins with 56 points")


def test_advanced_tie_broken_by_shekels_is_named() -> None:
    """Rulings CQ-14, ``tiebreak="shekels"``: tied at the top, the most shekels wins."""
    state = game(variant="advanced", deck=["S5"], tiebreak="shekels", max_turns=1)
    state = craft(state, screens={0: ["R8"], 1: ["B8"]}, shekels={0: 4, 1: 9})
    play(state, (0, "flip"), (0, "sell"))  # seat 0 sells S5 (+ shekels), the turn limit ends it
    assert state.is_over and state.winners == (1,)
    standings = state.standings(["Ann", "Bob"])
    first, second = standings.rows
    assert first.score == second.score == 12 and first.seat in state.winners
    assert (first.rank, second.rank) == (1, 2)
    assert "more shekels" in standings.summary and "tie-break" in standings.summary


def test_basic_winner_scores_one_and_the_rest_rank_by_colours() -> None:
    state = game(players=3, deck=["S5"])
    state = craft(
        state,
        screens={0: ["Y6", "O5", "G4", "W4", "R8", "B7", "P5"], 1: ["R7"], 2: ["R5", "B5"]},
    )
    play(state, (0, "flip"), (0, "buy"))
    standings = state.standings(["Ann", "Bob", "Cy"])
    assert [(row.seat, row.rank, row.score) for row in standings.rows] == [
        (0, 1, 1),
        (2, 2, 0),
        (1, 3, 0),
    ]
    assert parts(state, 0) == {"Completed the Menorah": 1}
    assert standings.rows[1].note == "2 of 8 Menorah colours filled"
    assert standings.summary == "Ann wins: the first to fill all 8 colours of the Menorah."
