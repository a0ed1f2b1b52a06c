"""``/ws/games/{id}``: the hello, then moves in and frames out until either side goes."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from typing import Any

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from candlebox.server import bodies, clients
from candlebox.server.accounts import Accounts
from candlebox.server.config import Settings
from candlebox.server.errors import Rejected, failure
from candlebox.server.live import Connection, LiveGame
from candlebox.server.middleware import SESSION_COOKIE
from candlebox.server.service import GameService
from candlebox.server.sockets import SocketCounts, Ticket

log = logging.getLogger("candlebox.server")
router = APIRouter()


@router.websocket("/ws/games/{game_id}")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    state = websocket.app.state
    settings: Settings = state.settings
    if not clients.same_origin(
        websocket.headers.get("origin"), websocket.headers.get("host"), settings
    ):
        await websocket.close(code=4403, reason="cross-origin")
        return
    peer = websocket.client.host if websocket.client else None
    client = clients.client_address(peer, websocket.headers, settings)
    if state.rate.wait(client) > 0:
        await websocket.close(code=4429, reason="slow-down")
        return
    await websocket.accept()  # a refusal's reason only reaches an accepted socket
    counts: SocketCounts = state.sockets
    try:
        ticket = counts.admit(client)
    except Rejected as exc:
        await refuse(websocket, exc.code, exc.message, closing_code(exc))
        return
    try:
        await Session(websocket, state.service, settings, game_id, ticket, state.accounts).run()
    finally:
        ticket.close()


def reply(ref: Any, exc: Rejected) -> str:
    return json.dumps({"type": "error", "ref": ref, **exc.payload()})


def closing_code(exc: Rejected) -> int:
    """A refused socket's close code: 4429 for a client over one of its limits (the page shows
    the error frame and retries later), 1013 (try again later) for a server with no room, 4409
    for a game that cannot take it (as many spectators as it may have)."""
    if exc.status == 429:
        return 4429
    return 1013 if exc.code == "server-busy" else 4409


async def refuse(websocket: WebSocket, code: str, message: str, close: int) -> None:
    """An error frame, then the close with a reason that names the refusal (at most 123 bytes, as
    the protocol allows)."""
    with contextlib.suppress(Exception):
        await websocket.send_text(json.dumps({"type": "error", "error": code, "message": message}))
        reason = f"{code}: {message}".encode()[:123].decode(errors="ignore")
        await websocket.close(code=close, reason=reason)


class Session:
    """One websocket: the hello, then moves in and frames out until either side goes."""

    def __init__(
        self,
        websocket: WebSocket,
        service: GameService,
        settings: Settings,
        game_id: str,
        ticket: Ticket,
        accounts: Accounts,
    ) -> None:
        self.ws = websocket
        self.accounts = accounts
        self.ticket = ticket  # this socket, counted against its client's limits
        self.service = service
        self.settings = settings
        self.game_id = game_id
        self.allowance = settings.messages_per_second * 2
        self.checked = time.monotonic()
        self.tasks: set[asyncio.Task[None]] = set()  # moves being made (kept from the collector)

    async def refuse(self, code: str, message: str, close: int) -> None:
        await refuse(self.ws, code, message, close)

    async def run(self) -> None:
        try:
            await self.session()
        except Exception as exc:  # never a traceback, never silence: an error frame, then close
            log.exception("websocket session of %s failed", self.game_id)
            problem = failure(exc)
            await self.refuse(problem.code, problem.message, 1011)

    async def session(self) -> None:
        try:
            text = await asyncio.wait_for(self.ws.receive_text(), self.settings.hello_timeout)
        except (TimeoutError, WebSocketDisconnect, RuntimeError, KeyError):
            await self.refuse("hello", 'say hello first: {"type": "hello"}', 4400)
            return
        self.ticket.greeted()
        try:
            hello = bodies.hello(text, self.settings.max_message)
        except Rejected as exc:
            await self.refuse(exc.code, exc.message, 4400)
            return
        try:
            live = await self.service.any_game(self.game_id)
            seat: int | None
            if hello.token is not None:
                seat = await self.service.registry.seat_of(live, hello.token)
            else:  # signed in on another device: the account's seat, if it holds one
                seat = await self.service.account_seat(live, await self.account_id())
        except Rejected as exc:
            await self.refuse(exc.code, exc.message, 4403 if exc.status == 403 else 4404)
            return
        await self.watch(live, Connection(seat, self.settings.send_queue))

    async def account_id(self) -> int | None:
        """The signed-in account of the socket's cookie (the opening request carried it, from
        this site: its origin was checked), or None."""
        token = self.ws.cookies.get(SESSION_COOKIE)
        if token is None:
            return None
        session = await asyncio.to_thread(self.accounts.session, token)
        return None if session is None else session.account.id

    async def watch(self, live: LiveGame, conn: Connection) -> None:
        try:
            self.service.seating.attach(live, conn)
        except Rejected as exc:
            await self.refuse(exc.code, exc.message, closing_code(exc))
            return
        sender = asyncio.create_task(self.pump(conn))
        try:
            await self.receive(live, conn)
        finally:
            self.service.seating.detach(live, conn)
            conn.close()
            await asyncio.gather(sender, return_exceptions=True)

    async def pump(self, conn: Connection) -> None:
        try:
            while True:
                frame = await conn.queue.get()
                if frame is None:
                    break
                await self.ws.send_text(frame)
        except Exception:
            pass
        with contextlib.suppress(Exception):
            await self.ws.close(code=4408 if conn.dropped else 1000)

    def within_rate(self) -> bool:
        now = time.monotonic()
        rate = self.settings.messages_per_second
        self.allowance = min(rate * 2, self.allowance + (now - self.checked) * rate)
        self.checked = now
        if self.allowance < 1:
            return False
        self.allowance -= 1
        return True

    async def receive(self, live: LiveGame, conn: Connection) -> None:
        while True:
            try:
                message = await self.ws.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if message["type"] == "websocket.disconnect":
                return
            text = message.get("text")
            try:
                if text is None:
                    raise Rejected("malformed", "messages are JSON text")
                if not self.within_rate():
                    raise Rejected("slow-down", "too many messages; wait a moment")
                data = bodies.message(text, self.settings.max_message)
            except Rejected as exc:
                conn.push(reply(None, exc))
                continue
            self.dispatch(live, conn, bodies.envelope(data))

    def dispatch(self, live: LiveGame, conn: Connection, message: bodies.Envelope) -> None:
        if message.kind == "ping":
            conn.push(json.dumps({"type": "pong", "ref": message.ref, "move": live.moves}))
        elif message.kind == "move":
            task = asyncio.create_task(self.move(conn, message))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        elif message.kind == "snapshot":
            conn.push(self.service.frames.frame(self.service.current(live), conn.seat))
        else:
            conn.push(reply(message.ref, bodies.unknown_type(message.kind)))

    async def move(self, conn: Connection, message: bodies.Envelope) -> None:
        try:
            if conn.seat is None:
                raise Rejected("spectator", "spectators cannot move", 403)
            made = bodies.convert(message.data, bodies.MoveMessage)
            number = await self.service.moves.submit(
                self.game_id, conn.seat, made.action, made.expect
            )
        except Rejected as exc:
            conn.push(reply(message.ref, exc))
            return
        except Exception as exc:
            log.exception("a move in %s failed", self.game_id)
            conn.push(reply(message.ref, failure(exc)))
            return
        conn.push(json.dumps({"type": "ack", "ref": message.ref, "move": number}))
