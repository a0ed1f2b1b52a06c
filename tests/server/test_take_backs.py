"""Take-backs at a table (candlebox/server/taking_back.py; docs/server.md, "Take-backs"): against
bots a seat's take-back is immediate and removes the bots' replies too; against people the others
accept (all of them) or refuse, and a refusal changes nothing; every seat and spectator sees the
request and the game taken back in their frames; rated tables have none; hostile input is a clear
4xx naming what was wrong, with nothing changed."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import candlebox
from candlebox.engine import State
from candlebox.server.storage import Storage
from tests.server.conftest import (
    all_human,
    auth,
    create,
    essence,
    make_client,
    move,
    run_async,
    state,
    wait_for,
)
from tests.server.sharing import claimed_across, two_services
from tests.server.test_accounts import HERE
from tests.server.test_ratings import players, rated_table

GAME = "candle-quest"


def undo(client: TestClient, game_id: str, token: str | None, expect: Any, what: str = "") -> Any:
    path = f"/api/games/{game_id}/undo" + (f"/{what}" if what else "")
    return client.post(path, json={"expect": expect}, headers=auth(token))


def to_undoable(
    client: TestClient, game_id: str, tokens: list[str], mirror: State, seed: int
) -> tuple[int, dict[int, dict[str, Any]]]:
    """Random moves by the seats through the API (and on ``mirror``, the engine's copy) until the
    seat that moved last may take something back; that seat, and the frames it saw before each of
    its moves (by move number)."""
    rng = random.Random(seed)
    seen: dict[int, dict[str, Any]] = {}
    for _ in range(300):
        spectator = state(client, game_id)
        assert not spectator["over"]
        seat = spectator["view"]["pending"]["seats"][0]
        mine = state(client, game_id, tokens[seat])
        seen[mine["move"]] = mine
        action = rng.choice(mine["legal"])
        answer = move(client, game_id, tokens[seat], action, mine["move"])
        assert answer.status_code == 200, answer.text
        mirror.apply(seat, action)
        after = state(client, game_id, tokens[seat])
        assert after["undoable"] == mirror.undoable(seat), "the frame says what the engine says"
        if after["undoable"] > 0:
            return seat, seen
    raise AssertionError("no move could be taken back")


def test_against_people_all_accept_then_the_moves_are_gone(client: TestClient) -> None:
    game_id, tokens = all_human(client, 3, game=GAME, seed=5)
    mirror = candlebox.new_game(GAME, players=3, seed=5)
    seat, seen = to_undoable(client, game_id, tokens, mirror, 5)
    now = state(client, game_id)["move"]
    count = mirror.undoable(seat)
    others = [s for s in range(3) if s != seat]

    asked = undo(client, game_id, tokens[seat], now)
    assert asked.status_code == 200, asked.text
    assert asked.json() == {"asked": count, "waiting": others}
    for token in [None, *tokens]:  # every seat and spectator sees the request
        shown = state(client, game_id, token)["take_back"]
        assert shown["seat"] == seat and shown["moves"] == count and shown["waiting"] == others
    assert state(client, game_id, tokens[seat])["undoable"] == 0, "one request at a time"
    again = undo(client, game_id, tokens[seat], now)
    assert again.status_code == 409 and again.json()["error"] == "take-back-waiting"
    own = undo(client, game_id, tokens[seat], now, "accept")
    assert own.status_code == 409 and own.json()["error"] == "own-take-back"

    first = undo(client, game_id, tokens[others[0]], now, "accept")
    assert first.status_code == 200 and first.json()["taken_back"] == 0
    assert state(client, game_id)["move"] == now, "one acceptance of two takes nothing back"
    assert state(client, game_id)["take_back"]["waiting"] == [others[1]]
    last = undo(client, game_id, tokens[others[1]], now, "accept")
    assert last.status_code == 200, last.text
    assert last.json()["taken_back"] == count

    back = state(client, game_id, tokens[seat])
    assert back["move"] == now - count and back["take_back"] is None
    assert essence(back) == essence(seen[now - count]), "the game as it was before those moves"
    for viewer in [None, *range(3)]:
        token = None if viewer is None else tokens[viewer]
        assert state(client, game_id, token)["view"] == mirror.undo(seat, count).view(viewer)


def test_against_people_a_refusal_changes_nothing(client: TestClient) -> None:
    game_id, tokens = all_human(client, 2, game=GAME, seed=8)
    mirror = candlebox.new_game(GAME, players=2, seed=8)
    seat, _ = to_undoable(client, game_id, tokens, mirror, 8)
    other = 1 - seat
    before = {s: essence(state(client, game_id, tokens[s])) for s in (0, 1)}
    now = before[seat]["move"]
    assert undo(client, game_id, tokens[seat], now).status_code == 200
    refused = undo(client, game_id, tokens[other], now, "refuse")
    assert refused.status_code == 200 and refused.json() == {"refused": True}
    for s in (0, 1):
        frame = state(client, game_id, tokens[s])
        assert essence(frame) == before[s] and frame["take_back"] is None
    answer = undo(client, game_id, tokens[other], now, "accept")
    assert answer.status_code == 409 and answer.json()["error"] == "no-take-back"
    # the game goes on, and a request asked before a move lapses with it
    assert undo(client, game_id, tokens[seat], now).status_code == 200
    pending = state(client, game_id, tokens[other])
    if pending["legal"]:
        move(client, game_id, tokens[other], pending["legal"][0], now)
        assert state(client, game_id)["take_back"] is None


def test_against_bots_it_is_immediate_and_takes_back_their_replies(client: TestClient) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    made = create(client, seats, you=0, game=GAME, seed=3)
    game_id, token = made["id"], made["token"]
    rng = random.Random(3)
    seen: dict[int, dict[str, Any]] = {}
    for _ in range(200):
        mine = wait_for(lambda: _my_turn(client, game_id, token))
        if mine["undoable"] > 0:
            break
        seen[mine["move"]] = mine
        assert (
            move(client, game_id, token, rng.choice(mine["legal"]), mine["move"]).status_code == 200
        )
    else:
        raise AssertionError("nothing to take back in 200 turns")
    now, count = mine["move"], mine["undoable"]
    done = undo(client, game_id, token, now)
    assert done.status_code == 200, done.text
    assert done.json() == {"taken_back": count, "move": now - count}
    back = state(client, game_id, token)
    assert essence(back) == essence(seen[now - count]), "back to before the seat's own moves"
    assert back["take_back"] is None


def _my_turn(client: TestClient, game_id: str, token: str) -> dict[str, Any] | None:
    frame = state(client, game_id, token)
    return frame if frame["legal"] else None


def test_a_rated_table_has_none(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        client.headers.update(HERE)
        sessions = players(client, "ada", "bea")
        game_id, tokens = rated_table(client, sessions)
        frame = state(client, game_id, tokens[0])
        seat = frame["view"]["pending"]["seats"][0]
        mine = state(client, game_id, tokens[seat])
        assert (
            move(client, game_id, tokens[seat], mine["legal"][0], mine["move"]).status_code == 200
        )
        answer = undo(client, game_id, tokens[seat], mine["move"] + 1)
        assert answer.status_code == 409, answer.text
        assert answer.json()["error"] == "rated" and "rated tables" in answer.json()["message"]
        assert state(client, game_id, tokens[seat])["undoable"] == 0


@pytest.mark.parametrize(
    ("body", "status", "named"),
    [
        ({}, 400, "expect"),
        ({"expect": "one"}, 400, "expect"),
        ({"expect": -1}, 400, "expect"),
        ({"expect": 0, "moves": 3}, 400, "moves"),
        ({"expect": 7}, 409, "at move 0"),
    ],
)
def test_hostile_input_is_refused_by_name(
    client: TestClient, body: dict[str, Any], status: int, named: str
) -> None:
    game_id, tokens = all_human(client, 2, game=GAME, seed=1)
    before = essence(state(client, game_id, tokens[0]))
    answer = client.post(f"/api/games/{game_id}/undo", json=body, headers=auth(tokens[0]))
    assert answer.status_code == status, answer.text
    assert named in answer.json()["message"]
    after = state(client, game_id, tokens[0])
    assert essence(after) == before and after["take_back"] is None


def test_who_may_ask_and_answer(client: TestClient) -> None:
    game_id, tokens = all_human(client, 2, game=GAME, seed=1)
    nothing = undo(client, game_id, tokens[0], 0)
    assert nothing.status_code == 409 and nothing.json()["error"] == "not-undoable"
    assert "no move" in nothing.json()["message"]
    assert undo(client, game_id, None, 0).status_code == 403
    assert undo(client, game_id, "not-a-credential", 0, "refuse").status_code == 403
    assert undo(client, "nosuchgame", tokens[0], 0).status_code == 404
    spectator = state(client, game_id)
    assert spectator["undoable"] == 0 and spectator["take_back"] is None


def test_two_processes_share_the_request_and_the_take_back(tmp_path: Path) -> None:
    """Asked through one service, accepted through another on the same database (as two processes
    would): the second reads the request from the tables; the first, told of it (PostgreSQL's
    notification), rebuilds the game without the moves."""

    async def scenario() -> None:
        async with two_services(tmp_path) as (a, b):
            game, _ = await claimed_across(a, b)
            live_a = await a.any_game(game)
            mirror = live_a.state.clone()
            rng = random.Random(2)
            while True:
                seat = live_a.state.to_act[0]
                action = rng.choice(live_a.state.legal_actions(seat))
                await a.moves.submit(game, seat, action, live_a.moves)
                mirror.apply(seat, action)
                if mirror.undoable(seat):
                    break
            count, now = mirror.undoable(seat), live_a.moves
            asked = await a.taking_back.ask(game, seat, now)
            assert asked == {"asked": count, "waiting": [1 - seat]}
            done = await b.taking_back.accept(game, 1 - seat, now)
            assert done["taken_back"] == count and done["move"] == now - count
            storage = Storage(a.settings.db)
            try:
                assert len(storage.moves_of(game)) == now - count, "gone from the table"
            finally:
                storage.close()
            a._heard(game, "take-back")
            await asyncio.gather(*a.taking_back.tasks)
            assert live_a.moves == now - count
            assert a.registry.games[game].state == mirror.undo(seat, count)
            assert a.frames.take_backs.waiting(a.registry.games[game]) is None

    run_async(scenario())
