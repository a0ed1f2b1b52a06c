"""Resigning (rulings EG-1): the game ends with the seat that resigned last, the others first."""

from __future__ import annotations

import pytest

from candlebox.engine.leaving import resignation


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
