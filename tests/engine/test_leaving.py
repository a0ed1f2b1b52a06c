"""Resigning (rulings EG-1): the game ends with the seat that resigned last, the others first."""

from __future__ import annotations

import pytest

from candlebox.engine.leaving import resignation, standings_after


@pytest.mark.parametrize(("players", "seat"), [(2, 0), (2, 1), (5, 3)])
def test_the_seat_that_resigns_is_last_and_the_others_share_the_win(
    players: int, seat: int
) -> None:
    resigned = resignation(players, seat)
    assert resigned.winners == tuple(n for n in range(players) if n != seat)
    assert resigned.scores[seat] == 0.0
    assert all(resigned.scores[n] == 1.0 for n in resigned.winners)
    assert resigned.as_result() == {
        "winners": list(resigned.winners),
        "scores": list(resigned.scores),
        "resigned": seat,
    }


@pytest.mark.parametrize("seat", [-1, 2])
def test_a_seat_the_game_does_not_have_cannot_resign(seat: int) -> None:
    with pytest.raises(ValueError, match="seats 0–1"):
        resignation(2, seat)


def test_the_standings_of_a_resigned_game_put_that_seat_last_and_say_why() -> None:
    """Resigned at move 0 every seat had the same points: the end screen ranked them all first."""
    shown = standings_after(resignation(3, 0), 0, ["Ada", "Bea", "Cy"].__getitem__)
    assert [(row.seat, row.rank, row.winner) for row in shown.rows] == [
        (1, 1, True),
        (2, 1, True),
        (0, 3, False),
    ]
    assert shown.final and shown.summary == "Ada resigned at move 0, so Bea and Cy share the win."
    assert shown.rows[-1].note == "resigned at move 0"
    assert [row.score for row in shown.rows] == [1.0, 1.0, 0.0]  # the result's scores
    assert all(sum(p.points for p in row.parts) == row.score for row in shown.rows)


def test_a_seat_that_ran_out_of_time_is_said_to() -> None:
    shown = standings_after(resignation(2, 1), 17, ["Ada", "Bea"].__getitem__, out_of_time=True)
    assert [(row.seat, row.rank) for row in shown.rows] == [(0, 1), (1, 2)]
    assert shown.summary == "Bea ran out of time at move 17, so Ada wins."
    assert shown.rows[1].note == "ran out of time at move 17"
