"""Players' public pages and the leaderboards (issue 34; candlebox/server/ratings.py): a profile by
name, a game's leaderboard a page at a time, and the pages that show them."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse

from candlebox.server import ratings
from candlebox.server.accounts import NAME_MAX, name_key
from candlebox.server.errors import Rejected
from candlebox.server.routes.common import accounts
from candlebox.server.routes.pages import STATIC

router = APIRouter()
pages = APIRouter(include_in_schema=False)


def no_player(name: str) -> Rejected:
    # the same answer for a name never taken and a deleted account's
    return Rejected("no-player", f"there is no player named {name[:NAME_MAX]!r}", 404)


@router.get("/api/players/{name}")
async def api_player(name: str, request: Request) -> JSONResponse:
    """A player's profile: name, member since, a rating and a record per game, recent public
    finished games (never a private one)."""
    if len(name) > 4 * NAME_MAX:  # longer than any name's key can be: no lookup
        raise no_player(name)
    found = await asyncio.to_thread(_profile, request, name_key(name))
    if found is None:
        raise no_player(name)
    return JSONResponse(found)


def _profile(request: Request, key: str) -> dict[str, Any] | None:
    with accounts(request).engine.connect() as conn:
        return ratings.profile(conn, key)


@router.get("/api/leaderboard/{game}")
async def api_leaderboard(game: str, request: Request, page: str = "1") -> JSONResponse:
    """A game's established ratings, best first, ``page`` (1, 2, ...) of ``PAGE_SIZE`` each, with
    the bot levels measured on the same scale for reference."""
    number = ratings.check_page(page)
    ratings.check_game(game)
    board = await asyncio.to_thread(_board, request, game, number)
    return JSONResponse(board)


def _board(request: Request, game: str, page: int) -> dict[str, Any]:
    with accounts(request).engine.connect() as conn:
        return ratings.leaderboard(conn, game, page)


@pages.get("/u/{name}")
async def profile_page(name: str) -> FileResponse:
    return FileResponse(STATIC / "player.html", media_type="text/html")


@pages.get("/leaderboard/{game}")
async def leaderboard_page(game: str) -> FileResponse:
    return FileResponse(STATIC / "leaderboard.html", media_type="text/html")
