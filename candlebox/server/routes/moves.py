"""``POST /api/games/{id}/moves``: ``{"action", "expect"}``, both required."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from candlebox.server import bodies
from candlebox.server.routes.common import bearer, body, service

router = APIRouter()


@router.post("/api/games/{game_id}/moves")
async def api_move(game_id: str, request: Request) -> JSONResponse:
    svc = service(request)
    seat = await svc.player(game_id, bearer(request))  # the credential before anything else
    made = await body(request, bodies.MoveSpec)
    return JSONResponse({"move": await svc.submit(game_id, seat, made.action, made.expect)})
