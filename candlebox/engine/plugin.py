"""The interfaces a game's optional capabilities implement: plain types, no numpy or rich.

A game is one :class:`candlebox.engine.GameInfo` (rules and facts) whose ``capabilities`` are the
objects below, each given as itself or as a typed :class:`~candlebox.engine.lazy.Lazy` reference to
where it is in the game's package. The engine's typed accessors (``GameInfo.text()``, ``.policy()``,
``.search_hooks()``, ``.renderer()``, ``.encoding()``) import a lazy capability the first time a caller
asks for it, so a heavy dependency (rich for the renderer, numpy for the encoder) is imported only
when that capability is used, and check what they import against the capability's type. A game
package may import this module; it never imports a higher layer (bots, cli, server, sim, rl,
testing). See docs/architecture.md.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from importlib import resources
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, Generic, TypeAlias, TypeVar

from candlebox.engine.lazy import Lazy
from candlebox.engine.rng import Rng
from candlebox.engine.standings import ScorePart, Scoring, Standing, Standings
from candlebox.engine.state import State

# The scoring capability's types live in engine/standings.py (State.standings needs them too).
__all__ = ["ScorePart", "Scoring", "Standing", "Standings"]

# ----------------------------------------------------------------------------- views
# The view a game's capabilities read (policy, search hooks, renderer, encoder): its typed view, an
# instance of the type its plug-in declares (``Capabilities.view``, ``GameInfo.view_type()``; a
# msgspec Struct read by attribute), or for a game that declares none the plain ``view(seat)`` dict.
# ``GameInfo.viewer()`` is the function that gives a state's view in that form.
# The capabilities that read a view are generic over its type, ``ViewT`` (a plug-in's GameInfo is a
# ``GameInfo[ItsState, ItsView]``); unparameterised, they read ``Any``.
View = Any
ViewT = TypeVar("ViewT")
T = TypeVar("T")
Viewer: TypeAlias = Callable[[State, int | None], ViewT]

# ----------------------------------------------------------------------------- bots
# A policy reads the seat's view (see View) and legal actions and returns one of them (the heuristic
# bot, and the rollouts and priors of the ISMCTS bot).
Policy: TypeAlias = Callable[[ViewT, list[str], Rng], str]
# A policy read straight from a state for one seat (state, seat, legal actions, rng): the same
# choice as a Policy given that seat's view, without building the view (a search's rollouts).
StatePolicy = Callable[[State, int, list[str], Rng], str]
# Each seat's standing in an unfinished game, as shares of one win in [0, 1].
Evaluator = Callable[[State], list[float]]


@dataclass(frozen=True)
class SearchHooks:
    """What a game may tell the ISMCTS bot beyond the engine contract (all optional).

    ``policy``: the searching seat's own rollout policy and prior (default: the heuristic's, which also
    plays every other seat: the model of the rivals).
    ``defaults``: ``epsilon`` and ``anchor`` for this game when the bot is made without them.
    ``evaluate(world)``: each seat's standing in an unfinished game, in [0, 1] (default: its scores).
    ``horizon(world)``: a rollout stops, and is judged by ``evaluate``, as soon as this value differs
    from the one the iteration started with (16 Candies: the pools, which change at every round's end;
    a game is many rounds, and one decision's effect shows in its own round).
    ``observe(state, seat)``: what the rivals' choices so far tell, read once per decision and only
    through ``state.log(seat)`` and ``state.view(seat)`` (or ``typed_view``); ``plausibility(world, seat, observed)``: how
    likely those choices are in a determinization, in [0, 1] (opponent modelling: a determinization is
    kept with that chance, see ``model``). Both read nothing of the real state but the seat's own.
    ``orient(world, seat, observed)``: sets in a fresh determinization what the rival model holds
    certain (16 Candies: a caller's cards turned its best way), instead of rejecting deals until
    chance gets it right.
    ``redeal(world, seat, seed)``: deals a determinization's unknowns anew in place, exactly as
    ``resample(seat, seed)`` of the state it was resampled from would (and forgets what the world
    kept of the old deal): rejection sampling then copies no state for the deals it throws away.
    ``state_policy(state, seat, actions, rng)`` and ``own_state_policy``: the heuristic's policy and
    ``policy`` read straight from the state for one seat, choosing exactly as they do from that
    seat's view but without building it (faster rollouts; each reads only what the seat may know).
    """

    policy: Policy[Any] | None = None
    # Parameter defaults measured best for the game (the user's own values always win).
    defaults: dict[str, float] = field(default_factory=dict)
    evaluate: Evaluator | None = None
    horizon: Callable[[State], Hashable] | None = None
    observe: Callable[[State, int], Any] | None = None
    plausibility: Callable[[State, int, Any], float] | None = None
    orient: Callable[[State, int, Any], None] | None = None
    redeal: Callable[[State, int, int], None] | None = None
    state_policy: StatePolicy | None = None
    own_state_policy: StatePolicy | None = None


def shares_of(values: list[float], temperature: float) -> list[float]:
    """Standings turned into shares of one win (a softmax): equal standings share equally."""
    top = max(values)
    weights = [math.exp((v - top) / temperature) for v in values]
    total = sum(weights)
    return [w / total for w in weights]


# ----------------------------------------------------------------------------- words
def _same(text: str) -> str:
    return text


def seat_word(seat: int) -> str:
    """A seat named by its number: ``seat 2``."""
    return f"seat {seat}"


def named_seats(names: Sequence[str]) -> Callable[[int], str]:
    """A seat namer from the players' names (a seat without a name keeps its number)."""

    def name(seat: int) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else seat_word(seat)

    return name


@dataclass(frozen=True)
class Marks:
    """How a sentence marks its parts. The default leaves them plain (the server, the pages); the
    terminal passes rich markup: ``code`` a component code (a candle, a card) in its colour,
    ``strong`` and ``faint`` emphasis, ``literal`` any other text taken from an entry (escaped);
    ``seat`` a seat's name (``seat 2`` unless the players' names are given)."""

    code: Callable[[str], str] = _same
    strong: Callable[[str], str] = _same
    faint: Callable[[str], str] = _same
    literal: Callable[[str], str] = _same
    seat: Callable[[int], str] = seat_word


PLAIN = Marks()


@dataclass(frozen=True)
class GameText:
    """A game's words, plain strings shared by the terminal, the server and the pages.

    ``event(entry, marks)``: one log entry (``State.log``) as a sentence, or None for an event the game
    does not put in words (callers then fall back to :func:`fields_sentence`); seats are named by
    ``marks.seat``. ``label(state, seat, action)``: a legal action in words (``State.label`` checks
    legality first); ``prompt(state, seat)``: the pending decision in words as ``seat`` (None: a
    spectator) sees it (``State.prompt``). ``help`` and ``rules``: the terminal's help on the game's
    actions and a short summary of the game, per variant name ("" for every variant).
    """

    event: Callable[[dict[str, Any], Marks], str | None]
    label: Callable[[State, int, str], str] | None = None
    prompt: Callable[[State, int | None], str] | None = None
    help: dict[str, str] = field(default_factory=dict)
    rules: dict[str, str] = field(default_factory=dict)

    def sentence(self, entry: dict[str, Any], names: Sequence[str] | None = None) -> str:
        """The entry as a plain sentence (seats by ``names`` when given), the generic one when the
        game has none for it."""
        marks = PLAIN if names is None else Marks(seat=named_seats(names))
        line = self.event(entry, marks)
        return fields_sentence(entry) if line is None else line

    def for_variant(self, table: dict[str, str], variant: str) -> str:
        """The variant's own text of ``help`` or ``rules``, else the one for every variant."""
        return table.get(variant) or table.get("", "")


def plain(value: Any) -> str:
    """A JSON value as short text: lists joined by spaces, None as a dash."""
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return " ".join(plain(item) for item in value) if value else "—"
    if isinstance(value, dict):
        pairs = (f"{key.replace('_', ' ')} {plain(item)}" for key, item in value.items())
        return ", ".join(pairs) or "—"
    return str(value)


def seats_text(seats: Any) -> str:
    """``seat 2`` or ``seats 0, 3``."""
    if isinstance(seats, list):
        if len(seats) == 1:
            return f"seat {seats[0]}"
        return "seats " + ", ".join(str(seat) for seat in seats)
    return f"seat {seats}"


def winners_text(entry: dict[str, Any]) -> str:
    """Who won, from a view's or a log entry's ``winners``: ``seat 1 wins``, ``nobody wins``."""
    winners = entry.get("winners", [])
    if not winners:
        return "nobody wins"
    if len(winners) == 1:
        return f"seat {winners[0]} wins"
    return seats_text(winners) + " share the win"


# A game's sentence for one kind of log entry (``GameText.event`` looks one up by the entry's event).
EventSentence = Callable[[dict[str, Any], Marks], str]


def code_text(marks: Marks, code: Any) -> str:
    """A component code taken from an entry, marked (a dash when the entry has none)."""
    return "—" if code is None else marks.code(str(code))


def events_in_words(
    sentences: Mapping[str, EventSentence],
) -> Callable[[dict[str, Any], Marks], str | None]:
    """``GameText.event`` from a game's table of sentences by event name (None: an unknown event)."""

    def event(entry: dict[str, Any], marks: Marks = PLAIN) -> str | None:
        sentence = sentences.get(entry.get("event", ""))
        return None if sentence is None else sentence(entry, marks)

    return event


def game_over_sentence(reasons: Mapping[str, str]) -> EventSentence:
    """The ``game-over`` entry's sentence: why the game ended (by the entry's ``reason``, in the
    game's words) and who won."""

    def sentence(entry: dict[str, Any], marks: Marks) -> str:
        reason = reasons.get(entry.get("reason", ""), str(entry.get("reason")))
        return marks.strong(f"Game over: {reason}; {winners_text(entry)}.")

    return sentence


def fields_sentence(entry: dict[str, Any]) -> str:
    """Any game's log entry from its fields alone: who, what, then the remaining fields."""
    fields = {k: v for k, v in entry.items() if k not in ("event", "seat")}
    who = f"seat {entry['seat']} " if "seat" in entry else ""
    details = ", ".join(f"{key.replace('_', ' ')} {plain(value)}" for key, value in fields.items())
    return f"{who}{entry.get('event', '?')}" + (f": {details}" if details else "")


# ----------------------------------------------------------------------------- the terminal
# Columns below which a renderer prints its tables as lines (a phone's terminal, a split pane):
# a table's columns would be cut to a letter or two.
NARROW_TERMINAL = 72


@dataclass(frozen=True)
class Renderer(Generic[ViewT]):
    """A game at the terminal (rich): ``render(view, console, prompt)`` prints what a seat sees (a
    View) with ``prompt``, the pending decision in the game's words (``State.prompt(seat)``, given by
    the caller so that no renderer words a decision its own way), as its "▶" line; ``code(text)`` a component code as rich markup (used as :attr:`Marks.code` for the game's
    sentences); ``action(text)`` an action as rich markup; ``read(typed, legal)`` typed text as a legal action. The module defining it imports rich; the
    engine does not."""

    render: Callable[[ViewT, Any, str], None]
    code: Callable[[str], str] | None = None
    action: Callable[[str], str] | None = None
    # What a person typed, read as one of the legal actions (e.g. halves in any order), or None
    # when the game reads it no differently: the engine's notation stays canonical.
    read: Callable[[str, list[str]], str | None] | None = None


# ----------------------------------------------------------------------------- learning
@dataclass(frozen=True)
class Encoding:
    """A game for the RL adapters, per configuration (``candlebox.engine.encoding.Config``):
    ``action_texts`` every action text possible, in a fixed order (the action numbering);
    ``encoder`` a ``ViewEncoder`` of the seat's view (a View); ``max_game_length`` an upper bound on decisions
    in one game; ``always_a_winner`` whether every finished game has a winner. The configuration and
    encoder types live in candlebox/engine/encoding.py (numpy), which this module does not import."""

    action_texts: Callable[[Any], Sequence[str]]
    encoder: Callable[[Any], Any]
    max_game_length: Callable[[Any], int]
    always_a_winner: Callable[[Any], bool]


# ----------------------------------------------------------------------------- design
# What each seat did with the game's components in a finished game, read from its events: for
# every seat, how (the rulebook's verb: "bought", "kept", "played", "held", "scored", ...) -> the
# codes of the components so used (a code once per use). The per-card statistics of ``candlebox
# report`` are made of it; a game that names none has no per-card statistics.
ComponentUses = Callable[[State], list[dict[str, list[str]]]]


@dataclass(frozen=True)
class ContentPacks:
    """A game's data as a content pack: ``files`` each file's name and what it holds (the pack's
    README); ``export(folder)`` writes the shipped data, a README and the files' JSON schemas there;
    ``check(folder, design)`` decodes and checks a pack, raising ValueError naming the file and the
    field. Without ``design`` a pack must keep the printed game; with it, printed values (a power's
    amount, a card's cost, a count) may change while structural checks stay. ``option``: the name
    of the game's option that plays a pack (None: the game checks packs but does not play them yet),
    and ``design_option`` the option that plays it in design mode."""

    files: Mapping[str, str]
    export: Callable[[str], list[str]]
    check: Callable[[str, bool], None]
    option: str | None = None
    design_option: str | None = None


# ----------------------------------------------------------------------------- files and words
@dataclass(frozen=True)
class PackageData:
    """A file or folder shipped inside a Python package: ``path`` ("/"-separated) inside the package
    named ``package``, found with importlib.resources, so it reads the same from a source tree, an
    installed wheel or a zip. A plug-in names its data this way instead of by where it sits."""

    package: str
    path: str

    def file(self, *names: str) -> Traversable:
        """The file (or, with ``names``, a file inside the folder)."""
        found = resources.files(self.package)
        for part in [*self.path.split("/"), *names]:
            if part:
                found = found / part
        return found

    def read_text(self, *names: str) -> str:
        """The file's text (OSError when it is missing)."""
        return self.file(*names).read_text(encoding="utf-8")


# A game's component words (engine/words.py, ``candlebox.components``): for a variant, its checked
# options and a player count (None: every count of the variant), every code a player can meet in a
# view, a log or an action, each with its ``name`` and ``text``.
Components = Callable[[str, dict[str, Any], int | None], dict[str, dict[str, str]]]


@dataclass(frozen=True)
class JaxRules:
    """A game's rules as JAX functions (``candlebox.rl.jax``), per configuration: ``make(config)``
    returns the game's environment (``init``, ``step``, ``observe``, jit- and vmap-able), which also
    offers what ``candlebox.rl.jax.check`` needs to drive it on the engine's deals. The module
    defining it imports JAX; the engine does not."""

    make: Callable[[Any], Any]


# ----------------------------------------------------------------------------- the plug-in
# A capability as a plug-in declares it: the object itself (the type checker sees it whole; it is
# imported with the game, so only for light ones: a view class, a PackageData) or a typed Lazy
# reference to it (imported on first use: heavy ones). The older "package.module:ATTRIBUTE" string
# still loads (Capabilities.__post_init__), but is no longer of the type: a checker flags it.
Declared: TypeAlias = T | Lazy[T] | None


@dataclass(frozen=True)
class Capabilities(Generic[ViewT]):
    """A game's optional capabilities (None: absent), each declared as itself or by a typed
    ``Lazy("package.module", "ATTRIBUTE")`` reference (see :data:`Declared`).

    ``view`` the type of the game's typed view (a msgspec Struct: what ``State.typed_view`` returns);
    when it is named, the game's heuristic, search hooks, renderer and encoder read that typed view,
    otherwise the plain ``view(seat)`` dict (see :data:`View`). ``text`` a :class:`GameText`;
    ``heuristic`` a :data:`Policy`; ``search`` :class:`SearchHooks`; ``renderer`` a
    :class:`Renderer`; ``encoding`` an :class:`Encoding`; ``scoring`` a :class:`Scoring` (standings
    with each score's breakdown, ``State.standings``); ``jax`` :class:`JaxRules` (the rules as JAX
    functions, with the ``encoding``'s observations and action ids).
    ``policy_view`` a :data:`Viewer` giving what the game's heuristic reads, for a game whose
    heuristic can read a cheaper object than the whole view (built lazily from the state, showing
    only what the seat may see): the bots' policies are given it (``GameInfo.policy_viewer()``).
    ``uses`` a :data:`ComponentUses` (what each seat bought, kept, played: per-card statistics);
    ``content`` the game's :class:`ContentPacks` (``candlebox content export``).
    ``words`` a :data:`Components` (the component words; none: no component has words).
    ``how_to`` a :class:`PackageData` folder holding the rules inside the app: ``how_to_play.md``,
    ``learn.json`` and optionally ``rulings.json`` (engine/howto.py; none: a page generated from the
    variants, options and the game's words). ``network`` a :class:`PackageData` file: the policy
    bot's trained network (``python -m candlebox.rl.train``; none: the policy bot says so).
    ``conformance`` a :class:`Conformance`: what the game adds to the conformance kit.

    Generic over the game's view type, so that the type checker holds the ``view`` class, the
    heuristic and the renderer given as themselves to one view type (and to ``GameInfo``'s).
    """

    view: Declared[type[ViewT]] = None

    text: Declared[GameText] = None
    heuristic: Declared[Policy[ViewT]] = None
    search: Declared[SearchHooks] = None
    renderer: Declared[Renderer[ViewT]] = None
    encoding: Declared[Encoding] = None
    scoring: Declared[Scoring] = None
    policy_view: Declared[Viewer[Any]] = None
    uses: Declared[ComponentUses] = None
    content: Declared[ContentPacks] = None
    words: Declared[Components] = None
    how_to: Declared[PackageData] = None
    network: Declared[PackageData] = None
    conformance: Declared[Conformance] = None
    jax: Declared[JaxRules] = None

    def __post_init__(self) -> None:
        # The string form (before typed references) still loads, so plug-ins written for it keep
        # working; it is read into a Lazy here, so a malformed one fails when the game is declared.
        for slot in fields(self):
            declared = getattr(self, slot.name)
            if isinstance(declared, str):
                reference = Lazy.path(declared)
                warnings.warn(
                    f"Capabilities({slot.name}={declared!r}): a capability named by a string is "
                    f"deprecated; declare it as Lazy({reference.module!r}, "
                    f"{reference.attribute!r}) (candlebox.engine.Lazy), which the type checker reads",
                    DeprecationWarning,
                    stacklevel=3,
                )
                object.__setattr__(self, slot.name, reference)

    def declared(self, kind: str) -> Any:
        """The capability ``kind`` as declared (its object, a Lazy reference, or None), ValueError
        for a name that is no capability."""
        if kind not in CAPABILITY_TYPES:
            raise ValueError(
                f"{kind!r} is not a capability; capabilities: {', '.join(CAPABILITY_TYPES)}"
            )
        return getattr(self, kind)


# ----------------------------------------------------------------------------- conformance
# A check of a whole state: raises AssertionError saying what is off.
StateCheck = Callable[[State], None]
# A check of what one seat (None: a spectator) is sent: its view and its log so far.
SeenCheck = Callable[[dict[str, Any], list[dict[str, Any]], int | None], None]


@dataclass(frozen=True)
class Conformance:
    """What a game adds to the conformance kit (``candlebox.testing``, ``candlebox check``) beyond
    the engine contract every game meets. Every field is optional: the kit checks what is declared.

    ``invariant(state)``: conservation and hidden information, checked after every step of the
    kit's random games (read the saved form, ``to_json``, not the game's own bookkeeping).
    ``story(state)``: the events tell a possible story of where every hidden thing went; checked on
    the real game and on every state ``resample`` deals (a resampled world must be possible).
    ``shown_codes(state)``: every component code the seats' legal actions, views and logs show, read
    with the game's notation; each must have words in ``candlebox.components``.
    ``seen(view, log, seat)``: what a seat (None: a spectator) is sent names nothing hidden from it
    (the server's frames are held to it).
    ``word_options``: per variant, the option sets beyond the defaults that add or change the
    components a game can show; ``text_options``: per variant, options that bring decisions and
    events of their own (checked at the variant's most players); ``scoring_options``: (variant,
    players, options) that change the scoring.
    ``perft_counts``: the file of the game's move-generation counts (``candlebox.testing.perft``);
    ``perft_options``: option sets that change what is legal, checked at the first variant;
    ``perft_later_steps``: positions deeper into a game than the usual ones (a late phase).
    """

    invariant: StateCheck | None = None
    story: StateCheck | None = None
    shown_codes: Callable[[State], set[str]] | None = None
    seen: SeenCheck | None = None
    word_options: Mapping[str, tuple[dict[str, Any], ...]] = field(default_factory=dict)
    text_options: Mapping[str, dict[str, Any]] = field(default_factory=dict)
    scoring_options: tuple[tuple[str, int, dict[str, Any]], ...] = ()
    perft_counts: Path | None = None
    perft_options: tuple[dict[str, Any], ...] = ()
    perft_later_steps: tuple[int, ...] = ()


# ----------------------------------------------------------------------------- loading checks
# What each capability must be once loaded (GameInfo's accessors check it, naming the game, the
# capability and what was found): an instance of the class given, a class (CLASS), or a function
# (FUNCTION: anything callable; its signature is the contract, which only the type checker reads).
CLASS = "a class"
FUNCTION = "a function"
CAPABILITY_TYPES: dict[str, type[Any] | str] = {
    "view": CLASS,
    "text": GameText,
    "heuristic": FUNCTION,
    "search": SearchHooks,
    "renderer": Renderer,
    "encoding": Encoding,
    "scoring": Scoring,
    "policy_view": FUNCTION,
    "uses": FUNCTION,
    "content": ContentPacks,
    "words": FUNCTION,
    "how_to": PackageData,
    "network": PackageData,
    "conformance": Conformance,
    "jax": JaxRules,
}


def fits(found: object, expected: type[Any] | str) -> bool:
    """Whether a loaded capability is what its slot expects (see CAPABILITY_TYPES)."""
    if expected == CLASS:
        return isinstance(found, type)
    if expected == FUNCTION:
        return callable(found)
    assert isinstance(expected, type)
    return isinstance(found, expected)


def expected_text(expected: type[Any] | str) -> str:
    """What a capability's slot expects, in words: ``a GameText``, ``a function``."""
    if isinstance(expected, str):
        return expected
    name = expected.__name__
    return f"{'an' if name[0] in 'AEIOU' else 'a'} {name}"
