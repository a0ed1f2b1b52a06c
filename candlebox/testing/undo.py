"""Taking back, checked along seeded random games (``State.undoable`` and ``State.undo``).

At the points of a game where the contract checks round trips (contract.ROUND_TRIPS_AT), the seat
that moved last takes back every decision it may: the game it gets is the one before them (the
same state, generator and events), the state it took them back from is untouched, redoing the same
moves reaches exactly the same state, views and logs, and one decision more is refused, naming why.
The other seats have nothing to take back.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

import candlebox
from candlebox.engine import IllegalAction, State
from candlebox.engine.undoing import own_run
from candlebox.testing.contract import ROUND_TRIPS_AT, bounded, refused

SEEDS = (0, 1)
STEPS = 200  # each game is cut here: a take-back replays the whole history


def take_backs(game: str, variant: str, players: int, seeds: Sequence[int] = SEEDS) -> int:
    """Random games of the configuration with take-backs checked along them; how many decisions
    were taken back in all (a game where every move reveals something takes back none)."""
    return sum(play_taking_back(game, variant, players, seed) for seed in seeds)


def play_taking_back(game: str, variant: str, players: int, seed: int, steps: int = STEPS) -> int:
    """One seeded random game of at most ``steps`` moves; the decisions taken back along it."""
    state = candlebox.new_game(
        game, players=players, variant=variant, seed=seed, **bounded(game, variant, steps)
    )
    rng = random.Random(seed)
    taken = 0
    while not state.is_over and len(state.history) < steps:
        before = state.clone()
        seat = rng.choice(state.to_act)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        if len(state.history) in ROUND_TRIPS_AT:
            taken += check_take_back(state, before)
    return taken


def check_take_back(state: State, before: State) -> int:
    """The last mover takes back all it may (``before``: the state before the last move); how many
    decisions that was."""
    mover = state.history[-1][0]
    for other in range(state.num_players):
        if other != mover:
            assert state.undoable(other) == 0, f"seat {other} did not move last"
            refused(lambda: state.undo(other), IllegalAction, "no decision to take back")  # noqa: B023
    count = state.undoable(mover)
    run = own_run(state.history, mover)
    assert 0 <= count <= run, (count, run)
    if count < run:
        refused(lambda: state.undo(mover, count + 1), IllegalAction, "cannot take back")
    if count == 0:
        return 0
    saved = state.to_json()
    undone = state.undo(mover, count)
    assert state.to_json() == saved, "taking back leaves the state it was taken from alone"
    assert undone.history == state.history[:-count]
    if count == 1:
        assert undone == before, "taking back one decision gives the game before it"
    for seat, action in state.history[-count:]:
        undone.apply(seat, action)
    assert undone == state, "redoing the same decisions reaches the same state, chance included"
    for viewer in [None, *range(state.num_players)]:
        assert undone.view(viewer) == state.view(viewer), "redoing shows the same view"
        assert undone.log(viewer) == state.log(viewer), "redoing shows the same log"
    return count
