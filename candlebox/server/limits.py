"""What a client can hold of the server: request bodies are counted as they stream in (a chunked body
has no length to check first) and must arrive within a deadline, request headers must arrive within a
deadline, and uvicorn's own limits (keep-alive, concurrency, header size) come from the settings.

uvicorn (0.3x) has no deadline for a request's headers: a client that sends half a request line and
stops holds its connection for ever, and enough of them exhaust the file handles.
:func:`guarded_protocol` adds one to uvicorn's h11 protocol; :class:`RequestLimits` (ASGI middleware)
adds the body's size and deadline, which the app enforces because uvicorn has neither.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from candlebox.server.config import Settings
from candlebox.server.service import Rejected

ASGIApp = Any  # (scope, receive, send) -> None; Starlette's own alias would pull in its types


class BodyRefused(Rejected):
    """The body is too large (413) or too slow (408)."""


class RequestLimits:
    """ASGI middleware: an HTTP request's body is refused (413) as soon as more than ``max_body``
    bytes have arrived, and (408) when it is not complete ``body_timeout`` seconds after the
    request's headers. The refusal is sent at once and the app is told the client has gone, so it
    stops reading: the rest of the body is never buffered (and the connection is closed)."""

    def __init__(self, app: ASGIApp, max_body: int, body_timeout: float) -> None:
        self.app = app
        self.max_body = max_body
        self.body_timeout = body_timeout

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.body_timeout
        received = 0
        complete = False
        started = False
        refused: BodyRefused | None = None

        async def limited_receive() -> dict[str, Any]:
            nonlocal received, complete, refused
            if complete or refused is not None:  # waiting for a disconnect may take its time
                message: dict[str, Any] = await receive()
                return message
            try:
                async with asyncio.timeout_at(deadline):
                    message = await receive()
            except TimeoutError:
                refused = BodyRefused(
                    "too-slow",
                    f"the request body did not arrive within {self.body_timeout:g} seconds",
                    408,
                )
            else:
                if message["type"] != "http.request":
                    complete = True
                    return message
                received += len(message.get("body", b""))
                complete = not message.get("more_body", False)
                if received <= self.max_body:
                    return message
                refused = BodyRefused(
                    "too-large", f"requests are at most {self.max_body} bytes", 413
                )
            # An exception raised here would reach the endpoint wrapped (Starlette's middleware
            # reads the body in a task group); the refusal is sent from here instead, and the app
            # sees a client that has gone.
            if not started:
                await refuse(send, refused.status, refused.code, refused.message)
            return {"type": "http.disconnect"}

        async def watched_send(message: dict[str, Any]) -> None:
            nonlocal started
            if refused is not None:
                return  # the refusal has been sent: whatever the app answers now is dropped
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, watched_send)
        except Exception:
            if refused is None:
                raise  # the app's own failure; a refused body's ClientDisconnect is expected


async def refuse(send: Any, status: int, code: str, message: str) -> None:
    body = json.dumps({"error": code, "message": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
                (b"x-content-type-options", b"nosniff"),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


class _GuardedH11(H11Protocol):
    """uvicorn's h11 protocol with a deadline for each request's headers (``header_timeout``,
    counted from the connection or from the first byte of a later request on it), and a connection
    closed when a response went out before its request's body was read (the rest is not wanted)."""

    header_timeout = 10.0
    _header_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.conn.their_state is h11.IDLE:
            if self._header_timer is None:
                self._arm()  # a new request has begun on a kept-alive connection
        else:
            self._disarm()  # the headers are in (or the connection is upgraded or closing)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        if self.conn.their_state not in (h11.DONE, h11.IDLE) and not self.transport.is_closing():
            self.transport.close()
            return
        super().on_response_complete()

    def _arm(self) -> None:
        self._disarm()
        self._header_timer = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _too_slow(self) -> None:
        self._header_timer = None
        if self.conn.their_state is h11.IDLE and not self.transport.is_closing():
            self.transport.close()


def guarded_protocol(header_timeout: float) -> type[H11Protocol]:
    """uvicorn's h11 protocol with this deadline for request headers."""
    return type("GuardedH11", (_GuardedH11,), {"header_timeout": header_timeout})


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The keyword arguments for ``uvicorn.run``/``uvicorn.Config`` that carry the settings' limits."""
    return {
        "http": guarded_protocol(settings.header_timeout),
        "timeout_keep_alive": settings.keep_alive_timeout,
        "limit_concurrency": settings.max_connections,
        "h11_max_incomplete_event_size": settings.max_header_bytes,
        "ws_max_size": 65536,
        "ws_ping_interval": 20,
        "ws_ping_timeout": 20,
    }
