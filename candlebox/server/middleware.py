"""What every request passes through: per-client rate limits, the origin and content type of
state-changing requests, the size of a body, security headers on every answer, and a catch-all — no
response ever carries an exception's text. (Bodies are also counted and timed as they stream in:
``limits.RequestLimits``.)"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from candlebox.server import clients
from candlebox.server.config import Settings
from candlebox.server.errors import Rejected, failure
from candlebox.server.limits import RequestLimits

log = logging.getLogger("candlebox.server")
Next = Callable[[Request], Awaitable[Response]]
STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})
ONE_CLICK = "/unsubscribe"  # the unsubscribe link of notice mail (issue 35)
SESSION_COOKIE = "candlebox_session"  # a signed-in player's session (candlebox/server/accounts.py)
# A page load fetches about 30 static files (modules, stylesheets) and makes 4 requests (3 to the
# API and the websocket's opening). Counted in full, a player who reloads a few times in a row, or
# opens two games, found a module refused and a blank board; a static file is small and costs the
# server next to nothing, so it counts a tenth.
STATIC_COST = 0.1
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cache-Control": "no-store",
}


def error(exc: Rejected) -> JSONResponse:
    return JSONResponse(exc.payload(), status_code=exc.status, headers=exc.headers or None)


def install(app: FastAPI, settings: Settings, rate: clients.RateLimiter) -> None:
    """The middleware from the innermost out, and our own shape for every error."""
    handle_errors(app)

    @app.middleware("http")
    async def limit_and_catch(request: Request, call_next: Next) -> Response:
        peer = request.client.host if request.client else None
        static = request.method == "GET" and request.url.path.startswith("/static/")
        client = clients.client_address(peer, request.headers, settings)
        wait = rate.wait(client, STATIC_COST if static else 1.0)
        if wait > 0:
            return JSONResponse(
                {"error": "slow-down", "message": "too many requests; wait a moment"},
                status_code=429,
                headers={"Retry-After": rate.retry_after(wait)},
            )
        refused = refusal(request, settings)
        if refused is not None:
            return error(refused)
        try:
            return await call_next(request)
        except Exception as exc:
            log.exception("%s %s failed", request.method, request.url.path)
            return error(failure(exc))

    @app.middleware("http")
    async def size_and_headers(request: Request, call_next: Next) -> Response:
        length = request.headers.get("content-length")
        if length is not None and (not length.isdigit() or int(length) > settings.max_body):
            return error(
                Rejected("too-large", f"requests are at most {settings.max_body} bytes", 413)
            )
        response = await call_next(request)
        for key, value in SECURITY_HEADERS.items():
            if key == "Cache-Control" and request.url.path.startswith("/static/"):
                continue
            response.headers.setdefault(key, value)
        return response

    # Outermost: a body is counted (and timed) as it streams in.
    app.add_middleware(
        RequestLimits, max_body=settings.max_body, body_timeout=settings.body_timeout
    )


def refusal(request: Request, settings: Settings) -> Rejected | None:
    """A state-changing request from another site, or with a body that is not JSON."""
    if request.method not in STATE_CHANGING:
        return None
    if request.url.path == ONE_CLICK:
        # RFC 8058: a mail client posts a form, with no Origin; no cookie authorises it, the
        # link's signed token does (candlebox/server/routes/notices.py)
        return None
    if not clients.same_origin(
        request.headers.get("origin"), request.headers.get("host"), settings
    ):
        return Rejected("cross-origin", "requests that change anything come from this site", 403)
    if SESSION_COOKIE in request.cookies and not _says_where_from(request):
        # a request that a signed-in browser's cookie would authorise must show it comes from
        # this site (a browser always sends Origin with these methods): never a guess
        return Rejected("cross-origin", "requests that change anything come from this site", 403)
    sized = request.headers.get("content-length", "0") != "0"
    if sized or "transfer-encoding" in request.headers:
        kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
        if kind != "application/json":
            return Rejected("media-type", "request bodies are JSON (application/json)", 415)
    return None


def _says_where_from(request: Request) -> bool:
    """An Origin (checked above), or the browser's own word that the page is this site's."""
    if request.headers.get("origin") is not None:
        return True
    return request.headers.get("sec-fetch-site") in ("same-origin", "none")


def handle_errors(app: FastAPI) -> None:
    @app.exception_handler(Rejected)
    async def rejected(request: Request, exc: Rejected) -> Response:
        return error(exc)

    @app.exception_handler(RequestValidationError)
    async def bad_parameter(request: Request, exc: RequestValidationError) -> Response:
        names = [str(e.get("loc", ("", "?"))[-1]) for e in exc.errors()]
        return error(Rejected("malformed", f"not a valid value for: {', '.join(names)}"))

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        codes = {404: "not-found", 405: "method"}
        message = exc.detail if isinstance(exc.detail, str) else "the request was refused"
        return JSONResponse(
            {"error": codes.get(exc.status_code, "refused"), "message": message},
            status_code=exc.status_code,
            headers=exc.headers,
        )
