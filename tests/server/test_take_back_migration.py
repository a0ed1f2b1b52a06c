"""Migration 0008 (take-backs, issue 35) on a database as the code before it left it (revision
0007): every game is kept — a finished one and one in the middle of play, which a seat could take
something back in — each replays as it was, and once upgraded the game in play takes back (SQLite,
PostgreSQL)."""

from __future__ import annotations

import random
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import inspect

import candlebox
from tests.server.conftest import all_human, auth, essence, make_client, move, state
from tests.server.upgrading import assert_at_head, revision, revision_before, schema_at

GAME = "candle-quest"


def play_until_undoable(client: TestClient, game_id: str, tokens: list[str], seed: int) -> int:
    """Random moves until the seat that moved last may take something back; that seat."""
    rng = random.Random(seed)
    mirror = candlebox.new_game(GAME, players=2, seed=seed)
    for _ in range(300):
        seat = state(client, game_id)["view"]["pending"]["seats"][0]
        mine = state(client, game_id, tokens[seat])
        action = rng.choice(mine["legal"])
        assert move(client, game_id, tokens[seat], action, mine["move"]).status_code == 200
        mirror.apply(seat, action)
        if mirror.undoable(seat) > 0:
            return int(seat)
    raise AssertionError("nothing to take back in 300 moves")


def views(client: TestClient, game_id: str, tokens: list[str]) -> list[dict[str, Any]]:
    return [essence(state(client, game_id, token)) for token in [None, *tokens]]


def test_a_database_from_before_take_backs_keeps_every_game_and_takes_back(
    empty_url: str,
) -> None:
    before = revision_before("0008")
    assert before == "0007"
    with make_client(empty_url) as client:
        playing, tokens = all_human(client, 2, game=GAME, seed=7, practice=True)
        seat = play_until_undoable(client, playing, tokens, 7)
        finished, done_tokens = all_human(client, 2, game=GAME, seed=8, practice=True)
        play_until_undoable(client, finished, done_tokens, 8)
        resigned = client.post(f"/api/games/{finished}/resign", headers=auth(done_tokens[0]))
        assert resigned.status_code == 200, resigned.text
        kept = {playing: views(client, playing, tokens), finished: views(client, finished, [])}
        replay = client.get(f"/api/games/{finished}/replay?at=1").json()
    with schema_at(empty_url, before) as conn:  # the schema the code before take-backs wrote
        assert "take_backs" not in inspect(conn).get_table_names()
    assert revision(empty_url) == before

    with make_client(empty_url) as client:  # opened by today's code: upgraded to the head
        assert views(client, playing, tokens) == kept[playing]
        assert views(client, finished, []) == kept[finished]
        assert essence(client.get(f"/api/games/{finished}/replay?at=1").json()) == essence(replay)
        now = state(client, playing, tokens[seat])
        assert now["undoable"] > 0, "the game in play can take back once upgraded"
        asked = client.post(
            f"/api/games/{playing}/undo", json={"expect": now["move"]}, headers=auth(tokens[seat])
        )
        assert asked.status_code == 200 and asked.json()["asked"] == now["undoable"], asked.text
        accepted = client.post(
            f"/api/games/{playing}/undo/accept",
            json={"expect": now["move"]},
            headers=auth(tokens[1 - seat]),
        )
        assert accepted.status_code == 200, accepted.text
        assert state(client, playing)["move"] == now["move"] - now["undoable"]
    assert_at_head(empty_url)
