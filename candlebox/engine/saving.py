"""Saved games: a game is its configuration, seed and history, and loading one is a replay.

The engine owns the whole saved-game layout; a game supplies only its readable ``_snapshot`` of the
position, which the replay must reproduce (so a tampered file, or one the rules no longer replay the
same way, is refused rather than loaded as some other game). Two formats are read:

- ``format: 1`` (written until this version): configuration, ``history``, ``rng``, ``events`` and the
  snapshot ``state``. The history is replayed; the snapshot, generator and events are the check.
- ``format: 2`` (written now): configuration, ``history`` and the snapshot ``state`` as the check
  (``state`` may be left out, and then nothing is checked beyond the history's legality).

A game that renamed its snapshot's keys reads an older file's through ``State._saved_snapshot``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from candlebox.engine.registry import game_info, resolve
from candlebox.engine.rng import Rng
from candlebox.engine.state import State

READS = (1, 2)  # the formats this version loads


class SavedGame(msgspec.Struct, forbid_unknown_fields=True):
    """The schema of a saved game, every format."""

    format: int
    game: str
    variant: str
    players: int
    seed: int
    options: dict[str, Any]
    history: list[tuple[int, str]]
    state: dict[str, Any] | None = None  # the position reached: checked against the replay
    rng: int | None = None  # format 1 only: the generator's state reached
    events: list[list[Any]] | None = None  # format 1 only: the events logged
    rules: int = (
        1  # State.RULES_VERSION of the code that wrote it (files without it: the first rules)
    )
    # A server's verifiable shuffle, opened (candlebox/engine/fairness.py): a finished game's download
    # carries it for ``candlebox replay --verify``; loading ignores it.
    fairness: dict[str, Any] | None = None
    # A server's record of the moves a bot made for a seat's player ("Let a bot play for me"):
    # [seat, from, until] — the moves made with ``from`` … ``until - 1`` moves behind them (until
    # null: to the end). A review leaves them out (candlebox.analysis); loading ignores it.
    stand_ins: list[tuple[int, int, int | None]] | None = None
    # A server's record that the game ended when this seat resigned (rulings EG-1), after the
    # history's last move rather than at the end the rules reach; loading ignores it.
    resigned: int | None = None
    # A server's record that the game ended when this seat ran out of time at a rated table (it
    # lost on time), likewise after the history's last move; loading ignores it.
    out_of_time: int | None = None
    # The hash of the content pack the game played (State.content_pack; absent: the printed content,
    # or a file written before packs were recorded): a replay under other candles or cards would be
    # another game, so loading refuses it.
    pack: str | None = None


def _plain(value: Any) -> Any:
    """As JSON would have it: tuples become lists (events and snapshots hold tuples)."""
    return msgspec.json.decode(msgspec.json.encode(value))


def position_differences(state: State, data: dict[str, Any]) -> list[str]:
    """The parts of the saved position in ``data`` that ``state`` does not have: ``state.KEY`` for
    each snapshot key that differs (only the keys the file has), ``rng`` and ``events`` in format 1."""
    wrong: list[str] = []
    saved = data.get("state")
    if isinstance(saved, dict):
        mine = _plain(state._snapshot())
        theirs = state._saved_snapshot(_plain(saved))
        wrong += [f"state.{key}" for key in theirs if mine.get(key) != theirs[key]]
    if data.get("format") == 1:
        if data.get("rng") != state.rng.state:
            wrong.append("rng")
        if _plain(data.get("events")) != _plain(state.events):
            wrong.append("events")
    return wrong


def check_pack(saved: object, state: State) -> None:
    """Refuse a saved game played with content pack ``saved`` (its ``pack`` field; None: not
    recorded) when ``state``, set up from its options, plays another: a ValueError naming both."""
    if saved is None:
        return
    if not isinstance(saved, str):
        raise ValueError(f"saved game: 'pack' is a content pack's hash (text), got {saved!r}")
    given = state.content_pack()
    if saved == given:
        return
    now = f"pack {given}" if given else "the printed content"
    raise ValueError(
        f"saved game: played with content pack {saved}, but its option 'content' now gives {now}: "
        "load it with the pack it was played with"
    )


def load(data: dict[str, Any], game: str | None = None) -> State:
    """The game saved by :meth:`State.to_json` (any format this version reads), by replaying it.

    ``game`` names the game the file must be. Raises ValueError naming what is wrong: the layout, an
    unknown game, variant or option, a history move that is not legal at its point (by its number,
    from 1), or a position the replay does not reproduce.
    """
    if not isinstance(data, dict):
        raise ValueError(f"a saved game is a JSON object, got {type(data).__name__}")
    game_id = data.get("game")
    if not isinstance(game_id, str):
        raise ValueError("a saved game needs a 'game' field naming the game")
    if game is not None and game_id != game:
        raise ValueError(f"saved game is {game_id!r}, not {game!r}")
    info = game_info(game_id)
    try:
        saved = msgspec.convert(data, type=SavedGame)
    except msgspec.ValidationError as exc:
        raise ValueError(f"saved {info.title} game is malformed: {exc}") from None
    if saved.format not in READS:
        raise ValueError(
            f"saved game format {saved.format} is not supported (this version reads "
            f"{' and '.join(map(str, READS))})"
        )
    if saved.format == 1 and (saved.rng is None or saved.events is None or saved.state is None):
        raise ValueError("saved game: format 1 needs 'rng', 'events' and 'state'")
    if saved.format == 2 and (saved.rng is not None or saved.events is not None):
        raise ValueError("saved game: format 2 has no 'rng' or 'events' (the replay makes them)")
    _, variant, options = resolve(game_id, saved.players, saved.variant, saved.options)
    Rng(saved.seed)  # a clear message for a seed out of range
    state = info.create(variant.name, saved.players, saved.seed, options)
    check_pack(saved.pack, state)
    for number, (seat, action) in enumerate(saved.history, start=1):
        problem = state.explain(seat, action)  # checked: a file is input like any other
        if problem is not None:
            raise ValueError(
                f"saved game: move {number} (seat {seat}: {action!r}) does not replay: {problem}"
            )
        state.apply_unchecked(seat, action)
    if saved.rules > state.RULES_VERSION:
        raise ValueError(
            f"saved game: written under rules version {saved.rules} of {info.title}, newer than "
            f"this version's {state.RULES_VERSION}: update Candlebox to load it"
        )
    # A game saved under older rules is its history replayed under today's (every move must still be
    # legal): the position it records was reached by rules since fixed, so it is no check.
    wrong = position_differences(state, data) if saved.rules == state.RULES_VERSION else []
    if wrong:
        raise ValueError(
            f"saved game: its {len(saved.history)} moves replayed do not reach the saved position "
            f"(it differs in {', '.join(wrong)})"
        )
    return state
