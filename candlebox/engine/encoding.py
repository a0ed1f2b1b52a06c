"""The RL encoding interfaces a game implements: a configuration, the action numbering, the
observation layout and the view encoder base class.

A game's ``encoder`` module (``candlebox/games/<game>/encoder.py``) builds on these and exports an
:class:`candlebox.engine.plugin.Encoding`; the adapters (candlebox/rl/) use them through
``GameInfo.encoding()``. This module imports numpy: the engine's own import path never imports it.

A *configuration* is a game, a variant, a player count and the options (validated by the engine's
registry). Everything here is fixed for a configuration: the number of distinct actions, which id means
which action text, and the length and layout of the observation vector. The engine stays the single
source of legality: a mask is built from ``state.legal_actions(seat)`` by looking each text up.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from candlebox.engine.registry import GameInfo, game_info, new_game, resolve
from candlebox.engine.state import State


@dataclass(frozen=True)
class Config:
    """A game configuration, checked by the engine's registry (options validated, defaults filled)."""

    game_id: str
    variant: str
    players: int
    options: dict[str, Any] = field(hash=False)
    given: dict[str, Any] = field(hash=False)  # the options as given, for new_game

    @classmethod
    def make(
        cls, game_id: str, players: int = 2, variant: str | None = None, **options: Any
    ) -> Config:
        _info, var, opts = resolve(game_id, players, variant, options)
        return cls(game_id, var.name, players, opts, dict(options))

    @property
    def info(self) -> GameInfo:
        return game_info(self.game_id)

    def new_game(self, seed: int) -> State:
        return new_game(
            self.game_id, players=self.players, variant=self.variant, seed=seed, **self.given
        )

    def describe(self) -> str:
        return f"{self.info.title} ({self.variant}, {self.players} players)"


def items(array: np.ndarray) -> Any:
    """A memoryview of a 1-D array, for item reads and writes at about a third of the cost of
    numpy's own (typed Any: typeshed's memoryview takes ints only). A float32 row's items are read
    and written as Python floats rounded to float32, as numpy's are."""
    return memoryview(array)  # type: ignore[arg-type]


def copy_row(out: np.ndarray, row: np.ndarray, view: Any) -> None:
    """``out[:] = row`` for a float32 ``row`` whose memoryview is ``view`` (an encoder's kept
    observation): memoryview to memoryview, about half numpy's cost, when ``out`` is a float32
    array too; else numpy's copy, which casts (or names what does not fit)."""
    try:
        items(out)[:] = view
    except (TypeError, ValueError):
        out[:] = row


# Up to this many ids, a mask is written item by item (through a memoryview): cheaper than numpy's
# fancy indexing, whose fixed cost is that of about thirty item writes.
FEW = 24


class ActionNumbering:
    """Every action text possible in a configuration, numbered 0 … ``num_distinct_actions - 1``.

    Ids are stable for the configuration (the per-game module lists the texts in a fixed order), so a
    policy's output layer and a mask have a fixed size. Legality never comes from here: ``mask`` and
    ``legal_ids`` look up what ``state.legal_actions(seat)`` says.
    """

    __slots__ = ("_ids", "texts")

    def __init__(self, texts: Iterable[str]) -> None:
        self.texts: tuple[str, ...] = tuple(texts)
        self._ids: dict[str, int] = {}
        for number, text in enumerate(self.texts):
            if text in self._ids:
                raise ValueError(f"action {text!r} is numbered twice")
            self._ids[text] = number

    @property
    def num_distinct_actions(self) -> int:
        return len(self.texts)

    def __len__(self) -> int:
        return len(self.texts)

    def __contains__(self, text: object) -> bool:
        return text in self._ids

    def to_id(self, text: str) -> int:
        """The id of an action text; ValueError for a text this configuration can never play."""
        try:
            return self._ids[text]
        except (KeyError, TypeError):
            raise ValueError(
                f"{text!r} is not an action of this configuration "
                f"({self.num_distinct_actions} actions are numbered)"
            ) from None

    def to_text(self, action_id: int) -> str:
        """The action text of an id (numpy integers accepted); ValueError when out of range."""
        number = int(action_id)
        if number != action_id or not 0 <= number < len(self.texts):
            raise ValueError(
                f"action id {action_id!r} is out of range 0–{self.num_distinct_actions - 1}"
            )
        return self.texts[number]

    def ids(self, texts: Iterable[str]) -> list[int]:
        """The ids of these texts, ascending (as OpenSpiel wants legal actions)."""
        lookup = self._ids
        try:
            return sorted(lookup[text] for text in texts)
        except KeyError as exc:
            raise ValueError(
                f"the engine offered {exc.args[0]!r}, which the action numbering lacks: "
                "the game's encoder module must list it"
            ) from None

    def legal_ids(self, state: State, seat: int) -> list[int]:
        return self.ids(state.legal_actions(seat))

    def mask(self, state: State, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """A binary int8 vector: 1 where the action is legal for ``seat`` now (written into ``out``
        when given: a preallocated row, as the batched environment keeps)."""
        if out is None:
            out = np.zeros(len(self.texts), dtype=np.int8)
            self.fill_mask(state, seat, out)
        else:
            out.fill(0)
            self.fill_mask(state, seat, out)
        return out

    def legal_ids_unsorted(self, state: State, seat: int) -> list[int]:
        """The ids of ``state.legal_actions(seat)`` in the engine's order (no sort: a mask has
        no order), one lookup per legal text."""
        lookup = self._ids
        try:
            return [lookup[text] for text in state.legal_actions(seat)]
        except KeyError as exc:
            raise ValueError(
                f"the engine offered {exc.args[0]!r}, which the action numbering lacks: "
                "the game's encoder module must list it"
            ) from None

    def fill_mask(self, state: State, seat: int, out: np.ndarray) -> list[int]:
        """Set 1 in a zeroed ``out`` where an action is legal; the legal ids, in the engine's order."""
        ids = self.legal_ids_unsorted(state, seat)
        if out.dtype == np.int8:  # item by item through a memoryview: cheaper than numpy's fancy
            row = items(out)  # indexing for any number of legal actions a decision offers
            for i in ids:
                row[i] = 1
        else:
            out[ids] = 1
        return ids

    def clear_mask(self, out: np.ndarray, ids: list[int]) -> None:
        """Undo ``fill_mask``: 0 at these ids (the row is all zeros again when they are its ones),
        cheaper than clearing a whole row of thousands of actions."""
        if len(ids) <= FEW:
            row = items(out)
            for i in ids:
                row[i] = 0
        else:
            out[ids] = 0


class Layout:
    """Named slices of a flat observation vector, laid out once per configuration."""

    __slots__ = ("fields", "size")

    def __init__(self) -> None:
        self.fields: dict[str, slice] = {}
        self.size = 0

    def add(self, name: str, length: int) -> slice:
        if name in self.fields:
            raise ValueError(f"observation field {name!r} is laid out twice")
        if length < 1:
            raise ValueError(f"observation field {name!r} needs a positive length")
        place = slice(self.size, self.size + length)
        self.fields[name] = place
        self.size += length
        return place

    def describe(self) -> list[tuple[str, int, int]]:
        """(name, start, length) of every field, in order."""
        return [(name, s.start, s.stop - s.start) for name, s in self.fields.items()]


class ViewEncoder:
    """Encodes a seat's *view*, and nothing else, as a float32 vector in [0, 1]: the view in the form
    the game's capabilities read (``GameInfo.viewer()``: its typed view, or the ``view(seat)`` dict).

    Subclasses lay out their fields in ``build`` and fill them in ``fill``; because ``fill`` receives the
    view, never the state, an encoding cannot contain what the seat may not know.

    A subclass may also define ``fill_state``, which writes the same numbers read straight from the
    state (no view is built: the adapters' hot path). It must read only what the view shows the seat;
    tests/rl/test_state_encoders.py checks on random states of every configuration that it writes
    exactly what ``fill`` writes from the view.
    """

    reads_state = False  # True when the subclass defines fill_state
    # True when every number ``fill`` and ``fill_state`` write is in [0, 1] by construction (a bound
    # that can be passed is written with ``min``): ``encode`` and ``encode_state`` then skip the clip,
    # a third of a small observation's cost. tests/rl/test_core.py checks the range unclipped.
    bounded = False

    def __init__(self, config: Config) -> None:
        self.config = config
        self.layout = Layout()
        self.build(config, self.layout)
        self.size = self.layout.size

    def build(self, config: Config, layout: Layout) -> None:
        raise NotImplementedError

    def fill(self, view: Any, out: np.ndarray) -> None:
        raise NotImplementedError

    def fill_turn(self, view: dict[str, Any], out: np.ndarray) -> dict[str, Any] | None:
        """The fields every game lays out: who is looking (``me``), whose turn it is (``active``),
        ``over``, and ``to_act``; returns the pending decision (None once the game is over)."""
        pending = view["pending"]
        self.fill_seats(
            out, view["seat"], view["active"], None if pending is None else pending["seats"]
        )
        return pending

    def fill_seats(
        self,
        out: np.ndarray,
        seat: int | None,
        active: int | None,
        to_act: Sequence[int] | None,
    ) -> None:
        """``fill_turn``'s fields from their values (for an encoder of a typed view): ``to_act``
        None once the game is over."""
        at = self.layout.fields
        if seat is not None:
            out[at["me"].start + seat] = 1.0
        if active is not None:
            out[at["active"].start + active] = 1.0
        if to_act is None:
            out[at["over"].start] = 1.0
        else:
            for s in to_act:
                out[at["to_act"].start + s] = 1.0

    def fill_winners(self, out: np.ndarray, winners: Iterable[int]) -> None:
        """The ``winners`` field every game lays out (filled once the game is over)."""
        start = self.layout.fields["winners"].start
        for seat in winners:
            out[start + seat] = 1.0

    @staticmethod
    def add_counts(out: np.ndarray, start: int, indices: Iterable[int], step: float) -> None:
        """Add ``step`` at ``start + i`` for every index (a pile counted card by card)."""
        for i in indices:
            out[start + i] += step

    def fill_state(self, state: State, seat: int, out: np.ndarray) -> None:
        raise NotImplementedError(f"{type(self).__name__} encodes views only")

    def encode(self, view: Any, out: np.ndarray | None = None, clip: bool = True) -> np.ndarray:
        if out is None:
            out = np.zeros(self.size, dtype=np.float32)
        else:
            out.fill(0.0)
        self.fill(view, out)
        if clip and not self.bounded:
            np.clip(out, 0.0, 1.0, out=out)
        return out

    def encode_state(
        self, state: State, seat: int, out: np.ndarray | None = None, clip: bool = True
    ) -> np.ndarray:
        """``encode`` of the seat's view, read from the state (``fill_state``); ``clip=False`` leaves
        the clipping to [0, 1] to the caller (the batched env clips all its rows at once)."""
        if out is None:
            out = np.zeros(self.size, dtype=np.float32)
        else:
            out.fill(0.0)
        self.fill_state(state, seat, out)
        if clip and not self.bounded:
            np.clip(out, 0.0, 1.0, out=out)
        return out

    def fields(self) -> list[tuple[str, int, int]]:
        return self.layout.describe()
