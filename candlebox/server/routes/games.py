"""A game's public facts, what a seat sees now, replays, the saved-game file, the map and the
words of its components."""

from __future__ import annotations

import asyncio

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from candlebox.server import bodies, words
from candlebox.server.routes.common import bearer, seat_account, service, settings

router = APIRouter()


@router.get("/api/games/{game_id}")
async def api_game(game_id: str, request: Request) -> JSONResponse:
    return JSONResponse(await service(request).describe(game_id))


@router.get("/api/games/{game_id}/state")
async def api_state(game_id: str, request: Request) -> Response:
    frame = await service(request).state_frame(
        game_id, bearer(request), await seat_account(request)
    )
    return Response(frame, media_type="application/json")


@router.get("/api/games/{game_id}/replay")
async def api_replay(game_id: str, request: Request, at: int = 0) -> JSONResponse:
    query = bodies.convert({"at": at}, bodies.ReplayQuery, bodies.REPLAY_CODES)
    return JSONResponse(await service(request).replay(game_id, bearer(request), query.at))


@router.get("/api/games/{game_id}/saved")
async def api_saved(game_id: str, request: Request) -> JSONResponse:
    """A finished game as a saved-game file, with its seed and nonce revealed (public: the game
    is over, so nothing in it is secret any more)."""
    name, data = await service(request).saved(game_id)
    return JSONResponse(data, headers={"Content-Disposition": f'attachment; filename="{name}"'})


@router.get("/api/games/{game_id}/board")
async def api_board(game_id: str, request: Request) -> JSONResponse:
    board = await service(request).board(game_id)
    return JSONResponse(board, headers={"Cache-Control": "private, max-age=3600"})


@router.get("/api/games/{game_id}/components")
async def api_components(game_id: str, request: Request) -> Response:
    """Every code the game can show, with its name and effect text (``candlebox.components`` of
    its configuration): the page names cards, tiles and log chips from these (public facts)."""
    live = await service(request).any_game(game_id)
    data = await asyncio.to_thread(words.components_json, settings(request), live.record)
    return Response(
        data, media_type="application/json", headers={"Cache-Control": "private, max-age=3600"}
    )
