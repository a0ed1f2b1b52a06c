"""The web app: the lobby and game pages (static ES modules), a small JSON API, and one websocket per
watcher of a game. ``create_app`` only assembles: the service (``service.py``), the middleware
(``middleware.py``) and the routers (``routes/``).

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
- ``POST /api/games/{id}/seats/{seat}/timeout`` — hand another seat, out of time, to its bot
  (a rated table: it loses on time); ``"clock"`` at creation chooses the table's clock
- ``POST /api/games/{id}/resign`` — your seat resigns: the game ends, your seat last (rulings EG-1)
- ``POST /api/games/{id}/abandon`` — close a game no other person has joined; it leaves every list
- ``GET  /api/games/{id}/state`` — what your seat (or a spectator) sees now
- ``POST /api/games/{id}/moves`` — ``{"action", "expect"}`` (both required: a retried move is
  refused as ``duplicate``, never applied twice; text that is no action is ``malformed-action``,
  an action not legal now ``illegal``)
- ``GET  /api/games/{id}/replay?at=N`` — a finished game after N moves
- ``GET  /api/games/{id}/saved`` — a finished game as a saved-game file, its shuffle's seed and
  nonce revealed (``candlebox replay FILE --verify``)
- ``POST /api/games/{id}/rematch`` — a finished game's table again (same game, variant, options and
  bots); the first seat to ask takes its seat (credential), later ones get their seat's invite
- ``GET  /api/games/{id}/board`` — the map of the game (public facts: regions, territories, borders,
  bridges and the drawing grid of its side), for games with a map (Candelabria); 404 otherwise
- ``GET  /api/games/{id}/components`` — the name and effect text of every code the game can show
  (``candlebox.components`` of its configuration), for the page's card faces, tooltips and log chips
- ``POST /api/queue`` — quick play: ``{"game", "players", "variant", "rated", "bots_after"}`` →
  ``{"ticket"}``; ``GET /api/queue/{ticket}`` — waiting, or the table, seat and (once) the seat's
  credential; ``DELETE /api/queue/{ticket}`` — leave the queue (docs/server.md, "Quick play")

Websocket ``/ws/games/{id}``: the client's first message is ``{"type": "hello", "token": ...}`` (no
token: a spectator); the server answers with a ``snapshot`` and then sends an ``update`` after every
move and ``seats`` when players come, go or are replaced. The client sends ``{"type": "move",
"action": ..., "expect": N, "ref": ...}`` and gets ``ack`` or ``error`` with the same ``ref``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles

from candlebox.server import clients, middleware
from candlebox.server.accounts import Accounts
from candlebox.server.config import Settings
from candlebox.server.friends import Friends
from candlebox.server.mail import Mailer, check
from candlebox.server.meta import server_meta
from candlebox.server.notice_senders import NoticeSenders
from candlebox.server.routes import ROUTERS
from candlebox.server.routes.pages import STATIC
from candlebox.server.service import GameService
from candlebox.server.sockets import SocketCounts


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    check(settings)  # mail configured so that it cannot work: a ValueError naming the setting

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        service = GameService(settings)
        app.state.service = service
        app.state.accounts = Accounts(service.registry.storage.engine, settings)
        app.state.mail = Mailer(service.registry.storage.engine, settings)
        app.state.friends = Friends(service.registry.storage.engine, settings)
        app.state.notices = NoticeSenders(service.registry.storage.engine, settings, app.state.mail)
        await service.start()
        app.state.mail.start()
        await app.state.notices.start(service.moves.turns)
        app.state.meta = await asyncio.to_thread(server_meta, settings)
        try:
            yield
        finally:
            await app.state.notices.stop()
            await app.state.mail.stop()
            await service.stop()

    app = FastAPI(
        title="Candlebox",
        lifespan=lifespan,
        docs_url="/docs" if settings.api_docs else None,
        redoc_url="/redoc" if settings.api_docs else None,
        openapi_url="/openapi.json" if settings.api_docs else None,
    )
    app.state.settings = settings
    app.state.rate = clients.RateLimiter(settings.requests_per_second, settings.request_burst)
    app.state.sockets = SocketCounts(settings)
    middleware.install(app, settings, app.state.rate)
    for router in ROUTERS:
        app.include_router(router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
