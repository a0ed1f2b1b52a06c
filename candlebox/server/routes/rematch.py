"""A rematch of a finished game: ``POST /api/games/{id}/rematch`` with a seat's credential, or
the session of the account that held the seat (another device than the one with the seat link)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from candlebox.server.routes.common import account_of, bearer, client_of, service

router = APIRouter()


@router.post("/api/games/{game_id}/rematch")
async def api_rematch(game_id: str, request: Request) -> JSONResponse:
    """The same table again (game, variant, options, bots); the first player to ask takes their
    seat in it (``token``), a later one gets their seat's ``invite`` to claim it. Signed in, the
    new seat is the account's, as a seat created signed in is."""
    account = await account_of(request)
    answer = await service(request).rematch(game_id, bearer(request), client_of(request), account)
    return JSONResponse(answer)
