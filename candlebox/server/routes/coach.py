"""Hints during a game and reviews of a finished one (candlebox/server/coaching.py)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from candlebox.server import bodies
from candlebox.server.routes.common import bearer, body, service

router = APIRouter()


@router.post("/api/games/{game_id}/hint")
async def api_hint(game_id: str, request: Request) -> JSONResponse:
    """The caller's seat's legal actions ranked by the search, with their win chances."""
    return JSONResponse(await service(request).coach.hint(game_id, bearer(request)))


@router.post("/api/games/{game_id}/review")
async def api_start_review(game_id: str, request: Request) -> JSONResponse:
    """Start reviewing a seat's decisions in a finished game (or report the review under way)."""
    asked = await body(request, bodies.ReviewSpec)
    return JSONResponse(await service(request).coach.start_review(game_id, asked.seat), 202)


@router.get("/api/games/{game_id}/review")
async def api_review(game_id: str, request: Request, seat: int = 0) -> JSONResponse:
    """A review's progress, then the review itself."""
    return JSONResponse(await service(request).coach.review(game_id, bodies.seat_number(seat)))
