"""Games declare themselves here: one :class:`GameInfo` per game, the game's plug-in object.

It holds the rules (``create``, ``restore``), the facts as data (ids, variants, player counts, options,
length bound, component facts) and the optional capabilities (words, heuristic, search hooks, terminal
renderer, RL encoding, page module), loaded on first use. Everything outside a game reaches it only
through this registry, the :class:`State` contract and those capabilities (docs/architecture.md).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast

from candlebox.engine.discovery import PluginProblem, PluginWarning, declared
from candlebox.engine.lazy import Lazy, LazyError
from candlebox.engine.levels import DEFAULT_LEVELS, Level, check_ladder
from candlebox.engine.options import Fixed, Option, validate_options
from candlebox.engine.plugin import (
    CAPABILITY_TYPES,
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
    expected_text,
    fits,
)
from candlebox.engine.rng import Rng, fresh_seed
from candlebox.engine.state import State, set_scoring_lookup, set_text_lookup

StateT = TypeVar("StateT", bound=State)  # the game's state: what ``create`` returns
ViewT = TypeVar("ViewT")  # the game's typed view (``Any`` for a game whose view is plain data)


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
class GameInfo(Generic[StateT, ViewT]):
    """A game's plug-in object, generic over its state and view types: a plug-in declares
    ``INFO: GameInfo[ItsState, ItsView] = GameInfo(...)``, and the type checker holds ``create``,
    ``typed_view`` and the capabilities given as themselves (the view class, ...) to those types."""

    id: str
    title: str
    variants: tuple[Variant, ...]
    default_variant: Callable[[int], str]  # player count -> variant name
    max_turns: int  # the default bound on turns, so every game ends
    create: Callable[[str, int, int, dict[str, Any]], StateT]  # (variant, players, seed, options)
    # Public facts about the components (card values and the like), as plain data for bots and
    # interfaces that must not import a game: ``candlebox.game_info(id).facts``.
    facts: dict[str, Any] = field(default_factory=dict)
    # Optional capabilities, each the object or a Lazy reference imported on first use.
    capabilities: Capabilities[ViewT] = field(default_factory=Capabilities)
    # The game's typed view function, ``(state, seat) -> view`` (what ``State.typed_view`` returns;
    # None: not declared): with ``capabilities.view`` it ties the view type for the type checker, and
    # the conformance kit checks it gives the state's own typed view.
    typed_view: Callable[[StateT, int | None], ViewT] | None = None
    # The browser page's board module: candlebox/server/static/js/games/<page>.js (None: generic).
    page: str | None = None
    # The random-playout speed the game promises at its headline configuration (bench/peers.py):
    # steps/s, and how many times the steps/s of every targeted pure-Python peer (None: no ratio).
    playout_target: tuple[int, float | None] = (150_000, 2.0)
    # The opponents offered by name, weakest first (engine/levels.py; measured by bench/levels.py).
    levels: tuple[Level, ...] = DEFAULT_LEVELS

    # ------------------------------------------------------------------ capabilities
    def view_type(self) -> type[ViewT] | None:
        """The type of the game's typed view (``State.typed_view``), or None: its view is plain."""
        return cast("type[ViewT] | None", self.capability("view"))

    def viewer(self) -> Viewer[ViewT]:
        """How to get a state's view in the form the game's capabilities read: ``State.typed_view``
        when the game declares a view type, else ``State.view``. Look it up once, call it per view."""
        return _typed_view if self.capability("view") is not None else _plain_view

    def policy_viewer(self) -> Viewer[Any]:
        """What the game's policies (heuristic, search rollouts) are given for a seat: the game's
        ``policy_view`` when it declares one, else :meth:`viewer`'s view."""
        found = cast("Viewer[Any] | None", self.capability("policy_view"))
        return found if found is not None else self.viewer()

    def text(self) -> GameText | None:
        """The game's words (log sentences), or None."""
        return cast("GameText | None", self.capability("text"))

    def policy(self) -> Policy[ViewT] | None:
        """The game's rule-of-thumb policy (the heuristic bot), or None."""
        return cast("Policy[ViewT] | None", self.capability("heuristic"))

    def search_hooks(self) -> SearchHooks:
        """What the game tells the ISMCTS bot (empty hooks when it tells nothing)."""
        return cast("SearchHooks | None", self.capability("search")) or _NO_HOOKS

    def renderer(self) -> Renderer[ViewT] | None:
        """The game at the terminal (imports rich), or None for the generic renderer."""
        return cast("Renderer[ViewT] | None", self.capability("renderer"))

    def encoding(self) -> Encoding | None:
        """The game for the RL adapters (imports numpy), or None."""
        return cast("Encoding | None", self.capability("encoding"))

    def jax_rules(self) -> JaxRules | None:
        """The game's rules as JAX functions (imports JAX), or None."""
        return cast("JaxRules | None", self.capability("jax"))

    def scoring(self) -> Scoring | None:
        """How the game breaks its scores down into standings (``State.standings``), or None."""
        return cast("Scoring | None", self.capability("scoring"))

    def uses(self) -> ComponentUses | None:
        """What each seat did with which components in a finished game (per-card statistics)."""
        return cast("ComponentUses | None", self.capability("uses"))

    def content_packs(self) -> ContentPacks | None:
        """The game's data as content packs (export, checks), or None."""
        return cast("ContentPacks | None", self.capability("content"))

    def words(self) -> Components | None:
        """The game's component words (``candlebox.components``), or None: no component has words."""
        return cast("Components | None", self.capability("words"))

    def how_to(self) -> PackageData | None:
        """The folder of the game's rules inside the app, or None: engine/howto.py generates them."""
        return cast("PackageData | None", self.capability("how_to"))

    def network(self) -> PackageData | None:
        """The policy bot's trained network for the game, or None: it ships none."""
        return cast("PackageData | None", self.capability("network"))

    def conformance(self) -> Conformance:
        """What the game adds to the conformance kit (an empty Conformance when nothing)."""
        return cast("Conformance | None", self.capability("conformance")) or _NO_CONFORMANCE

    def capability(self, kind: str) -> object:
        """The capability ``kind`` (None: not declared), imported on first use when declared by a
        Lazy reference and checked against its type: ImportError or TypeError naming the game, the
        capability and what was found. The accessors above give each one typed."""
        declared = self.capabilities.declared(kind)
        if declared is None:
            return None
        found: object = declared
        if isinstance(declared, Lazy):
            try:
                found = declared.load()
            except LazyError as exc:
                raise ImportError(f"{self.title}: the {kind} capability {exc}") from exc
        expected = CAPABILITY_TYPES[kind]
        if not fits(found, expected):
            where = f" {declared}" if isinstance(declared, Lazy) else ""
            raise TypeError(
                f"{self.title}: the {kind} capability{where} is {_described(found)}, not "
                f"{expected_text(expected)}"
            )
        return found

    def variant(self, name: str) -> Variant:
        for v in self.variants:
            if v.name == name:
                return v
        names = ", ".join(v.name for v in self.variants)
        raise ValueError(f"{self.title} has no variant {name!r}; variants: {names}")


def _described(found: object) -> str:
    """What a capability turned out to be, for an error: ``a str ('oops')``, ``a function``."""
    kind = type(found).__name__
    shown = f" ({found!r:.60})" if isinstance(found, str | int | float | bool) else ""
    return f"{'an' if kind[0] in 'aeiouAEIOU' else 'a'} {kind}{shown}"


def _typed_view(state: State, seat: int | None) -> Any:
    # Through the state's own method (not State.typed_view unbound), so a wrapper of a state stands in.
    return state.typed_view(seat)


def _plain_view(state: State, seat: int | None) -> Any:
    return state.view(seat)


_GAMES: dict[str, GameInfo[Any, Any]] = {}
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


def _add(info: GameInfo[Any, Any]) -> None:
    if info.id in _GAMES:
        raise ValueError(f"game {info.id!r} is registered twice")
    check_ladder(info.levels)
    _GAMES[info.id] = info


def register(info: GameInfo[Any, Any]) -> None:
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


def game_info(game_id: str) -> GameInfo[Any, Any]:
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
) -> tuple[GameInfo[Any, Any], Variant, dict[str, Any]]:
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
    state: State = info.create(var.name, players, seed, opts)
    return state
