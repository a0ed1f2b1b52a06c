"""A rematch of a finished game: ``POST /api/games/{id}/rematch`` with a seat's credential."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from candlebox.server.routes.common import bearer, client_of, service

router = APIRouter()


@router.post("/api/games/{game_id}/rematch")
async def api_rematch(game_id: str, request: Request) -> JSONResponse:
    """The same table again (game, variant, options, bots); the first player to ask takes their
    seat in it (``token``), a later one gets their seat's ``invite`` to claim it."""
    answer = await service(request).rematch(game_id, bearer(request), client_of(request))
    return JSONResponse(answer)
