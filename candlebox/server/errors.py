"""What a client is told when a request is refused: a stable code, a message in words, a status.
Nothing else of an exception ever reaches a client (no traceback, path or driver message)."""

from __future__ import annotations

import math
from typing import Any

from sqlalchemy.exc import SQLAlchemyError


class Rejected(Exception):
    """A request refused with a reason; nothing was changed. ``code`` is stable, ``message`` human."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.headers: dict[str, str] = {}
        self.details: dict[str, Any] = {}  # facts a client may show beside the message

    def with_details(self, **details: Any) -> Rejected:
        """The same refusal, its body carrying ``details`` too (what a limit is, how much is used)."""
        self.details.update(details)
        return self

    def retry_in(self, seconds: float) -> Rejected:
        """The same refusal, telling the client when to try again (``Retry-After``)."""
        self.headers["Retry-After"] = str(max(1, math.ceil(seconds)))
        return self

    def payload(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.details}


def failure(exc: BaseException) -> Rejected:
    """What a client is told of an unexpected exception: a generic message and nothing of the
    exception itself (no traceback, path, driver message); the details go to the server's log."""
    if isinstance(exc, SQLAlchemyError | OSError):
        return Rejected("unavailable", "the game store cannot be reached; try again shortly", 503)
    return Rejected("internal", "the server could not handle this request", 500)
