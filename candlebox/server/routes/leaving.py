"""Resigning a game and abandoning one: the seat's credential is all either needs (or the session
of the account that holds the seat); stopping a bot-only table: its creator's ``owner_token``."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from candlebox.server.routes.common import bearer, seat_account, service

router = APIRouter()


@router.post("/api/games/{game_id}/resign")
async def api_resign(game_id: str, request: Request) -> JSONResponse:
    account_id = await seat_account(request)
    result = await service(request).leaving.resign(game_id, bearer(request), account_id)
    return JSONResponse({"status": "resigned", "result": result})


@router.post("/api/games/{game_id}/abandon")
async def api_abandon(game_id: str, request: Request) -> JSONResponse:
    await service(request).leaving.abandon(game_id, bearer(request), await seat_account(request))
    return JSONResponse({"status": "abandoned"})


@router.post("/api/games/{game_id}/stop")
async def api_stop(game_id: str, request: Request) -> JSONResponse:
    await service(request).bots.tables.stop_by_owner(game_id, bearer(request))
    return JSONResponse({"status": "stopped"})
