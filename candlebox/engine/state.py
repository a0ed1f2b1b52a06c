"""The contract every game's state meets.

Legality is decided in one place, :meth:`State.legal_actions`; :meth:`State.apply` validates an action
by membership in that list (as python-chess validates a move against ``legal_moves``) and only then hands
it to the game's unchecked :meth:`State._do`. Search code that already holds a legal action can call
:meth:`State.apply_unchecked` and skip the check.

A game implements only :meth:`State._legal_for`; the engine keeps the last list it returned (one seat's,
until the next action), so the usual step, ``legal_actions`` then ``apply``, computes it once. A game
whose ``_do`` has just computed the next decision's list anyway hands it over with
:meth:`State._known_legal` instead of letting the engine compute it again.
"""

from __future__ import annotations

import abc
import functools
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from msgspec import to_builtins

from candlebox.engine.errors import IllegalAction, MalformedAction
from candlebox.engine.rng import Rng
from candlebox.engine.standings import Standings, from_scores

# Version of the saved-game layout written by to_json. 1: the configuration, the history, and the
# whole position (rng, events, the game's snapshot), restored from the snapshot. 2: the same keys but
# for rng and events; loading replays the history and checks the game's snapshot against the replay.
FORMAT = 2


@dataclass(frozen=True)
class MoveKind:
    """One kind of move of a game, named by the first word of its actions' text (its verb)."""

    verb: str
    doc: str
    # The action's text tells what only its mover may know (a secret choice, a card from a private
    # hand): other seats see it as HIDDEN_ACTION in a resampled history and in visible_history.
    redact: bool = False


def _copy_plain(value: Any) -> Any:
    """Copy plain data (lists, dicts, tuples of immutables, numbers, text) deeply enough to be independent.

    Assumes what every game's slots hold: lists are homogeneous (a list of lists is recognised by its
    first item), and anything that is not a list, dict or Rng is immutable and may be shared — such as
    a game's read-only content tables.
    """
    kind = type(value)
    if kind is list:
        if value and type(value[0]) in (list, dict):
            return [_copy_plain(item) for item in value]
        return value[:]
    if kind is dict:
        return {key: _copy_plain(item) for key, item in value.items()}
    if kind is Rng:
        return value.copy()
    return value  # int, str, bool, None, tuple of immutables, enum members: shared safely


# Types shared, not copied, by State.clone (immutable plain values).
_SHARED = frozenset((int, float, str, bool, type(None), tuple, frozenset))


@functools.cache
def _slot_names(cls: type) -> tuple[str, ...]:
    """Every slot of a State subclass, its bases' included."""
    return tuple(name for klass in cls.__mro__ for name in getattr(klass, "__slots__", ()))


def summarize(actions: Iterable[str]) -> str:
    """A short human list of actions: runs of ``verb N`` become ``verb 1–12``."""
    parts: list[str] = []
    run_verb: str | None = None
    run: list[int] = []

    def flush() -> None:
        if run_verb is None:
            return
        if len(run) > 2 and run == list(range(run[0], run[-1] + 1)):
            parts.append(f"{run_verb} {run[0]}–{run[-1]}")
        else:
            parts.extend(f"{run_verb} {n}" for n in run)

    for action in actions:
        verb, _, arg = action.partition(" ")
        if arg.isdigit():
            if verb != run_verb:
                flush()
                run_verb, run = verb, []
            run.append(int(arg))
            continue
        flush()
        run_verb, run = None, []
        parts.append(action)
    flush()
    return ", ".join(parts) if parts else "nothing"


def _namer(names: Sequence[str]) -> Callable[[int], str]:
    def name(seat: int) -> str:
        return names[seat] if 0 <= seat < len(names) else f"seat {seat}"

    return name


HIDDEN_ACTION = "?"  # another seat's private action, in a resampled state's history


# The game's text capability (a candlebox.engine.plugin.GameText, or None) by game id. The registry,
# which imports this module, installs its look-up here: a State finds its words without importing it.
def _no_text(game_id: str) -> Any:
    return None


_text_of: Callable[[str], Any] = _no_text


def set_text_lookup(lookup: Callable[[str], Any]) -> None:
    """Installed once by candlebox.engine.registry: how a State finds its game's words."""
    global _text_of
    _text_of = lookup


_scoring_of: Callable[[str], Any] = _no_text


def set_scoring_lookup(lookup: Callable[[str], Any]) -> None:
    """Installed once by candlebox.engine.registry: how a State finds its game's scoring."""
    global _scoring_of
    _scoring_of = lookup


# Taking back (candlebox/engine/undoing.py, which imports this module and installs itself here):
# how many of a seat's last decisions it may take back, and the state without them.
def _no_undoing(state: State, seat: int, count: int | None) -> Any:
    raise RuntimeError("candlebox.engine.undoing is not loaded (import candlebox.engine)")


_undoing: Callable[[State, int, int | None], Any] = _no_undoing


def set_undoing(undoing: Callable[[State, int, int | None], Any]) -> None:
    """Installed once by candlebox.engine.undoing: ``undoing(state, seat, None)`` is how many
    decisions ``seat`` may take back, ``undoing(state, seat, k)`` the state without its last k."""
    global _undoing
    _undoing = undoing


class State(abc.ABC):
    """One game in progress. Subclasses keep all their data in ``__slots__`` of plain values.

    Each game declares its move kinds in ``MOVES`` (every action's first word is one of their verbs),
    and the version of its rules as implemented in ``RULES_VERSION``.
    """

    MOVES: ClassVar[tuple[MoveKind, ...]] = ()
    # Raised when a rules fix changes where a recorded history leads (a log's order, a tally): a saved
    # game records it, and loading an older one replays its history under today's rules without
    # holding it to the position the older rules reached (candlebox/engine/saving.py).
    RULES_VERSION: ClassVar[int] = 1
    _KINDS: ClassVar[dict[str, MoveKind]] = {}
    _REDACTED: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        kinds = {kind.verb: kind for kind in cls.MOVES}
        if len(kinds) != len(cls.MOVES):
            raise TypeError(f"{cls.__name__}.MOVES names a verb twice")
        cls._KINDS = kinds
        cls._REDACTED = frozenset(verb for verb, kind in kinds.items() if kind.redact)
        if isinstance(cls.__dict__.get("RULES"), int):
            # The old name: silently ignored, it would save games under the wrong rules version.
            raise TypeError(f"{cls.__name__}.RULES: the rules' version is named RULES_VERSION")

    __slots__ = (
        "_cache_list",
        "_cache_seat",
        "events",
        "game_id",
        "history",
        "num_players",
        "options",
        "rng",
        "seed",
        "variant",
    )

    def __init__(self, game_id: str, variant: str, players: int, seed: int, options: dict) -> None:
        self.game_id = game_id
        self.variant = variant
        self.num_players = players
        self.seed = seed
        self.options = options
        self.rng = Rng(seed)
        self.history: list[tuple[int, str]] = []
        self.events: list[tuple] = []
        self._cache_seat = -1
        self._cache_list: list[str] = []

    # ----------------------------------------------------------------- whose decision
    @property
    @abc.abstractmethod
    def to_act(self) -> tuple[int, ...]:
        """The seats that owe a decision now; empty when the game is over."""

    @abc.abstractmethod
    def pending(self) -> dict[str, Any] | None:
        """The decision being waited for, as data: ``{"decision": ..., "seats": [...], ...}``."""

    @abc.abstractmethod
    def describe_pending(self) -> str:
        """The pending decision in words, for error messages and the terminal."""

    # ----------------------------------------------------------------- legality
    @abc.abstractmethod
    def _legal_for(self, seat: int) -> list[str]:
        """Every legal action of ``seat`` now: unique, in a stable order; ``[]`` for a seat that does
        not act now (any value, even one that is no seat: the engine does not check ``to_act`` first,
        which would cost every playout step a call)."""

    def legal_actions(self, seat: int) -> list[str]:
        """Every legal action for ``seat``; ``[]`` for a seat that does not act now."""
        if seat == self._cache_seat:  # the hottest call of every playout: one compare when kept
            return self._cache_list[:]
        actions = self._legal_for(seat)
        self._cache_seat = seat
        self._cache_list = actions
        return actions[:]

    def _known_legal(self, seat: int, actions: list[str]) -> None:
        """For a game's ``_do``: the list ``_legal_for(seat)`` would now return, already computed.

        The engine keeps it (as if ``legal_actions(seat)`` had been called) and owns it from then on.
        """
        self._cache_seat = seat
        self._cache_list = actions

    def _forget_legal(self) -> None:
        """Drop the kept list: for code that changes a state other than through ``apply``."""
        self._cache_seat = -1

    def apply(self, seat: int, action: str) -> None:
        """Apply a legal action; anything else raises :class:`IllegalAction` and changes nothing.

        Text that is no action at all in the game's notation raises :class:`MalformedAction` (a kind
        of IllegalAction).
        """
        legal = self._cache_list if seat == self._cache_seat else self.legal_actions(seat)
        if action in legal:  # apply_unchecked, inlined: this is every checked step's path
            self._cache_seat = -1
            self.history.append((seat, action))
            self._do(seat, action)
            return
        raise self._refusal(seat, action, legal)

    def explain(self, seat: int, action: str) -> str | None:
        """Why ``seat`` may not take ``action`` now, in words; ``None`` when it may."""
        refused = self.refusal(seat, action)
        return None if refused is None else str(refused)

    def refusal(self, seat: int, action: str) -> IllegalAction | None:
        """The error ``apply`` would raise for ``seat``'s ``action`` — a :class:`MalformedAction` for
        text that is no action at all — without applying anything; ``None`` when it is legal. For
        callers (the server) that must say which kind of refusal it is before touching the state."""
        legal = self.legal_actions(seat) if type(seat) is int else []
        if type(seat) is int and action in legal:
            return None
        return self._refusal(seat, action, legal)

    def _refusal(self, seat: Any, action: Any, legal: list[str]) -> IllegalAction:
        message = self._explain(seat, action, legal)
        if self._is_malformed(action):
            return MalformedAction(message)
        return IllegalAction(message)

    # ----------------------------------------------------------------- words
    def label(self, seat: int, action: str) -> str:
        """A legal action of ``seat`` in words ("Buy Red candle (value 7) for 7 shekels"), from the
        game's text capability; any other action raises :class:`IllegalAction` as ``apply`` would."""
        legal = self.legal_actions(seat) if type(seat) is int else []
        if action not in legal:
            raise self._refusal(seat, action, legal)
        text = _text_of(self.game_id)
        if text is None or text.label is None:
            return action
        result: str = text.label(self, seat, action)
        return result

    def prompt(self, seat: int | None) -> str:
        """The pending decision in words as ``seat`` (None: a spectator) may know it: what it is asked
        to choose, or whom the game waits for; from the game's text capability."""
        self._check_viewer(seat)
        text = _text_of(self.game_id)
        if text is None or text.prompt is None:
            return "The game is over." if self.is_over else self.describe_pending()
        result: str = text.prompt(self, seat)
        return result

    def apply_unchecked(self, seat: int, action: str) -> None:
        """Apply an action known to be legal (search's fast path: no validation)."""
        self._cache_seat = -1
        self.history.append((seat, action))
        self._do(seat, action)

    @abc.abstractmethod
    def _do(self, seat: int, action: str) -> None:
        """Carry out a legal action."""

    def _malformed(self, action: str) -> str | None:
        """Why the text is not the game's notation at all, or None when it is well formed."""
        return None

    def _is_malformed(self, action: Any) -> bool:
        return not isinstance(action, str) or bool(self._malformed(action))

    def _explain(self, seat: Any, action: Any, legal: list[str]) -> str:
        # A malformed text is named as such whoever sends it and whenever: it is no action at all.
        n = self.num_players
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            return f"seat {seat!r} is not a seat of this {n}-player game (seats 0–{n - 1})"
        if not isinstance(action, str):
            return (
                f"an action is text in the game's notation, got {type(action).__name__} {action!r}"
            )
        problem = self._malformed(action)
        if problem:
            return f"{action!r} is malformed: {problem}. Legal now: {summarize(legal)}"
        if self.is_over:
            return f"the game is over; no action is legal (tried {action!r})"
        if seat not in self.to_act:
            return f"seat {seat} does not act now: {self.describe_pending()}"
        return f"{action!r} is not legal now ({self.describe_pending()}). Legal: {summarize(legal)}"

    # ----------------------------------------------------------------- results
    @property
    @abc.abstractmethod
    def is_over(self) -> bool: ...

    @property
    @abc.abstractmethod
    def truncated(self) -> bool:
        """True when the game ended by reaching ``max_turns``."""

    @property
    @abc.abstractmethod
    def winners(self) -> tuple[int, ...]: ...

    @property
    @abc.abstractmethod
    def scores(self) -> tuple[float, ...]: ...

    def standings(self, names: Sequence[str] | None = None) -> Standings:
        """Every seat in rank order with its score broken down by source (the parts sum to the
        score), and who won and why; before the end, the current standing (the whole state's: a
        game whose scores rest on secrets says so in its ``Scoring``). Seats are named by ``names``
        when given, else ``seat N``. From the game's scoring capability, else its ``scores``."""
        name = (lambda seat: f"seat {seat}") if names is None else _namer(names)
        scoring = _scoring_of(self.game_id)
        if scoring is None:
            return from_scores(self, name)
        result: Standings = scoring.standings(self, name)
        return result

    # ----------------------------------------------------------------- information
    def view(self, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may know (``None``: a spectator), JSON-safe; ValueError for a bad seat."""
        self._check_viewer(seat)
        return self._view(seat)

    def typed_view(self, seat: int | None) -> Any:
        """The same as :meth:`view`, as the game's typed structure (a msgspec Struct read by attribute,
        of the type its plug-in declares: ``GameInfo.view_type()``); ``msgspec.to_builtins`` of it is
        ``view(seat)``. TypeError for a game whose view is plain data only."""
        self._check_viewer(seat)
        return self._typed_view(seat)

    def _view(self, seat: int | None) -> dict[str, Any]:
        """The game's view for ``seat`` (already checked): by default its typed view's plain form, so
        a game with a typed view builds it in one place. A game without one overrides this."""
        return to_builtins(self._typed_view(seat))

    def _typed_view(self, seat: int | None) -> Any:
        """The game's typed view for ``seat`` (already checked)."""
        raise TypeError(f"{type(self).__name__} has no typed view; its view is plain data only")

    @abc.abstractmethod
    def _event_view(self, event: tuple, seat: int | None) -> dict[str, Any] | None:
        """One logged event as ``seat`` may see it, or None when it sees nothing of it."""

    def log(self, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
        """The events so far, filtered by the same rules as :meth:`view`.

        ``since`` skips the first ``since`` events of the game (hidden ones included), so a caller
        that remembers :attr:`event_count` can fetch only what happened after it.
        """
        self._check_viewer(seat)
        shown = (self._event_view(event, seat) for event in self.events[since:])
        return [entry for entry in shown if entry is not None]

    @property
    def event_count(self) -> int:
        """How many events the game has logged (for :meth:`log`'s ``since``)."""
        return len(self.events)

    def _check_viewer(self, seat: int | None) -> None:
        if seat is None:
            return
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self.num_players:
            raise ValueError(
                f"seat {seat!r} is not a seat of this {self.num_players}-player game "
                f"(seats 0–{self.num_players - 1}, or None for a spectator)"
            )

    # ----------------------------------------------------------------- taking back
    def undoable(self, seat: int) -> int:
        """How many of ``seat``'s own last decisions it may take back now: the last run of its
        consecutive moves, back to the latest that let something hidden or random come out (chance
        used, a private event, a reveal, the end of the game; candlebox/engine/undoing.py). 0 when
        another seat moved last. ValueError for a bad seat."""
        self._check_seat(seat)
        found: int = _undoing(self, seat, None)
        return found

    def undo(self, seat: int, count: int = 1) -> State:
        """A new state: this game without ``seat``'s last ``count`` decisions, replayed from its seed
        (so the generator is where it was, and redoing a move shows what it showed before). This
        state is untouched. :class:`IllegalAction` naming why when ``count`` is more than
        :meth:`undoable`; ValueError for a bad seat or count."""
        self._check_seat(seat)
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError(f"count is how many decisions to take back (1 or more), got {count!r}")
        undone: State = _undoing(self, seat, count)
        return undone

    def _check_seat(self, seat: int) -> None:
        if seat is None:
            raise ValueError("a spectator has no decisions to take back: name a seat")
        self._check_viewer(seat)

    # ----------------------------------------------------------------- copies and saves
    def clone(self) -> State:
        """An independent copy (RNG included)."""
        cls = type(self)
        twin = object.__new__(cls)
        # A search clones at every determinization: the slots are listed once per class, and
        # immutable values are shared without a call.
        for name in _slot_names(cls):
            try:
                value = getattr(self, name)
            except AttributeError:
                continue
            if type(value) in _SHARED:
                setattr(twin, name, value)
            else:
                setattr(twin, name, _copy_plain(value))
        return twin

    def move_kind(self, action: str) -> MoveKind | None:
        """The declared kind of an action (by its first word), or None when the game has none such."""
        return self._KINDS.get(action.partition(" ")[0])

    def visible_history(self, seat: int | None) -> list[tuple[int, str]]:
        """The history as ``seat`` may know it: the others' private actions (move kinds marked
        ``redact``) read ``HIDDEN_ACTION``; ``None``, a spectator, sees none of them."""
        self._check_viewer(seat)
        redacted = self._REDACTED
        if not redacted:
            return list(self.history)
        return [
            (
                mover,
                HIDDEN_ACTION if mover != seat and action.partition(" ")[0] in redacted else action,
            )
            for mover, action in self.history
        ]

    def resample(self, seat: int, seed: int) -> State:
        """A state ``seat`` cannot tell from this one: what it cannot know dealt anew, consistently.

        Only what ``seat`` may see is kept; the others' private actions in ``history`` are replaced
        by ``HIDDEN_ACTION`` (as in :meth:`visible_history`). The result is for search (views, logs,
        legal actions, play on); its history is no longer a replayable record of the game.
        """
        self._check_viewer(seat)
        twin = self._resample(seat, seed)
        twin._forget_legal()  # what the others hold changed: no kept list survives
        twin.history = twin.visible_history(seat)
        return twin

    @abc.abstractmethod
    def _resample(self, seat: int, seed: int) -> State:
        """The game's determinization: what ``seat`` cannot know dealt anew (seat already checked)."""

    @abc.abstractmethod
    def _snapshot(self) -> dict[str, Any]:
        """The game-specific part of :meth:`to_json`: the whole position, readable, JSON-safe.

        Loading replays the history and checks the replay reproduces this (see engine/saving.py).
        """

    def content_pack(self) -> str | None:
        """The hash of the content pack this game plays (``candlebox.engine.packs.pack_hash``), None
        for the printed content. A saved game records it, and loading refuses another pack's."""
        return None

    def _saved_snapshot(self, saved: dict[str, Any]) -> dict[str, Any]:
        """A snapshot read from a saved file, in this version's vocabulary (a game that renamed
        snapshot keys maps the old ones here; loading compares the result with :meth:`_snapshot`)."""
        return saved

    def to_json(self) -> dict[str, Any]:
        """The saved game (format 2): its configuration, seed and history, which :func:`candlebox.load`
        replays, and the position reached (``state``), which the replay must reproduce; ``rules`` is
        the version of the game's rules that reached it."""
        saved = {
            "format": FORMAT,
            "rules": self.RULES_VERSION,
            "game": self.game_id,
            "variant": self.variant,
            "players": self.num_players,
            "seed": self.seed,
            "options": _copy_plain(self.options),
            "history": [[seat, action] for seat, action in self.history],
            "state": self._snapshot(),
        }
        pack = self.content_pack()
        if pack is not None:  # the printed content's saves stay as they were
            saved["pack"] = pack
        return saved

    def __eq__(self, other: object) -> bool:
        """Equal states: the same saved game, and the same generator and events."""
        if not isinstance(other, State):
            return NotImplemented
        return (
            self.rng.state == other.rng.state
            and self.events == other.events
            and self.to_json() == other.to_json()
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        status = "over" if self.is_over else self.describe_pending()
        return (
            f"<{type(self).__name__} {self.game_id}/{self.variant} {self.num_players}p: {status}>"
        )
