"""Table chat (issue 35; docs/server.md, "Table chat"): sending a message, reporting one, and the
authors a signed-in player muted.

- ``POST /api/games/{id}/chat`` — ``{"text"}``: with a seat's credential (or the signed-in account
  that holds a seat) into the players' channel, else into the spectators' own → 201 ``{"message"}``
- ``POST /api/games/{id}/chat/{message}/report`` — ``{"reason"?}``: kept for the operator
  (``candlebox moderation``) → 201 (200 when you had reported it already)
- ``GET /api/me/mutes``, ``POST /api/me/mutes`` ``{"author", "muted"}`` — the signed-in player's
  muted authors (a guest's are kept in the browser)
"""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from candlebox.server import bodies, chat
from candlebox.server.live import LiveGame
from candlebox.server.routes.common import (
    account_of,
    accounts,
    bearer,
    body,
    client_of,
    service,
    signed_in,
)

router = APIRouter()


async def seat_here(request: Request, live: LiveGame) -> int | None:
    """The caller's seat: its credential's (403 for a wrong one), else the signed-in account's,
    else None (a spectator)."""
    token = bearer(request)
    svc = service(request)
    if token is not None:
        return await svc.registry.seat_of(live, token)
    account = await account_of(request)
    return await svc.account_seat(live, None if account is None else account.id)


async def writer_of(request: Request, live: LiveGame) -> chat.Writer:
    """Who is writing: a seat (its name; an account's seat is muted by the account's name), a
    signed-in spectator (the account's name) or a guest spectator."""
    client = client_of(request)
    seat = await seat_here(request, live)
    if seat is not None:
        record = live.seat(seat)
        owner = record.account_id
        author = f"account:{record.name}" if owner is not None else f"seat:{live.id}:{seat}"
        return chat.Writer(seat, record.name, author, owner, client)
    account = await account_of(request)
    if account is not None:
        return chat.Writer(None, account.name, f"account:{account.name}", account.id, client)
    return chat.Writer(None, chat.SPECTATOR, "", None, client)  # its key: its first message's


@router.post("/api/games/{game_id}/chat")
async def api_chat(game_id: str, request: Request) -> JSONResponse:
    svc = service(request)
    live = await svc.any_game(game_id)
    writer = await writer_of(request, live)  # the credential before anything else
    spec = await body(request, bodies.ChatSpec, bodies.CHAT_CODES)
    message = await svc.chat.post(live, writer, spec.text)
    return JSONResponse({"message": message.json()}, status_code=201)


@router.post("/api/games/{game_id}/chat/{message_id}/report")
async def api_report(game_id: str, message_id: int, request: Request) -> JSONResponse:
    number = bodies.convert({"message": message_id}, bodies.MessageId, {"message": "no-message"})
    svc = service(request)
    live = await svc.any_game(game_id)
    seat = await seat_here(request, live)
    spec = await body(request, bodies.ReportSpec, bodies.CHAT_CODES)
    account = await account_of(request)
    reporter = f"account:{account.id}" if account is not None else f"client:{client_of(request)}"
    reason = (spec.reason.strip() or None) if spec.reason is not None else None
    new = await svc.chat.report(live, seat, number.message, reporter, reason)
    return JSONResponse({"reported": number.message}, status_code=201 if new else 200)


@router.get("/api/me/mutes")
async def api_mutes(request: Request) -> JSONResponse:
    session = await signed_in(request)
    found = await asyncio.to_thread(chat.mutes_of, accounts(request).engine, session.account.id)
    return JSONResponse({"mutes": found})


@router.post("/api/me/mutes")
async def api_mute(request: Request) -> JSONResponse:
    session = await signed_in(request)
    spec = await body(request, bodies.MuteSpec, bodies.CHAT_CODES)
    store = accounts(request)
    cap = store.settings.max_mutes
    found = await asyncio.to_thread(
        chat.set_mute, store.engine, session.account.id, spec.author, spec.muted, cap
    )
    return JSONResponse({"mutes": found})
