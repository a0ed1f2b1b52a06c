"""Passkeys (docs/server.md, "Passkeys"): a signed-in player registers, lists and removes passkeys;
anyone signs in with one and gets the same session cookie as a password sign-in. Each ceremony is
two requests: its options (with a ``flow`` token to send back), then the browser's answer.

- ``POST /api/passkeys/register/options`` → ``{flow, options}`` (signed in)
- ``POST /api/passkeys`` ``{flow, credential, name?}`` → 201 the new passkey
- ``GET /api/passkeys`` → ``{passkeys: [{id, name, created_at, used_at}]}``
- ``DELETE /api/passkeys/{id}``
- ``POST /api/passkeys/sign-in/options`` → ``{flow, options}``
- ``POST /api/passkeys/sign-in`` ``{flow, credential}`` → 200 the account, and the cookie
- ``GET /passkeys`` — the page that does these in the browser
"""

from __future__ import annotations

import asyncio
import dataclasses

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse, Response

from candlebox.server import bodies
from candlebox.server.passkeys import Passkeys, RelyingParty, relying_party
from candlebox.server.routes.accounts import account_json, over_https, with_cookie
from candlebox.server.routes.common import accounts, body, client_of, settings, signed_in
from candlebox.server.routes.pages import STATIC

router = APIRouter()


def passkeys(request: Request) -> Passkeys:
    return Passkeys(accounts(request))


def party(request: Request) -> RelyingParty:
    """The relying party this request's passkeys belong to, or why passkeys cannot work here."""
    return relying_party(
        settings(request).public_url, over_https(request), request.headers.get("host")
    )


@router.get("/passkeys", include_in_schema=False)
async def passkeys_page() -> FileResponse:
    return FileResponse(STATIC / "passkeys.html", media_type="text/html")


@router.post("/api/passkeys/register/options")
async def api_register_options(request: Request) -> JSONResponse:
    session = await signed_in(request)
    rp = party(request)
    flow, options = await asyncio.to_thread(
        passkeys(request).registration_options, session, rp, client_of(request)
    )
    return JSONResponse({"flow": flow, "options": options})


@router.post("/api/passkeys")
async def api_register(request: Request) -> JSONResponse:
    session = await signed_in(request)
    rp = party(request)
    spec = await body(request, bodies.PasskeyRegistrationSpec)
    made = await asyncio.to_thread(
        passkeys(request).register, session, rp, spec.flow, spec.credential, spec.name
    )
    return JSONResponse(dataclasses.asdict(made), status_code=201)


@router.get("/api/passkeys")
async def api_passkeys(request: Request) -> JSONResponse:
    session = await signed_in(request)
    held = await asyncio.to_thread(passkeys(request).held, session.account)
    return JSONResponse({"passkeys": [dataclasses.asdict(key) for key in held]})


@router.delete("/api/passkeys/{passkey_id}")
async def api_remove(request: Request, passkey_id: int) -> JSONResponse:
    session = await signed_in(request)
    number = bodies.convert({"id": passkey_id}, bodies.PasskeyId).id
    await asyncio.to_thread(passkeys(request).remove, session.account, number)
    return JSONResponse({"removed": number})


@router.post("/api/passkeys/sign-in/options")
async def api_sign_in_options(request: Request) -> JSONResponse:
    rp = party(request)
    flow, options = await asyncio.to_thread(
        passkeys(request).sign_in_options, rp, client_of(request)
    )
    return JSONResponse({"flow": flow, "options": options})


@router.post("/api/passkeys/sign-in")
async def api_sign_in(request: Request) -> Response:
    rp = party(request)
    spec = await body(request, bodies.PasskeySignInSpec)
    account, token = await asyncio.to_thread(
        passkeys(request).sign_in, rp, spec.flow, spec.credential, client_of(request)
    )
    return with_cookie(JSONResponse(account_json(account)), request, token)
