"""Taking back (candlebox/engine/undoing.py): a seat takes back its own last decisions while nothing
hidden or random has come out since, in every game, decided by the engine from what the moves
revealed; redoing shows exactly what was shown before."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

import candlebox
from candlebox.engine import IllegalAction, Rng, State, game_ids
from candlebox.testing import contract, undo

Found = Callable[[State, State, int, str], bool]  # (before, after, mover, action)


def play_until(
    game: str, players: int, found: Found, seeds: range = range(6)
) -> tuple[State, State]:
    """The first position of seeded random games where ``found`` holds for the last move: the states
    before and after it."""
    for seed in seeds:
        state = candlebox.new_game(game, players=players, seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            before = state.clone()
            seat = rng.choice(state.to_act)
            action = rng.choice(state.legal_actions(seat))
            state.apply(seat, action)
            if found(before, state, seat, action):
                return before, state
    raise AssertionError(f"no position of {game} found")


def events_since(before: State, after: State) -> set[str]:
    return {entry["event"] for entry in after.log(None, since=before.event_count)}


def test_the_generator_counts_its_draws() -> None:
    rng = Rng(7)
    start = rng.state
    assert rng.draws_since(start) == 0
    for _ in range(5):
        rng.next64()
    assert rng.draws_since(start) == 5
    twin = rng.copy()
    items = list(range(40))
    rng.shuffle(items)
    used = rng.draws_since(twin.state)
    assert used > 0
    for _ in range(used):
        twin.next64()
    assert twin.state == rng.state


@pytest.mark.parametrize("game", game_ids())
def test_a_take_back_in_every_game(game: str) -> None:
    """Through the conformance kit's part: taken back, the game is the one before; redone, the very
    same game, views and logs; one more is refused; and some decisions are taken back in each game."""
    configs = contract.configurations(game)
    taken = sum(
        undo.take_backs(game, variant, players, seeds=(0,)) for variant, players in configs[:2]
    )
    assert taken > 0, f"no decision of {game} could be taken back"


def test_a_draw_from_the_pile_cannot_be_taken_back() -> None:
    def drew(before: State, after: State, mover: int, action: str) -> bool:
        return action == "draw pile" and after.to_act == (mover,)

    _, after = play_until("sixteen-candies", 2, drew)
    mover = after.history[-1][0]
    assert after.undoable(mover) == 0
    with pytest.raises(IllegalAction, match=r"'draw pile'\) showed something to some seats only"):
        after.undo(mover)
    # the discard that follows may be taken back, never the draw before it
    discard = next(a for a in after.legal_actions(mover) if a.startswith("discard"))
    after.apply(mover, discard)
    assert after.undoable(mover) <= 1
    with pytest.raises(IllegalAction, match="cannot take back 2 decisions"):
        after.undo(mover, 2)


def test_a_draw_from_the_discard_pile_can_be_taken_back_and_redone() -> None:
    def took(before: State, after: State, mover: int, action: str) -> bool:
        return action == "draw discard" and before.history[-1][0] != mover

    before, after = play_until("sixteen-candies", 2, took)
    mover = after.history[-1][0]
    assert after.undoable(mover) == 1
    undone = after.undo(mover)
    assert undone == before
    undone.apply(mover, "draw discard")
    assert undone == after
    assert undone.view(mover) == after.view(mover)


def test_a_revealed_secret_choice_cannot_be_taken_back() -> None:
    """Candelabria's War Board: the last secret choice reveals everyone's; the first can be taken
    back while the others still choose."""

    def revealed(before: State, after: State, mover: int, action: str) -> bool:
        last = before.history[-1] if before.history else (mover, "")
        return (
            action.startswith("play")
            and "reveal" in events_since(before, after)
            and last[0] != mover
            and last[1].startswith("play")
        )

    _, after = play_until("candelabria", 3, revealed)
    mover = after.history[-1][0]
    assert after.undoable(mover) == 0
    with pytest.raises(IllegalAction, match=r"secret choice|hidden"):
        after.undo(mover)


def test_a_secret_choice_not_yet_revealed_can_be_taken_back() -> None:
    def chose_first(before: State, after: State, mover: int, action: str) -> bool:
        return (
            action.startswith("play")
            and "reveal" not in events_since(before, after)
            and not before.history[-1][1].startswith("play")
        )

    before, after = play_until("candelabria", 3, chose_first)
    mover = after.history[-1][0]
    assert after.undoable(mover) >= 1
    assert after.undo(mover) == before


def test_a_candle_flipped_from_the_hidden_stack_cannot_be_taken_back() -> None:
    """No chance is drawn and the flip is seen by all, but the stack's order was hidden."""

    def flipped(before: State, after: State, mover: int, action: str) -> bool:
        return action == "flip" and after.rng.draws_since(before.rng.state) == 0

    _, after = play_until("candle-quest", 3, flipped)
    mover = after.history[-1][0]
    assert after.undoable(mover) == 0
    with pytest.raises(IllegalAction, match="showed something that was hidden"):
        after.undo(mover)


def test_bad_seats_and_counts_are_refused_by_name() -> None:
    state = candlebox.new_game("candle-quest", players=2, seed=1)
    assert state.undoable(0) == 0
    with pytest.raises(IllegalAction, match="no move has been made yet"):
        state.undo(0)
    with pytest.raises(ValueError, match="spectator"):
        state.undoable(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a seat"):
        state.undoable(5)
    with pytest.raises(ValueError, match="count"):
        state.undo(0, 0)
