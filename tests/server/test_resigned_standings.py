"""A resigned game's end screen (rulings EG-1): in every game the seat that resigned is last and the
standings say who resigned, even at move 0 where every seat has the same points (the end screen
ranked both players "1st" from the game's own standings at that move)."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.server.conftest import all_human, auth, state

GAMES = ["candle-quest", "sixteen-candies", "candelabria"]


@pytest.mark.parametrize("game", GAMES)
def test_a_resignation_at_move_0_ranks_that_seat_last(client: TestClient, game: str) -> None:
    game_id, tokens = all_human(client, 2, game=game)
    done = client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[0]))
    assert done.status_code == 200, done.text
    for token in (tokens[0], tokens[1], None):
        standings = state(client, game_id, token)["standings"]
        assert standings is not None and standings["final"]
        ranks = {row["seat"]: row["rank"] for row in standings["rows"]}
        assert ranks == {1: 1, 0: 2}, standings
        assert [row["seat"] for row in standings["rows"]] == [1, 0]
        assert "resigned at move 0" in standings["summary"], standings["summary"]
        assert standings["rows"][1]["note"].startswith("resigned at move 0")
