"""Fixtures for the server tests: an app on a fresh SQLite file, helpers to create and play games, and
a private PostgreSQL server (started here, skipped with the reason when it cannot be)."""

from __future__ import annotations

import asyncio
import random
import time
import warnings
from collections.abc import Coroutine, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

pytest.importorskip(
    "fastapi", reason="the server extra is not installed: pip install -e '.[server]'"
)
pytest.importorskip("httpx", reason="the API tests need httpx: pip install -e '.[e2e]'")

with warnings.catch_warnings():  # Starlette's note that it prefers httpx2 to httpx
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from candlebox.server import Settings, create_app
from tests.server.pg import PostgresServer, start_postgres
from tests.server.upgrading import schema_at

if TYPE_CHECKING:
    from tests.server.clocking import FakeTime


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'candlebox.sqlite3'}"


def make_client(url: str, **settings: Any) -> TestClient:
    # the functional tests make requests as fast as they can: the per-client rate limit is off
    # unless a test sets it (tests/server/test_abuse.py); their bots think in threads (a bot
    # process for each of hundreds of apps would cost seconds each): tests/server/test_bot_process.py
    # and every test of a real `candlebox serve` (tests/e2e, the durability tests) use the process
    values: dict[str, Any] = {
        "bot_delay": 0.0,
        "zombie_after": 60.0,
        "requests_per_second": 0,
        "bot_processes": 0,
    }
    values.update(settings)
    return TestClient(create_app(Settings(db=url, **values)))


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url) as test_client:
        yield test_client


@pytest.fixture
def fake_time() -> FakeTime:
    """The clocks' time (``Settings.clock_now``), moved by the test."""
    from tests.server.clocking import FakeTime  # here: clocking's helpers import this module

    return FakeTime()


@pytest.fixture(scope="session")
def postgres(tmp_path_factory: pytest.TempPathFactory) -> Iterator[PostgresServer]:
    server = start_postgres()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres: PostgresServer) -> str:
    """A fresh, empty database on the private server for each test."""
    return postgres.new_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def empty_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database, once on SQLite and once on PostgreSQL (the migration tests)."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'empty.sqlite3'}"
    return str(request.getfixturevalue("postgres_url"))


# ----------------------------------------------------------------------------- helpers
def as_before_migrations(url: str) -> None:
    """Take a database back to the schema of the code before migrations (the baseline revision,
    with no ``alembic_version``), as a test of an old database starts from."""
    from sqlalchemy import text

    with schema_at(url, "0001") as conn:
        conn.execute(text("DROP TABLE alembic_version"))


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def create(client: TestClient, seats: list[dict[str, Any]], **spec: Any) -> dict[str, Any]:
    if "seed" in spec:  # a chosen seed (to compare with the engine) is for practice games only
        spec.setdefault("practice", True)
    body = {"game": "candle-quest", "seats": seats, **spec}
    response = client.post("/api/games", json=body)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def all_human(client: TestClient, players: int, **spec: Any) -> tuple[str, list[str]]:
    """A game whose every seat is taken by the test: (game id, token per seat)."""
    created = create(client, [{"kind": "human"} for _ in range(players)], you=0, **spec)
    tokens = [created["token"]]
    for seat in range(1, players):
        response = client.post(
            f"/api/games/{created['id']}/seats/{seat}/claim",
            json={"name": f"P{seat}", "invite": created["invites"][str(seat)]},
        )
        assert response.status_code == 200, response.text
        tokens.append(response.json()["token"])
    return created["id"], tokens


def essence(frame: dict[str, Any]) -> dict[str, Any]:
    """What a frame says about the game (not who is connected right now)."""
    return {key: frame[key] for key in ("move", "view", "legal", "log", "over", "result")}


def state(client: TestClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}/state", headers=auth(token))
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def move(
    client: TestClient, game_id: str, token: str, action: str, expect: int | None = None
) -> Any:
    body: dict[str, Any] = {"action": action}
    if expect is not None:
        body["expect"] = expect
    return client.post(f"/api/games/{game_id}/moves", json=body, headers=auth(token))


def play_random(
    client: TestClient, game_id: str, tokens: list[str], rng: random.Random, limit: int
) -> int:
    """Random legal moves by whoever is to act, through the API; returns the moves made."""
    made = 0
    while made < limit:
        spectator = state(client, game_id)
        if spectator["over"]:
            break
        seat = spectator["view"]["pending"]["seats"][0]
        mine = state(client, game_id, tokens[seat])
        response = move(client, game_id, tokens[seat], rng.choice(mine["legal"]), mine["move"])
        assert response.status_code == 200, response.text
        made += 1
    return made


def wait_for(check: Any, timeout: float = 20.0) -> Any:
    """``check()``'s first truthy value, polled until ``timeout`` seconds have passed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError("timed out waiting")


def run_async(coro: Coroutine[Any, Any, Any]) -> Any:
    """Run a coroutine on a fresh loop in a thread of its own: a browser test earlier in this worker
    process may hold Playwright's event loop open on the main thread, where ``asyncio.run`` (or a
    loop's ``run_until_complete``) refuses to run."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()
