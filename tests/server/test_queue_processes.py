"""Quick play with two real server processes on one PostgreSQL (candlebox/server/matchmaking.py): both
run matchmaking rounds, one at a time under the advisory lock, and tickets entered and looked at
through either are matched with nobody seated twice and no ticket matched twice; a match outlives
the process that made it. Marked ``processes`` like tests/server/test_processes.py."""

from __future__ import annotations

import concurrent.futures
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from candlebox.server.storage import Storage, queue_tickets, seats
from candlebox.server.storage import games as games_table
from tests.server.live import ServerProcess
from tests.server.test_processes import ENV

pytestmark = pytest.mark.processes

QUEUE_ENV = {
    **ENV,
    "CANDLEBOX_QUEUE_EVERY": "0.05",
    "CANDLEBOX_TRUSTED_PROXIES": "127.0.0.1",  # X-Forwarded-For names each test player
}
PLAYERS = 24  # guests, each at an address of its own
SIZE = 3  # seats at each table


def web(db: str, tmp_path: Path, name: str) -> ServerProcess:
    return ServerProcess(db, tmp_path / f"{name}.log", env=QUEUE_ENV, args=("--bot-workers", "0"))


def enter(server: ServerProcess, number: int) -> str:
    answer = httpx.post(
        f"{server.base}/api/queue",
        json={"game": "candle-quest", "players": SIZE, "variant": "basic"},
        headers={"X-Forwarded-For": f"10.1.0.{number}"},
        timeout=30,
    )
    assert answer.status_code == 201, answer.text
    return str(answer.json()["ticket"])


def matched(server: ServerProcess, ticket: str, timeout: float = 60.0) -> dict[str, Any]:
    """The ticket's first look once matched, polled through ``server``."""
    with httpx.Client(base_url=server.base, timeout=10) as http:
        for _ in range(int(timeout / 0.05)):
            now: dict[str, Any] = http.get(f"/api/queue/{ticket}").json()
            if now["status"] == "matched":
                return now
            assert now["status"] == "waiting", now
            time.sleep(0.05)  # polling at a page's pace (each look is a state, not a wait)
    raise AssertionError(f"ticket not matched within {timeout} s")


def test_two_processes_match_tickets_without_seating_anyone_twice(
    postgres_url: str, tmp_path: Path
) -> None:
    a, b = web(postgres_url, tmp_path, "a").start(), web(postgres_url, tmp_path, "b").start()
    try:
        servers = [a, b]
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            held = list(pool.map(lambda n: enter(servers[n % 2], n), range(PLAYERS)))
            answers = list(
                pool.map(lambda n: matched(servers[(n + 1) % 2], held[n]), range(PLAYERS))
            )
        places = [(answer["game"], answer["seat"]) for answer in answers]
        assert len(set(places)) == PLAYERS, "a seat was given twice"
        tables = {game for game, _ in places}
        assert len(tables) == PLAYERS // SIZE
        assert all(answer["token"] for answer in answers)
        # each player plays the seat it was given, through either process
        for n, answer in enumerate(answers):
            frame = servers[n % 2].get(f"/api/games/{answer['game']}/state", answer["token"])
            assert frame.status_code == 200, frame.text
            assert frame.json()["you"] == answer["seat"]
        storage = Storage(postgres_url)
        try:
            with storage.engine.connect() as conn:
                rows = conn.execute(select(queue_tickets)).all()
                seated = conn.execute(
                    select(seats.c.game_id, seats.c.token_hash).where(
                        seats.c.game_id.in_(sorted(tables))
                    )
                ).all()
                made = conn.execute(select(games_table.c.id)).all()
        finally:
            storage.close()
        assert {row.status for row in rows} == {"matched"} and len(rows) == PLAYERS
        assert {(row.game_id, row.seat) for row in rows} == set(places)
        assert sorted(row.seat_hash for row in rows) == sorted(row.token_hash for row in seated)
        assert len(made) == len(tables)  # no table made and left empty by a lost race
        # the match outlives the process that made it: looked at through the other one only
        last = enter(a, 200)
        others = [enter(a, 200 + n) for n in range(1, SIZE)]
        a.kill()
        answer = matched(b, last)
        assert answer["game"] == matched(b, others[0])["game"]
    finally:
        a.stop()
        b.stop()
