"""``GET /api/games/{id}/components``: the words of every code a game's configuration can show, the
same as ``candlebox.components`` of it, computed once per configuration; unknown games are a clear
404, and the route is behind the same rate limits as every request."""

from __future__ import annotations

from typing import Any

import candlebox
from candlebox.server import words
from tests.server.conftest import create, make_client


def test_components_of_each_game_match_the_library(client: Any) -> None:
    for game, players in (("candle-quest", 2), ("sixteen-candies", 3), ("candelabria", 2)):
        seats = [{"kind": "human"}] + [{"kind": "bot"}] * (players - 1)
        created = create(client, seats, you=0, game=game)
        response = client.get(f"/api/games/{created['id']}/components")
        assert response.status_code == 200, response.text
        described = client.get(f"/api/games/{created['id']}").json()["game"]
        expected = candlebox.components(
            game, described["variant"], players=players, **described["options"]
        )
        assert response.json() == expected
        assert all(set(v) == {"name", "text"} for v in response.json().values())


def test_the_two_player_candelabria_has_its_own_words(client: Any) -> None:
    created = create(client, [{"kind": "human"}, {"kind": "bot"}], you=0, game="candelabria")
    table = client.get(f"/api/games/{created['id']}/components").json()
    assert "house:L" not in table  # the fifth house is not in the 2-player box
    assert table["1I1X"]["name"] and table["power:C1"]["text"]


def test_components_are_computed_once_per_configuration(client: Any) -> None:
    words._components.cache_clear()
    first = create(client, [{"kind": "human"}, {"kind": "bot"}], you=0)
    second = create(client, [{"kind": "human"}, {"kind": "bot"}], you=0)
    for created in (first, second, first):
        assert client.get(f"/api/games/{created['id']}/components").status_code == 200
    info = words._components.cache_info()
    assert (info.misses, info.hits) == (1, 2)


def test_no_components_for_a_game_that_does_not_exist(client: Any) -> None:
    response = client.get("/api/games/nope/components")
    assert response.status_code == 404
    assert "Traceback" not in response.text


def test_components_are_rate_limited(sqlite_url: str) -> None:
    with make_client(sqlite_url, requests_per_second=1.0, request_burst=3) as limited:
        created = create(limited, [{"kind": "human"}, {"kind": "bot"}], you=0)
        codes = [
            limited.get(f"/api/games/{created['id']}/components").status_code for _ in range(8)
        ]
    assert 429 in codes
