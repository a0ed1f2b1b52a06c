"""Accounts (docs/server.md, "Accounts and ratings"): signing up, in and out, the signed-in
player's own page of data (``/api/me``), deleting and exporting it, a password reset with an
operator's link, and the guest seats of a browser claimed by the account (``/api/me/claim``).

The session travels in an HttpOnly, SameSite=Lax cookie (Secure when the request came over HTTPS);
the middleware refuses a state-changing request with the cookie that does not come from this site.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from candlebox.server import bodies, ratings
from candlebox.server.accounts import Account, Session
from candlebox.server.friends import Invitation
from candlebox.server.middleware import SESSION_COOKIE
from candlebox.server.routes.common import (
    accounts,
    body,
    client_of,
    friends,
    service,
    session_of,
    settings,
    signed_in,
)
from candlebox.server.routes.email import send_verification

router = APIRouter()


def over_https(request: Request) -> bool:
    """Whether the browser reached us over HTTPS: directly, or through a trusted proxy that says
    so in ``X-Forwarded-Proto`` (anyone else could write that header)."""
    if request.url.scheme == "https":
        return True
    peer = request.client.host if request.client else None
    if peer is None or peer not in settings(request).trusted_proxies:
        return False
    proto = request.headers.get("x-forwarded-proto", "").split(",")[0].strip().lower()
    return proto == "https"


def with_cookie(response: Response, request: Request, token: str) -> Response:
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=int(accounts(request).session_seconds),
        path="/",
        httponly=True,
        samesite="lax",
        secure=over_https(request),
    )
    return response


def without_cookie(response: Response, request: Request) -> Response:
    response.delete_cookie(
        SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=over_https(request)
    )
    return response


def account_json(account: Account) -> dict[str, Any]:
    return {
        "name": account.name,
        "email": account.email,
        "email_verified": account.email_verified,
        "member_since": account.created_at,
    }


@router.post("/api/accounts")
async def api_sign_up(request: Request) -> Response:
    spec = await body(request, bodies.AccountSpec)
    account, token = await asyncio.to_thread(
        accounts(request).sign_up, spec.name, spec.password, spec.email
    )
    await send_verification(request, account)  # when the server sends mail
    return with_cookie(JSONResponse(account_json(account), status_code=201), request, token)


@router.post("/api/session")
async def api_sign_in(request: Request) -> Response:
    spec = await body(request, bodies.SignInSpec)
    account, token = await asyncio.to_thread(
        accounts(request).sign_in, spec.name, spec.password, client_of(request)
    )
    return with_cookie(JSONResponse(account_json(account)), request, token)


@router.delete("/api/session")
async def api_sign_out(request: Request, everywhere: bool = False) -> Response:
    """Sign out this browser, or (``?everywhere=true``) every browser signed in to the account."""
    session = await signed_in(request)
    await asyncio.to_thread(accounts(request).sign_out, session, everywhere)
    return without_cookie(
        JSONResponse({"signed_out": "everywhere" if everywhere else "here"}), request
    )


@router.get("/api/session")
async def api_session(request: Request) -> Response:
    """Whether this browser is signed in, and as whom: asked by every page before ``/api/me``,
    since a guest is a normal visitor, answered 200 (a 401 is logged by the browser as an error)."""
    session = await session_of(request)
    if session is None:
        return JSONResponse({"signed_in": False})
    return kept_on(
        JSONResponse({"signed_in": True, "name": session.account.name}), request, session
    )


def kept_on(response: Response, request: Request, session: Session) -> Response:
    """The response, with the cookie sent again when the session's end moved on with this use."""
    if session.extended:
        with_cookie(response, request, request.cookies[SESSION_COOKIE])
    return response


@router.get("/api/me")
async def api_me(request: Request) -> Response:
    """The signed-in player: name, e-mail, member since, their games (those waiting for them
    first, then the others being played, then the rest, each newest first) and the invitations
    into seats waiting for their answer."""
    session = await signed_in(request)
    games = await your_games(request, session.account)
    invites = await asyncio.to_thread(friends(request).invitations, session.account)
    records = await asyncio.to_thread(your_ratings, request, session.account)
    response = JSONResponse(
        {
            **account_json(session.account),
            "ratings": records,
            "games": games,
            "invites": [invitation_json(invite) for invite in invites],
        }
    )
    return kept_on(response, request, session)


def invitation_json(invite: Invitation) -> dict[str, Any]:
    return {
        "id": invite.id,
        "game_id": invite.game_id,
        "game": invite.game,
        "variant": invite.variant,
        "seat": invite.seat,
        "from": invite.by,
        "at": invite.at,
    }


@router.post("/api/me/claim")
async def api_claim_seats(request: Request) -> JSONResponse:
    """Bind to the signed-in account the guest seats this browser holds (``{"seats": [{"game",
    "token"}, ...]}``, at most 100): each seat whose token checks out and that no account holds.
    Answers the seats bound; the others (a wrong token, another account's seat, a game gone) are
    left as they were and not told apart."""
    session = await signed_in(request)
    spec = await body(request, bodies.ClaimSeatsSpec)
    held = [(seat.game, seat.token) for seat in spec.seats]
    bound = await asyncio.to_thread(accounts(request).claim_seats, session.account, held)
    service(request).seats_bound(session.account.id, bound)
    return JSONResponse({"claimed": [{"game": game, "seat": seat} for game, seat in bound]})


def your_ratings(request: Request, account: Account) -> list[dict[str, Any]]:
    """The account's rating and record per game (as its profile shows them)."""
    with accounts(request).engine.connect() as conn:
        return ratings.records_of(conn, account.id)


async def your_games(request: Request, account: Account) -> list[dict[str, Any]]:
    rows = await asyncio.to_thread(accounts(request).seats_of, account)
    for row in rows:
        waiting = await service(request).to_act(row["id"]) if row["status"] == "live" else ()
        row["your_turn"] = row["seat"] in waiting
    rows.sort(key=lambda row: (not row["your_turn"], row["status"] != "live"))  # stable: newest
    return rows


@router.delete("/api/me")
async def api_delete_me(request: Request) -> Response:
    """Delete the account (its password asked again): its sessions end, and its name becomes
    "deleted player" in the games it finished."""
    session = await signed_in(request)
    spec = await body(request, bodies.PasswordSpec)
    store = accounts(request)
    await asyncio.to_thread(store.confirm, session.account, spec.password)
    finished = await asyncio.to_thread(store.delete, session.account)
    service(request).account_deleted(session.account.id, finished)
    return without_cookie(JSONResponse({"deleted": session.account.name}), request)


@router.get("/api/me/export")
async def api_export(request: Request) -> JSONResponse:
    session = await signed_in(request)
    data = await asyncio.to_thread(accounts(request).export, session.account)
    # a fixed file name: a name may have letters a header cannot carry
    return JSONResponse(
        data, headers={"Content-Disposition": 'attachment; filename="candlebox-account.json"'}
    )


@router.post("/api/accounts/reset")
async def api_reset(request: Request) -> JSONResponse:
    """A new password with a one-time link from ``candlebox accounts reset NAME``; every session of
    the account ends (sign in again with the new password)."""
    spec = await body(request, bodies.ResetSpec)
    account = await asyncio.to_thread(accounts(request).reset_password, spec.token, spec.password)
    return JSONResponse({"name": account.name})
