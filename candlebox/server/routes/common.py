"""What the routes share: the service and settings the app holds, the caller's credential and
address, and a request body read as a checked structure."""

from __future__ import annotations

from typing import TypeVar

from fastapi import Request

from candlebox.server import bodies, clients
from candlebox.server.config import Settings
from candlebox.server.service import GameService

T = TypeVar("T")


def service(request: Request) -> GameService:
    svc: GameService = request.app.state.service
    return svc


def settings(request: Request) -> Settings:
    chosen: Settings = request.app.state.settings
    return chosen


def bearer(request: Request) -> str | None:
    header = request.headers.get("authorization", "")
    if header.lower().startswith("bearer "):
        return header[7:].strip()
    return None


def client_of(request: Request) -> str:
    peer = request.client.host if request.client else None
    return clients.client_address(peer, request.headers, settings(request))


async def body(request: Request, kind: type[T], codes: dict[str, str] | None = None) -> T:
    return bodies.body(await request.body(), settings(request).max_body, kind, codes)
