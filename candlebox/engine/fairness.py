r"""Verifiable shuffles: a commitment to a game's seed, published before the first move and opened
after the last, so every player can check that the game was dealt from a seed fixed in advance.

Chance in a game comes only from its seed (and the actions taken), so whoever knows the seed can work
out every hidden card. A server therefore draws the seed itself and keeps it secret while the game is
played; to show it did not pick or change the seed to suit anyone, it publishes at creation

    commitment = SHA-256(canonical(scheme, table id, game, variant, players, options, seed, nonce))

and reveals ``seed`` and ``nonce`` when the game is over. The nonce (256 random bits) makes the
commitment impossible to invert by trying seeds. Anyone can then recompute the commitment, and replay
the game from the revealed seed and its moves (``candlebox replay FILE --verify``; the game page does
the hash in the browser).

The canonical string (scheme ``candlebox-commit/1``) is the JSON object of these keys, sorted, with no
spaces, and every character outside ASCII written as a ``\uXXXX`` escape (Python's
``json.dumps(obj, sort_keys=True, separators=(",", ":"))``)::

    {"game":..,"id":..,"nonce":..,"options":{..},"players":N,"scheme":"candlebox-commit/1",
     "seed":"..","variant":..}

``seed`` is the seed's decimal digits as a string (a browser's numbers are exact only to 2^53, seeds
go to 2^63); ``nonce`` is 64 lowercase hex digits; ``options`` are the game's validated options, every
declared option with its value (defaults included). The commitment is the lowercase hex digest of the
string's UTF-8 bytes.

>>> text = canonical("t1", "candle-quest", "basic", 2, {"max_turns": 10}, 7, "ab" * 32)
>>> print(text.replace("ab" * 32, "abab…ab").replace(",", ",\n"))
{"game":"candle-quest",
"id":"t1",
"nonce":"abab…ab",
"options":{"max_turns":10},
"players":2,
"scheme":"candlebox-commit/1",
"seed":"7",
"variant":"basic"}
>>> commit("t1", "candle-quest", "basic", 2, {"max_turns": 10}, 7, "00" * 32)[:16]
'deacfac4bdebd2f2'
>>> opened = Opening("t1", commit("t1", "candle-quest", "basic", 2, {"max_turns": 10}, 7, "00" * 32))
>>> opened.check("candle-quest", "basic", 2, {"max_turns": 10}, 7, "00" * 32)
[]
>>> opened.check("candle-quest", "basic", 2, {"max_turns": 10}, 8, "00" * 32)
['the revealed seed and nonce do not hash to the commitment published at the start']
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from dataclasses import dataclass
from typing import Any

SCHEME = "candlebox-commit/1"
SEED_BITS = 63  # seeds are 0 … 2^63 - 1
_HEX64 = re.compile(r"^[0-9a-f]{64}$")


def canonical(
    table: str,
    game: str,
    variant: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    nonce: str,
) -> str:
    """The text the commitment is the hash of (see the module's docstring)."""
    return json.dumps(
        {
            "scheme": SCHEME,
            "id": table,
            "game": game,
            "variant": variant,
            "players": players,
            "options": options,
            "seed": str(seed),
            "nonce": nonce,
        },
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
        allow_nan=False,
    )


def commit(
    table: str,
    game: str,
    variant: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    nonce: str,
) -> str:
    """The commitment: lowercase hex SHA-256 of :func:`canonical`."""
    text = canonical(table, game, variant, players, options, seed, nonce)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def draw() -> tuple[int, str]:
    """A secret seed and nonce from the operating system's random source."""
    return secrets.randbits(SEED_BITS), secrets.token_hex(32)


@dataclass(frozen=True)
class Opening:
    """A published commitment (``table``: the game's id on the server) and how to check a reveal."""

    table: str
    commitment: str
    scheme: str = SCHEME

    def check(
        self,
        game: str,
        variant: str,
        players: int,
        options: dict[str, Any],
        seed: object,
        nonce: object,
    ) -> list[str]:
        """What is wrong with the revealed ``seed`` and ``nonce`` (empty: they open the commitment)."""
        if self.scheme != SCHEME:
            return [f"the commitment scheme {self.scheme!r} is not {SCHEME!r}"]
        if not isinstance(self.commitment, str) or not _HEX64.match(self.commitment):
            return ["the commitment is not 64 lowercase hex digits"]
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 1 << SEED_BITS:
            return ["the revealed seed is not a whole number from 0 to 2^63 - 1"]
        if not isinstance(nonce, str) or not _HEX64.match(nonce):
            return ["the revealed nonce is not 64 lowercase hex digits"]
        try:
            again = commit(self.table, game, variant, players, options, seed, nonce)
        except (TypeError, ValueError) as exc:
            return [f"the game's settings cannot be written canonically ({exc})"]
        if again != self.commitment:
            return [
                "the revealed seed and nonce do not hash to the commitment published at the start"
            ]
        return []


def reveal_block(
    table: str, commitment: str, seed: int | None, nonce: str | None
) -> dict[str, Any]:
    """The ``fairness`` object of a frame or a saved game: the commitment, and once the game is
    over (``seed`` and ``nonce`` given) their reveal; the seed as decimal text, as hashed."""
    block: dict[str, Any] = {"scheme": SCHEME, "id": table, "commitment": commitment}
    if seed is not None and nonce is not None:
        block["seed"] = str(seed)
        block["nonce"] = nonce
    return block
