"""For the people running the server: ``/healthz`` (is this process able to serve: its database
answers) and ``/metrics`` (Prometheus text; only for the addresses in ``metrics_from``, loopback by
default, and never through a proxy — see docs/deploy.md)."""

from __future__ import annotations

import asyncio
import logging
import time

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response

from candlebox.server import metrics
from candlebox.server.routes.common import service, settings

log = logging.getLogger("candlebox.server")
router = APIRouter()
FORWARDED = ("x-forwarded-for", "forwarded", "x-real-ip")


@router.get("/healthz")
async def healthz(request: Request) -> JSONResponse:
    """200 ``{"status": "ok"}`` when the database answers; 503 otherwise (no details: those go to
    the log)."""
    ok = await asyncio.to_thread(service(request).registry.storage.ping)
    return JSONResponse({"status": "ok" if ok else "unavailable"}, status_code=200 if ok else 503)


@router.get("/metrics")
async def metrics_text(request: Request) -> Response:
    allowed = settings(request).metrics_from
    peer = request.client.host if request.client else None
    if peer not in allowed or any(name in request.headers for name in FORWARDED):
        return JSONResponse({"error": "not-found", "message": "not found"}, status_code=404)
    svc = service(request)
    queue = -1
    if svc.settings.bots == "workers":
        try:
            queue = await asyncio.to_thread(svc.registry.storage.bot_queue, time.time())
        except Exception:
            log.exception("counting the bot queue failed")
    stats = svc.moves.stats
    text = metrics.render(
        stats["moves"],
        stats["bot_moves"],
        stats["rejected"],
        svc.moves.latency,
        queue,
        svc.clients(),
    )
    return PlainTextResponse(text, media_type="text/plain; version=0.0.4")
