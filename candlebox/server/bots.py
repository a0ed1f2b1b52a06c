"""Bots at the table: which bots play which game, how a level or a strength becomes a bot and its
parameters, and making a seat's bot. The engine calls run in worker threads (see
:class:`~.service.GameService`).

A level by name (``"easy"``) is the game's own (``GameInfo.levels``: a bot and its parameters, measured
by bench/levels.py); a number from 0 to 1 (``strength``, kept for clients that send one) turns the
chosen bot's own knob (``KNOBS``)."""

from __future__ import annotations

import inspect
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import Any

import candlebox
from candlebox import bots
from candlebox.engine.levels import Level, find

log = logging.getLogger("candlebox.server")

# The numbers a ``strength`` of a level's name stood for before levels were the games' own; still what
# ``params_for`` makes of a level's name given for a bot of the client's choosing.
STRENGTHS = {"easy": 0.35, "medium": 0.7, "hard": 1.0}


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


# What a client may set for each bot over the network, and within which bounds; everything else is the
# server's. A bot's cost per decision must stay bounded: ISMCTS always thinks for a capped number of
# seconds (``Settings.max_bot_seconds``) and never takes ``iterations``, ``depth``, ``tree_depth``,
# ``model`` or ``widening`` from a client, since any of them can make one decision take hours.
@dataclass(frozen=True)
class Knob:
    low: float = 0.0
    high: float | None = 1.0  # None: the server's cap on thinking time
    choices: tuple[str, ...] = ()


ALLOWED: dict[str, dict[str, Knob]] = {
    "random": {},
    "heuristic": {"epsilon": Knob(0.0, 1.0)},
    "ismcts": {
        "seconds": Knob(0.05, None),
        "c": Knob(0.0, 4.0),
        "epsilon": Knob(0.0, 1.0),
        "prior": Knob(0.0, 4.0),
        "anchor": Knob(0.0, 10.0),
        "rollout": Knob(choices=("auto", "heuristic", "random")),
        "reward": Knob(choices=("win", "rank")),
        "rivals": Knob(choices=("auto", "search", "policy")),
    },
}
DEFAULT_STRENGTH = STRENGTHS["medium"]


def allowed(name: str) -> dict[str, Knob]:
    """The parameters a client may give the bot (a bot registered elsewhere: its ``strength``)."""
    if name in ALLOWED:
        return ALLOWED[name]
    return {"strength": Knob(0.0, 1.0)} if "strength" in _parameters(name) else {}


def _check_param(name: str, key: str, value: Any, max_seconds: float) -> Any:
    knobs = allowed(name)
    if key not in knobs:
        settable = ", ".join(sorted(knobs)) or "none"
        raise ValueError(
            f"the {name} bot's {key!r} is set by the server; parameters you may set: {settable}"
        )
    knob = knobs[key]
    if knob.choices:
        if value not in knob.choices:
            raise ValueError(f"{key} is one of {', '.join(knob.choices)}, got {value!r}")
        return value
    high = max_seconds if knob.high is None else knob.high
    if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
        raise ValueError(f"{key} is a number from {knob.low:g} to {high:g}, got {value!r}")
    if not knob.low <= value <= high:
        raise ValueError(f"{key} is from {knob.low:g} to {high:g} on this server, got {value!r}")
    return float(value)


def level_strength(level: object) -> float:
    """A level's strength: ``easy``, ``medium`` or ``hard`` (see ``STRENGTHS``)."""
    if not isinstance(level, str) or level not in STRENGTHS:
        raise ValueError(f"the level is one of {', '.join(STRENGTHS)}, got {level!r}")
    return STRENGTHS[level]


def levels(game_id: str) -> tuple[Level, ...]:
    """The game's levels (``GameInfo.levels``) whose bot plays it, weakest first."""
    known = bots.available()
    return tuple(
        level
        for level in candlebox.game_info(game_id).levels
        if level.bot in known and plays(level.bot, game_id)
    )


def level_params(level: Level, max_seconds: float) -> dict[str, Any]:
    """A level's parameters as a seat stores them: a searching bot also gets the server's cap on
    thinking time (its iteration budget ends a decision first unless the machine is slow)."""
    params = dict(level.params)
    if level.bot == "ismcts":
        params["seconds"] = float(max_seconds)
    return params


def seat_bot(
    game_id: str,
    bot: str | None,
    strength: float | str | None,
    params: dict[str, Any] | None,
    max_seconds: float = 1.0,
) -> tuple[str, dict[str, Any]]:
    """The bot and its parameters for a seat a client asked for. A level's name picks the game's
    level (its bot and parameters; a ``bot`` given too must be that bot, and ``params`` are not
    taken with it); otherwise ``bot`` (default: heuristic) with ``strength`` as a number and
    ``params`` within ``ALLOWED`` (see :func:`params_for`). ValueError naming what is wrong."""
    if isinstance(strength, str):
        if params:
            raise ValueError("choose a level or the bot's parameters, not both")
        level = find(levels(game_id), strength)
        if bot is not None and bot != level.bot:
            title = candlebox.game_info(game_id).title
            raise ValueError(
                f"the {level.name} level of {title} is the {level.bot} bot, not {bot}: "
                "leave out the bot, or give a strength from 0 to 1 instead of a level"
            )
        return level.bot, level_params(level, max_seconds)
    name = check(bot if bot is not None else "heuristic", game_id)
    return name, params_for(name, strength, params or {}, max_seconds)


@cache
def _defaults(name: str) -> dict[str, Any]:
    """The bot's parameters as its constructor leaves them (read off its signature)."""
    try:
        sample = bots.make(name, seed=1)
        found = inspect.signature(type(sample).__init__).parameters.values()
    except (TypeError, ValueError):
        return {}
    return {p.name: p.default for p in found if p.default is not inspect.Parameter.empty}


def _effective(name: str, params: dict[str, Any]) -> dict[str, Any]:
    """What the bot plays with: its defaults and ``params``, without its thinking-time cap."""
    merged = {**_defaults(name), **params}
    return {key: value for key, value in merged.items() if key not in ("seed", "seconds")}


def level_for(game_id: str | None, name: str | None, params: object) -> Level | None:
    """The game's level that a stored seat's bot and parameters play as (the thinking-time cap
    aside; a parameter left at the bot's default is that default: the heuristic bot with
    ``epsilon=0`` is the plain heuristic)."""
    if game_id is None or name is None or not isinstance(params, dict):
        return None
    own = _effective(name, params)
    for level in candlebox.game_info(game_id).levels:
        if level.bot == name and _effective(level.bot, level.params) == own:
            return level
    return None


def params_for(
    name: str, strength: float | str | None, params: dict[str, Any], max_seconds: float = 1.0
) -> dict[str, Any]:
    """The bot's parameters from what a client asked for: ``strength`` (0 weakest … 1 strongest, or
    a level's name) becomes the bot's own knob (see ``KNOBS``); explicit ``params`` must be in
    ``ALLOWED`` and within its bounds (ValueError naming the parameter otherwise); a thinking time is
    never above ``max_seconds``."""
    if name not in bots.available():
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(bots.available())}")
    if isinstance(strength, str):
        strength = level_strength(strength)
    result = {key: _check_param(name, key, value, max_seconds) for key, value in params.items()}
    if strength is not None:
        if isinstance(strength, bool) or not isinstance(strength, int | float):
            raise ValueError(f"strength is a number from 0 to 1, got {strength!r}")
        if not 0.0 <= strength <= 1.0:
            raise ValueError(f"strength is a number from 0 to 1, got {strength}")
    result = _with_strength(name, strength, result, max_seconds)
    bots.make(name, seed=1, **result)  # raises ValueError on bad parameters
    return result


def _with_strength(
    name: str, strength: float | None, params: dict[str, Any], max_seconds: float
) -> dict[str, Any]:
    result = dict(params)
    if strength is not None:
        if name in KNOBS:
            for key, value in KNOBS[name](float(strength)).items():
                result.setdefault(key, value)
        elif "strength" in _parameters(name):
            result.setdefault("strength", float(strength))
    if name == "ismcts":  # never unbounded: a thinking time it always has, within the cap
        result.setdefault("seconds", KNOBS[name](DEFAULT_STRENGTH)["seconds"])
        result["seconds"] = min(float(result["seconds"]), max_seconds)
    return result


def sanitize(
    name: str, params: object, max_seconds: float, game_id: str | None = None
) -> tuple[dict[str, Any], list[str]]:
    """Stored parameters made safe to run: what a client could not have set is dropped, numbers are
    clamped into their bounds; returns the parameters and what was changed (empty: nothing). The
    parameters of one of the game's levels are the server's own and kept (with the cap on time)."""
    problems: list[str] = []
    level = level_for(game_id, name, params)
    if level is not None:
        own = level_params(level, max_seconds)
        if isinstance(params, dict) and params.get("seconds") != own.get("seconds"):
            problems.append(f"seconds set to {own.get('seconds')}")
        return own, problems
    if not isinstance(params, dict):
        problems.append(f"parameters {params!r:.60} are not an object")
        params = {}
    knobs = allowed(name)
    safe: dict[str, Any] = {}
    for key, value in params.items():
        knob = knobs.get(key)
        if knob is None:
            problems.append(f"{key!r} dropped")
            continue
        if knob.choices:
            if value in knob.choices:
                safe[key] = value
            else:
                problems.append(f"{key}={value!r:.40} dropped")
            continue
        high = max_seconds if knob.high is None else knob.high
        if isinstance(value, bool) or not isinstance(value, int | float) or value != value:
            problems.append(f"{key}={value!r:.40} dropped")
            continue
        clamped = min(max(float(value), knob.low), high)
        if clamped != value:
            problems.append(f"{key}={value!r} clamped to {clamped:g}")
        safe[key] = clamped
    safe = _with_strength(name, None, safe, max_seconds)
    if name == "ismcts" and params.get("seconds") is None:
        problems.append(f"seconds set to {safe['seconds']:g}")
    return safe, problems


def strength_of(name: str | None, params: dict[str, Any]) -> float | None:
    if name in STRENGTH_OF:
        return STRENGTH_OF[name](params)
    if "strength" in params:
        return float(params["strength"])
    return None


def level_of(name: str | None, params: dict[str, Any], game_id: str | None = None) -> str | None:
    """The lobby's name for a bot: the game's level it is, if it is one; else ``beginner`` (the
    random bot), ``easy``, ``medium`` or ``hard`` (the nearest at or below its strength from 0 to
    1); None for a bot with no strength."""
    level = level_for(game_id, name, params)
    if level is not None:
        return level.name
    if name == "random":
        return "beginner"
    strength = strength_of(name, params)
    if strength is None:
        return None
    below = [level for level, value in STRENGTHS.items() if value <= strength + 1e-9]
    return below[-1] if below else "easy"


def budget_of(params: dict[str, Any], delay: float) -> float:
    """The most a bot's decision takes, in seconds, as a player waits for it: its own thinking
    time when it has one (``seconds``), and never less than the table's bot delay."""
    own = params.get("seconds")
    think = float(own) if isinstance(own, int | float) else 0.0
    return round(max(think, delay), 2)


def bot_seed(game_seed: int, seat: int, generation: int) -> int:
    """A seat's bot seed follows from the game's (as at the terminal), moved on by ``generation``
    (the move number when the bot was made) so a bot made again after a restart plays on freshly."""
    return (game_seed * 100 + seat + generation * 1_000_003) % (1 << 63)


def make(
    name: str,
    params: dict[str, Any],
    game_seed: int,
    seat: int,
    generation: int,
    max_seconds: float = 1.0,
    game_id: str | None = None,
) -> Any:
    """A seat's bot, its parameters checked once more (a stored row is never run as it is)."""
    safe, problems = sanitize(name, params, max_seconds, game_id)
    if problems:
        log.warning("bot %s: stored parameters made safe (%s)", name, "; ".join(problems))
    return bots.make(name, seed=bot_seed(game_seed, seat, generation), **safe)


def check(name: object, game_id: str) -> str:
    """``name``, if it is a bot that plays ``game_id``; ValueError otherwise."""
    if not isinstance(name, str) or name not in bots.available():
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(bots.available())}")
    if not plays(name, game_id):
        raise ValueError(f"the {name} bot does not play {candlebox.game_info(game_id).title}")
    return name


PROBE_SECONDS = 0.5  # of a probed bot's own CPU time
PROBE_LIMIT = 20.0  # on the clock, however starved the machine: a start never hangs on a probe
_PLAYS: dict[tuple[str, str], bool] = {}


def plays(name: str, game_id: str) -> bool:
    """Whether the bot can play the game (see :func:`probe`)."""
    if (name, game_id) not in _PLAYS:
        probe([(name, game_id)])
    return _PLAYS[(name, game_id)]


def probe(pairs: list[tuple[str, str]]) -> None:
    """Find out whether each bot plays each game. A bot that says which games it plays (a
    ``plays(game_id)`` method, as the built-in bots have) is asked that. Any other bot is asked for a
    move in a fresh game of each game, all at once: one without a policy for the game says so at
    once (ValueError); one still thinking after half a second of its own CPU time has one (its
    search finishes in the background and is dropped). CPU time, not the clock: on a loaded machine
    a thread may wait seconds before it runs at all, and a refusal that had no turn yet is no
    answer."""
    outcome: dict[tuple[str, str], bool] = {}

    def unsure(name: str, game_id: str) -> Any:
        """Decide the pair now if the bot can say; the bot when only a move will tell."""
        try:
            bot = bots.make(name, seed=1)
            if getattr(bot, "one_table", False):
                # trained for one table size (the policy bot): a lobby seat may be at any size
                raise ValueError("it plays only the table it was trained for")
        except Exception as exc:
            log.info("bot %s does not play %s: %s", name, game_id, exc)
            outcome[(name, game_id)] = False
            return None
        says = getattr(bot, "plays", None)
        if callable(says):
            outcome[(name, game_id)] = bool(says(game_id))
            return None
        return bot

    def ask(name: str, game_id: str, bot: Any) -> None:
        variant = candlebox.game_info(game_id).variants[0]
        try:
            state = candlebox.new_game(game_id, variant.min_players, variant.name, seed=1)
            bot.choose(state, state.to_act[0])
        except Exception as exc:
            log.info("bot %s does not play %s: %s", name, game_id, exc)
            outcome[(name, game_id)] = False
        else:
            outcome[(name, game_id)] = True

    threads: list[threading.Thread] = []
    for pair in pairs:
        bot = None if pair in _PLAYS else unsure(*pair)
        if bot is None:
            continue
        thread = threading.Thread(
            target=ask, args=(*pair, bot), name=f"probe-{pair[0]}", daemon=True
        )
        thread.start()
        threads.append(thread)
    _wait_thinking(threads)
    for pair in pairs:
        if pair not in _PLAYS:
            _PLAYS[pair] = outcome.get(pair, True)


def _cpu_seconds(thread: threading.Thread) -> float | None:
    """The thread's CPU time so far; None once it has ended (or where threads have no CPU clock)."""
    try:
        assert thread.ident is not None
        return time.clock_gettime(time.pthread_getcpuclockid(thread.ident))
    except (AttributeError, OSError, ValueError, AssertionError):
        return None


def _wait_thinking(threads: list[threading.Thread]) -> None:
    """Wait until each thread has ended or has thought for PROBE_SECONDS of its own CPU time."""
    start = time.monotonic()
    waiting = list(threads)
    while waiting and time.monotonic() - start < PROBE_LIMIT:
        waiting[0].join(0.02)
        still = []
        for thread in waiting:
            if not thread.is_alive():
                continue
            spent = _cpu_seconds(thread)
            if spent is None:  # no CPU clock for threads here: the clock it is
                spent = time.monotonic() - start
            if spent < PROBE_SECONDS:
                still.append(thread)
        waiting = still
