"""``POST /api/games/{id}/moves``: ``{"action", "expect"}``, both required; the seat's credential
as a bearer token, or the session cookie of the account that holds the seat."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from candlebox.server import bodies
from candlebox.server.routes.common import bearer, body, seat_account, service

router = APIRouter()


@router.post("/api/games/{game_id}/moves")
async def api_move(game_id: str, request: Request) -> JSONResponse:
    svc = service(request)
    # the credential (or the signed-in account's seat) before anything else
    seat = await svc.player(game_id, bearer(request), await seat_account(request))
    made = await body(request, bodies.MoveSpec)
    return JSONResponse({"move": await svc.moves.submit(game_id, seat, made.action, made.expect)})
