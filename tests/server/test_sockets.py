"""How many websockets a client may hold (issue 33, item 1): an audit opened 2,150 sockets of one
seat from one address, all accepted, and then every client's HTTP request got 503. A seat may have a
few tabs, an address a few dozen sockets (those that never said hello fewer still, and only until
the hello's deadline), and the rest are refused with a close reason naming the limit while everyone
else is served."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

from candlebox.server import Settings
from tests.server.conftest import all_human, create, make_client, run_async
from tests.server.live import ServerProcess

PROXY = "testclient"  # the TestClient's peer address: trusted, so X-Forwarded-For names the client


def from_address(address: str) -> dict[str, str]:
    return {"X-Forwarded-For": address}


def opened(client: Any, stack: ExitStack, game_id: str, address: str = "10.0.0.1") -> Any:
    return stack.enter_context(
        client.websocket_connect(f"/ws/games/{game_id}", headers=from_address(address))
    )


def hello(ws: Any, token: str | None = None) -> dict[str, Any]:
    """Say hello; the first frame the server answers with."""
    ws.send_json({"type": "hello", "token": token} if token else {"type": "hello"})
    frame: dict[str, Any] = ws.receive_json()
    return frame


def refused_with(ws: Any, frame: dict[str, Any], error: str) -> WebSocketDisconnect:
    """The socket got the error frame ``error`` and was closed; the close, with its reason."""
    assert frame["type"] == "error" and frame["error"] == error, frame
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_json()
    return closed.value


def answers_pings(ws: Any) -> bool:
    ws.send_json({"type": "ping", "ref": "p"})
    frame = ws.receive_json()
    while frame["type"] == "seats":  # another tab of the seat came or went
        frame = ws.receive_json()
    return bool(frame["type"] == "pong" and frame["ref"] == "p")


@pytest.fixture
def client(sqlite_url: str) -> Iterator[Any]:
    with make_client(sqlite_url, trusted_proxies=(PROXY,)) as test_client:
        yield test_client


def test_a_ninth_tab_of_one_seat_is_refused_with_the_reason_and_its_slot_comes_back(
    client: Any,
) -> None:
    game_id, tokens = all_human(client, 2)
    with ExitStack() as stack:
        tabs = [opened(client, stack, game_id) for _ in range(8)]
        for tab in tabs:
            assert hello(tab, tokens[0])["type"] == "snapshot"
        ninth = opened(client, stack, game_id)
        closed = refused_with(ninth, hello(ninth, tokens[0]), "too-many-tabs")
        assert closed.code == 4429 and "too-many-tabs" in closed.reason and "8" in closed.reason
        assert all(answers_pings(tab) for tab in tabs)  # the first eight carry on
        other_seat = opened(client, stack, game_id)  # the other player is not counted with them
        assert hello(other_seat, tokens[1])["type"] == "snapshot"
        tabs[0].close()
        again = opened(client, stack, game_id)
        assert hello(again, tokens[0])["type"] == "snapshot"  # once a tab closed, its slot is free


def test_sockets_from_one_address_are_capped_and_other_addresses_are_served(
    sqlite_url: str,
) -> None:
    with make_client(sqlite_url, trusted_proxies=(PROXY,), max_client_sockets=5) as client:
        game_id, tokens = all_human(client, 2)
        with ExitStack() as stack:
            mine = [opened(client, stack, game_id, "10.0.0.1") for _ in range(5)]
            for ws in mine:
                assert hello(ws)["type"] == "snapshot"
            sixth = opened(client, stack, game_id, "10.0.0.1")
            frame = sixth.receive_json()  # refused at once, before any hello
            closed = refused_with(sixth, frame, "too-many-sockets")
            assert closed.code == 4429 and "5" in closed.reason
            assert "5" in frame["message"]
            other = opened(client, stack, game_id, "10.0.0.2")
            assert hello(other, tokens[1])["type"] == "snapshot"
            meta = client.get("/api/meta", headers=from_address("10.0.0.2"))
            assert meta.status_code == 200
            made = client.post(
                "/api/games",
                json={"game": "candle-quest", "seats": [{}, {}], "you": 0},
                headers=from_address("10.0.0.2"),
            )
            assert made.status_code == 201, made.text
            mine[0].close()
            again = opened(client, stack, game_id, "10.0.0.1")
            assert hello(again)["type"] == "snapshot"


def test_sockets_that_never_say_hello_are_capped_and_closed_at_the_deadline(
    sqlite_url: str,
) -> None:
    settings = {"trusted_proxies": (PROXY,), "max_waiting_sockets": 3, "hello_timeout": 1.0}
    with make_client(sqlite_url, **settings) as client:
        game_id = create(client, [{}, {}])["id"]
        with ExitStack() as stack:
            silent = [opened(client, stack, game_id) for _ in range(3)]
            fourth = opened(client, stack, game_id)
            closed = refused_with(fourth, fourth.receive_json(), "too-many-waiting")
            assert closed.code == 4429 and "3" in closed.reason
            # the silent ones are closed when the hello's deadline passes
            for ws in silent:
                assert refused_with(ws, ws.receive_json(), "hello").code == 4400
            fresh = opened(client, stack, game_id)  # their slots are free again
            assert hello(fresh)["type"] == "snapshot"


def test_websockets_leave_a_quarter_of_the_connections_to_http(sqlite_url: str) -> None:
    """Three quarters of max_connections at most are websockets, whoever holds them."""
    with make_client(sqlite_url, trusted_proxies=(PROXY,), max_connections=8) as client:
        game_id = create(client, [{}, {}])["id"]
        with ExitStack() as stack:
            held = [opened(client, stack, game_id, f"10.0.0.{n}") for n in range(6)]
            for ws in held:
                assert hello(ws)["type"] == "snapshot"
            seventh = opened(client, stack, game_id, "10.0.0.99")
            closed = refused_with(seventh, seventh.receive_json(), "server-busy")
            assert closed.code == 1013 and "server-busy" in closed.reason
            held[0].close()
            assert hello(opened(client, stack, game_id, "10.0.0.99"))["type"] == "snapshot"


def test_the_limits_are_read_from_the_environment() -> None:
    settings = Settings.from_env(
        {
            "CANDLEBOX_MAX_SEAT_SOCKETS": "3",
            "CANDLEBOX_MAX_CLIENT_SOCKETS": "20",
            "CANDLEBOX_MAX_WAITING_SOCKETS": "4",
            "CANDLEBOX_HELLO_TIMEOUT": "2.5",
        }
    )
    assert settings.max_seat_sockets == 3 and settings.max_client_sockets == 20
    assert settings.max_waiting_sockets == 4 and settings.hello_timeout == 2.5
    defaults = Settings(db="sqlite://")
    assert (defaults.max_seat_sockets, defaults.max_client_sockets) == (8, 64)


# ----------------------------------------------------------------------------- a real server
ATTACKER = "127.0.0.2"


async def one_seats_flood(ws_url: str, token: str, count: int) -> tuple[int, list[Any]]:
    """``count`` sockets from ATTACKER saying one seat's hello: (how many the server kept, after
    answering each hello with a snapshot or an error; the sockets, to be closed)."""
    from websockets.asyncio.client import connect

    async def one() -> Any:
        try:
            ws = await connect(ws_url, open_timeout=30, local_addr=(ATTACKER, 0))
            await ws.send(json.dumps({"type": "hello", "token": token}))
        except Exception as exc:  # refused at the handshake (the old server at its limit)
            return exc
        return ws

    async def kept(ws: Any) -> bool:
        try:
            while True:
                frame = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if frame["type"] in ("snapshot", "error"):
                    return bool(frame["type"] == "snapshot")
        except Exception:  # closed
            return False

    sockets = await asyncio.gather(*(one() for _ in range(count)))
    opened = [s for s in sockets if not isinstance(s, Exception)]
    answers = await asyncio.gather(*(kept(ws) for ws in opened))
    return sum(answers), opened


async def close_all(sockets: list[Any]) -> None:
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)


@pytest.mark.processes  # a real server process, flooded (CI's second step)
def test_a_flood_of_one_seats_sockets_leaves_the_server_serving_others(tmp_path: Path) -> None:
    """The audit's attack, scaled to a server that takes 200 connections: 300 sockets of one seat
    from another address. Before the caps every one was held open, and the others' requests got
    503; now the seat keeps its eight tabs and everyone else is served."""
    env = {"CANDLEBOX_MAX_CONNECTIONS": "200", "CANDLEBOX_REQUESTS_PER_SECOND": "0"}
    server = ServerProcess(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path / "log", env=env)
    server.start()
    try:
        body = {"game": "candle-quest", "seats": [{}, {}], "you": 0}
        created = server.post("/api/games", body).json()
        url = f"{server.ws_base}/ws/games/{created['id']}"

        async def flood_then_ask() -> None:
            kept, held = await one_seats_flood(url, created["token"], 300)
            try:  # asked while the flood's sockets are held open
                assert kept <= 8
                assert server.get("/api/meta").status_code == 200
                made = server.post("/api/games", body)
                assert made.status_code == 201, made.text
            finally:
                await close_all(held)

        run_async(flood_then_ask())
    finally:
        server.stop()
