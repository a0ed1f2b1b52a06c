"""E-mail for accounts (docs/server.md, "E-mail"): confirming an address, and "forgot password".

- ``GET /verify?token=...`` — the page a verification mail links to (a button confirms: a mail
  scanner that opens links confirms nothing)
- ``POST /api/accounts/verify`` ``{token}`` → ``{name, email, email_verified}``
- ``POST /api/accounts/verify/send`` → 202: another link to the signed-in account's address
- ``POST /api/accounts/forgot`` ``{name}`` or ``{email}`` → 202, the same answer whether or not
  an account matched (the mail is written after the answer); 501 when the server sends no mail
  (its operator can make a link: ``candlebox accounts reset NAME``)
"""

from __future__ import annotations

import asyncio
import logging
import time

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, JSONResponse
from starlette.background import BackgroundTask

from candlebox.server import bodies
from candlebox.server.account_mail import AccountMail
from candlebox.server.accounts import Account
from candlebox.server.errors import Rejected
from candlebox.server.mail import Mailer
from candlebox.server.routes.common import accounts, body, client_of, settings, signed_in
from candlebox.server.routes.pages import STATIC

router = APIRouter()
log = logging.getLogger("candlebox.server")
FORGOT_ANSWER = (
    "if an account has that name, or confirmed that address, a link to set a new password is "
    "on its way to its e-mail address"
)
NO_MAIL = (
    "this server sends no e-mail: ask its operator for a link to set a new password "
    "(they make one with `candlebox accounts reset NAME`)"
)


def mailer(request: Request) -> Mailer:
    found: Mailer = request.app.state.mail
    return found


def account_mail(request: Request) -> AccountMail:
    return AccountMail(accounts(request), mailer(request).outbox)


async def send_verification(request: Request, account: Account) -> None:
    """After a sign-up with an address, when the server sends mail: the link confirming it. The
    account is made already: a failure here is logged, and the player can ask for another link."""
    if account.email is None or not mailer(request).configured:
        return
    try:
        await asyncio.to_thread(account_mail(request).send_verification, account)
    except Exception:
        log.exception("the confirmation mail of a new account could not be written")
        return
    mailer(request).wake()


@router.post("/api/accounts/verify/send")
async def api_send_verification(request: Request) -> JSONResponse:
    """Another link confirming the signed-in account's address (the first was lost, or ended)."""
    session = await signed_in(request)
    account = session.account
    if not mailer(request).configured:
        raise Rejected("no-mail", "this server sends no e-mail", 501)
    if account.email is None:
        raise Rejected("email-missing", "this account has no e-mail address")
    if account.email_verified:
        raise Rejected("email-verified", "this account's address is confirmed already", 409)
    store = accounts(request)
    counted = f"verify:{account.id}"
    limit = settings(request).forgot_limit
    await asyncio.to_thread(
        store.refuse_if_throttled, {counted: limit}, time.time(), "confirmation links"
    )
    await asyncio.to_thread(store.count_failures, [counted], time.time())
    await asyncio.to_thread(account_mail(request).send_verification, account)
    mailer(request).wake()
    return JSONResponse({"sent_to": account.email}, status_code=202)


@router.get("/verify", include_in_schema=False)
async def verify_page() -> FileResponse:
    return FileResponse(STATIC / "verify.html", media_type="text/html")


@router.post("/api/accounts/verify")
async def api_verify(request: Request) -> JSONResponse:
    spec = await body(request, bodies.VerifySpec)
    account = await asyncio.to_thread(account_mail(request).verify, spec.token)
    return JSONResponse(
        {"name": account.name, "email": account.email, "email_verified": account.email_verified}
    )


@router.post("/api/accounts/forgot")
async def api_forgot(request: Request) -> JSONResponse:
    spec = await body(request, bodies.ForgotSpec)
    if (spec.name is None) == (spec.email is None):
        raise Rejected("forgot-field", "send your account's name or its e-mail address (one)")
    if not mailer(request).configured:
        raise Rejected("no-mail", NO_MAIL, 501)
    store = accounts(request)
    counted = f"forgot-address:{client_of(request)}"[:128]
    limit = settings(request).forgot_limit
    await asyncio.to_thread(
        store.refuse_if_throttled, {counted: limit}, time.time(), "password reset requests"
    )
    await asyncio.to_thread(store.count_failures, [counted], time.time())

    async def send() -> None:  # after the answer: finding an account or not takes no time of it
        try:
            await asyncio.to_thread(account_mail(request).forgot, spec.name, spec.email)
        except Exception:  # the answer is sent: the log is the only place left to tell
            log.exception("a password reset mail could not be written")
        mailer(request).wake()

    return JSONResponse(
        {"message": FORGOT_ANSWER}, status_code=202, background=BackgroundTask(send)
    )
