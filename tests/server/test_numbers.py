"""Numbers a client sends (issue 33, item 4): ``GET /api/games/ID/review?seat=9223372036854775808``
was a 500 (SQLite cannot hold the number) and a 503 on PostgreSQL (as if the database were down).
Every integer of a path, a query, a JSON body or a websocket message is range-checked where it
arrives: out of range is a 400 (or an error frame) that names the field, and nothing changes."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.server.conftest import all_human, auth, create, make_client, state, wait_for

OUT_OF_RANGE = [2**63, -1, 10**30, 2**31]
INTERNALS = ("Traceback", 'File "', ".py", "psycopg", "sqlalchemy", "Overflow", "out of range")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest) -> str:
    if request.param == "sqlite":
        return str(request.getfixturevalue("sqlite_url"))
    return str(request.getfixturevalue("postgres_url"))


Ask = Callable[[Any, int], Any]  # (client, number) -> response


def requests(game: str, finished: str, token: str) -> dict[str, tuple[str, Ask]]:
    """Every way a number reaches the server over HTTP: name -> (the field, how to send it)."""
    two = [{"kind": "human"}, {"kind": "human"}]
    new = {"game": "candle-quest", "seats": two}
    return {
        "review query": ("seat", lambda c, n: c.get(f"/api/games/{finished}/review?seat={n}")),
        "review body": (
            "seat",
            lambda c, n: c.post(f"/api/games/{finished}/review", json={"seat": n}),
        ),
        "claim path": ("seat", lambda c, n: c.post(f"/api/games/{game}/seats/{n}/claim", json={})),
        "bot path": (
            "seat",
            lambda c, n: c.post(f"/api/games/{game}/seats/{n}/bot", json={}, headers=auth(token)),
        ),
        "human path": (
            "seat",
            lambda c, n: c.post(f"/api/games/{game}/seats/{n}/human", headers=auth(token)),
        ),
        "replay query": ("at", lambda c, n: c.get(f"/api/games/{finished}/replay?at={n}")),
        "lobby query": ("limit", lambda c, n: c.get(f"/api/games?list=open&limit={n}")),
        "move expect": (
            "expect",
            lambda c, n: c.post(
                f"/api/games/{game}/moves",
                json={"action": "pass", "expect": n},
                headers=auth(token),
            ),
        ),
        "create you": ("you", lambda c, n: c.post("/api/games", json={**new, "you": n})),
        "create seed": (
            "seed",
            lambda c, n: c.post("/api/games", json={**new, "seed": n, "practice": True}),
        ),
        "create max_turns": (
            "max_turns",
            lambda c, n: c.post("/api/games", json={**new, "options": {"max_turns": n}}),
        ),
    }


def finished_game(client: Any) -> str:
    bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
    game = str(create(client, bots, seed=3, options={"max_turns": 4})["id"])
    wait_for(lambda: state(client, game)["over"])
    return game


def test_every_number_out_of_range_is_a_400_naming_its_field(db_url: str) -> None:
    with make_client(db_url) as client:
        game, tokens = all_human(client, 2, seed=7)
        finished = finished_game(client)
        before = state(client, game)
        wrong = []
        for name, (field, ask) in requests(game, finished, tokens[0]).items():
            for number in OUT_OF_RANGE:
                if name == "create seed" and number == 2**31:
                    continue  # a seed is 0 … 2**63 - 1
                answer = ask(client, number)
                text = answer.text
                if (
                    answer.status_code != 400
                    or field not in answer.json().get("message", "")
                    or any(word in text for word in INTERNALS)
                ):
                    wrong.append(f"{name} {number}: {answer.status_code} {text[:120]}")
        assert not wrong, "\n".join(wrong)
        after = state(client, game)
        assert after["move"] == before["move"]
        held = [(s["kind"], s["name"], s["taken"]) for s in after["seats"]]
        assert held == [(s["kind"], s["name"], s["taken"]) for s in before["seats"]]


def test_a_websocket_move_number_out_of_range_is_an_error_frame_naming_expect(
    sqlite_url: str,
) -> None:
    with make_client(sqlite_url) as client:
        game, tokens = all_human(client, 2, seed=7)
        with client.websocket_connect(f"/ws/games/{game}") as ws:
            ws.send_json({"type": "hello", "token": tokens[0]})
            assert ws.receive_json()["type"] == "snapshot"
            for number in OUT_OF_RANGE:
                ws.send_json({"type": "move", "action": "pass", "expect": number, "ref": "m"})
                frame = ws.receive_json()
                while frame["type"] == "seats":
                    frame = ws.receive_json()
                assert frame["type"] == "error" and frame["ref"] == "m", frame
                assert frame["error"] == "malformed" and "expect" in frame["message"], frame
        assert state(client, game)["move"] == 0
