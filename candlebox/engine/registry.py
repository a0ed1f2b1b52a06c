"""Games declare themselves here: one :class:`GameInfo` per game, the game's plug-in object.

It holds the rules (``create``, ``restore``), the facts as data (ids, variants, player counts, options,
length bound, component facts) and the optional capabilities (words, heuristic, search hooks, terminal
renderer, RL encoding, page module), loaded on first use. Everything outside a game reaches it only
through this registry, the :class:`State` contract and those capabilities (docs/architecture.md).
"""

from __future__ import annotations

import importlib
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from candlebox.engine.discovery import PluginProblem, PluginWarning, declared
from candlebox.engine.levels import DEFAULT_LEVELS, Level, check_ladder
from candlebox.engine.options import Fixed, Option, validate_options
from candlebox.engine.plugin import (
    Capabilities,
    Components,
    ComponentUses,
    Conformance,
    ContentPacks,
    Encoding,
    GameText,
    JaxRules,
    PackageData,
    Policy,
    Renderer,
    Scoring,
    SearchHooks,
    Viewer,
)
from candlebox.engine.rng import Rng, fresh_seed
from candlebox.engine.state import State, set_scoring_lookup, set_text_lookup


@dataclass(frozen=True)
class Variant:
    name: str
    min_players: int
    max_players: int
    options: tuple[Option, ...]
    doc: str
    # Options of other variants that this one lacks, at the value they effectively have here.
    fixed: tuple[Fixed, ...] = ()
    # Options this variant once had and no longer uses: accepted and ignored, so games saved or stored
    # with them (the server stores every option, defaults included) still load.
    retired: tuple[str, ...] = ()

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
    # Optional capabilities, each named by "module:attribute" and imported on first use.
    capabilities: Capabilities = field(default_factory=Capabilities)
    # The browser page's board module: candlebox/server/static/js/games/<page>.js (None: generic).
    page: str | None = None
    # The random-playout speed the game promises at its headline configuration (bench/peers.py):
    # steps/s, and how many times the steps/s of every targeted pure-Python peer (None: no ratio).
    playout_target: tuple[int, float | None] = (150_000, 2.0)
    # The opponents offered by name, weakest first (engine/levels.py; measured by bench/levels.py).
    levels: tuple[Level, ...] = DEFAULT_LEVELS

    # ------------------------------------------------------------------ capabilities
    def view_type(self) -> type | None:
        """The type of the game's typed view (``State.typed_view``), or None: its view is plain."""
        return self._capability("view", type)

    def viewer(self) -> Viewer:
        """How to get a state's view in the form the game's capabilities read: ``State.typed_view``
        when the game declares a view type, else ``State.view``. Look it up once, call it per view."""
        return _typed_view if self._capability("view", type) is not None else _plain_view

    def policy_viewer(self) -> Viewer:
        """What the game's policies (heuristic, search rollouts) are given for a seat: the game's
        ``policy_view`` when it declares one, else :meth:`viewer`'s view."""
        found = self._capability("policy_view", object)
        if found is not None and not callable(found):
            raise TypeError(f"{self.title}: the policy_view capability is not a viewer function")
        return found if found is not None else self.viewer()

    def text(self) -> GameText | None:
        """The game's words (log sentences), or None."""
        return self._capability("text", GameText)

    def policy(self) -> Policy | None:
        """The game's rule-of-thumb policy (the heuristic bot), or None."""
        found = self._capability("heuristic", object)
        if found is not None and not callable(found):
            raise TypeError(f"{self.title}: the heuristic capability is not a policy function")
        return found  # checked callable; its signature is the contract (Policy)

    def search_hooks(self) -> SearchHooks:
        """What the game tells the ISMCTS bot (empty hooks when it tells nothing)."""
        return self._capability("search", SearchHooks) or _NO_HOOKS

    def renderer(self) -> Renderer | None:
        """The game at the terminal (imports rich), or None for the generic renderer."""
        return self._capability("renderer", Renderer)

    def encoding(self) -> Encoding | None:
        """The game for the RL adapters (imports numpy), or None."""
        return self._capability("encoding", Encoding)

    def jax_rules(self) -> JaxRules | None:
        """The game's rules as JAX functions (imports JAX), or None."""
        return self._capability("jax", JaxRules)

    def scoring(self) -> Scoring | None:
        """How the game breaks its scores down into standings (``State.standings``), or None."""
        return self._capability("scoring", Scoring)

    def uses(self) -> ComponentUses | None:
        """What each seat did with which components in a finished game (per-card statistics)."""
        found = self._capability("uses", object)
        if found is not None and not callable(found):
            raise TypeError(f"{self.title}: the uses capability is not a function")
        return found

    def content_packs(self) -> ContentPacks | None:
        """The game's data as content packs (export, checks), or None."""
        return self._capability("content", ContentPacks)

    def words(self) -> Components | None:
        """The game's component words (``candlebox.components``), or None: no component has words."""
        found = self._capability("words", object)
        if found is not None and not callable(found):
            raise TypeError(f"{self.title}: the words capability is not a function")
        return found  # checked callable; its signature is the contract (Components)

    def how_to(self) -> PackageData | None:
        """The folder of the game's rules inside the app, or None: engine/howto.py generates them."""
        return self._capability("how_to", PackageData)

    def network(self) -> PackageData | None:
        """The policy bot's trained network for the game, or None: it ships none."""
        return self._capability("network", PackageData)

    def conformance(self) -> Conformance:
        """What the game adds to the conformance kit (an empty Conformance when nothing)."""
        return self._capability("conformance", Conformance) or _NO_CONFORMANCE

    def _capability(self, kind: str, expected: type[Any]) -> Any:
        path = getattr(self.capabilities, kind)
        if path is None:
            return None
        found = _LOADED.get(path)
        if found is None:
            module_name, _, attribute = path.partition(":")
            try:
                found = getattr(importlib.import_module(module_name), attribute)
            except (ImportError, AttributeError) as exc:
                raise ImportError(f"{self.title}: {kind} capability {path!r}: {exc}") from exc
            if not isinstance(found, expected):
                raise TypeError(
                    f"{self.title}: {kind} capability {path!r} is a {type(found).__name__}, "
                    f"not a {expected.__name__}"
                )
            _LOADED[path] = found
        return found

    def variant(self, name: str) -> Variant:
        for v in self.variants:
            if v.name == name:
                return v
        names = ", ".join(v.name for v in self.variants)
        raise ValueError(f"{self.title} has no variant {name!r}; variants: {names}")


def _typed_view(state: State, seat: int | None) -> Any:
    # Through the state's own method (not State.typed_view unbound), so a wrapper of a state stands in.
    return state.typed_view(seat)


def _plain_view(state: State, seat: int | None) -> Any:
    return state.view(seat)


_GAMES: dict[str, GameInfo] = {}
_LOADED: dict[str, Any] = {}  # capability path -> the object, imported once
_NO_HOOKS = SearchHooks()
# The games loaded from the entry points, in order (None: not looked for yet), and what failed.
_DISCOVERED: list[str] | None = None
_PROBLEMS: list[PluginProblem] = []
_ORIGINS: dict[str, str] = {}  # game id -> the distribution that declared it
_NO_CONFORMANCE = Conformance()


def _text_of(game_id: str) -> GameText | None:
    _discover()
    info = _GAMES.get(game_id)
    return None if info is None else info.text()


set_text_lookup(_text_of)


def _scoring_of(game_id: str) -> Scoring | None:
    _discover()
    info = _GAMES.get(game_id)
    return None if info is None else info.scoring()


set_scoring_lookup(_scoring_of)


def _discover() -> None:
    """Load every game declared in the ``candlebox.games`` entry-point group, once
    (engine/discovery.py). A plug-in that fails is reported (a :class:`PluginWarning` and
    :func:`plugin_problems`) and skipped: it never stops the others."""
    global _DISCOVERED
    if _DISCOVERED is not None:
        return
    # Set before loading: a plug-in that asks the registry while it is imported sees what is loaded.
    _DISCOVERED = []
    for entry in declared():
        try:
            info = entry.load()
            if not isinstance(info, GameInfo):
                raise TypeError(
                    f"it names an object of type {type(info).__name__}, not a candlebox GameInfo"
                )
            if info.id != entry.name:
                raise ValueError(
                    f"the entry point is named {entry.name!r} but the game's id is {info.id!r}"
                )
            if _GAMES.get(info.id) is not info:  # a package that registered itself is loaded
                _add(info)
        except Exception as exc:  # any failure of a plug-in's code is reported, never raised
            problem = PluginProblem(
                entry.distribution, entry.name, entry.value, f"{type(exc).__name__}: {exc}"
            )
            _PROBLEMS.append(problem)
            warnings.warn(str(problem), PluginWarning, stacklevel=3)
            continue
        _DISCOVERED.append(info.id)
        _ORIGINS[info.id] = entry.distribution


def _add(info: GameInfo) -> None:
    if info.id in _GAMES:
        raise ValueError(f"game {info.id!r} is registered twice")
    check_ladder(info.levels)
    _GAMES[info.id] = info


def register(info: GameInfo) -> None:
    """Add a game by hand (a test game; a package not installed). Installed games are found
    through their entry points instead (engine/discovery.py)."""
    _discover()  # the declared games first, so the order of the registry does not depend on timing
    _add(info)


def unregister(game_id: str) -> None:
    """Forget a game (tests register their own games for a while)."""
    _GAMES.pop(game_id, None)


def game_ids() -> tuple[str, ...]:
    """Every registered game: the declared ones (built-in first), then any registered by hand."""
    _discover()
    return tuple(_GAMES)


def discovered_games() -> tuple[str, ...]:
    """The games loaded from the entry points (built-in and installed plug-ins), in order."""
    _discover()
    return tuple(_DISCOVERED or ())


def game_origin(game_id: str) -> str | None:
    """The distribution that declared the game (None: registered by hand)."""
    _discover()
    return _ORIGINS.get(game_id) if game_id in _GAMES else None


def plugin_problems() -> tuple[PluginProblem, ...]:
    """The declared games that could not be loaded, each naming its distribution and the failure."""
    _discover()
    return tuple(_PROBLEMS)


def game_info(game_id: str) -> GameInfo:
    _discover()
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
    given = {name: value for name, value in options.items() if name not in var.retired}
    return info, var, validate_options(var.options, given, var.fixed)


def new_game(
    game_id: str,
    players: int = 2,
    variant: str | None = None,
    seed: int | None = None,
    **options: Any,
) -> State:
    """A new game in its first decision. ``seed=None`` draws a seed from the OS (kept in the state)."""
    info, var, opts = resolve(game_id, players, variant, options)
    if seed is None:
        seed = fresh_seed()
    Rng(seed)  # validates the seed's type with a clear message
    return info.create(var.name, players, seed, opts)
