"""A game registered after import (a test game, a plug-in loaded later) is a game like the bundled
ones: the server lists it and plays it, reaching it through the registry (docs/architecture.md,
"Adding a game"), not through a list taken when candlebox was imported."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from candlebox.engine import register, unregister
from tests.bots.test_ismcts import PAPER
from tests.server.conftest import all_human, move, state


@pytest.fixture
def paper() -> Iterator[None]:
    register(PAPER)  # the test game's registration, the same call as the real games'
    try:
        yield
    finally:
        unregister(PAPER.id)


def test_a_game_registered_later_is_listed_and_played(paper: None, client: Any) -> None:
    # Registered before the server starts (as a plug-in is), after candlebox was imported.
    games = {game["id"] for game in client.get("/api/meta").json()["games"]}
    assert PAPER.id in games
    game_id, tokens = all_human(client, 2, game=PAPER.id)
    assert move(client, game_id, tokens[0], "rock", expect=0).status_code == 200
    assert move(client, game_id, tokens[1], "paper", expect=1).status_code == 200
    finished = state(client, game_id, tokens[0])
    assert finished["over"] and finished["result"]["winners"] == [1]


def test_a_game_without_a_how_to_page_gets_a_generated_one(paper: None, client: Any) -> None:
    """Its rules page is made from what its plug-in declares (issue 39: it answered 503)."""
    response = client.get(f"/rules/{PAPER.id}")
    assert response.status_code == 200, response.text
    page = response.text
    assert "How to play Rock, Paper, Scissors" in page and "both seats pick at once" in page
    assert "No rulings" in page
    rules = client.get(f"/api/rules/{PAPER.id}").json()
    assert rules["learn"]["variant"] == "standard" and rules["learn"]["players"] == 2
    assert rules["learn"]["bot"] == "random"  # it has no heuristic for the easy level to play
    meta = {game["id"]: game for game in client.get("/api/meta").json()["games"]}
    assert meta[PAPER.id]["summary"]
