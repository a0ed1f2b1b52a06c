"""Clocks in real server processes (issue 35): a ``candlebox serve`` killed with SIGKILL while a clock
runs loses no time (it keeps running from the stored start, and another process watches it once the
lease has passed), and of two processes on one PostgreSQL only one watches a clock. Marked
``processes`` (CI's second step)."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

from candlebox.server.storage import Storage, game_clocks
from tests.server.conftest import wait_for
from tests.server.live import ServerProcess

pytestmark = pytest.mark.processes

ENV = {
    "CANDLEBOX_REQUESTS_PER_SECOND": "0",
    "CANDLEBOX_SWEEP_EVERY": "0",
    "CANDLEBOX_CLOCK_EVERY": "0.1",
    "CANDLEBOX_CLOCK_LEASE": "1",
}
TWO = [{"kind": "human"}, {"kind": "human"}]


def table(server: ServerProcess, clock: dict[str, Any]) -> tuple[str, list[str]]:
    """A practice table of two people with ``clock``: (game id, each seat's credential)."""
    made = server.post(
        "/api/games",
        {"game": "candle-quest", "seats": TWO, "you": 0, "practice": True, "clock": clock},
    )
    assert made.status_code == 201, made.text
    created = made.json()
    claimed = server.post(
        f"/api/games/{created['id']}/seats/1/claim", {"invite": created["invites"]["1"]}
    )
    assert claimed.status_code == 200, claimed.text
    return created["id"], [created["token"], claimed.json()["token"]]


def clocks_of(server: ServerProcess, game_id: str) -> tuple[int, list[dict[str, Any]]]:
    """The seat the game waits for and every seat's clock."""
    frame = server.get(f"/api/games/{game_id}/state").json()
    return frame["view"]["pending"]["seats"][0], frame["clocks"]


def watcher_of(db: str, game_id: str) -> tuple[str | None, float]:
    storage = Storage(db)
    try:
        with storage.engine.connect() as conn:
            row = conn.execute(
                select(game_clocks.c.watcher, game_clocks.c.lease_until).where(
                    game_clocks.c.game_id == game_id
                )
            ).one()
        return row.watcher, row.lease_until
    finally:
        storage.close()


def test_sigkill_while_a_clock_runs_loses_no_time(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'clocks.sqlite3'}"
    server = ServerProcess(db, tmp_path / "first.log", env=ENV).start()
    try:
        long_game, tokens = table(server, {"mode": "realtime", "initial": 600, "increment": 2})
        seat, _ = clocks_of(server, long_game)
        mine = server.get(f"/api/games/{long_game}/state", tokens[seat]).json()
        moved = server.post(
            f"/api/games/{long_game}/moves",
            {"action": mine["legal"][0], "expect": mine["move"]},
            tokens[seat],
        )
        assert moved.status_code == 200, moved.text
        short_game, _ = table(server, {"mode": "realtime", "initial": 3})
        before_asked = time.time()
        seat, shown = clocks_of(server, long_game)
        before_answered = time.time()
        assert shown[seat]["running"] is True
        server.kill()
    finally:
        server.stop()
    again = ServerProcess(db, tmp_path / "second.log", env=ENV).start()
    try:
        after_asked = time.time()
        seat_now, now = clocks_of(again, long_game)
        after_answered = time.time()
        assert seat_now == seat and now[seat]["running"] is True
        # the clock ran on while no process was there: by the time between the two looks
        spent_least, spent_most = after_asked - before_answered, after_answered - before_asked
        assert shown[seat]["remaining"] - spent_most - 0.2 <= now[seat]["remaining"]
        assert now[seat]["remaining"] <= shown[seat]["remaining"] - spent_least + 0.2
        assert now[1 - seat] == shown[1 - seat]  # the stopped clock kept its time
        # the short clock ran out meanwhile: the new process watches it once the lease passed
        late = wait_for(lambda: [c for c in clocks_of(again, short_game)[1] if c["out_of_time"]])
        assert len(late) == 1 and late[0]["remaining"] == 0
    finally:
        again.stop()


def test_two_processes_one_watcher(postgres_url: str, tmp_path: Path) -> None:
    env = {**ENV, "CANDLEBOX_BOTS": "workers"}
    args = ("--bot-workers", "0")
    first = ServerProcess(postgres_url, tmp_path / "a.log", env=env, args=args).start()
    second = ServerProcess(postgres_url, tmp_path / "b.log", env=env, args=args).start()
    servers = {first.process.pid: first, second.process.pid: second}  # type: ignore[union-attr]
    try:
        game_id, _ = table(first, {"mode": "realtime", "initial": 4})
        watcher, lease = wait_for(
            lambda: watcher_of(postgres_url, game_id)[0] and watcher_of(postgres_url, game_id)
        )
        pid = int(str(watcher).split(":")[1])
        assert pid in servers
        # the lease is renewed, by the same process, look after look
        for _ in range(3):
            renewed = wait_for(lambda: (w := watcher_of(postgres_url, game_id))[1] > lease and w)  # noqa: B023
            assert renewed[0] == watcher
            lease = renewed[1]
        # the seat runs out: both processes show it (the other one hears of it)
        for server in (first, second):
            wait_for(lambda s=server: any(c["out_of_time"] for c in clocks_of(s, game_id)[1]))
        # the watcher dies: the other process takes the clock over once the lease has passed
        servers[pid].kill()
        survivor = next(s for p, s in servers.items() if p != pid)
        taken = wait_for(lambda: (w := watcher_of(postgres_url, game_id)[0]) != watcher and w)
        assert int(str(taken).split(":")[1]) == survivor.process.pid  # type: ignore[union-attr]
    finally:
        first.stop()
        second.stop()
