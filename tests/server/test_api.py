"""The HTTP API and the websocket, in-process: creating and joining games, moves and their errors,
credentials, simultaneous moves, bots, zombie mode, replays, and restarts from the database."""

from __future__ import annotations

import random
import threading
import time
from typing import Any

import candlebox
from tests.server.conftest import (
    all_human,
    auth,
    create,
    essence,
    make_client,
    move,
    play_random,
    state,
    wait_for,
)

HUMAN_BOT = [{"kind": "human"}, {"kind": "bot", "bot": "heuristic", "strength": 1.0}]


# ----------------------------------------------------------------------------- meta and lobby
def test_meta_lists_games_variants_options_and_bots(client: Any) -> None:
    meta = client.get("/api/meta").json()
    games = {g["id"]: g for g in meta["games"]}
    # Each game's page module, named by its plug-in object (static/js/games/<page>.js).
    assert {g: games[g]["page"] for g in games} == {g: g for g in candlebox.GAMES}
    assert "candle-quest" in games
    cq = games["candle-quest"]
    assert [v["name"] for v in cq["variants"]] == ["basic", "advanced", "junior"]
    assert "heuristic" in cq["bots"] and "random" in cq["bots"]
    assert cq["facts"]["candles"]["R7"]["colour"] == "Red"
    assert {b["name"]: b["strength"] for b in meta["bots"]}["heuristic"] is True


def test_pages_and_static_files_are_served(client: Any) -> None:
    lobby = client.get("/")
    assert lobby.status_code == 200 and "lobby.js" in lobby.text
    assert "default-src 'self'" in lobby.headers["content-security-policy"]
    assert client.get("/g/anything").status_code == 200
    js = client.get("/static/js/games/candle-quest.js")
    assert js.status_code == 200 and "javascript" in js.headers["content-type"]


def test_create_validates_everything(client: Any) -> None:
    bad = [
        ({"game": "chess", "seats": [{}, {}]}, "bad-game"),
        ({"game": "candle-quest", "seats": []}, "bad-seats"),
        ({"game": "candle-quest", "seats": [{"kind": "human"}]}, "bad-settings"),  # 1 player
        ({"game": "candle-quest", "seats": [{}, {}], "variant": "expert"}, "bad-settings"),
        ({"game": "candle-quest", "seats": [{}, {}], "options": {"max_turns": 0}}, "bad-settings"),
        ({"game": "candle-quest", "seats": [{}, {}], "options": {"colour": 1}}, "bad-settings"),
        ({"game": "candle-quest", "seats": [{}, {"kind": "bot", "bot": "nobody"}]}, "bad-bot"),
        (
            {"game": "candle-quest", "seats": [{}, {"kind": "bot", "strength": 7}]},
            "bad-bot",
        ),
        ({"game": "candle-quest", "seats": [{}, {"kind": "wizard"}]}, "bad-seats"),
        ({"game": "candle-quest", "seats": [{}, {}], "you": 5}, "bad-seat"),
        ({"game": "candle-quest", "seats": [{}, {}], "bot_delay": -1}, "bad-delay"),
        ({"game": "candle-quest", "seats": [{}, {}], "seed": "x"}, "bad-seed"),
    ]
    for body, code in bad:
        response = client.post("/api/games", json=body)
        assert response.status_code == 400, (body, response.text)
        assert response.json()["error"] == code, (body, response.json())
    as_json = {"Content-Type": "application/json"}
    assert client.post("/api/games", content=b"{not json", headers=as_json).json()["error"] == (
        "malformed"
    )
    assert client.post("/api/games", content=b"[1, 2]", headers=as_json).json()["error"] == (
        "malformed"
    )
    huge = client.post("/api/games", content=b"{" + b" " * 70000 + b"}", headers=as_json)
    assert huge.status_code == 413
    assert client.get("/api/games").json()["open"] == []  # nothing was created


def test_create_join_and_lobby(client: Any) -> None:
    created = create(client, [{"kind": "human", "name": "Ann"}, {"kind": "human"}], you=0)
    game_id = created["id"]
    assert set(created["invites"]) == {"1"}
    lobby = client.get("/api/games").json()
    assert [g["id"] for g in lobby["open"]] == [game_id]
    seats = lobby["open"][0]["seats"]
    assert [(s["name"], s["taken"]) for s in seats] == [("Ann", True), ("Player 2", False)]
    assert "token" not in str(lobby) and created["token"] not in str(lobby)
    joined = client.post(f"/api/games/{game_id}/seats/1/claim", json={"name": "Bo\x00b\u202e"})
    assert joined.status_code == 200
    assert state(client, game_id)["seats"][1]["name"] == "Bob"  # control characters removed
    again = client.post(f"/api/games/{game_id}/seats/1/claim", json={"name": "Eve"})
    assert again.status_code == 409 and again.json()["error"] == "taken"
    assert client.get("/api/games").json()["open"] == []


def test_private_games_need_the_invite(client: Any) -> None:
    created = create(client, [{"kind": "human"}, {"kind": "human"}], you=0, public=False)
    game_id = created["id"]
    assert client.get("/api/games").json()["open"] == []  # not listed
    url = f"/api/games/{game_id}/seats/1/claim"
    assert client.post(url, json={"invite": "x" * 43}).status_code == 403
    assert client.post(url, json={}).status_code == 403
    ok = client.post(url, json={"invite": created["invites"]["1"]})
    assert ok.status_code == 200


# ----------------------------------------------------------------------------- moves and credentials
def test_moves_legal_illegal_stale_and_credentials(client: Any) -> None:
    game_id, tokens = all_human(client, 2, seed=11)
    start = state(client, game_id, tokens[0])
    seat = start["view"]["pending"]["seats"][0]
    other = 1 - seat
    before = state(client, game_id)
    # not your turn, not legal, malformed, stale: each refused and nothing changes
    assert move(client, game_id, tokens[other], "flip", 0).json()["error"] == "illegal"
    refused = move(client, game_id, tokens[seat], "buy", 0)
    assert refused.status_code == 422 and "not legal now" in refused.json()["message"]
    fly = move(client, game_id, tokens[seat], "fly", 0)  # no action at all in the notation
    assert fly.status_code == 422 and fly.json()["error"] == "malformed-action"
    assert fly.json()["message"].count("malformed") == 1
    assert refused.json()["error"] == "illegal"  # well formed, but not legal now
    assert move(client, game_id, tokens[seat], "x" * 500, 0).json()["error"] == "malformed"
    assert (
        client.post(
            f"/api/games/{game_id}/moves",
            json={"action": 7, "expect": 0},
            headers=auth(tokens[seat]),
        ).json()["error"]
        == "malformed"
    )
    assert move(client, game_id, tokens[seat], "flip", expect=5).json()["error"] == "stale"
    assert essence(state(client, game_id)) == essence(before)
    # a bad credential gets nothing: no state, no move
    for token in ("x" * 43, tokens[seat][:-2] + "zz", "", "short", None):
        response = client.post(
            f"/api/games/{game_id}/moves", json={"action": "flip"}, headers=auth(token or "?")
        )
        assert response.status_code == 403, token
        assert set(response.json()) == {"error", "message"}
        response = client.get(f"/api/games/{game_id}/state", headers=auth(token or "?"))
        assert response.status_code == 403 and "view" not in response.json()
    assert essence(state(client, game_id)) == essence(before)
    ok = move(client, game_id, tokens[seat], "flip", expect=0)
    assert ok.status_code == 200 and ok.json() == {"move": 0}
    assert state(client, game_id)["move"] == 1


def test_a_refused_move_is_explained_by_the_engine_without_applying_it(
    client: Any, monkeypatch: Any
) -> None:
    """The service asks the engine why (``State.refusal``); it never calls ``apply`` on a move it
    refuses just to get the message."""
    game_id, tokens = all_human(client, 2, seed=11)
    seat = state(client, game_id)["view"]["pending"]["seats"][0]
    kind = type(candlebox.new_game("candle-quest", 2, seed=11))
    applied: list[str] = []
    real = kind.apply

    def counting(self: Any, who: int, action: str) -> None:
        applied.append(action)
        real(self, who, action)

    monkeypatch.setattr(kind, "apply", counting)
    for action, code in (("fly away", "malformed-action"), ("buy", "illegal")):
        refused = move(client, game_id, tokens[seat], action, 0)
        assert refused.json()["error"] == code
        engine = candlebox.new_game("candle-quest", 2, seed=11)
        assert refused.json()["message"] == engine.explain(seat, action)
    assert applied == []
    assert move(client, game_id, tokens[seat], "flip", 0).status_code == 200
    assert applied == ["flip"]


def test_two_simultaneous_moves_exactly_one_applies(sqlite_url: str) -> None:
    """The same seat sends two different legal moves at the same moment, many times over: each time
    exactly one is recorded, the other is refused cleanly, and the record replays."""
    with make_client(sqlite_url) as client:
        game_id, tokens = all_human(client, 3, seed=5)
        rng = random.Random(2)
        for _ in range(25):
            now = state(client, game_id)
            if now["over"]:
                break
            seat = now["view"]["pending"]["seats"][0]
            legal = state(client, game_id, tokens[seat])["legal"]
            picks = [rng.choice(legal), rng.choice(legal)]
            results: list[Any] = [None, None]
            barrier = threading.Barrier(2)

            def send(
                i: int,
                seat: int = seat,
                picks: list[str] = picks,
                barrier: threading.Barrier = barrier,
                results: list[Any] = results,
                expect: int = now["move"],
            ) -> None:
                barrier.wait()
                results[i] = move(client, game_id, tokens[seat], picks[i], expect)

            threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            codes = sorted(r.status_code for r in results)
            assert codes[0] == 200 and codes[1] in (409, 422), [r.text for r in results]
            loser = next(r for r in results if r.status_code != 200)
            # the same move twice is a duplicate; another one is stale or no longer legal
            assert loser.json()["error"] in ("stale", "illegal", "duplicate")
            assert state(client, game_id)["move"] == now["move"] + 1
    # the record replays through the engine (restart from the same database)
    with make_client(sqlite_url) as client:
        again = state(client, game_id)
        assert again["move"] == now["move"] + 1 or again["over"]


def test_websocket_protocol_and_errors(client: Any) -> None:
    game_id, tokens = all_human(client, 2, seed=3)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        snap = ws.receive_json()
        assert snap["type"] == "snapshot" and snap["you"] == 0
        assert snap["view"] == candlebox.new_game("candle-quest", 2, seed=3).view(0)
        assert ws.receive_json()["type"] == "seats"
        ws.send_text("{nope")
        assert ws.receive_json()["error"] == "malformed"
        ws.send_text("[1]")
        assert ws.receive_json()["error"] == "malformed"
        ws.send_text('{"type": "move", "action": "' + "a" * 5000 + '"}')
        assert ws.receive_json()["error"] == "too-large"
        ws.send_json({"type": "dance", "ref": "r1"})
        reply = ws.receive_json()
        assert reply["error"] == "unknown-type" and reply["ref"] == "r1"
        ws.send_json({"type": "move", "action": "sell", "expect": 0, "ref": 7})
        reply = ws.receive_json()
        assert reply["error"] == "illegal" and reply["ref"] == 7
        ws.send_json({"type": "move", "action": "fly away", "expect": 0, "ref": 8})
        reply = ws.receive_json()
        assert reply["error"] == "malformed-action" and reply["ref"] == 8
        ws.send_json({"type": "ping", "ref": "p"})
        assert ws.receive_json() == {"type": "pong", "ref": "p", "move": 0}
        seat = snap["view"]["pending"]["seats"][0]
        if seat == 0:
            ws.send_json({"type": "move", "action": "flip", "expect": 0, "ref": "go"})
            update = ws.receive_json()
            assert (
                update["type"] == "update"
                and update["move"] == 1
                and update["log_from"] == len(snap["log"])
            )
            assert ws.receive_json() == {"type": "ack", "ref": "go", "move": 0}
    assert state(client, game_id)["move"] in (0, 1)


def test_websocket_refuses_bad_credentials_and_unknown_games(client: Any) -> None:
    game_id, _ = all_human(client, 2)
    for hello in (
        {"type": "hello", "token": "y" * 43},
        {"type": "hello", "token": 5},
        {"type": "x"},
    ):
        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json(hello)
            reply = ws.receive_json()
            assert reply["type"] == "error" and "view" not in reply
            assert set(reply) == {"type", "error", "message"}
    with client.websocket_connect("/ws/games/nothing-here") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["error"] == "no-game"


def test_spectators_see_the_public_view_and_cannot_move(client: Any) -> None:
    game_id, _ = all_human(client, 2, seed=9)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello"})
        snap = ws.receive_json()
        assert snap["you"] is None and snap["legal"] == []
        assert snap["view"] == candlebox.new_game("candle-quest", 2, seed=9).view(None)
        ws.send_json({"type": "move", "action": "flip", "ref": 1})
        assert ws.receive_json()["error"] == "spectator"


# ----------------------------------------------------------------------------- bots
def test_bots_play_a_whole_game_and_it_replays(client: Any) -> None:
    created = create(
        client,
        [{"kind": "bot", "strength": 1.0}, {"kind": "bot", "bot": "random"}, {"kind": "bot"}],
        seed=21,
        bot_delay=0,
    )
    game_id = created["id"]
    final = wait_for(lambda: (s := state(client, game_id))["over"] and s, timeout=30)
    assert final["result"]["winners"]
    moves = final["game"]["moves"]
    # The lobby's finished list is read from the database, where the result is written just
    # after the last move is on show: wait for it there.
    assert wait_for(
        lambda: game_id in [g["id"] for g in client.get("/api/games").json()["finished"]],
        timeout=30,
    )
    first = client.get(f"/api/games/{game_id}/replay?at=0").json()
    assert first["move"] == 0 and first["moves"] == moves
    assert first["view"] == candlebox.new_game("candle-quest", 3, seed=21).view(None)
    last = client.get(f"/api/games/{game_id}/replay?at={moves}").json()
    assert last["over"] and last["view"] == final["view"]
    assert client.get(f"/api/games/{game_id}/replay?at={moves + 1}").status_code == 400


def test_replay_is_only_for_finished_games(client: Any) -> None:
    game_id, _ = all_human(client, 2)
    assert client.get(f"/api/games/{game_id}/replay?at=0").json()["error"] == "not-over"


def test_zombie_mode_hand_a_seat_to_a_bot_and_back(sqlite_url: str) -> None:
    with make_client(sqlite_url, zombie_after=0.3) as client:
        game_id, tokens = all_human(client, 2, seed=4)
        url = f"/api/games/{game_id}/seats/1/bot"
        # another player may not take over a seat whose player is still around
        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json({"type": "hello", "token": tokens[1]})
            ws.receive_json()
            refused = client.post(url, json={}, headers=auth(tokens[0]))
            assert refused.status_code == 409 and refused.json()["error"] == "not-away"
        time.sleep(0.4)  # seat 1 has been away long enough
        assert client.post(url, json={}, headers=auth("z" * 43)).status_code == 403
        ok = client.post(url, json={"bot": "heuristic", "strength": 0.5}, headers=auth(tokens[0]))
        assert ok.status_code == 200, ok.text
        seat1 = state(client, game_id)["seats"][1]
        assert seat1["kind"] == "bot" and seat1["strength"] == 0.5
        # the bot plays seat 1 whenever it is to act: only seat 0 ever waits
        for _ in range(6):
            now = wait_for(lambda: (s := state(client, game_id, tokens[0]))["legal"] and s)
            assert move(client, game_id, tokens[0], now["legal"][0], now["move"]).status_code == 200
        # the seat's own player takes it back; others may not
        back = f"/api/games/{game_id}/seats/1/human"
        assert client.post(back, headers=auth(tokens[0])).status_code == 403
        assert client.post(back, headers=auth(tokens[1])).status_code == 200
        assert state(client, game_id)["seats"][1]["kind"] == "human"


def test_a_player_can_hand_their_own_seat_to_a_bot(client: Any) -> None:
    game_id, tokens = all_human(client, 2, seed=8)
    ok = client.post(f"/api/games/{game_id}/seats/0/bot", json={}, headers=auth(tokens[0]))
    assert ok.status_code == 200
    refused = move(client, game_id, tokens[0], "flip", 0)
    assert refused.json()["error"] in ("bot-seat", "illegal")


# ----------------------------------------------------------------------------- restarts
def test_games_resume_after_a_restart(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        game_id, tokens = all_human(client, 3, seed=13)
        play_random(client, game_id, tokens, random.Random(1), 30)
        before = {seat: state(client, game_id, tokens[seat]) for seat in range(3)}
    with make_client(sqlite_url) as client:
        for seat in range(3):
            after = state(client, game_id, tokens[seat])
            assert after["view"] == before[seat]["view"]
            assert after["log"] == before[seat]["log"]
            assert after["legal"] == before[seat]["legal"]
        assert play_random(client, game_id, tokens, random.Random(2), 5) == 5
