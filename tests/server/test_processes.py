"""Many processes on one PostgreSQL (issue 17): two web processes on different ports and a bot worker,
real processes killed with SIGKILL. Marked ``processes`` (a minute or so; ``-m 'not processes'``
leaves them out)."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from candlebox.server.storage import Storage, bot_turns
from tests.server.live import ROOT, ChildProcess, ServerProcess

websockets_sync = pytest.importorskip("websockets.sync.client")
pytestmark = pytest.mark.processes

LEASE = 2.0  # seconds a killed worker's claimed turn stays claimed
ENV = {
    "CANDLEBOX_BOT_LEASE": str(LEASE),
    "CANDLEBOX_REQUESTS_PER_SECOND": "0",
    "CANDLEBOX_SWEEP_EVERY": "0",
    "CANDLEBOX_BOTS": "workers",
}


def web(db: str, tmp_path: Path, name: str) -> ServerProcess:
    # --bot-workers 0: this process starts no worker; the test runs its own
    return ServerProcess(db, tmp_path / f"{name}.log", env=ENV, args=("--bot-workers", "0"))


def claimed(db: str, game: str, timeout: float = 30.0) -> bool:
    """Wait until a worker holds the lease on the game's owed bot turn."""
    storage = Storage(db)
    deadline = time.monotonic() + timeout
    try:
        while time.monotonic() < deadline:
            with storage.engine.connect() as conn:
                row = conn.execute(select(bot_turns).where(bot_turns.c.game_id == game)).first()
            if row is not None and row.worker is not None and row.lease_until > time.time():
                return True
            time.sleep(0.02)
        return False
    finally:
        storage.close()


class WorkerProcess(ChildProcess):
    def __init__(self, db: str, log: Path) -> None:
        self.db, self.log = db, log
        self.process: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 90.0) -> WorkerProcess:
        env = {**os.environ, "PYTHONPATH": str(ROOT), **ENV}
        command = [sys.executable, "-m", "candlebox.cli", "bots-worker", "--db", self.db]
        self.log.write_text("")
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + timeout  # a loaded machine may take many seconds to import
        while "started" not in self.log.read_text():
            assert self.process.poll() is None, self.log.read_text()[-2000:]
            assert time.monotonic() < deadline, "the bot worker did not start"
            time.sleep(0.1)
        return self


class Player(threading.Thread):
    """A seat (or a spectator) on a websocket, remembering the last move number it was sent and
    when each arrived."""

    def __init__(self, url: str, token: str | None = None) -> None:
        super().__init__(daemon=True)
        self.url, self.token = url, token
        self.move = -1
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()
        self.gone = threading.Event()

    def run(self) -> None:
        try:
            with websockets_sync.connect(self.url, open_timeout=10) as ws:
                ws.send(json.dumps({"type": "hello", "token": self.token}))
                for text in ws:
                    frame = json.loads(text)
                    if frame["type"] in ("snapshot", "update"):
                        self.move = frame["move"]
                        self.arrived.setdefault(frame["move"], time.monotonic())
                        self.ready.set()
        except Exception:
            pass
        self.gone.set()

    def wait_for(self, move: int, timeout: float = 10.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.move >= move:
                return True
            time.sleep(0.01)
        return False


def state(server: ServerProcess, game: str, token: str) -> dict[str, Any]:
    answer: dict[str, Any] = server.get(f"/api/games/{game}/state", token).json()
    return answer


def play(server: ServerProcess, game: str, token: str) -> tuple[int, str]:
    """Seat ``token``'s first legal move through ``server`` (it must be that seat's turn)."""
    now = state(server, game, token)
    assert now["legal"], now
    action = now["legal"][0]
    response = server.post(
        f"/api/games/{game}/moves", {"action": action, "expect": now["move"]}, token
    )
    assert response.status_code == 200, response.text
    return response.json()["move"], action


def wait_turn(
    server: ServerProcess, game: str, token: str, timeout: float, after: int = -1
) -> dict[str, Any]:
    """The state once it is ``token``'s turn (or the game is over) past move ``after``: a process
    just (re)started may answer from its copy for a moment before it has caught up."""
    deadline = time.monotonic() + timeout
    while True:
        now = state(server, game, token)
        fresh = now["move"] > after
        if (fresh and (now["over"] or now["legal"])) or time.monotonic() > deadline:
            return now
        time.sleep(0.05)


@pytest.fixture
def pg_db(postgres_url: str) -> str:
    return postgres_url


def test_a_move_made_through_b_reaches_a_player_on_a(pg_db: str, tmp_path: Path) -> None:
    a, b = web(pg_db, tmp_path, "a").start(), web(pg_db, tmp_path, "b").start()
    try:
        created = a.post(
            "/api/games",
            {
                "game": "candle-quest",
                "seats": [{"kind": "human"}] * 2,
                "you": 0,
                "seed": 3,
                "practice": True,
            },
        ).json()
        game, tokens = created["id"], [created["token"]]
        invite = created.get("invites", {}).get("1")
        claim = b.post(f"/api/games/{game}/seats/1/claim", {"name": "Bea", "invite": invite})
        assert claim.status_code == 200, claim.text  # a game made on A, its seat taken on B
        tokens.append(claim.json()["token"])
        watchers = [Player(f"{a.ws_base}/ws/games/{game}", token) for token in tokens]
        for watcher in watchers:
            watcher.start()
            assert watcher.ready.wait(10)
        delays = []
        for _ in range(6):
            mover = next(s for s in (0, 1) if state(b, game, tokens[s])["legal"])
            number, _ = play(b, game, tokens[mover])  # through B ...
            acked = time.monotonic()
            for watcher in watchers:  # ... seen by both players connected to A
                assert watcher.wait_for(number + 1), f"A never sent move {number}"
                delays.append(watcher.arrived[number + 1] - acked)
        # from B's acknowledgement to A's update: well under 100 ms on a quiet machine; this one is
        # shared (and a watcher may see the update before the mover's HTTP answer), so a loose bound
        assert sorted(delays)[len(delays) // 2] < 0.5, delays
        # and a move through A answering the number B made is accepted there (A caught up)
        mover = next(s for s in (0, 1) if state(a, game, tokens[s])["legal"])
        play(a, game, tokens[mover])
    finally:
        a.stop()
        b.stop()


def test_bot_turns_need_a_worker_and_survive_kills(pg_db: str, tmp_path: Path) -> None:
    a, b = web(pg_db, tmp_path, "a").start(), web(pg_db, tmp_path, "b").start()
    worker: WorkerProcess | None = None
    acked: list[tuple[int, str]] = []
    try:
        created = a.post(
            "/api/games",
            {
                "game": "candle-quest",
                "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
                "you": 0,
                "seed": 11,
                "practice": True,
                "bot_delay": 1.5,
            },
        ).json()
        game, token = created["id"], created["token"]

        def my_turn(server: ServerProcess, timeout: float, after: int = -1) -> dict[str, Any]:
            now = wait_turn(server, game, token, timeout, after)
            assert now["over"] or now["legal"], f"the bot never moved: {now['move']}"
            return now

        # without a worker the bot's turn stalls
        first = state(a, game, token)
        if not first["legal"]:
            time.sleep(2.0)
            assert state(b, game, token)["move"] == first["move"], "a bot moved with no worker"
        worker = WorkerProcess(pg_db, tmp_path / "worker.log").start()
        acked.append(play(a, game, token) if my_turn(a, 60)["legal"] else (-1, ""))
        my_turn(a, 60)  # ... and the worker plays it

        # kill -9 of A mid-game: the player goes on through B
        watcher = Player(f"{a.ws_base}/ws/games/{game}", token)
        watcher.start()
        assert watcher.ready.wait(10)
        acked.append(play(a, game, token))
        a.kill()
        assert watcher.gone.wait(5)
        now = my_turn(b, 60, after=acked[-1][0])
        assert now["move"] > acked[-1][0]
        acked.append(play(b, game, token))

        # kill -9 of the worker while the bot waits out its delay: another one takes the turn over
        assert claimed(pg_db, game), "the worker never claimed the bot's turn"
        worker.kill()
        worker = WorkerProcess(pg_db, tmp_path / "worker2.log").start()
        started = time.monotonic()
        my_turn(b, 60)
        assert time.monotonic() - started < 60

        # kill -9 of B: the player reconnects to A (restarted) and plays on
        a.start()
        watcher = Player(f"{a.ws_base}/ws/games/{game}", token)
        watcher.start()
        assert watcher.ready.wait(10)
        acked.append(play(b, game, token))
        b.kill()
        now = my_turn(a, 60, after=acked[-1][0])
        assert now["move"] > acked[-1][0]
        acked.append(play(a, game, token))
        my_turn(a, 60)
    finally:
        for process in (a, b, worker):
            if process is not None:
                process.stop()
    storage = Storage(pg_db)
    try:  # every acknowledged move is in the database at its number, with no gap
        recorded = {m.number: (m.seat, m.action) for m in storage.moves_of(game)}
    finally:
        storage.close()
    for number, action in acked:
        if number >= 0:
            assert recorded.get(number) == (0, action), (number, action)
    assert sorted(recorded) == list(range(len(recorded)))


def test_serve_workers_shares_one_port_and_plays_bots(pg_db: str, tmp_path: Path) -> None:
    # two web processes on one port and the built-in bot worker, stopped together by SIGTERM
    server = ServerProcess(pg_db, tmp_path / "many.log", env=ENV, args=("--workers", "2")).start()
    try:
        pids: set[str] = set()
        deadline = time.monotonic() + 60
        while len(pids) < 2 and time.monotonic() < deadline:
            try:
                with httpx.Client() as fresh:  # a new connection each time: the kernel picks one
                    text = fresh.get(f"{server.base}/metrics", timeout=10).text
            except httpx.HTTPError as error:
                log = server.log.read_text()[-3000:]
                raise AssertionError(f"{error}; the server's log: {log}") from error
            pids |= set(re.findall(r'process="(\d+)"', text))
        assert len(pids) == 2, pids
        created = server.post(
            "/api/games",
            {
                "game": "candle-quest",
                "seats": [{"kind": "bot", "bot": "random"}, {"kind": "human"}],
                "you": 1,
                "bot_delay": 0,
            },
        ).json()
        game, token = created["id"], created["token"]
        mine = 0  # the seat to act first is dealt: play until the bot has moved too
        now = wait_turn(server, game, token, 60)
        while now["move"] == mine and now["legal"] and not now["over"]:
            play(server, game, token)
            mine += 1
            now = wait_turn(server, game, token, 60)
        assert now["move"] > mine, "the built-in bot worker never moved"
    finally:
        server.stop()
    with pytest.raises(httpx.HTTPError):
        httpx.get(f"{server.base}/healthz", timeout=2)
