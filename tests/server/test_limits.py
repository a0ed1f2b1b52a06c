"""Greedy and slow clients: a chunked body larger than the limit is refused while it streams in (the
rest is never read), a body that does not arrive in time gets 408, and a client that sends half a
request's headers is disconnected after the header deadline. The real-socket tests run uvicorn in a
thread with the options ``candlebox serve`` uses, with short timeouts."""

from __future__ import annotations

import asyncio
import concurrent.futures
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn

from candlebox.server import Settings, create_app
from candlebox.server.limits import uvicorn_options
from tests.server.pg import free_port

CHUNK = 65536


def test_a_chunked_body_is_refused_once_it_passes_the_limit(tmp_path: Path) -> None:
    """In-process: the app reads no more than the limit (and one chunk) before it answers 413."""
    app = create_app(Settings(db=f"sqlite:///{tmp_path / 'db.sqlite3'}", max_body=CHUNK))
    chunks = 0
    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        nonlocal chunks
        chunks += 1
        return {"type": "http.request", "body": b"x" * CHUNK, "more_body": chunks < 1000}

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "POST",
        "scheme": "http",
        "path": "/api/games",
        "raw_path": b"/api/games",
        "root_path": "",
        "query_string": b"",
        "headers": [
            (b"host", b"test"),
            (b"content-type", b"application/json"),
            (b"transfer-encoding", b"chunked"),
        ],
        "client": ("127.0.0.1", 1),
        "server": ("127.0.0.1", 80),
    }
    # On its own thread: in a worker that also ran the browser tests, Playwright's event loop may
    # hold the main thread, where asyncio.run would refuse (as in test_storage).
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, app(scope, receive, send)).result()
    assert sent[0]["type"] == "http.response.start" and sent[0]["status"] == 413
    assert b"too-large" in b"".join(m.get("body", b"") for m in sent[1:])
    assert chunks <= 2, f"{chunks} chunks of 64 KiB were read before the refusal"


@pytest.fixture
def server(tmp_path: Path) -> Iterator[int]:
    settings = Settings(
        db=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        header_timeout=0.5,
        body_timeout=0.5,
        keep_alive_timeout=0.5,
        max_body=CHUNK,
        bot_delay=0.0,
    )
    port = free_port()
    config = uvicorn.Config(
        create_app(settings),
        host="127.0.0.1",
        port=port,
        log_level="warning",
        **uvicorn_options(settings),
    )
    running = uvicorn.Server(config)
    thread = threading.Thread(target=running.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not running.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:
        yield port
    finally:
        running.should_exit = True
        thread.join(10)


def connect(port: int) -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=5)
    sock.settimeout(5)
    return sock


def closed_within(sock: socket.socket) -> tuple[float, bytes]:
    """Seconds until the server closes the connection, and what it sent before."""
    start = time.monotonic()
    data = b""
    try:
        while chunk := sock.recv(4096):
            data += chunk
    except TimeoutError:
        raise AssertionError("the server kept the connection open for 5 s") from None
    except ConnectionResetError:
        pass
    return time.monotonic() - start, data


def test_half_sent_headers_are_disconnected(server: int) -> None:
    with connect(server) as sock:
        sock.sendall(b"GET /api/meta HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
        waited, data = closed_within(sock)
    assert waited < 2.0 and data == b""
    with connect(server) as sock:  # a connection that never says anything
        waited, data = closed_within(sock)
    assert waited < 2.0 and data == b""


def test_a_slow_second_request_on_a_kept_alive_connection_is_disconnected(server: int) -> None:
    with connect(server) as sock:
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\n\r\n")
        first = sock.recv(65536)
        assert first.startswith(b"HTTP/1.1 200")
        time.sleep(0.2)  # the response is complete and the keep-alive timer armed
        sock.sendall(b"GET /api/games HTTP/1.1\r\n")
        waited, _ = closed_within(sock)
    assert waited < 2.0


def test_a_body_that_does_not_arrive_in_time_gets_408(server: int) -> None:
    with connect(server) as sock:
        sock.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            b'Content-Length: 100\r\n\r\n{"game": '
        )
        waited, data = closed_within(sock)
    assert waited < 2.0
    assert data.startswith(b"HTTP/1.1 408") and b"too-slow" in data


def test_a_huge_chunked_body_is_not_read_to_its_end(server: int) -> None:
    total = 256 * 1024 * 1024
    sent = 0
    with connect(server) as sock:
        sock.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        chunk = b"%x\r\n%s\r\n" % (CHUNK, b" " * CHUNK)
        try:
            while sent < total:
                sock.sendall(chunk)
                sent += CHUNK
        except (BrokenPipeError, ConnectionResetError, TimeoutError):
            pass
        try:
            answer = sock.recv(65536)
        except ConnectionResetError:
            answer = b""
    assert sent < 32 * 1024 * 1024, f"the server read {sent} bytes of a refused body"
    assert answer == b"" or answer.startswith(b"HTTP/1.1 413")
