"""The lobby, game and account pages (static ES modules, no build step)."""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse

STATIC = Path(str(resources.files("candlebox.server") / "static"))
router = APIRouter(include_in_schema=False)


@router.get("/")
async def lobby_page() -> FileResponse:
    return FileResponse(STATIC / "index.html", media_type="text/html")


@router.get("/g/{game_id}")
async def game_page(game_id: str) -> FileResponse:
    return FileResponse(STATIC / "game.html", media_type="text/html")


# Signing up and in, the account page and a new password from a reset link: one page, whose script
# draws the form its path names (js/accountpage.js).
ACCOUNT_PAGES = ("/signin", "/signup", "/account", "/reset")


async def account_page() -> FileResponse:
    return FileResponse(STATIC / "account.html", media_type="text/html")


for _path in ACCOUNT_PAGES:
    router.add_api_route(_path, account_page, methods=["GET"])
