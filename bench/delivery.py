"""How long a move takes to reach a watcher on another web process (issue 17: within 100 ms).

Two ``candlebox serve`` processes, A and B, on one private PostgreSQL (Debian's ``postgresql``), each on
its own port. A two-player Candle Quest game is made on A, its second seat taken on B; each seat has a
websocket on A and one on B. Moves go in through B, one at a time, a random legal one for the seat to
act; for each, the time from sending it to B until each watcher receives it. The watchers on B are the
peer measured in the same run (the same process that took the move: no database notification in
between); the watchers on A get it through PostgreSQL's NOTIFY. A finished game is followed by a new one
until ``--moves`` moves are measured.

    pip install -e '.[server,e2e]'
    python bench/delivery.py --moves 400

Only loopback addresses are used. Not part of the test suite.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import random
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

ROOT = Path(__file__).resolve().parents[1]
ENV = {"CANDLEBOX_REQUESTS_PER_SECOND": "0", "CANDLEBOX_BOTS": "workers"}


class Watcher(threading.Thread):
    """A seat's websocket: when each move number first arrived."""

    def __init__(self, url: str, token: str) -> None:
        super().__init__(daemon=True)
        self.url, self.token = url, token
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()

    def run(self) -> None:
        with connect(self.url, open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": self.token}))
            with contextlib.suppress(ConnectionClosed):  # the servers stop at the end
                for text in ws:
                    frame = json.loads(text)
                    if frame["type"] in ("snapshot", "update"):
                        self.arrived.setdefault(frame["move"], time.monotonic())
                        self.ready.set()

    def wait_for(self, move: int, timeout: float = 10.0) -> float:
        deadline = time.monotonic() + timeout
        while move not in self.arrived:
            if time.monotonic() > deadline:
                raise RuntimeError(f"move {move} never reached {self.url}")
            time.sleep(0.0005)
        return self.arrived[move]


class Client:
    """One kept-alive HTTP connection to a process, as a browser holds one (a new connection per
    request costs httpx tens of milliseconds, which would be measured instead of the server)."""

    def __init__(self, base: str) -> None:
        self.ws_base = base.replace("http", "ws", 1)
        # idle connections given up before the server's 5 s keep-alive timeout closes them
        limits = httpx.Limits(keepalive_expiry=2.0)
        self.http = httpx.Client(base_url=base, timeout=10, limits=limits)

    def get(self, path: str, token: str) -> httpx.Response:
        return self.http.get(path, headers={"Authorization": f"Bearer {token}"})

    def post(self, path: str, body: Any, token: str | None = None) -> httpx.Response:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return self.http.post(path, json=body, headers=headers)


def new_game(
    a: Client, b: Client, seed: int
) -> tuple[str, list[str], list[Watcher], list[Watcher]]:
    """A game made on A with its second seat taken on B; each seat watched on A and on B."""
    created = a.post(
        "/api/games",
        {
            "game": "candle-quest",
            "seats": [{"kind": "human"}, {"kind": "human"}],
            "you": 0,
            "seed": seed,
            "practice": True,
        },
    ).json()
    game, tokens = created["id"], [created["token"]]
    invite = created.get("invites", {}).get("1")
    claim = b.post(f"/api/games/{game}/seats/1/claim", {"name": "Bea", "invite": invite})
    if claim.status_code != 200:
        raise RuntimeError(f"B refused the seat: {claim.text}")
    tokens.append(claim.json()["token"])
    on_a = [Watcher(f"{a.ws_base}/ws/games/{game}", t) for t in tokens]
    on_b = [Watcher(f"{b.ws_base}/ws/games/{game}", t) for t in tokens]
    for watcher in on_a + on_b:
        watcher.start()
        if not watcher.ready.wait(10):
            raise RuntimeError("a watcher got no snapshot")
    return game, tokens, on_a, on_b


def percentiles(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    at = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {
        "p50_ms": round(1000 * statistics.median(ordered), 2),
        "p90_ms": round(1000 * at(0.9), 2),
        "p99_ms": round(1000 * at(0.99), 2),
        "max_ms": round(1000 * ordered[-1], 2),
    }


def measure(a: Client, b: Client, moves: int, pause: float) -> dict[str, Any]:
    rng = random.Random(1)
    other: list[float] = []  # watchers on A: the move crossed processes
    same: list[float] = []  # watchers on B: the process that took it
    acked: list[float] = []  # B's HTTP answer
    seed = 0
    while len(acked) < moves:
        game, tokens, on_a, on_b = new_game(a, b, seed)
        seed += 1
        while len(acked) < moves:
            states = [b.get(f"/api/games/{game}/state", t).json() for t in tokens]
            if states[0]["over"]:
                break
            seat = next(s for s in (0, 1) if states[s]["legal"])
            now = states[seat]
            body = {"action": rng.choice(now["legal"]), "expect": now["move"]}
            sent = time.monotonic()
            answer = b.post(f"/api/games/{game}/moves", body, tokens[seat])
            done = time.monotonic()
            if answer.status_code != 200:
                raise RuntimeError(f"B refused a legal move: {answer.text}")
            number = answer.json()["move"] + 1
            acked.append(done - sent)
            other += [w.wait_for(number) - sent for w in on_a]
            same += [w.wait_for(number) - sent for w in on_b]
            time.sleep(pause)
    return {
        "moves": len(acked),
        "games": seed,
        "http_answer_from_b": percentiles(acked),
        "watchers_on_b_same_process": percentiles(same),
        "watchers_on_a_other_process": percentiles(other),
        "other_over_same_p50": round(statistics.median(other) / statistics.median(same), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=400, help="moves measured (default 400)")
    parser.add_argument("--pause", type=float, default=0.05, help="seconds between moves")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    from tests.server.live import ServerProcess  # the tests' real `candlebox serve` process
    from tests.server.pg import start_postgres  # the tests' private server, under /tmp

    postgres = start_postgres()
    workdir = Path(tempfile.mkdtemp(prefix="candlebox-delivery-"))
    db = postgres.new_database()
    # no bot worker: both seats are people, and the processes start none of their own
    a = ServerProcess(db, workdir / "a.log", env=ENV, args=("--bot-workers", "0"))
    b = ServerProcess(db, workdir / "b.log", env=ENV, args=("--bot-workers", "0"))
    try:
        a.start()
        b.start()
        report = measure(Client(a.base), Client(b.base), args.moves, args.pause)
    finally:
        a.stop()
        b.stop()
        postgres.stop()
    report["at"] = time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime())
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
