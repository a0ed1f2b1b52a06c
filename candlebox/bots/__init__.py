"""Bots: every bot has ``choose(state, seat) -> action`` and is built by name from one registry.

    >>> from candlebox import bots
    >>> bots.available()
    ['heuristic', 'ismcts', 'policy', 'random']
    >>> bot = bots.make("heuristic", seed=1)

A bot sees a game only through the engine contract (``legal_actions`` and ``view`` of its own seat, and
``resample`` for its own seat when it searches), so it never reads what its seat may not know.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from candlebox.bots.heuristic import HeuristicBot
from candlebox.bots.ismcts import ISMCTSBot
from candlebox.bots.policy import PolicyBot
from candlebox.bots.random_bot import RandomBot
from candlebox.engine import State, game_info


class Bot(Protocol):
    """``choose`` is all a bot must have. A bot may also say which games it plays
    (``plays(game_id) -> bool``): the server then asks it that instead of trying a move; and whether
    it plays one table (``check_table(state)``, a ValueError naming what it plays otherwise)."""

    name: str

    def choose(self, state: State, seat: int) -> str: ...


_MAKERS: dict[str, Callable[..., Bot]] = {}
_DOCS: dict[str, str] = {}


def register(name: str, maker: Callable[..., Bot], doc: str) -> None:
    if name in _MAKERS:
        raise ValueError(f"bot {name!r} is registered twice")
    _MAKERS[name] = maker
    _DOCS[name] = doc


def available() -> list[str]:
    """The bot names, sorted."""
    return sorted(_MAKERS)


def describe(name: str) -> str:
    return _DOCS[name]


def make(name: str, seed: int | None = None, **params: Any) -> Bot:
    """A bot by name; ``seed`` fixes its choices, ``params`` tune it (e.g. strength)."""
    try:
        maker = _MAKERS[name]
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; bots: {', '.join(available())}") from None
    try:
        return maker(seed=seed, **params)
    except TypeError as exc:
        raise ValueError(f"bot {name!r}: {exc}") from None


def check_table(name: str, state: State, **params: Any) -> None:
    """A ValueError naming what bot ``name`` (with ``params``) plays, when it cannot play the table of
    ``state`` (a game's variant, player count and options): ``candlebox play``, ``candlebox simulate``,
    :mod:`candlebox.sim` and the server all ask this before a game starts, so that a bot never fails
    in the middle of one."""
    bot = make(name, seed=0, **params)
    says = getattr(bot, "plays", None)
    if callable(says) and not says(state.game_id):
        title = game_info(state.game_id).title
        raise ValueError(f"the {name} bot does not play {title}")
    fits = getattr(bot, "check_table", None)
    if callable(fits):
        fits(state)


def _register_builtin() -> None:
    register("random", RandomBot, "plays a uniformly random legal action")
    register("heuristic", HeuristicBot, "a rule-of-thumb player for each game")
    register(
        "ismcts",
        ISMCTSBot,
        "information-set Monte Carlo tree search, for every game: iterations=N or seconds=S "
        "per decision, c=, rollout=heuristic|random, depth=, epsilon=, prior=, widening=, "
        "tree_depth=, anchor=, reward=win|rank, horizon=, model=, rivals=auto|search|policy, "
        "hooks=game|generic, guide=heuristic|policy (docs/simulation.md)",
    )
    register(
        "policy",
        PolicyBot,
        "a small trained network, shipped per game and player count (numpy only): temperature=T "
        "(0: the best-scoring legal action), path= another trained file (docs/rl.md)",
    )


_register_builtin()

__all__ = ["Bot", "available", "check_table", "describe", "make", "register"]
