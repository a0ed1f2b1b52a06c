"""Reviews and "away" across real processes on one PostgreSQL (issue 17): two web processes on their
own ports and, for the reviews, a bot worker. Marked ``processes`` like tests/server/test_processes.py
(``-m 'not processes'`` leaves them out)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from tests.server.live import ServerProcess
from tests.server.test_processes import ENV, WorkerProcess, state

websockets_sync = pytest.importorskip("websockets.sync.client")
pytestmark = pytest.mark.processes


def web(db: str, tmp_path: Path, name: str, **env: str) -> ServerProcess:
    more = {**ENV, "CANDLEBOX_REVIEW_SECONDS": "0.02", **env}
    return ServerProcess(db, tmp_path / f"{name}.log", env=more, args=("--bot-workers", "0"))


def two_players(server: ServerProcess, other: ServerProcess, **body: Any) -> tuple[str, list[str]]:
    """A game of two people made on ``server``, its second seat taken through ``other``."""
    created = server.post(
        "/api/games",
        {"game": "candle-quest", "seats": [{"kind": "human"}] * 2, "you": 0, **body},
    ).json()
    game = created["id"]
    invite = created.get("invites", {}).get("1")
    claim = other.post(f"/api/games/{game}/seats/1/claim", {"name": "Bea", "invite": invite})
    assert claim.status_code == 200, claim.text
    return game, [created["token"], claim.json()["token"]]


def until(check: Any, timeout: float) -> Any:
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.1)


def test_a_review_asked_on_a_is_computed_by_the_worker_and_read_on_b(
    postgres_url: str, tmp_path: Path
) -> None:
    a, b = web(postgres_url, tmp_path, "a").start(), web(postgres_url, tmp_path, "b").start()
    worker: WorkerProcess | None = None
    try:
        game, tokens = two_players(a, b, options={"max_turns": 4}, seed=4, practice=True)
        while not (now := state(a, game, tokens[0]))["over"]:
            seat = now["view"]["pending"]["seats"][0]
            mine = state(a, game, tokens[seat])
            moved = a.post(
                f"/api/games/{game}/moves",
                {"action": mine["legal"][0], "expect": mine["move"]},
                tokens[seat],
            )
            assert moved.status_code == 200, moved.text
        asked = a.post(f"/api/games/{game}/review", {"seat": 0})
        assert asked.status_code == 202, asked.text
        assert asked.json()["status"] == "running" and asked.json()["queued"] is True
        time.sleep(2.0)  # no worker: it stays queued, as both processes say
        for server in (a, b):
            waiting = server.get(f"/api/games/{game}/review?seat=0").json()
            assert waiting["queued"] is True and waiting["done"] == 0, waiting
        worker = WorkerProcess(postgres_url, tmp_path / "worker.log").start()
        done = until(
            lambda: b.get(f"/api/games/{game}/review?seat=0").json()["status"] == "done", 60
        )
        assert done, b.get(f"/api/games/{game}/review?seat=0").json()
        review = b.get(f"/api/games/{game}/review?seat=0").json()["review"]
        assert review["seat"] == 0 and len(review["decisions"]) == asked.json()["total"]
        assert a.get(f"/api/games/{game}/review?seat=0").json()["review"] == review
    finally:
        for process in (a, b, worker):
            if process is not None:
                process.stop()


def test_a_player_connected_to_a_is_not_away_for_b(postgres_url: str, tmp_path: Path) -> None:
    zombie = {"CANDLEBOX_ZOMBIE_AFTER": "1"}
    a = web(postgres_url, tmp_path, "a", **zombie).start()
    b = web(postgres_url, tmp_path, "b", **zombie).start()
    try:
        game, tokens = two_players(a, b)
        b.get(f"/api/games/{game}")  # B holds the game before the player connects to A
        url = f"{a.ws_base}/ws/games/{game}"
        with websockets_sync.connect(url, open_timeout=10) as player:
            player.send(json.dumps({"type": "hello", "token": tokens[1]}))
            assert json.loads(player.recv(timeout=10))["type"] == "snapshot"

            def seat_one(server: ServerProcess) -> dict[str, Any]:
                seats: list[dict[str, Any]] = server.get(f"/api/games/{game}").json()["seats"]
                return seats[1]

            assert until(lambda: seat_one(b)["connected"], 10), seat_one(b)
            time.sleep(1.5)  # longer than zombie_after: only the connection on A keeps the seat
            handed = b.post(f"/api/games/{game}/seats/1/bot", {"bot": "random"}, tokens[0])
            assert handed.status_code == 409 and handed.json()["error"] == "not-away", handed.text
            # a third process that loads the game afresh knows it too
            c = web(postgres_url, tmp_path, "c", **zombie).start()
            try:
                assert seat_one(c)["connected"] is True
            finally:
                c.stop()

        # the player has left A: away for B too, and for longer than zombie_after soon
        assert until(lambda: not seat_one(b)["connected"], 10), seat_one(b)
        time.sleep(1.2)
        handed = b.post(f"/api/games/{game}/seats/1/bot", {"bot": "random"}, tokens[0])
        assert handed.status_code == 200, handed.text
    finally:
        a.stop()
        b.stop()
