"""Reinforcement-learning and research interfaces: PettingZoo, Gymnasium and OpenSpiel adapters.

Install the optional group first: ``pip install -e '.[rl]'`` (pettingzoo, gymnasium, open_spiel, numpy).

    >>> import candlebox.rl
    >>> env = candlebox.rl.pettingzoo_env("candle-quest", players=3)  # PettingZoo AEC
    >>> single = candlebox.rl.gymnasium_env("candle-quest", seat=0, opponents="random")
    >>> batch = candlebox.rl.vector_env("candle-quest", 64, players=3)  # 64 self-play games at once
    >>> candlebox.rl.register_openspiel()
    ['candlebox_candle_quest', 'candlebox_sixteen_candies', 'candlebox_candelabria']

Every adapter rests on :class:`Spec` (one per configuration: game, variant, players, options): a fixed
action numbering (``spec.actions``: ``num_distinct_actions``, ``to_id``, ``to_text``, ``mask``) and an
encoder of the seat's view (``spec.observe``). See docs/rl.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

try:
    import numpy as _numpy  # noqa: F401
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "candlebox.rl needs the optional 'rl' dependencies: pip install -e '.[rl]'"
    ) from exc

from candlebox.rl.core import ActionNumbering, Config, Spec, covered_games, rewards
from candlebox.sim.evaluate import Evaluation, evaluate  # an outside agent against the levels

# The batched env is imported here, not on first use: imports inside functions may not grow
# (tests/conformance/test_imports.py). Without gymnasium, vector_env says what to install.
try:
    from candlebox.rl.vector_processes import vector_env
except ImportError as _exc:  # pragma: no cover - depends on the environment
    if _exc.name != "gymnasium":
        raise

    def vector_env(*args: Any, **kwargs: Any) -> Any:  # type: ignore[misc]
        """Needs gymnasium (the rl group)."""
        _need("gymnasium")


if TYPE_CHECKING:
    from candlebox.rl.gymnasium_single import CandleboxEnv
    from candlebox.rl.pettingzoo_aec import CandleboxAECEnv


def _need(module: str) -> None:
    raise ImportError(
        f"{module} is not installed; install the optional group: pip install -e '.[rl]'"
    )


def spec(game_id: str, players: int = 2, variant: str | None = None, **options: Any) -> Spec:
    """The action numbering and observation encoder of one configuration."""
    return Spec.make(game_id, players, variant, **options)


def pettingzoo_env(
    game_id: str,
    players: int = 2,
    variant: str | None = None,
    render_mode: str | None = None,
    **options: Any,
) -> CandleboxAECEnv:
    """A PettingZoo AEC environment (agents ``player_0`` …) for the configuration; ``flat=True``
    among the options: one Box observation, the view then the mask (candlebox/rl/flat.py)."""
    try:
        from candlebox.rl.pettingzoo_aec import pettingzoo_env as make
    except ImportError as exc:
        if exc.name in ("pettingzoo", "gymnasium"):
            _need(exc.name)
        raise
    return make(game_id, players=players, variant=variant, render_mode=render_mode, **options)


def gymnasium_env(
    game_id: str,
    seat: int = 0,
    opponents: Any = "random",
    players: int = 2,
    variant: str | None = None,
    render_mode: str | None = None,
    **options: Any,
) -> CandleboxEnv:
    """A Gymnasium environment where ``seat`` learns and the other seats are Candlebox bots
    (``opponents``: a bot name, a bot, or one per other seat); ``flat=True`` among the options:
    one Box observation, the view then the mask (candlebox/rl/flat.py)."""
    try:
        from candlebox.rl.gymnasium_single import gymnasium_env as make
    except ImportError as exc:
        if exc.name == "gymnasium":
            _need(exc.name)
        raise
    return make(
        game_id,
        seat=seat,
        opponents=opponents,
        players=players,
        variant=variant,
        render_mode=render_mode,
        **options,
    )


def register_gymnasium() -> list[str]:
    """Register ``candlebox/<game id>-v0`` with Gymnasium for every covered game; the ids."""
    try:
        from candlebox.rl.gymnasium_single import register_gymnasium as register
    except ImportError as exc:
        if exc.name == "gymnasium":
            _need(exc.name)
        raise
    return register()


def register_openspiel() -> list[str]:
    """Register every covered game with OpenSpiel as ``candlebox_<game id with underscores>``
    (parameters ``players``, ``variant``, ``seed`` and the game's options); the names registered."""
    try:
        from candlebox.rl.openspiel_game import register_openspiel as register
    except ImportError as exc:
        if exc.name in ("pyspiel", "open_spiel"):
            _need("open_spiel")
        raise
    return register()


__all__ = [
    "ActionNumbering",
    "Config",
    "Evaluation",
    "Spec",
    "covered_games",
    "evaluate",
    "gymnasium_env",
    "pettingzoo_env",
    "register_gymnasium",
    "register_openspiel",
    "rewards",
    "spec",
    "vector_env",
]
