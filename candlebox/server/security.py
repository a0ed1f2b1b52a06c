"""Seat credentials and invite codes: random tokens given out once; only their SHA-256 is stored."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets

TOKEN_BYTES = 32
_TOKEN_SHAPE = re.compile(r"^[A-Za-z0-9_-]{16,128}$")
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]")
NAME_MAX = 40


def new_token() -> str:
    """A fresh secret (256 bits, URL-safe text)."""
    return secrets.token_urlsafe(TOKEN_BYTES)


def new_game_id() -> str:
    return secrets.token_urlsafe(9)  # 12 characters, 72 bits: unguessable, short enough to share


def digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def well_formed(token: object) -> bool:
    return isinstance(token, str) and bool(_TOKEN_SHAPE.match(token))


def matches(token: object, stored_hash: str | None) -> bool:
    """Whether ``token`` is the credential whose hash is ``stored_hash`` (constant-time compare)."""
    if stored_hash is None or not well_formed(token):
        return False
    assert isinstance(token, str)
    return hmac.compare_digest(digest(token), stored_hash)


def clean_name(name: object, fallback: str) -> str:
    """A player's display name: text without control characters, at most 40 characters."""
    if not isinstance(name, str):
        return fallback
    text = " ".join(_CONTROL.sub("", name).split())[:NAME_MAX]
    return text or fallback
