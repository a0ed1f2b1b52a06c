"""What the routes share: the service and settings the app holds, the caller's credential and
address, and a request body read as a checked structure."""

from __future__ import annotations

import asyncio
from typing import TypeVar

from fastapi import Request

from candlebox.server import bodies, clients
from candlebox.server.accounts import Account, Accounts, Session
from candlebox.server.config import Settings
from candlebox.server.errors import Rejected
from candlebox.server.friends import Friends
from candlebox.server.middleware import SESSION_COOKIE
from candlebox.server.service import GameService

T = TypeVar("T")


def service(request: Request) -> GameService:
    svc: GameService = request.app.state.service
    return svc


def settings(request: Request) -> Settings:
    chosen: Settings = request.app.state.settings
    return chosen


def accounts(request: Request) -> Accounts:
    found: Accounts = request.app.state.accounts
    return found


def friends(request: Request) -> Friends:
    found: Friends = request.app.state.friends
    return found


async def session_of(request: Request) -> Session | None:
    """The signed-in player's session from the cookie (None: a guest, or an ended session)."""
    token = request.cookies.get(SESSION_COOKIE)
    if token is None:
        return None
    return await asyncio.to_thread(accounts(request).session, token)


async def account_of(request: Request) -> Account | None:
    session = await session_of(request)
    return None if session is None else session.account


async def signed_in(request: Request) -> Session:
    """The session, or 401 for a guest."""
    session = await session_of(request)
    if session is None:
        raise Rejected("signed-out", "sign in first", 401)
    return session


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return None


async def seat_account(request: Request) -> int | None:
    """The signed-in account that stands for a seat credential when the request sends none (a
    player on another device than the one holding the seat link); None when a credential is sent
    (it is checked on its own, and no session is looked up) or for a guest."""
    if bearer(request) is not None:
        return None
    account = await account_of(request)
    return None if account is None else account.id


def client_of(request: Request) -> str:
    peer = request.client.host if request.client else None
    return clients.client_address(peer, request.headers, settings(request))


async def body(request: Request, kind: type[T], codes: dict[str, str] | None = None) -> T:
    return bodies.body(await request.body(), settings(request).max_body, kind, codes)
