"""Take-backs (issue 35): ``POST /api/games/{id}/undo`` asks to take back the seat's last moves
(at once against bots alone), ``.../undo/accept`` and ``.../undo/refuse`` answer a request. Each
takes ``{"expect": N}``, the move number the page shows, and the seat's credential as a bearer token
(or the session cookie of the account that holds the seat)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from candlebox.server.routes.common import bearer, body, seat_account, service
from candlebox.server.taking_back import TakeBackSpec

router = APIRouter()
CODES = {"expect": "bad-expect"}


async def _seat_and_expect(game_id: str, request: Request) -> tuple[int, int]:
    svc = service(request)
    # the credential (or the signed-in account's seat) before anything else
    seat = await svc.player(game_id, bearer(request), await seat_account(request))
    return seat, (await body(request, TakeBackSpec, CODES)).expect


@router.post("/api/games/{game_id}/undo")
async def api_undo(game_id: str, request: Request) -> JSONResponse:
    seat, expect = await _seat_and_expect(game_id, request)
    return JSONResponse(await service(request).taking_back.ask(game_id, seat, expect))


@router.post("/api/games/{game_id}/undo/accept")
async def api_undo_accept(game_id: str, request: Request) -> JSONResponse:
    seat, expect = await _seat_and_expect(game_id, request)
    return JSONResponse(await service(request).taking_back.accept(game_id, seat, expect))


@router.post("/api/games/{game_id}/undo/refuse")
async def api_undo_refuse(game_id: str, request: Request) -> JSONResponse:
    seat, expect = await _seat_and_expect(game_id, request)
    return JSONResponse(await service(request).taking_back.refuse(game_id, seat, expect))
