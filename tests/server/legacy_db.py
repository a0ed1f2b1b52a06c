"""Writes the database of tests/server/test_migrations.py with the code from before migrations.

Run with that code first on the path (commit 6c80bdc, a checkout of it in OLD):

    PYTHONPATH=OLD python tests/server/legacy_db.py tests/data/legacy/candlebox.sqlite3

or, for another database (a URL) and where to write the facts:

    PYTHONPATH=OLD python tests/server/legacy_db.py postgresql+psycopg://... facts.json

It plays, through the API only, a private game with a seat still open (its join link kept), a game
ended by a resignation and a game against a bot, and writes next to the database what each seat and a
spectator saw (``facts.json``), with the seat credentials and the open seat's invite: after the
upgrade, the same credentials must see the same things. Self-contained, so that it runs against any
old version of the package.
"""

from __future__ import annotations

import json
import random
import sys
import time
import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from candlebox.server import Settings, create_app

ESSENCE = ("move", "view", "legal", "log", "over", "result")


def main(url: str, facts_path: Path) -> None:
    settings = Settings(db=url, bot_delay=0.0, requests_per_second=0, bot_processes=0)
    rng = random.Random(34)
    with TestClient(create_app(settings)) as client:
        games = [human_game(client, rng), resigned_game(client, rng), bot_game(client, rng)]
        facts = {"games": [seen(client, game) for game in games]}
    facts_path.write_text(json.dumps(facts, indent=1, sort_keys=True) + "\n")


def human_game(client: TestClient, rng: random.Random) -> dict[str, Any]:
    """Three people's private game: two seats taken, the third's join link not used yet."""
    created = post(
        client,
        "/api/games",
        {"game": "candle-quest", "public": False, "you": 0, "seats": [{"kind": "human"}] * 3},
    )
    first = get(client, f"/api/games/{created['id']}/state")["view"]["pending"]["seats"][0]
    taken = str(first if first != 0 else 1)  # the seat to act first is held: moves get made
    left = next(seat for seat in ("1", "2") if seat != taken)
    claimed = post(
        client,
        f"/api/games/{created['id']}/seats/{taken}/claim",
        {"name": "Bea", "invite": created["invites"][taken]},
        200,
    )
    tokens = {"0": created["token"], taken: claimed["token"]}
    play(client, created["id"], tokens, rng, 8)
    return {
        "kind": "human",
        "id": created["id"],
        "tokens": tokens,
        "invite": {"seat": int(left), "code": created["invites"][left]},
    }


def resigned_game(client: TestClient, rng: random.Random) -> dict[str, Any]:
    created = post(
        client,
        "/api/games",
        {"game": "sixteen-candies", "you": 0, "seats": [{"kind": "human"}] * 2},
    )
    claimed = post(
        client,
        f"/api/games/{created['id']}/seats/1/claim",
        {"name": "Cai", "invite": created["invites"]["1"]},
        200,
    )
    tokens = {"0": created["token"], "1": claimed["token"]}
    play(client, created["id"], tokens, rng, 6)
    post(client, f"/api/games/{created['id']}/resign", {}, 200, tokens["1"])
    return {"kind": "finished", "id": created["id"], "tokens": tokens}


def bot_game(client: TestClient, rng: random.Random) -> dict[str, Any]:
    created = post(
        client,
        "/api/games",
        {"game": "candle-quest", "you": 0, "seats": [{"kind": "human"}, {"kind": "bot"}]},
    )
    tokens = {"0": created["token"]}
    play(client, created["id"], tokens, rng, 4)
    return {"kind": "bot", "id": created["id"], "tokens": tokens}


def play(
    client: TestClient, game_id: str, tokens: dict[str, str], rng: random.Random, limit: int
) -> None:
    """Random legal moves by the seats in ``tokens``, waiting for bots between them."""
    made = 0
    deadline = time.monotonic() + 60
    while made < limit and time.monotonic() < deadline:
        spectator = get(client, f"/api/games/{game_id}/state")
        if spectator["over"]:
            return
        seat = str(spectator["view"]["pending"]["seats"][0])
        if seat not in tokens:
            if all(s["kind"] == "human" for s in get(client, f"/api/games/{game_id}")["seats"]):
                return  # an open seat is to act
            time.sleep(0.01)  # a bot is thinking (this script's only wait: no events to wait on)
            continue
        mine = get(client, f"/api/games/{game_id}/state", tokens[seat])
        post(
            client,
            f"/api/games/{game_id}/moves",
            {"action": rng.choice(mine["legal"]), "expect": mine["move"]},
            200,
            tokens[seat],
        )
        made += 1


def seen(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    """What each credential and a spectator see of the game now (and a finished game's replay)."""
    game_id = game["id"]
    views = {
        seat: essence(get(client, f"/api/games/{game_id}/state", token))
        for seat, token in game["tokens"].items()
    }
    views["spectator"] = essence(get(client, f"/api/games/{game_id}/state"))
    out = {**game, "views": views, "seats": get(client, f"/api/games/{game_id}")["seats"]}
    if game["kind"] == "finished":
        out["replay_at_3"] = get(client, f"/api/games/{game_id}/replay?at=3")
        out["saved"] = get(client, f"/api/games/{game_id}/saved")
    return out


def essence(frame: dict[str, Any]) -> dict[str, Any]:
    return {key: frame[key] for key in ESSENCE}


def get(client: TestClient, path: str, token: str | None = None) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = client.get(path, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()


def post(
    client: TestClient, path: str, body: dict[str, Any], status: int = 201, token: str | None = None
) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    response = client.post(path, json=body, headers=headers)
    assert response.status_code == status, response.text
    return response.json()


if __name__ == "__main__":
    if "://" in sys.argv[1]:
        main(sys.argv[1], Path(sys.argv[2]))
    else:
        path = Path(sys.argv[1]).resolve()
        main(f"sqlite:///{path}", path.parent / "facts.json")
