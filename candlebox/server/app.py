"""The web app: the lobby and game pages (static ES modules), a small JSON API, and one websocket per
watcher of a game.

HTTP API (JSON; a seat's credential goes in ``Authorization: Bearer TOKEN``):

- ``GET  /api/meta`` — games, variants, options, bots
- ``GET  /api/games`` — the lobby: the first page of open games, games being played and finished
  games (public ones only), newest first, with each list's ``next`` cursor;
  ``?list=open|playing|finished&cursor=C&limit=N`` — the page after ``C``
- ``POST /api/games`` — create a game; returns its id, your seat's credential and invite codes
- ``GET  /api/games/{id}`` — the game and its seats (public)
- ``POST /api/games/{id}/seats/{seat}/claim`` — take an open seat: ``{"name", "invite"}`` → credential
- ``POST /api/games/{id}/seats/{seat}/bot`` — hand a seat to a bot (zombie mode)
- ``POST /api/games/{id}/seats/{seat}/human`` — take your seat back from the bot
- ``GET  /api/games/{id}/state`` — what your seat (or a spectator) sees now
- ``POST /api/games/{id}/moves`` — ``{"action", "expect"}`` (both required: a retried move is
  refused as ``duplicate``, never applied twice)
- ``GET  /api/games/{id}/replay?at=N`` — a finished game after N moves
- ``GET  /api/games/{id}/saved`` — a finished game as a saved-game file, its shuffle's seed and
  nonce revealed (``candlebox replay FILE --verify``)
- ``GET  /api/games/{id}/board`` — the map of the game (public facts: regions, territories, borders,
  bridges and the drawing grid of its side), for games with a map (Candelabria); 404 otherwise

Websocket ``/ws/games/{id}``: the client's first message is ``{"type": "hello", "token": ...}`` (no
token: a spectator); the server answers with a ``snapshot`` and then sends an ``update`` after every
move and ``seats`` when players come, go or are replaced. The client sends ``{"type": "move",
"action": ..., "expect": N, "ref": ...}`` and gets ``ack`` or ``error`` with the same ``ref``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from importlib import resources
from pathlib import Path
from typing import Annotated, Any

import msgspec
from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

import candlebox
from candlebox import bots as botregistry
from candlebox.server import bodies, clients
from candlebox.server import bots as botlib
from candlebox.server.config import Settings
from candlebox.server.limits import RequestLimits
from candlebox.server.service import (
    Connection,
    GameService,
    LiveGame,
    Rejected,
    content_packs,
)

log = logging.getLogger("candlebox.server")
STATIC = Path(str(resources.files("candlebox.server") / "static"))
HELLO_TIMEOUT = 10.0

SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


def error(exc: Rejected) -> JSONResponse:
    return JSONResponse(exc.payload(), status_code=exc.status)


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return None


async def body(request: Request, limit: int) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > limit:
        raise Rejected("too-large", f"the request is larger than {limit} bytes", 413)
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested too deeply
        raise Rejected("malformed", "the request body is not JSON") from None
    if not isinstance(data, dict):
        raise Rejected("malformed", "the request body is a JSON object")
    return data


STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def failure(exc: BaseException) -> Rejected:
    """What a client is told of an unexpected exception: a generic message and nothing of the
    exception itself (no traceback, path, driver message); the details go to the server's log."""
    if isinstance(exc, SQLAlchemyError | OSError):
        return Rejected("unavailable", "the game store cannot be reached; try again shortly", 503)
    return Rejected("internal", "the server could not handle this request", 500)


def guarded(app: FastAPI, settings: Settings, rate: clients.RateLimiter) -> None:
    """Per-client rate limits, the origin and content type of state-changing requests, and a
    catch-all: no response ever carries an exception's text."""

    @app.middleware("http")
    async def limit_and_catch(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        peer = request.client.host if request.client else None
        wait = rate.wait(clients.client_address(peer, request.headers, settings))
        if wait > 0:
            return JSONResponse(
                {"error": "slow-down", "message": "too many requests; wait a moment"},
                status_code=429,
                headers={"Retry-After": rate.retry_after(wait)},
            )
        if request.method in STATE_CHANGING:
            origin = request.headers.get("origin")
            if not clients.same_origin(origin, request.headers.get("host"), settings):
                return error(
                    Rejected(
                        "cross-origin", "requests that change anything come from this site", 403
                    )
                )
            sized = request.headers.get("content-length", "0") != "0"
            if sized or "transfer-encoding" in request.headers:
                kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
                if kind != "application/json":
                    return error(
                        Rejected("media-type", "request bodies are JSON (application/json)", 415)
                    )
        try:
            return await call_next(request)
        except Exception as exc:
            log.exception("%s %s failed", request.method, request.url.path)
            return error(failure(exc))

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(request: Request, exc: RequestValidationError) -> Response:
        names = [str(e.get("loc", ("", "?"))[-1]) for e in exc.errors()]
        return error(Rejected("malformed", f"not a valid value for: {', '.join(names)}"))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        codes = {404: "not-found", 405: "method"}
        message = exc.detail if isinstance(exc.detail, str) else "the request was refused"
        return JSONResponse(
            {"error": codes.get(exc.status_code, "refused"), "message": message},
            status_code=exc.status_code,
            headers=exc.headers,
        )


def meta() -> dict[str, Any]:
    botlib.probe([(name, game) for name in botregistry.available() for game in candlebox.GAMES])
    games = []
    for game_id in candlebox.GAMES:
        info = candlebox.game_info(game_id)
        variants = []
        for variant in info.variants:
            variants.append(
                {
                    "name": variant.name,
                    "doc": variant.doc,
                    "min_players": variant.min_players,
                    "max_players": variant.max_players,
                    "options": [
                        {
                            "name": opt.name,
                            "kind": opt.kind,
                            "default": opt.default,
                            "doc": opt.doc,
                            "choices": list(opt.choices),
                            "minimum": opt.minimum,
                            "maximum": opt.maximum,
                            "nullable": opt.nullable,
                        }
                        for opt in variant.options
                    ],
                }
            )
        players = range(
            min(v.min_players for v in info.variants), max(v.max_players for v in info.variants) + 1
        )
        games.append(
            {
                "id": game_id,
                "title": info.title,
                "variants": variants,
                "default_variant": {str(n): info.default_variant(n) for n in players},
                "facts": info.facts,
                "page": info.page,  # the board module: static/js/games/<page>.js (None: generic)
                "bots": [name for name in botregistry.available() if botlib.plays(name, game_id)],
            }
        )
    return {
        "games": games,
        "bots": [
            {
                "name": name,
                "doc": botregistry.describe(name),
                "strength": botlib.has_strength(name),
            }
            for name in botregistry.available()
        ],
        "strengths": botlib.STRENGTHS,
        "version": candlebox.__version__,
    }


def offer_content_packs(meta_data: dict[str, Any], packs: list[str]) -> None:
    """Over the network the ``content`` option is a pack's name from the server's list (a choice,
    blank for the shipped content), not the library's folder path; without packs it is not offered."""
    for game in meta_data["games"]:
        for variant in game["variants"]:
            options = variant["options"]
            for index, opt in enumerate(options):
                if opt["name"] != "content":
                    continue
                if not packs:
                    del options[index]
                    break
                opt.update(
                    kind="choice",
                    choices=["", *packs],
                    doc="a content pack this server offers (practice games only); blank: the "
                    "shipped content",
                )


def board_of(state: Any) -> dict[str, Any] | None:
    """The side of the map a game is played on, as plain public data (content packs are public: the
    regions with their colours and territories' icons, borders, bridges and the grid of cells the map is
    drawn from, rulings CA-1); None for a game without a map."""
    content = getattr(state, "content", None)
    sides = getattr(content, "sides", None)
    side = getattr(state, "side", None)
    if not isinstance(sides, dict) or side not in sides:
        return None
    data = msgspec.to_builtins(sides[side])
    return data if isinstance(data, dict) else None


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    rate = clients.RateLimiter(settings.requests_per_second, settings.request_burst)

    def client_of(request: Request) -> str:
        peer = request.client.host if request.client else None
        return clients.client_address(peer, request.headers, settings)

    service_box: dict[str, GameService] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service = GameService(settings)
        service_box["service"] = service
        app.state.service = service
        await service.start()
        app.state.meta = await asyncio.to_thread(meta)
        packs = content_packs(settings)  # names only, never paths
        app.state.meta["content_packs"] = packs
        offer_content_packs(app.state.meta, packs)
        try:
            yield
        finally:
            await service.stop()

    app = FastAPI(
        title="Candlebox",
        lifespan=lifespan,
        docs_url="/docs" if settings.api_docs else None,
        redoc_url="/redoc" if settings.api_docs else None,
        openapi_url="/openapi.json" if settings.api_docs else None,
    )
    guarded(app, settings, rate)

    def service() -> GameService:
        return service_box["service"]

    @app.middleware("http")
    async def guard(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > settings.max_body):
            return JSONResponse(
                {
                    "error": "too-large",
                    "message": f"requests are at most {settings.max_body} bytes",
                },
                status_code=413,
            )
        try:
            response = await call_next(request)
        except Rejected as exc:
            response = error(exc)
        for key, value in SECURITY_HEADERS.items():
            if key == "Cache-Control" and request.url.path.startswith("/static/"):
                continue
            response.headers.setdefault(key, value)
        return response

    # Outermost of the app's middleware: a body is counted (and timed) as it streams in.
    app.add_middleware(
        RequestLimits, max_body=settings.max_body, body_timeout=settings.body_timeout
    )

    # ------------------------------------------------------------------ pages
    @app.get("/", include_in_schema=False)
    async def lobby_page() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    @app.get("/g/{game_id}", include_in_schema=False)
    async def game_page(game_id: str) -> FileResponse:
        return FileResponse(STATIC / "game.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # ------------------------------------------------------------------ the API
    @app.get("/api/meta")
    async def api_meta(request: Request) -> dict[str, Any]:
        meta_data: dict[str, Any] = request.app.state.meta
        return meta_data

    @app.get("/api/games")
    async def api_lobby(
        which: Annotated[str | None, Query(alias="list")] = None,
        limit: int | None = None,
        cursor: str | None = None,
    ) -> Response:
        """The first page of each list, or (``list=open|playing|finished``) the page after
        ``cursor``; each with the cursor of the page after it."""
        try:
            if which is None:
                if cursor is not None:
                    raise Rejected("bad-cursor", "a cursor goes with the list it came from")
                return JSONResponse(await service().lobby(limit))
            games, after = await service().lobby_page(which, limit, cursor)
        except Rejected as exc:
            return error(exc)
        return JSONResponse({"list": which, "games": games, "next": after})

    @app.post("/api/games")
    async def api_create(request: Request) -> Response:
        try:
            spec = bodies.convert(
                await body(request, settings.max_body), bodies.CreateSpec, bodies.CREATE_CODES
            )
            created = await service().create(bodies.plain(spec), client_of(request))
        except Rejected as exc:
            return error(exc)
        return JSONResponse(created, status_code=201)

    @app.get("/api/games/{game_id}")
    async def api_game(game_id: str) -> Response:
        try:
            live = await service().any_game(game_id)
        except Rejected as exc:
            return error(exc)
        svc = service()
        return JSONResponse({"game": svc.game_public(live), "seats": svc.seats_public(live)})

    async def seat_of(request: Request, live: LiveGame) -> int:
        return service().seat_for_token(live, bearer(request))

    @app.post("/api/games/{game_id}/seats/{seat}/claim")
    async def api_claim(game_id: str, seat: int, request: Request) -> Response:
        try:
            claim = bodies.convert(await body(request, settings.max_body), bodies.ClaimSpec)
            token = await service().claim(game_id, seat, claim.name, claim.invite)
        except Rejected as exc:
            return error(exc)
        return JSONResponse({"seat": seat, "token": token})

    @app.post("/api/games/{game_id}/seats/{seat}/bot")
    async def api_to_bot(game_id: str, seat: int, request: Request) -> Response:
        try:
            spec = bodies.convert(await body(request, settings.max_body), bodies.BotSpec)
            live = service().live(game_id)
            by = await seat_of(request, live)
            await service().hand_to_bot(game_id, seat, by, spec.bot, spec.strength)
        except Rejected as exc:
            return error(exc)
        return JSONResponse({"seat": seat, "kind": "bot"})

    @app.post("/api/games/{game_id}/seats/{seat}/human")
    async def api_take_back(game_id: str, seat: int, request: Request) -> Response:
        try:
            live = service().live(game_id)
            if await seat_of(request, live) != seat:
                raise Rejected("credential", "that credential is not for this seat", 403)
            await service().take_back(game_id, seat)
        except Rejected as exc:
            return error(exc)
        return JSONResponse({"seat": seat, "kind": "human"})

    @app.get("/api/games/{game_id}/state")
    async def api_state(game_id: str, request: Request) -> Response:
        try:
            live = await service().any_game(game_id)
            token = bearer(request)
            seat = None if token is None else await seat_of(request, live)
        except Rejected as exc:
            return error(exc)
        return Response(service().frame(live, seat), media_type="application/json")

    @app.post("/api/games/{game_id}/moves")
    async def api_move(game_id: str, request: Request) -> Response:
        try:
            live = await service().any_game(game_id)
            seat = await seat_of(request, live)
            made = bodies.convert(await body(request, settings.max_body), bodies.MoveSpec)
            number = await service().submit(game_id, seat, made.action, made.expect)
        except Rejected as exc:
            return error(exc)
        return JSONResponse({"move": number})

    @app.get("/api/games/{game_id}/replay")
    async def api_replay(game_id: str, request: Request, at: int = 0) -> Response:
        try:
            live = await service().any_game(game_id)
            token = bearer(request)
            seat = None if token is None else await seat_of(request, live)
            frame = service().replay_frame(live, seat, at)
        except Rejected as exc:
            return error(exc)
        return JSONResponse(frame)

    @app.get("/api/games/{game_id}/saved")
    async def api_saved(game_id: str) -> Response:
        """A finished game as a saved-game file, with its seed and nonce revealed (public: the game
        is over, so nothing in it is secret any more)."""
        try:
            live = await service().any_game(game_id)
            data = service().saved_game(live)
        except Rejected as exc:
            return error(exc)
        name = f"candlebox-{live.record.game}-{live.id}.json"
        return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="{name}"'})

    @app.get("/api/games/{game_id}/board")
    async def api_board(game_id: str) -> Response:
        try:
            live = await service().any_game(game_id)
        except Rejected as exc:
            return error(exc)
        board = board_of(live.state)
        if board is None:
            return error(Rejected("no-board", "this game has no map", 404))
        return JSONResponse(board, headers={"Cache-Control": "private, max-age=3600"})

    # ------------------------------------------------------------------ the websocket
    @app.websocket("/ws/games/{game_id}")
    async def game_socket(websocket: WebSocket, game_id: str) -> None:
        origin = websocket.headers.get("origin")
        host = websocket.headers.get("host")
        if not clients.same_origin(origin, host, settings):
            await websocket.close(code=4403, reason="cross-origin")
            return
        peer = websocket.client.host if websocket.client else None
        if rate.wait(clients.client_address(peer, websocket.headers, settings)) > 0:
            await websocket.close(code=4429, reason="slow-down")
            return
        await websocket.accept()
        await Session(websocket, service(), settings, game_id).run()

    return app


class Session:
    """One websocket: the hello, then moves in and frames out until either side goes."""

    def __init__(
        self, websocket: WebSocket, service: GameService, settings: Settings, game_id: str
    ) -> None:
        self.ws = websocket
        self.service = service
        self.settings = settings
        self.game_id = game_id
        self.allowance = settings.messages_per_second * 2
        self.checked = time.monotonic()
        self.tasks: set[asyncio.Task[None]] = set()  # moves being made (kept from the collector)

    async def send(self, payload: dict[str, Any]) -> None:
        await self.ws.send_text(json.dumps(payload))

    async def refuse(self, code: str, message: str, close: int) -> None:
        with contextlib.suppress(Exception):
            await self.send({"type": "error", "error": code, "message": message})
            await self.ws.close(code=close, reason=code)

    async def run(self) -> None:
        try:
            await self.session()
        except Exception as exc:  # never a traceback, never silence: an error frame, then close
            log.exception("websocket session of %s failed", self.game_id)
            problem = failure(exc)
            await self.refuse(problem.code, problem.message, 1011)

    async def session(self) -> None:
        try:
            hello = await asyncio.wait_for(self.ws.receive_text(), HELLO_TIMEOUT)
        except (TimeoutError, WebSocketDisconnect, RuntimeError, KeyError):
            await self.refuse("hello", 'say hello first: {"type": "hello"}', 4400)
            return
        data = self.parse(hello)
        if not isinstance(data, dict) or data.get("type") != "hello":
            await self.refuse("hello", 'the first message is {"type": "hello", "token": ...}', 4400)
            return
        try:
            live = await self.service.any_game(self.game_id)
            token = data.get("token")
            seat = None if token is None else self.service.seat_for_token(live, token)
        except Rejected as exc:
            await self.refuse(exc.code, exc.message, 4403 if exc.status == 403 else 4404)
            return
        conn = Connection(seat, self.settings.send_queue)
        try:
            self.service.attach(live, conn)
        except Rejected as exc:
            await self.refuse(exc.code, exc.message, 4409)
            return
        sender = asyncio.create_task(self.pump(conn))
        try:
            await self.receive(live, conn)
        finally:
            self.service.detach(live, conn)
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

    def parse(self, text: str) -> Any:
        if len(text) > self.settings.max_message:
            return Rejected(
                "too-large", f"messages are at most {self.settings.max_message} characters"
            )
        try:
            return json.loads(text)
        except (ValueError, RecursionError):  # RecursionError: nested too deeply
            return Rejected("malformed", 'a message is a JSON object such as {"type": "move"}')

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
            if text is None:
                conn.push(reply(None, Rejected("malformed", "messages are JSON text")))
                continue
            if not self.within_rate():
                conn.push(reply(None, Rejected("slow-down", "too many messages; wait a moment")))
                continue
            data = self.parse(text)
            if isinstance(data, Rejected):
                conn.push(reply(None, data))
                continue
            if not isinstance(data, dict):
                conn.push(reply(None, Rejected("malformed", "a message is a JSON object")))
                continue
            ref = data.get("ref")
            if not (ref is None or isinstance(ref, str | int)) or (
                isinstance(ref, str) and len(ref) > 64
            ):
                ref = None
            kind = data.get("type")
            if kind == "ping":
                conn.push(json.dumps({"type": "pong", "ref": ref, "move": live.moves}))
            elif kind == "move":
                task = asyncio.create_task(self.move(live, conn, data, ref))
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)
            elif kind == "snapshot":
                current = self.service.games.get(self.game_id) or live
                conn.push(self.service.frame(current, conn.seat))
            else:
                conn.push(
                    reply(
                        ref,
                        Rejected(
                            "unknown-type",
                            f"unknown message type {kind!r}; types: move, ping, snapshot",
                        ),
                    )
                )

    async def move(self, live: LiveGame, conn: Connection, data: dict[str, Any], ref: Any) -> None:
        if conn.seat is None:
            conn.push(reply(ref, Rejected("spectator", "spectators cannot move", 403)))
            return
        try:
            number = await self.service.submit(
                self.game_id, conn.seat, data.get("action"), data.get("expect")
            )
        except Rejected as exc:
            conn.push(reply(ref, exc))
            return
        except Exception as exc:
            log.exception("a move in %s failed", self.game_id)
            conn.push(reply(ref, failure(exc)))
            return
        conn.push(json.dumps({"type": "ack", "ref": ref, "move": number}))


def reply(ref: Any, exc: Rejected) -> str:
    return json.dumps({"type": "error", "ref": ref, **exc.payload()})
