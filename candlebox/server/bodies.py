"""Everything a client sends, as strict msgspec structures checked at the boundary: the HTTP API's
request bodies and queries and the websocket's messages. A wrong type (``"public": "false"``), an
unknown field (in a body) or a missing one is a 400 (or an error frame) naming the field, before the
service sees anything: the service takes these typed values and never looks at JSON itself."""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal, TypeVar

import msgspec

from candlebox.server.errors import Rejected

T = TypeVar("T")

Seed = Annotated[int, msgspec.Meta(ge=0, le=(1 << 63) - 1)]
# Every other number a client sends (issue 33): the largest PostgreSQL's INTEGER columns hold. A
# larger one reaching the database was a 500 (SQLite) or a 503 as if PostgreSQL were down; checked
# here, it is a 400 naming the field.
MAX_NUMBER = (1 << 31) - 1
MAX_SEATS = 16  # the most seats a game's creation may list
Number = Annotated[int, msgspec.Meta(ge=0, le=MAX_NUMBER)]  # a move number
SeatNumber = Annotated[int, msgspec.Meta(ge=0, le=MAX_SEATS - 1)]
Short = Annotated[str, msgspec.Meta(max_length=200)]
Action = Annotated[str, msgspec.Meta(min_length=1, max_length=200)]  # the game's notation
LobbyList = Literal["open", "playing", "finished"]
LOBBY_LISTS: tuple[LobbyList, ...] = ("open", "playing", "finished")
CURSOR = r"^[0-9]{1,12}(?:\.[0-9]{1,20})?~[A-Za-z0-9_-]{1,32}$"  # lobby.cursor's form


# ---------------------------------------------------------------------------- HTTP bodies
class SeatSpec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    kind: Literal["human", "bot"] = "human"
    name: Short | None = None
    bot: Short | None = None
    strength: float | Short | None = None  # 0 weakest … 1 strongest (or a level's name)
    params: dict[str, Any] | None = None
    level: float | Short | None = None  # another name for strength (issue 12, part A)


# A table's clock (issue 35; candlebox/server/clocks.py checks each mode's limits): seconds, from 1 s to
# 14 days here, so that a wrong type or an absurd number is a 400 naming the field before anything else
MAX_CLOCK = 14 * 86400.0
ClockSeconds = Annotated[float, msgspec.Meta(ge=1, le=MAX_CLOCK)]


class RealtimeClock(
    msgspec.Struct, forbid_unknown_fields=True, tag_field="mode", tag="realtime", kw_only=True
):
    """``{"mode": "realtime", "initial": s, "increment": s}``: each seat's time for the game."""

    initial: ClockSeconds
    increment: Annotated[float, msgspec.Meta(ge=0, le=MAX_CLOCK)] = 0.0


class TurnBasedClock(
    msgspec.Struct, forbid_unknown_fields=True, tag_field="mode", tag="turn-based", kw_only=True
):
    """``{"mode": "turn-based", "per_move": s}``: the time for each move (played over days)."""

    per_move: ClockSeconds


ClockSpec = RealtimeClock | TurnBasedClock


class CreateSpec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    game: Short
    seats: Annotated[list[SeatSpec], msgspec.Meta(min_length=1, max_length=MAX_SEATS)]
    variant: Short | None = None
    options: dict[str, Any] | None = None
    seed: Seed | None = None
    bot_delay: float | None = None
    you: SeatNumber | None = None
    public: bool = True
    practice: bool = False  # a practice game may fix the deck or the content (issue 12, part A)
    hints: bool = False  # every seat may ask for hints (issue 16); shown to everyone
    rated: bool = False  # a rated table (issue 34): signed-in players only, no bots, no hints
    clock: ClockSpec | None = None  # none: no clock (friends, learning); issue 35


class AccountSpec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """``POST /api/accounts``; lengths are checked by the account rules, with their own words."""

    name: str
    password: str
    email: str | None = None


class SignInSpec(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    password: str


class PasswordSpec(msgspec.Struct, forbid_unknown_fields=True):
    password: str  # asked again before the account is deleted


class ResetSpec(msgspec.Struct, forbid_unknown_fields=True):
    token: Short
    password: str


class PasskeySignInSpec(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/passkeys/sign-in``: the flow its options came with, and the browser's answer
    (``PublicKeyCredential.toJSON()``; the webauthn library checks its parts)."""

    flow: Short
    credential: dict[str, Any]


class PasskeyRegistrationSpec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """``POST /api/passkeys``: as a sign-in's, and a name for the passkey (to tell it apart)."""

    flow: Short
    credential: dict[str, Any]
    name: Short | None = None


class PasskeyId(msgspec.Struct, forbid_unknown_fields=True):
    id: Number  # a passkey's, from the path (range-checked as a body's numbers)


class VerifySpec(msgspec.Struct, forbid_unknown_fields=True):
    token: Short  # from the link mailed to the address


class ForgotSpec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """``POST /api/accounts/forgot``: the account's name, or the e-mail address it confirmed."""

    name: Short | None = None
    email: Short | None = None


class QueueSpec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """``POST /api/queue``: the table a player wants (candlebox/server/matchmaking.py); the game,
    variant and count are checked against the games, ``bots_after`` against the server's bound."""

    game: Short
    players: Annotated[int, msgspec.Meta(ge=1, le=MAX_SEATS)]
    variant: Short | None = None
    rated: bool = False
    bots_after: Annotated[float, msgspec.Meta(ge=0)] | None = None  # seconds; None: never


class ClaimSpec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    name: Short | None = None
    invite: Short | None = None


class HeldSeat(msgspec.Struct, forbid_unknown_fields=True):
    """A seat credential a browser kept as a guest: the game and the seat's token."""

    game: Short
    token: Short


MAX_CLAIMS = 100  # seats one claim may bind (a browser keeps a few dozen at most)


class ClaimSeatsSpec(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/me/claim``: the guest seats this browser holds, to bind to the account."""

    seats: Annotated[list[HeldSeat], msgspec.Meta(max_length=MAX_CLAIMS)]


class NameSpec(msgspec.Struct, forbid_unknown_fields=True):
    """A player named (to follow, or to invite into a seat)."""

    name: Annotated[str, msgspec.Meta(min_length=1, max_length=100)]


class InviteQuery(msgspec.Struct, forbid_unknown_fields=True):
    invite: Number  # an invitation's number in a path


class BotSpec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    bot: Short | None = None
    strength: float | Short | None = None


class ReviewSpec(msgspec.Struct, forbid_unknown_fields=True):
    seat: SeatNumber  # whose decisions to review


class MoveSpec(msgspec.Struct, forbid_unknown_fields=True):
    action: Action
    expect: (
        Number  # the move number the action answers: a retried move is refused, never re-applied
    )


class ChatSpec(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/games/{id}/chat``: its length is checked once trimmed (chat.clean_text)."""

    text: Annotated[str, msgspec.Meta(max_length=4000)]


class ReportSpec(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    """``POST /api/games/{id}/chat/{message}/report``: why, in a few words (optional)."""

    reason: Short | None = None


# a chat author's key (candlebox/server/chat.py): an account's name, a guest seat or spectator,
# or the deleted accounts'
AUTHOR = (
    r"^(account:[^\x00-\x1f]{1,40}"
    r"|seat:[A-Za-z0-9_-]{1,32}:[0-9]{1,2}"
    r"|spectator:[A-Za-z0-9_-]{1,32}:[0-9]{1,12}"
    r"|deleted)$"
)


class MuteSpec(msgspec.Struct, forbid_unknown_fields=True):
    """``POST /api/me/mutes``: mute (or unmute) a chat author for yourself."""

    author: Annotated[str, msgspec.Meta(pattern=AUTHOR)]
    muted: bool


class MessageId(msgspec.Struct, forbid_unknown_fields=True):
    message: Number  # a chat message's number in a path


CHAT_CODES = {"text": "bad-text", "reason": "bad-reason", "author": "bad-author"}


# ---------------------------------------------------------------------------- HTTP queries
class LobbyQuery(msgspec.Struct, forbid_unknown_fields=True):
    """``GET /api/games``: no list (the first page of each) or one list's page after ``cursor``."""

    which: LobbyList | None = msgspec.field(default=None, name="list")
    limit: Annotated[int, msgspec.Meta(ge=1, le=MAX_NUMBER)] | None = None
    cursor: Annotated[str, msgspec.Meta(pattern=CURSOR)] | None = None


class ReplayQuery(msgspec.Struct, forbid_unknown_fields=True):
    at: Number = 0  # moves played (its upper bound is the game's)


class SeatQuery(msgspec.Struct, forbid_unknown_fields=True):
    """A seat number in a path (``/seats/{seat}/claim``) or a query (``/review?seat=N``)."""

    seat: SeatNumber


# ---------------------------------------------------------------------------- websocket messages
# Fields a message does not use are ignored, as they always were (the envelope's "type", "ref").
class Hello(msgspec.Struct):
    token: str | None = None  # none: a spectator


class MoveMessage(msgspec.Struct):
    action: Action
    expect: Number


MESSAGE_TYPES = ("move", "ping", "snapshot")


class Envelope(msgspec.Struct):
    """A websocket message after the hello: its kind and the client's ``ref`` (echoed in the reply;
    a ``ref`` that is not a short text or a number is dropped, not refused), and the whole object
    for the kind's own structure."""

    kind: str
    ref: str | int | None
    data: dict[str, Any]


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
    "practice": "bad-practice",
    "rated": "bad-rated",
    "clock": "bad-clock",
}
QUEUE_CODES = {
    "game": "bad-game",
    "players": "bad-players",
    "variant": "bad-variant",
    "rated": "bad-rated",
    "bots_after": "bad-bots-after",
}
SEAT_CODES = {"bot": "bad-bot", "strength": "bad-bot", "level": "bad-bot", "params": "bad-bot"}
LOBBY_CODES = {"list": "bad-list", "limit": "bad-limit", "cursor": "bad-cursor"}
REPLAY_CODES = {"at": "bad-move"}
SEAT_QUERY_CODES = {"seat": "bad-seat"}
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


def json_object(raw: bytes | str, what: str = "the request body") -> dict[str, Any]:
    """A JSON object from a body or a message; :class:`Rejected` ``malformed`` for anything else."""
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: nested too deeply
        raise Rejected("malformed", f"{what} is not JSON") from None
    if not isinstance(data, dict):
        raise Rejected("malformed", f"{what} is a JSON object")
    return data


def body(raw: bytes, limit: int, kind: type[T], codes: dict[str, str] | None = None) -> T:
    """A request body (empty: ``{}``) as a ``kind``."""
    if len(raw) > limit:
        raise Rejected("too-large", f"the request is larger than {limit} bytes", 413)
    return convert(json_object(raw) if raw else {}, kind, codes)


def seat_number(seat: int) -> int:
    """A seat number from a path or a query, range-checked as a body's are."""
    return convert({"seat": seat}, SeatQuery, SEAT_QUERY_CODES).seat


def invite_number(number: int) -> int:
    """An invitation's number from a path, range-checked as a body's numbers are."""
    return convert({"invite": number}, InviteQuery, {"invite": "no-invite"}).invite


def lobby_query(which: str | None, limit: int | None, cursor: str | None) -> LobbyQuery:
    given = {"list": which, "limit": limit, "cursor": cursor}
    query = convert({k: v for k, v in given.items() if v is not None}, LobbyQuery, LOBBY_CODES)
    if query.which is None and query.cursor is not None:
        raise Rejected("bad-cursor", "a cursor goes with the list it came from")
    return query


def message(text: str, limit: int) -> dict[str, Any]:
    """A websocket message as a JSON object (at most ``limit`` characters)."""
    if len(text) > limit:
        raise Rejected("too-large", f"messages are at most {limit} characters")
    return json_object(text, 'a message such as {"type": "move"}')


def hello(text: str, limit: int) -> Hello:
    """The first message of a websocket; anything else is refused as ``hello``."""
    try:
        data = message(text, limit)
    except Rejected:
        data = {}
    if data.get("type") != "hello":
        raise Rejected("hello", 'the first message is {"type": "hello", "token": ...}')
    try:
        return msgspec.convert(data, type=Hello, strict=True)
    except msgspec.ValidationError as exc:
        raise Rejected("hello", f"the hello is not valid: {exc}") from None


def envelope(data: dict[str, Any]) -> Envelope:
    ref = data.get("ref")
    if not isinstance(ref, str | int) or (isinstance(ref, str) and len(ref) > 64):
        ref = None
    return Envelope(str(data.get("type")), ref, data)


def unknown_type(kind: str) -> Rejected:
    return Rejected(
        "unknown-type", f"unknown message type {kind!r}; types: {', '.join(MESSAGE_TYPES)}"
    )
