"""The rules mark what they change (marks.py): after every action of random whole games of every
variant and player count, with the optional rules (missions, Decay, the optional push and entry),
every part of the state whose mark did not move reads exactly as before the action. A rule that
writes a part without moving its mark fails here, and the state reader, which rewrites only the
parts whose marks moved, would show a stale observation."""

from __future__ import annotations

import random
from typing import Any

import pytest

import candlebox
from candlebox.games.candelabria import CandelabriaState
from candlebox.games.candelabria.marks import HAND, SLOTS, part_data
from tests.deep import split

OPTIONS: list[dict[str, Any]] = [
    {},
    {"missions": True, "decay": True},
    {"warrior_push": "optional", "castle_entry": "optional", "decay": True},
]
CONFIGS = [
    (variant, players, i)
    for variant, counts in (("two-player", (2,)), ("standard", (3, 4, 5)))
    for players in counts
    for i in range(len(OPTIONS))
]
SEEDS = 2  # whole games per configuration


def _parts(players: int) -> list[int]:
    return [*SLOTS, *(HAND + seat for seat in range(players))]


def _quick(config: tuple[str, int, int]) -> bool:
    return config[1] in (2, 3) or config[2] == 1


def play_checking_marks(variant: str, players: int, options: dict[str, Any], seed: int) -> set[int]:
    """One random whole game, each action checked; the parts whose marks moved at least once."""
    state = candlebox.new_game(
        "candelabria", players=players, seed=seed, variant=variant, **options
    )
    assert isinstance(state, CandelabriaState)
    rng = random.Random(seed)
    parts = _parts(players)
    seen: set[int] = set()
    steps = 0
    while not state.is_over:
        marks = state.marks[:]
        before = {part: part_data(state, part) for part in parts}
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        action = legal[rng.randrange(len(legal))]
        state.apply(seat, action)
        steps += 1
        for part in parts:
            if state.marks[part] == marks[part]:
                assert part_data(state, part) == before[part], (
                    f"step {steps}, seat {seat} played {action!r}: part {part} "
                    f"({SLOTS.get(part, 'hand')}) changed with its mark unmoved"
                )
            else:
                seen.add(part)
    return seen


@pytest.mark.parametrize(
    "config", split(CONFIGS, _quick), ids=lambda c: "{}-{}p-options{}".format(*c)
)
def test_a_part_whose_mark_did_not_move_is_unchanged(config: tuple[str, int, int]) -> None:
    variant, players, i = config
    options = dict(OPTIONS[i])
    if variant == "two-player":
        options.pop("decay", None)  # no curse is granted with 2 players: no Decay (rulings CA-D4)
    seen: set[int] = set()
    for seed in range(SEEDS):
        seen |= play_checking_marks(variant, players, options, 100 * i + seed)
    # the games were long enough to write most parts (a war fought, hands played)
    assert len(seen) >= len(_parts(players)) // 2, sorted(set(_parts(players)) - seen)


def test_a_copy_has_its_own_marks() -> None:
    """A clone, a loaded save and a take-back are new objects with marks lists of their own, so a
    reader keeping the list it read from rewrites them whole."""
    state = candlebox.new_game("candelabria", players=3, seed=4)
    assert isinstance(state, CandelabriaState)
    seat = state.to_act[0]
    state.apply(seat, state.legal_actions(seat)[0])
    copies = [state.clone(), candlebox.load(state.to_json())]
    if state.undoable(seat):
        copies.append(state.undo(seat))
    for copy in copies:
        assert isinstance(copy, CandelabriaState)
        assert copy.marks is not state.marks
