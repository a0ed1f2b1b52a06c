"""Migration 0011 (issue 35) on a database as the code before it left it (revision 0010): a rated
seat's time loss, which that code stored as a resignation naming the seat out of time, becomes a
game lost on time; a real resignation stays one; every game replays as it did; a downgrade writes
the old form back (SQLite, PostgreSQL)."""

from __future__ import annotations

import json

from sqlalchemy import select, update

from candlebox.server.storage import games, make_engine
from tests.server.conftest import all_human, auth, make_client, state
from tests.server.upgrading import assert_at_head, revision, revision_before, schema_at

# what the code before 0011 stored for seat 1 of two out of time
OLD_TIME_LOSS = {"winners": [0], "scores": [1.0, 0.0], "resigned": 1, "out_of_time": 1}


def stored(url: str, game_id: str) -> tuple[str, dict[str, object]]:
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            row = conn.execute(
                select(games.c.status, games.c.result).where(games.c.id == game_id)
            ).one()
            return row.status, json.loads(row.result)
    finally:
        engine.dispose()


def test_an_old_time_loss_becomes_lost_on_time_and_a_resignation_stays(empty_url: str) -> None:
    before = revision_before("0011")
    assert before == "0010"
    with make_client(empty_url) as client:
        ended = {}
        for name, seed in (("timed", 3), ("resigned", 4)):
            game_id, tokens = all_human(client, 2, seed=seed)
            answer = client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[1]))
            assert answer.status_code == 200, answer.text
            ended[name] = game_id
        replays = {
            game_id: client.get(f"/api/games/{game_id}/replay?at=0").json()
            for game_id in ended.values()
        }
    with schema_at(empty_url, before) as conn:  # and the time loss as that code stored one
        result = json.dumps(OLD_TIME_LOSS)
        conn.execute(update(games).where(games.c.id == ended["timed"]).values(result=result))
    assert revision(empty_url) == before

    with make_client(empty_url) as client:  # opened by today's code: upgraded to the head
        timed = state(client, ended["timed"])
        assert timed["result"] == {"winners": [0], "scores": [1.0, 0.0], "out_of_time": 1}
        saved = client.get(f"/api/games/{ended['timed']}/saved").json()
        assert saved["out_of_time"] == 1 and "resigned" not in saved
        kept = state(client, ended["resigned"])["result"]
        assert kept == {"winners": [0], "scores": [1.0, 0.0], "resigned": 1}
        for game_id, replay in replays.items():
            again = client.get(f"/api/games/{game_id}/replay?at=0").json()
            assert again["view"] == replay["view"]
    assert stored(empty_url, ended["timed"])[0] == "lost-on-time"
    assert stored(empty_url, ended["resigned"])[0] == "resigned"
    assert_at_head(empty_url)

    with schema_at(empty_url, before):  # and back: the old code reads what it wrote
        pass
    assert stored(empty_url, ended["timed"]) == ("resigned", OLD_TIME_LOSS)
    assert stored(empty_url, ended["resigned"])[0] == "resigned"
