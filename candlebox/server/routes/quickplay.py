"""Quick play (docs/server.md, "Quick play"; candlebox/server/matchmaking.py): a ticket in a queue,
looked at until it is matched, or cancelled. The ticket is its holder's credential; signed in, the
seat it leads to is the account's."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from candlebox.server import bodies
from candlebox.server.matchmaking import Matchmaker
from candlebox.server.routes.common import account_of, body, client_of, service

router = APIRouter()


def matchmaker(request: Request) -> Matchmaker:
    return service(request).matchmaker


@router.post("/api/queue")
async def api_enter_queue(request: Request) -> JSONResponse:
    """``{game, players, variant?, rated?, bots_after?}`` → ``{ticket}``."""
    spec = await body(request, bodies.QueueSpec, bodies.QUEUE_CODES)
    account = await account_of(request)
    queue = matchmaker(request)
    ticket = await asyncio.to_thread(queue.enter, spec, account, client_of(request))
    await queue.after_entry()  # whoever completes a table is seated at once
    return JSONResponse({"ticket": ticket}, status_code=201)


@router.get("/api/queue/{ticket}")
async def api_look_at_ticket(ticket: str, request: Request) -> JSONResponse:
    """``{status, game, seat, token, waited, window, rating, queue}``: ``game`` and ``seat`` once
    matched, ``token`` (the seat's credential) at the first look after that only."""
    return JSONResponse(await asyncio.to_thread(matchmaker(request).look, ticket))


@router.delete("/api/queue/{ticket}")
async def api_cancel_ticket(ticket: str, request: Request) -> JSONResponse:
    return JSONResponse(await asyncio.to_thread(matchmaker(request).cancel, ticket))
