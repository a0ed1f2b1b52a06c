"""Friends (docs/server.md, "Friends"): following players by name, and inviting one by name into an
open seat of a table you sit at; the invited player takes the seat or declines from "Your games".
Every route needs a session (401 without one); the middleware checks where a request with the
cookie comes from, and the per-client rate limit counts these as any other request."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from candlebox.server import bodies
from candlebox.server.friends import Followed
from candlebox.server.routes.common import bearer, body, friends, service, signed_in

router = APIRouter()


def followed_json(person: Followed) -> dict[str, Any]:
    return {
        "name": person.name,
        "since": person.since,
        "games": [
            {"id": game.id, "game": game.game, "variant": game.variant, "players": game.players}
            for game in person.games
        ],
    }


@router.get("/api/me/follows")
async def api_follows(request: Request) -> JSONResponse:
    """Whom the signed-in player follows, each with their live public games."""
    session = await signed_in(request)
    people = await asyncio.to_thread(friends(request).followed, session.account)
    return JSONResponse({"follows": [followed_json(person) for person in people]})


@router.post("/api/me/follows")
async def api_follow(request: Request) -> JSONResponse:
    """Follow a player: ``{"name": ...}`` (any case)."""
    session = await signed_in(request)
    spec = await body(request, bodies.NameSpec)
    name = await asyncio.to_thread(friends(request).follow, session.account, spec.name)
    return JSONResponse({"followed": name}, status_code=201)


@router.delete("/api/me/follows/{name}")
async def api_unfollow(name: str, request: Request) -> JSONResponse:
    session = await signed_in(request)
    spec = bodies.convert({"name": name}, bodies.NameSpec)
    gone = await asyncio.to_thread(friends(request).unfollow, session.account, spec.name)
    return JSONResponse({"unfollowed": gone})


@router.post("/api/games/{game_id}/seats/{seat}/invite")
async def api_invite(game_id: str, seat: int, request: Request) -> JSONResponse:
    """Invite a player by name (``{"name": ...}``) into an open seat of a live game you sit at
    (your seat's credential as a bearer token, or your account's seat); signed in."""
    seat = bodies.seat_number(seat)
    session = await signed_in(request)
    spec = await body(request, bodies.NameSpec)
    await service(request).check_invitable(game_id, seat, bearer(request), session.account.id)
    name = await asyncio.to_thread(
        friends(request).invite, session.account, game_id, seat, spec.name
    )
    return JSONResponse({"invited": name, "game": game_id, "seat": seat}, status_code=201)


@router.post("/api/me/invites/{invite}/accept")
async def api_accept(invite: int, request: Request) -> JSONResponse:
    """Take the seat an invitation names: it is the account's, under its name (a private game's
    join code is not needed); answers the seat's credential, as a claim does."""
    number = bodies.invite_number(invite)
    session = await signed_in(request)
    store = friends(request)
    game_id, seat = await asyncio.to_thread(store.invitation, session.account, number)
    token = await service(request).seating.claim(
        game_id, seat, bodies.ClaimSpec(), session.account, invited=True
    )
    await asyncio.to_thread(store.answered, game_id, seat)
    return JSONResponse({"game": game_id, "seat": seat, "token": token})


@router.delete("/api/me/invites/{invite}")
async def api_decline(invite: int, request: Request) -> JSONResponse:
    number = bodies.invite_number(invite)
    session = await signed_in(request)
    await asyncio.to_thread(friends(request).decline, session.account, number)
    return JSONResponse({"declined": number})
