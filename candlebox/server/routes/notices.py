"""Notices (issue 35; docs/server.md, "Turn-based games and notices"): the signed-in player's
notices and where it is their turn (``/api/me/notices``), marking them read, what they want told
outside the site, their browsers' Web Push subscriptions (``/api/me/push``), the service worker
(``/sw.js``) and the one-click unsubscribe link of the mail (``/unsubscribe``, RFC 8058)."""

from __future__ import annotations

import asyncio
import html
from typing import Annotated, Any

import msgspec
from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response

from candlebox.server import bodies
from candlebox.server.errors import Rejected
from candlebox.server.middleware import ONE_CLICK as UNSUBSCRIBE_PATH
from candlebox.server.notice_senders import NoticeSenders
from candlebox.server.notices import Notice, Preferences
from candlebox.server.pushing import Subscription
from candlebox.server.routes.accounts import your_games
from candlebox.server.routes.common import body, settings, signed_in
from candlebox.server.routes.pages import STATIC

router = APIRouter()

NoticeId = Annotated[int, msgspec.Meta(ge=1, le=bodies.MAX_NUMBER)]
PushKey = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]
Endpoint = Annotated[str, msgspec.Meta(min_length=8, max_length=1000)]


class ReadSpec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """``POST /api/me/notices/read``: the notices read, or all of them."""

    ids: Annotated[list[NoticeId], msgspec.Meta(max_length=100)] | None = None
    all: bool = False


class PreferencesSpec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """``POST /api/me/notices/preferences``: what changes (the rest stays)."""

    turn_mail: bool | None = None
    digest: bool | None = None
    push: bool | None = None


class PushKeys(msgspec.Struct, forbid_unknown_fields=True):
    p256dh: PushKey
    auth: PushKey


class PushSpec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """``POST /api/me/push``: a browser's PushSubscription as its ``toJSON()`` gives it."""

    endpoint: Endpoint
    keys: PushKeys
    expirationTime: float | None = None


class EndpointSpec(msgspec.Struct, forbid_unknown_fields=True):
    endpoint: Endpoint


def senders(request: Request) -> NoticeSenders:
    found: NoticeSenders = request.app.state.notices
    return found


def notice_json(notice: Notice) -> dict[str, Any]:
    return {
        "id": notice.id,
        "game_id": notice.game_id,
        "kind": notice.kind,
        "text": notice.text,
        "at": notice.at,
        "read": notice.read,
    }


async def preferences_json(request: Request, chosen: Preferences) -> dict[str, Any]:
    push_key = await asyncio.to_thread(senders(request).pusher.application_key)
    return {
        "turn_mail": chosen.turn_mail,
        "digest": chosen.digest,
        "push": chosen.push,
        "mail": bool(settings(request).smtp_url),  # whether this server sends mail at all
        "push_key": push_key,  # the browser's applicationServerKey
    }


@router.get("/api/me/notices")
async def api_notices(request: Request) -> JSONResponse:
    """The newest notices, how many are unread, and in how many games it is your turn."""
    session = await signed_in(request)
    found, unread = await asyncio.to_thread(senders(request).notices.listed, session.account.id)
    games = await your_games(request, session.account)
    return JSONResponse(
        {
            "unread": unread,
            "your_turn": sum(1 for game in games if game["your_turn"]),
            "notices": [notice_json(notice) for notice in found],
        }
    )


@router.post("/api/me/notices/read")
async def api_notices_read(request: Request) -> JSONResponse:
    session = await signed_in(request)
    spec = await body(request, ReadSpec, {"ids": "ids", "all": "all"})
    if spec.all == (spec.ids is not None):
        raise Rejected("ids", 'name the notices read ("ids": [...]) or all of them ("all": true)')
    store = senders(request).notices
    done = await asyncio.to_thread(store.mark_read, session.account.id, spec.ids)
    return JSONResponse({"read": done})


@router.get("/api/me/notices/preferences")
async def api_preferences(request: Request) -> JSONResponse:
    session = await signed_in(request)
    chosen = await asyncio.to_thread(senders(request).notices.preferences, session.account.id)
    return JSONResponse(await preferences_json(request, chosen))


@router.post("/api/me/notices/preferences")
async def api_choose(request: Request) -> JSONResponse:
    session = await signed_in(request)
    spec = await body(request, PreferencesSpec)
    store = senders(request).notices
    was = await asyncio.to_thread(store.preferences, session.account.id)
    chosen = Preferences(
        turn_mail=was.turn_mail if spec.turn_mail is None else spec.turn_mail,
        digest=was.digest if spec.digest is None else spec.digest,
        push=was.push if spec.push is None else spec.push,
    )
    await asyncio.to_thread(store.choose, session.account.id, chosen)
    return JSONResponse(await preferences_json(request, chosen))


@router.post("/api/me/push")
async def api_subscribe(request: Request) -> JSONResponse:
    """This browser's push subscription, kept for the account (its latest keys replace any)."""
    session = await signed_in(request)
    spec = await body(request, PushSpec)
    subscription = Subscription(spec.endpoint, spec.keys.p256dh, spec.keys.auth)
    store = senders(request).subscriptions
    await asyncio.to_thread(store.subscribe, session.account.id, subscription)
    return JSONResponse({"subscribed": True}, status_code=201)


@router.delete("/api/me/push")
async def api_unsubscribe_push(request: Request) -> JSONResponse:
    session = await signed_in(request)
    spec = await body(request, EndpointSpec)
    store = senders(request).subscriptions
    gone = await asyncio.to_thread(store.unsubscribe, session.account.id, spec.endpoint)
    return JSONResponse({"unsubscribed": gone})


@router.get("/sw.js", include_in_schema=False)
async def service_worker() -> FileResponse:
    """The service worker, from the site's root so that its scope is the whole site."""
    return FileResponse(
        STATIC / "js" / "sw.js",
        media_type="text/javascript",
        headers={"Service-Worker-Allowed": "/", "Cache-Control": "no-cache"},
    )


# ---------------------------------------------------------------------------- unsubscribe
WHAT = {"turn-mail": "“your turn” e-mails", "digest": "the daily digest"}
PAGE = """<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Candlebox · Unsubscribe</title>
  <link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/static/css/base.css">
  <link rel="stylesheet" href="/static/css/account.css">
</head>
<body class="lobby-page">
  <header class="lobby-hero"><h1><span class="flame-dot"></span>Candlebox</h1></header>
  <main class="account-page">
    <section class="panel">
      <h2>{heading}</h2>
      {content}
    </section>
    <p><a href="/account">Your account page</a> · <a href="/">The lobby</a></p>
  </main>
</body>
</html>
"""


def page(heading: str, content: str, status: int = 200) -> HTMLResponse:
    return HTMLResponse(PAGE.format(heading=heading, content=content), status_code=status)


def _what(token: str) -> str | None:
    kind = token.split(".")[1] if token.count(".") == 2 else ""
    return WHAT.get(kind)


@router.get(UNSUBSCRIBE_PATH, include_in_schema=False)
async def unsubscribe_page(token: str = "") -> HTMLResponse:
    """The link in a mail: a page with one button (opening the link changes nothing, so a mail
    scanner that follows it unsubscribes nobody)."""
    what = _what(token)
    if what is None:
        return page("This link is not valid", "<p>Ask for a new mail.</p>", 400)
    form = (
        f"<p>Stop {html.escape(what)} to this address?</p>"
        '<form method="post"><button class="primary" type="submit">Unsubscribe</button></form>'
    )
    return page("Unsubscribe", form)


@router.post(UNSUBSCRIBE_PATH, include_in_schema=False)
async def unsubscribe(request: Request, token: str = "") -> Response:
    """One click (the page's button, or a mail client's ``List-Unsubscribe-Post``): no sign-in,
    the signed token says whose mail and which."""
    try:
        what = await asyncio.to_thread(senders(request).notices.unsubscribe, token)
    except Rejected:
        return page("This link is not valid", "<p>Nothing was changed.</p>", 400)
    done = f"<p>You will get no more {html.escape(WHAT[what])}.</p>"
    return page("Unsubscribed", done)
