"""Hints during a game and reviews of a finished one (candlebox/server/coaching.py)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from candlebox.server import bodies
from candlebox.server.routes.common import bearer, body, client_of, seat_account, service

router = APIRouter()


@router.post("/api/games/{game_id}/hint")
async def api_hint(game_id: str, request: Request) -> JSONResponse:
    """The caller's seat's legal actions ranked by the search, with their win chances."""
    coach = service(request).coach
    by = await seat_account(request)  # no credential sent: the signed-in account's seat
    return JSONResponse(await coach.hint(game_id, bearer(request), client_of(request), by))


@router.post("/api/games/{game_id}/review")
async def api_start_review(game_id: str, request: Request) -> JSONResponse:
    """Queue a review of a seat's decisions in a finished game, charged to the asking client (or
    report the review waiting or under way)."""
    asked = await body(request, bodies.ReviewSpec)
    coach = service(request).coach
    return JSONResponse(await coach.start_review(game_id, asked.seat, client_of(request)), 202)


@router.get("/api/games/{game_id}/review")
async def api_review(game_id: str, request: Request, seat: int = 0) -> JSONResponse:
    """A review's progress, then the review itself."""
    return JSONResponse(await service(request).coach.review(game_id, bodies.seat_number(seat)))


@router.delete("/api/games/{game_id}/review")
async def api_cancel_review(game_id: str, request: Request, seat: int = 0) -> JSONResponse:
    """Cancel a review waiting or under way: whoever asked for it (or the seat's player)."""
    coach = service(request).coach
    answer = await coach.cancel_review(
        game_id, bodies.seat_number(seat), client_of(request), bearer(request)
    )
    return JSONResponse(answer)
