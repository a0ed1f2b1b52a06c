"""``GET /api/meta``, the lobby's lists and ``POST /api/games``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import JSONResponse

from candlebox.server import bodies
from candlebox.server.routes.common import account_of, body, client_of, service

router = APIRouter()


@router.get("/api/meta")
async def api_meta(request: Request) -> dict[str, Any]:
    meta_data: dict[str, Any] = request.app.state.meta
    return meta_data


@router.get("/api/games")
async def api_lobby(
    request: Request,
    which: Annotated[str | None, Query(alias="list")] = None,
    limit: int | None = None,
    cursor: str | None = None,
) -> JSONResponse:
    """The first page of each list, or (``list=open|playing|finished``) the page after
    ``cursor``; each with the cursor of the page after it."""
    query = bodies.lobby_query(which, limit, cursor)
    if query.which is None:
        return JSONResponse(await service(request).pages.first_pages(query.limit))
    games, after = await service(request).pages.page(query.which, query.limit, query.cursor)
    return JSONResponse({"list": query.which, "games": games, "next": after})


@router.post("/api/games")
async def api_create(request: Request) -> JSONResponse:
    spec = await body(request, bodies.CreateSpec, bodies.CREATE_CODES)
    account = await account_of(request)  # signed in: the creator's seat is the account's
    created = await service(request).create(spec, client_of(request), account)
    return JSONResponse(created, status_code=201)
