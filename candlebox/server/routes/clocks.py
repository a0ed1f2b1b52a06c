"""A seat out of time handed to its bot by another player (issue 35; candlebox/server/clockwatch.py):
the caller's seat credential (or the session of the account holding a seat) is what it needs."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from candlebox.server import bodies
from candlebox.server.routes.common import bearer, seat_account, service

router = APIRouter()


@router.post("/api/games/{game_id}/seats/{seat}/timeout")
async def api_timeout(game_id: str, seat: int, request: Request) -> JSONResponse:
    """409 ``not-out-of-time`` while the seat has time left; 403 for a spectator or the seat
    itself. A rated table ends: the seat loses on time."""
    seat = bodies.seat_number(seat)
    by = await seat_account(request)  # no credential sent: the signed-in account's seat
    done = await service(request).time_out(game_id, seat, bearer(request), by)
    if done == "lost":
        return JSONResponse({"seat": seat, "status": "lost-on-time"})
    return JSONResponse({"seat": seat, "kind": "bot", "status": "bot"})
