"""``GET /api/games/{id}/board``: the map a game is played on, as public data (Candelabria), and a clear
404 for a game without one or a game that does not exist."""

from __future__ import annotations

from typing import Any

import candlebox
from tests.server.conftest import create


def test_the_board_of_a_candelabria_game_matches_its_view(client: Any) -> None:
    created = create(
        client, [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot"}], you=0, game="candelabria"
    )
    response = client.get(f"/api/games/{created['id']}/board")
    assert response.status_code == 200, response.text
    board = response.json()
    view = client.get(f"/api/games/{created['id']}/state").json()["view"]
    assert board["key"] == view["side"] == "small"
    names = [t["id"] for r in board["regions"] for t in r["territories"]]
    assert names == [t["territory"] for t in view["territories"]]
    cells = {cell for row in board["sketch"] for cell in row.split()}
    assert cells - {"~~"} == set(names)  # every territory is drawn, and nothing else
    assert all(len(pair) == 2 for pair in board["bridges"])
    assert "candles" not in response.text and "hand" not in response.text  # facts only


def test_no_board_for_a_game_without_a_map_or_no_game(client: Any) -> None:
    created = create(client, [{"kind": "human"}, {"kind": "bot"}], you=0)
    response = client.get(f"/api/games/{created['id']}/board")
    assert response.status_code == 404
    assert response.json()["error"] == "no-board"
    assert client.get("/api/games/nope/board").status_code == 404


def test_candelabria_log_entries_in_words() -> None:
    from candlebox.games.candelabria.text import candelabria_line
    from candlebox.server.sentences import entry_text

    deploy = {"event": "deploy", "seat": 0, "card": "C1", "role": "P", "wax": 1, "flames": 3}
    deploy["territory"] = "8b"
    assert candelabria_line(deploy) == "seat 0 deploys C1 as Pilgrim on 8b (1 wax, 3 flames)."
    assert candelabria_line({"event": "ignite", "seat": 1, "role": "land", "territory": "2c"}) == (
        "seat 1 ignites a Land Flame on 2c."
    )
    assert candelabria_line({"event": "chose", "seat": 2}) == "seat 2 chose in secret."
    # a private card is never put in words, even for its own seat
    assert (
        "A17" not in entry_text("candelabria", {"event": "draw", "seat": 0, "card": "A17"})["text"]
    )
    assert candelabria_line({"event": "something-new"}) is None


def test_every_candelabria_event_has_words() -> None:
    """Each event the game can log (two-player, Missions and Decay included) reads as a sentence."""
    import random

    from candlebox.games.candelabria.text import _CANDELABRIA, candelabria_line
    from candlebox.games.candelabria.view import EVENT_FIELDS

    assert set(EVENT_FIELDS) <= set(_CANDELABRIA), set(EVENT_FIELDS) - set(_CANDELABRIA)
    kinds: set[str] = set()
    for players, options in ((2, {"missions": True}), (3, {"decay": True, "missions": True})):
        state = candlebox.new_game("candelabria", players=players, seed=3, **options)
        rng = random.Random(1)
        while not state.is_over:
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        for viewer in (None, 0):
            for entry in state.log(viewer):
                line = candelabria_line(entry)
                assert line and "{" not in line, entry
                kinds.add(entry["event"])
    assert {"pick", "haunt", "mission", "missions", "decay", "decay-place"} <= kinds
    assert candelabria_line({"event": "haunt", "seat": -1, "curse": 2, "to": "5b"}) == (
        "Curse 2 stands on 5b."
    )
    assert candelabria_line({"event": "pick", "seat": 1, "house": "R"}) == "seat 1 chooses house R."
