"""Bots at the table: which bots play which game, how a strength becomes a bot's parameters, and
making a seat's bot. The engine calls run in worker threads (see :class:`~.service.GameService`)."""

from __future__ import annotations

import inspect
import logging
import threading
import time
from collections.abc import Callable
from functools import cache
from typing import Any

import candlebox
from candlebox import bots

log = logging.getLogger("candlebox.server")

STRENGTHS = {"easy": 0.35, "medium": 0.7, "hard": 1.0}  # the levels the lobby offers


@cache
def _parameters(name: str) -> frozenset[str]:
    """The parameters a bot's constructor takes besides its seed (read off its signature)."""
    try:
        sample = bots.make(name, seed=1)
        return frozenset(inspect.signature(type(sample).__init__).parameters) - {"self", "seed"}
    except (TypeError, ValueError):
        return frozenset()


# How a strength from 0 (weakest) to 1 (strongest) becomes each bot's own parameters. A bot that takes
# a ``strength`` parameter itself gets it as it is; a bot in neither place has no strength setting.
KNOBS: dict[str, Callable[[float], dict[str, Any]]] = {
    "heuristic": lambda s: {"epsilon": round(1.0 - s, 4)},  # the chance of a random move instead
    "ismcts": lambda s: {"seconds": round(0.1 + 0.9 * s, 3)},  # thinking time per decision
}
STRENGTH_OF: dict[str, Callable[[dict[str, Any]], float | None]] = {
    "heuristic": lambda p: round(1.0 - float(p["epsilon"]), 4) if "epsilon" in p else None,
    "ismcts": lambda p: round((float(p["seconds"]) - 0.1) / 0.9, 4) if "seconds" in p else None,
}


def has_strength(name: str) -> bool:
    """Whether the bot can be made weaker or stronger."""
    return name in KNOBS or "strength" in _parameters(name)


def params_for(name: str, strength: float | None, params: dict[str, Any]) -> dict[str, Any]:
    """The bot's parameters: explicit ``params`` win; ``strength`` (0 weakest … 1 strongest) is
    turned into the bot's own knob (see ``KNOBS``)."""
    if name not in bots.available():
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(bots.available())}")
    result = dict(params)
    if strength is not None:
        if isinstance(strength, bool) or not isinstance(strength, int | float):
            raise ValueError(f"strength is a number from 0 to 1, got {strength!r}")
        if not 0.0 <= strength <= 1.0:
            raise ValueError(f"strength is a number from 0 to 1, got {strength}")
        if name in KNOBS:
            for key, value in KNOBS[name](float(strength)).items():
                result.setdefault(key, value)
        elif "strength" in _parameters(name):
            result.setdefault("strength", float(strength))
    bots.make(name, seed=1, **result)  # raises ValueError on bad parameters
    return result


def strength_of(name: str | None, params: dict[str, Any]) -> float | None:
    if name in STRENGTH_OF:
        return STRENGTH_OF[name](params)
    if "strength" in params:
        return float(params["strength"])
    return None


def bot_seed(game_seed: int, seat: int, generation: int) -> int:
    """A seat's bot seed follows from the game's (as at the terminal), moved on by ``generation``
    (the move number when the bot was made) so a bot made again after a restart plays on freshly."""
    return (game_seed * 100 + seat + generation * 1_000_003) % (1 << 63)


def make(name: str, params: dict[str, Any], game_seed: int, seat: int, generation: int) -> Any:
    return bots.make(name, seed=bot_seed(game_seed, seat, generation), **params)


def check(name: object, game_id: str) -> str:
    """``name``, if it is a bot that plays ``game_id``; ValueError otherwise."""
    if not isinstance(name, str) or name not in bots.available():
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(bots.available())}")
    if not plays(name, game_id):
        raise ValueError(f"the {name} bot does not play {candlebox.game_info(game_id).title}")
    return name


PROBE_SECONDS = 0.5
_PLAYS: dict[tuple[str, str], bool] = {}


def plays(name: str, game_id: str) -> bool:
    """Whether the bot can play the game (see :func:`probe`)."""
    if (name, game_id) not in _PLAYS:
        probe([(name, game_id)])
    return _PLAYS[(name, game_id)]


def probe(pairs: list[tuple[str, str]]) -> None:
    """Ask each bot for a move in a fresh game of each game, all at once. A bot without a policy for
    the game says so at once (ValueError); one still thinking after half a second has one (its
    search finishes in the background and is dropped)."""
    outcome: dict[tuple[str, str], bool] = {}

    def ask(name: str, game_id: str) -> None:
        variant = candlebox.game_info(game_id).variants[0]
        try:
            state = candlebox.new_game(game_id, variant.min_players, variant.name, seed=1)
            bots.make(name, seed=1).choose(state, state.to_act[0])
        except Exception as exc:
            log.info("bot %s does not play %s: %s", name, game_id, exc)
            outcome[(name, game_id)] = False
        else:
            outcome[(name, game_id)] = True

    threads = []
    for pair in pairs:
        if pair in _PLAYS:
            continue
        thread = threading.Thread(target=ask, args=pair, name=f"probe-{pair[0]}", daemon=True)
        thread.start()
        threads.append((pair, thread))
    deadline = time.monotonic() + PROBE_SECONDS
    for pair, thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
        _PLAYS[pair] = outcome.get(pair, True)
