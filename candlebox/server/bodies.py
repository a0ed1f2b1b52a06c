"""The request bodies of the HTTP API as strict msgspec structures, checked at the boundary: a wrong
type (``"public": "false"``), an unknown field or a missing one is a 400 naming the field, before the
service sees anything."""

from __future__ import annotations

import re
from typing import Annotated, Any, TypeVar

import msgspec

from candlebox.server.service import Rejected

T = TypeVar("T")

Seed = Annotated[int, msgspec.Meta(ge=0, le=(1 << 63) - 1)]
Short = Annotated[str, msgspec.Meta(max_length=200)]


class SeatSpec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    kind: Short = "human"
    name: Short | None = None
    bot: Short | None = None
    strength: float | Short | None = None  # 0 weakest … 1 strongest (or a level's name)
    params: dict[str, Any] | None = None
    level: float | Short | None = None  # another name for strength (issue 12, part A)


class CreateSpec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    game: Short
    seats: Annotated[list[SeatSpec], msgspec.Meta(max_length=16)]
    variant: Short | None = None
    options: dict[str, Any] | None = None
    seed: Seed | None = None
    bot_delay: float | None = None
    you: int | None = None
    public: bool = True
    practice: bool = False  # a practice game may fix the deck or the content (issue 12, part A)


class ClaimSpec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    name: Short | None = None
    invite: Short | None = None


class BotSpec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    bot: Short | None = None
    strength: float | Short | None = None


class MoveSpec(msgspec.Struct, forbid_unknown_fields=True):
    action: Short
    expect: int  # the move number the action answers: a retried move is refused, never re-applied


# the error code for a bad field of a game's creation, as the service names them
CREATE_CODES = {
    "game": "bad-game",
    "seats": "bad-seats",
    "variant": "bad-variant",
    "options": "bad-options",
    "seed": "bad-seed",
    "bot_delay": "bad-delay",
    "you": "bad-seat",
    "public": "bad-public",
}
SEAT_CODES = {"bot": "bad-bot", "strength": "bad-bot", "level": "bad-bot", "params": "bad-bot"}
_FIELD = re.compile(r"\$\.(\w+)(?:\[\d+\]\.(\w+))?")


def convert(data: dict[str, Any], kind: type[T], codes: dict[str, str] | None = None) -> T:
    """A decoded JSON object as a ``kind``; :class:`Rejected` (400) naming the field for anything
    else (a wrong type, an unknown or a missing field)."""
    try:
        return msgspec.convert(data, type=kind, strict=True)
    except msgspec.ValidationError as exc:
        text = str(exc)
        code = "malformed"
        found = _FIELD.search(text)
        if codes is not None and found is not None:
            code = codes.get(found.group(1), code)
            if found.group(1) == "seats" and found.group(2):
                code = SEAT_CODES.get(found.group(2), code)
        raise Rejected(code, f"the request is not valid: {text}") from None


def plain(spec: msgspec.Struct) -> dict[str, Any]:
    """A checked body as the plain data the service takes (fields left out stay out)."""
    data = msgspec.to_builtins(spec)
    assert isinstance(data, dict)
    return data
