"""What the games' JAX rules share (``candlebox/games/*/jax_rules.py``, each game's ``jax``
capability): array helpers and the parts of pgx's API that read the same fields in every game.

A leaf: it imports JAX and numpy, nothing of candlebox, so a game's JAX rules can build on it
without reaching any other module of candlebox (tests/conformance/test_imports.py). The engine
never imports it: JAX stays the optional extra of candlebox.rl.jax.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import jax
import jax.numpy as jnp
import numpy as np

__all__ = [
    "concrete",
    "every_seat",
    "i32",
    "one_hot",
    "public",
    "require_legal",
    "select",
    "share",
]


S = TypeVar("S")


def i32(x: Any) -> jax.Array:
    return jnp.asarray(x, dtype=jnp.int32)


def share(num: int, den: float) -> np.ndarray:
    """``k / den`` for k in 0 … num as float32, rounded from float64 as the encoders' writes are
    (a table: the quotient is then the encoder's to the last bit, whatever XLA does with division)."""
    return (np.arange(num + 1, dtype=np.float64) / den).astype(np.float32)


def one_hot(index: jax.Array, size: int, on: Any = True) -> jax.Array:
    """``index`` as ``size`` float32 places, 1 at ``index`` times ``on`` (none out of range)."""
    return jax.nn.one_hot(index, size, dtype=jnp.float32) * on


def concrete(value: Any) -> bool:
    """Whether ``value`` has a value now (called eagerly), not a tracer inside jit or vmap."""
    try:
        np.asarray(value)
    except jax.errors.TracerArrayConversionError:
        return False
    return True


def select(pick: jax.Array, a: S, b: S) -> S:
    """``a`` where ``pick``, else ``b``, field by field (two states of one game)."""
    return jax.tree_util.tree_map(lambda x, y: jnp.where(pick, x, y), a, b)


def require_legal(state: Any, action: Any, num_actions: int, describe: str) -> None:
    """Called eagerly (``concrete``), ``step``'s ValueError naming an out-of-range or illegal
    action, or a move after the end; a batch stepped eagerly is left to the step, where each
    game's illegal action leaves it unchanged."""
    mask = np.asarray(state.legal_action_mask)
    if mask.ndim != 1:
        return
    number = int(action)
    if number != action or not 0 <= number < num_actions:
        raise ValueError(f"action {action!r} is out of range 0–{num_actions - 1} for {describe}")
    if int(state.actor) < 0:
        raise ValueError("the game is over: no action can be played")
    if not mask[number]:
        raise ValueError(
            f"action {number} is not legal for seat {int(state.actor)} now "
            "(legal_action_mask is 0 there)"
        )


def public(
    state: Any, observe: Callable[[Any, jax.Array], jax.Array], mask: Callable[[Any], jax.Array]
) -> Any:
    """The fields pgx's API reads: who acts, their observation (once over: the last mover's),
    the legal mask."""
    looking = jnp.where(state.actor >= 0, state.actor, state.last_actor)
    return state._replace(
        current_player=state.actor,
        observation=observe(state, looking),
        legal_action_mask=mask(state),
    )


def every_seat(
    observe: Callable[[Any, jax.Array], jax.Array], state: Any, players: int
) -> jax.Array:
    """Every seat's observation, ``[players, size]``."""
    return jax.vmap(lambda seat: observe(state, seat))(jnp.arange(players))
