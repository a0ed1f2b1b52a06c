"""Games declare their facts as data (ids, variants, player counts, options, length bound) here.

Everything outside a game reaches it only through this registry and the :class:`State` contract.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from candlebox.engine.options import Option, validate_options
from candlebox.engine.state import State


@dataclass(frozen=True)
class Variant:
    name: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    doc: str

    @property
    def players(self) -> range:
        return range(self.min_players, self.max_players + 1)

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        raise ValueError(f"variant {self.name!r} has no option {name!r}")


@dataclass(frozen=True)
class GameInfo:
    id: str
    title: str
    variants: tuple[Variant, ...]
    default_variant: Callable[[int], str]  # player count -> variant name
    max_turns: int  # the default bound on turns, so every game ends
    create: Callable[[str, int, int, dict[str, Any]], State]  # (variant, players, seed, options)
    # Public facts about the components (card values and the like), as plain data for bots and
    # interfaces that must not import a game: ``candlebox.game_info(id).facts``.
    facts: dict[str, Any] = field(default_factory=dict)

    def variant(self, name: str) -> Variant:
        for v in self.variants:
            if v.name == name:
                return v
        names = ", ".join(v.name for v in self.variants)
        raise ValueError(f"{self.title} has no variant {name!r}; variants: {names}")


_GAMES: dict[str, GameInfo] = {}


def register(info: GameInfo) -> None:
    if info.id in _GAMES:
        raise ValueError(f"game {info.id!r} is registered twice")
    _GAMES[info.id] = info


def game_ids() -> tuple[str, ...]:
    return tuple(_GAMES)


def game_info(game_id: str) -> GameInfo:
    try:
        return _GAMES[game_id]
    except KeyError:
        raise ValueError(f"unknown game {game_id!r}; games: {', '.join(_GAMES)}") from None


def variants(game_id: str) -> list[Variant]:
    """The variants of a game, with their player counts and options."""
    return list(game_info(game_id).variants)


def resolve(
    game_id: str, players: int, variant: str | None, options: dict[str, Any]
) -> tuple[GameInfo, Variant, dict[str, Any]]:
    """Check a game configuration; return (info, variant, validated options)."""
    info = game_info(game_id)
    if isinstance(players, bool) or not isinstance(players, int):
        raise ValueError(f"players must be a whole number, got {players!r}")
    name = variant if variant is not None else info.default_variant(players)
    var = info.variant(name)
    if players not in var.players:
        raise ValueError(
            f"{info.title} ({var.name}) is for {var.min_players}–{var.max_players} players, "
            f"not {players}"
        )
    return info, var, validate_options(var.options, options)


def new_game(
    game_id: str,
    players: int = 2,
    variant: str | None = None,
    seed: int | None = None,
    **options: Any,
) -> State:
    """A new game in its first decision. ``seed=None`` draws a seed from the OS (kept in the state)."""
    from candlebox.engine.rng import Rng, fresh_seed

    info, var, opts = resolve(game_id, players, variant, options)
    if seed is None:
        seed = fresh_seed()
    Rng(seed)  # validates the seed's type with a clear message
    return info.create(var.name, players, seed, opts)
