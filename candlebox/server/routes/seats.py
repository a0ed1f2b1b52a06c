"""Taking a seat, handing it to a bot (zombie mode) and taking it back."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from candlebox.server import bodies
from candlebox.server.routes.common import account_of, bearer, body, seat_account, service

router = APIRouter()


@router.post("/api/games/{game_id}/seats/{seat}/claim")
async def api_claim(game_id: str, seat: int, request: Request) -> JSONResponse:
    seat = bodies.seat_number(seat)
    claim = await body(request, bodies.ClaimSpec)
    account = await account_of(request)  # signed in: the seat is the account's
    token = await service(request).seating.claim(game_id, seat, claim, account)
    return JSONResponse({"seat": seat, "token": token})


@router.post("/api/games/{game_id}/seats/{seat}/bot")
async def api_to_bot(game_id: str, seat: int, request: Request) -> JSONResponse:
    seat = bodies.seat_number(seat)
    spec = await body(request, bodies.BotSpec)
    by = await seat_account(request)  # no credential sent: the signed-in account's seat
    await service(request).hand_to_bot(game_id, seat, bearer(request), spec, by)
    return JSONResponse({"seat": seat, "kind": "bot"})


@router.post("/api/games/{game_id}/seats/{seat}/human")
async def api_take_back(game_id: str, seat: int, request: Request) -> JSONResponse:
    seat = bodies.seat_number(seat)
    await service(request).take_back(game_id, seat, bearer(request), await seat_account(request))
    return JSONResponse({"seat": seat, "kind": "human"})
