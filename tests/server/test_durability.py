"""Kill the server with SIGKILL in the middle of games and start it again: no accepted move is lost.

A move is acknowledged (HTTP 200, websocket ``ack``) and broadcast only after it is committed, so
every move a client was told about must be in the database after the crash, in order, and the games
must carry on from there (bots included).
"""

from __future__ import annotations

import json
import random
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from candlebox.server.storage import Storage
from tests.server.live import ServerProcess

websockets_sync = pytest.importorskip("websockets.sync.client")


@pytest.fixture(params=["sqlite", "postgresql"])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'durable.sqlite3'}"
    return str(request.getfixturevalue("postgres_url"))


class Watcher(threading.Thread):
    """A spectator on a websocket, remembering every move number and log entry it was sent."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.move = 0
        self.log: list[dict[str, Any]] = []
        self.frames = 0
        self.ready = threading.Event()

    def run(self) -> None:
        try:
            with websockets_sync.connect(self.url, open_timeout=10) as ws:
                ws.send(json.dumps({"type": "hello"}))
                for text in ws:
                    frame = json.loads(text)
                    if frame["type"] in ("snapshot", "update"):
                        entries = [item["entry"] for item in frame["log"]]
                        self.log = entries if frame["type"] == "snapshot" else self.log + entries
                        self.move = frame["move"]
                        self.frames += 1
                        self.ready.set()
        except Exception:  # the server was killed: what we saw so far is the evidence
            return


@pytest.mark.processes  # a real server process, killed and started again (CI's second step)
def test_sigkill_mid_game_loses_no_accepted_move(db: str, tmp_path: Path) -> None:
    server = ServerProcess(db, tmp_path / "server.log").start()
    try:
        # game A: the test plays seat 0 over HTTP, two bots the others
        created = server.post(
            "/api/games",
            {
                "game": "candle-quest",
                "seats": [{"kind": "human"}, {"kind": "bot"}, {"kind": "bot", "bot": "random"}],
                "you": 0,
                "seed": 77,
                "practice": True,
                "bot_delay": 0,
            },
        ).json()
        game_a, token = created["id"], created["token"]
        # game B: five random bots playing as fast as they can, watched by a spectator
        game_b = server.post(
            "/api/games",
            {
                "game": "candle-quest",
                "seats": [{"kind": "bot", "bot": "random"}] * 5,
                "seed": 78,
                "practice": True,
                "bot_delay": 0,
            },
        ).json()["id"]
        watcher = Watcher(f"{server.ws_base}/ws/games/{game_b}")
        watcher.start()
        assert watcher.ready.wait(10)
        acked: list[tuple[int, str]] = []
        rng = random.Random(5)
        deadline = time.monotonic() + 20
        while len(acked) < 12 and time.monotonic() < deadline:
            now = server.get(f"/api/games/{game_a}/state", token).json()
            if now["over"]:
                break
            if not now["legal"]:
                time.sleep(0.01)
                continue
            action = rng.choice(now["legal"])
            response = server.post(
                f"/api/games/{game_a}/moves", {"action": action, "expect": now["move"]}, token
            )
            if response.status_code == 200:
                acked.append((response.json()["move"], action))
        assert acked, "no move was accepted before the kill"
        seen_move, seen_log = watcher.move, list(watcher.log)
        server.kill()  # mid-game: bots of both games are busy
        watcher.join(timeout=5)
        seen_move, seen_log = (
            max(seen_move, watcher.move),
            watcher.log if len(watcher.log) >= len(seen_log) else seen_log,
        )

        # the database holds every acknowledged move, at its number
        storage = Storage(db)
        try:
            recorded = {m.number: (m.seat, m.action) for m in storage.moves_of(game_a)}
            for number, action in acked:
                assert recorded.get(number) == (0, action), (number, action)
            assert sorted(recorded) == list(range(len(recorded)))
            assert len(storage.moves_of(game_b)) >= seen_move
        finally:
            storage.close()

        # after the restart both games are where they were and go on
        server.start()
        a = server.get(f"/api/games/{game_a}/state", token).json()
        assert a["move"] >= acked[-1][0] + 1
        b = server.get(f"/api/games/{game_b}").json()
        assert b["game"]["moves"] >= seen_move
        snapshot = server.get(f"/api/games/{game_b}/state").json()
        assert [item["entry"] for item in snapshot["log"]][: len(seen_log)] == seen_log
        if not snapshot["over"]:
            # the bots carry on; their process starts with the server, so the first move after a
            # restart may wait for it (about a second on a busy machine)
            moves_then = snapshot["move"]
            deadline = time.monotonic() + 15
            while time.monotonic() < deadline:
                later = server.get(f"/api/games/{game_b}").json()["game"]
                if later["moves"] > moves_then or later["status"] == "over":
                    break
                time.sleep(0.1)
            assert later["moves"] > moves_then or later["status"] == "over"
        if not a["over"] and a["legal"]:
            response = server.post(
                f"/api/games/{game_a}/moves", {"action": a["legal"][0], "expect": a["move"]}, token
            )
            assert response.status_code == 200, response.text
    finally:
        server.stop()
