"""Resigning and abandoning a game (issue 15): who may, what it does to the game, the lobby and
the database, and the clear errors otherwise (nothing changed)."""

from __future__ import annotations

import time
from typing import Any

from tests.server.conftest import all_human, auth, create, essence, make_client, move, state

BOT = {"kind": "bot", "bot": "random"}


def wait_for(check: Any, timeout: float = 10.0) -> Any:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError("timed out waiting")


def listed(client: Any) -> dict[str, set[str]]:
    lobby = client.get("/api/games").json()
    return {key: {g["id"] for g in lobby[key]} for key in ("open", "playing", "finished")}


def test_resigning_ends_the_game_with_that_seat_last(client: Any) -> None:
    game_id, tokens = all_human(client, 3, seed=5)
    assert game_id in listed(client)["playing"]
    seat = state(client, game_id)["view"]["pending"]["seats"][0]
    first = state(client, game_id, tokens[seat])
    assert move(client, game_id, tokens[seat], first["legal"][0], first["move"]).is_success
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello", "token": tokens[2]})
        assert ws.receive_json()["type"] == "snapshot"
        done = client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[1]))
        assert done.status_code == 200, done.text
        expected = {"winners": [0, 2], "scores": [1.0, 0.0, 1.0], "resigned": 1}
        assert done.json() == {"status": "resigned", "result": expected}
        frame = ws.receive_json()  # the other players are told at once
        while frame["type"] != "update":
            frame = ws.receive_json()
        assert frame["over"] is True and frame["result"] == expected and frame["legal"] == []
    seen = state(client, game_id, tokens[0])
    assert seen["over"] is True and seen["legal"] == [] and seen["result"] == expected
    assert seen["game"]["status"] == "over"
    lists = listed(client)
    assert game_id not in lists["playing"] and game_id in lists["finished"]
    finished = client.get("/api/games").json()["finished"][0]
    assert finished["result"] == expected
    # no more moves, no second resignation; the replay ends with the resignation
    now = seen["move"]
    refused = move(client, game_id, tokens[0], "anything", now)
    assert refused.status_code == 409 and refused.json()["error"] == "over"
    again = client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[0]))
    assert again.status_code == 409 and again.json()["error"] == "over"
    end = client.get(f"/api/games/{game_id}/replay", params={"at": now}).json()
    assert end["over"] is True and end["result"] == expected
    start = client.get(f"/api/games/{game_id}/replay", params={"at": 0}).json()
    assert start["over"] is False and start["result"] is None


def test_resigning_needs_the_seat_credential(client: Any) -> None:
    game_id, tokens = all_human(client, 2, seed=5)
    before = essence(state(client, game_id, tokens[0]))
    for headers in ({}, auth("x" * 43), auth("not a token")):
        refused = client.post(f"/api/games/{game_id}/resign", headers=headers)
        assert refused.status_code == 403 and refused.json()["error"] == "credential"
    missing = client.post("/api/games/nosuchgame/resign", headers=auth(tokens[0]))
    assert missing.status_code == 404 and missing.json()["error"] == "no-game"
    assert essence(state(client, game_id, tokens[0])) == before  # nothing changed


def test_a_resigned_game_stays_over_after_a_restart(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        created = create(client, [{"kind": "human"}, BOT], you=0)
        game_id, token = created["id"], created["token"]
        resigned = client.post(f"/api/games/{game_id}/resign", headers=auth(token))
        assert resigned.status_code == 200
    with make_client(sqlite_url) as client:
        seen = state(client, game_id, token)
        assert seen["over"] is True and seen["result"]["resigned"] == 0
        assert seen["result"]["winners"] == [1]
        assert game_id not in listed(client)["playing"]
        assert game_id in listed(client)["finished"]


def test_the_only_player_abandons_a_game_and_it_leaves_every_list(client: Any) -> None:
    with_bot = create(client, [{"kind": "human"}, BOT], you=0)
    waiting = create(client, [{"kind": "human"}, {"kind": "human"}], you=0)
    lists = listed(client)
    assert with_bot["id"] in lists["playing"] and waiting["id"] in lists["open"]
    with client.websocket_connect(f"/ws/games/{with_bot['id']}") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["type"] == "snapshot"
        for made in (with_bot, waiting):
            done = client.post(f"/api/games/{made['id']}/abandon", headers=auth(made["token"]))
            assert done.status_code == 200 and done.json() == {"status": "abandoned"}
        frame = ws.receive_json()
        while frame["type"] != "error":
            frame = ws.receive_json()
        assert frame["error"] == "abandoned" and "abandoned" in frame["message"]
    lists = listed(client)
    for made in (with_bot, waiting):
        assert all(made["id"] not in ids for ids in lists.values())
        gone = client.get(f"/api/games/{made['id']}/state", headers=auth(made["token"]))
        assert gone.status_code == 410 and gone.json()["error"] == "abandoned"
    # the invite of the abandoned game's open seat no longer works
    url = f"/api/games/{waiting['id']}/seats/1/claim"
    claim = client.post(url, json={"invite": waiting["invites"]["1"]})
    assert claim.status_code in (404, 409, 410)


def test_a_game_someone_else_joined_cannot_be_abandoned(client: Any) -> None:
    game_id, tokens = all_human(client, 2, seed=7)
    before = essence(state(client, game_id, tokens[0]))
    refused = client.post(f"/api/games/{game_id}/abandon", headers=auth(tokens[0]))
    assert refused.status_code == 409 and refused.json()["error"] == "not-alone"
    assert "resign" in refused.json()["message"]
    assert essence(state(client, game_id, tokens[0])) == before
    assert game_id in listed(client)["playing"]
    nobody = client.post(f"/api/games/{game_id}/abandon")
    assert nobody.status_code == 403


def test_resign_and_abandon_are_rate_limited(sqlite_url: str) -> None:
    with make_client(sqlite_url, requests_per_second=0.2, request_burst=3) as client:
        created = create(client, [{"kind": "human"}, {"kind": "human"}], you=0)
        url = f"/api/games/{created['id']}/abandon"
        codes = [client.post(url, headers=auth("x" * 43)).status_code for _ in range(4)]
        assert codes[-1] == 429 and 403 in codes


def test_old_resigned_and_abandoned_games_are_deleted(sqlite_url: str) -> None:
    settings = {"keep_finished": 0.3, "sweep_every": 0.1}
    with make_client(sqlite_url, **settings) as client:
        ids = []
        for how in ("resign", "abandon"):
            made = create(client, [{"kind": "human"}, BOT], you=0)
            assert client.post(
                f"/api/games/{made['id']}/{how}", headers=auth(made["token"])
            ).is_success
            ids.append(made["id"])
        for game_id in ids:
            wait_for(lambda g=game_id: client.get(f"/api/games/{g}").status_code == 404)
