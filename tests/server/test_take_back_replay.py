"""A take-back's plan replays only the moves since the player's earlier turns (issue 35;
candlebox/server/takebacks.py ``Bases``, the engine's ``base``: candlebox/engine/undoing.py), and
gives exactly the plan a replay from the seed gives — the same count, reason and game — in every
game, so taking back never re-rolls chance: redoing the moves taken back gives the same game."""

from __future__ import annotations

import random

import pytest

import candlebox
from candlebox.engine.undoing import verdict
from candlebox.server.live import LiveGame
from candlebox.server.storage import GameRecord, SeatRecord
from candlebox.server.takebacks import TakeBackFrames, last_person, plan


def table(game: str, players: int, seed: int) -> LiveGame:
    """A live game: seat 0 a person, the others bots."""
    state = candlebox.new_game(game, players=players, seed=seed)
    seats = [SeatRecord(0, "human", "Ann", token_hash="a" * 64)] + [
        SeatRecord(n, "bot", f"Bot {n}", bot="random") for n in range(1, players)
    ]
    record = GameRecord(
        id=f"{game}-{seed}",
        game=game,
        variant=state.variant,
        players=players,
        options=dict(state.options),
        seed=seed,
        public=True,
        bot_delay=0.0,
        seats=seats,
    )
    return LiveGame(record=record, state=state)


@pytest.mark.parametrize(
    ("game", "players"), [("candle-quest", 3), ("sixteen-candies", 3), ("candelabria", 3)]
)
def test_a_plan_from_kept_states_is_the_plan_from_the_seed(game: str, players: int) -> None:
    live = table(game, players, seed=4)
    frames = TakeBackFrames()
    rng = random.Random(4)
    turns = from_kept = undone = 0
    while live.moves < 150 and not live.state.is_over:
        seat = live.state.to_act[0]
        live.state.apply(seat, rng.choice(live.state.legal_actions(seat)))
        live.moves += 1
        if live.state.is_over or last_person(live) != 0 or 0 not in live.state.to_act:
            continue
        kept = frames.bases_of(live.id).best(live.state, live.state.history[-1][0])
        fast = frames.plan(live, 0)
        slow = plan(live, 0)  # every verdict replayed from the seed, as before
        assert (fast.moves, fast.reason, fast.state) == (slow.moves, slow.reason, slow.state)
        turns += 1
        from_kept += kept is not None and len(kept.history) > 0
        if fast.moves and fast.state is not None:
            redone = fast.state.clone()  # the game taken back, then the same moves again
            for mover, action in live.state.history[live.moves - fast.moves :]:
                redone.apply(mover, action)
            assert redone == live.state, "taking back re-rolled nothing: the same game again"
            undone += 1
    assert turns >= 10
    assert from_kept >= turns // 2, "a plan replays from a kept state after the first turns"
    assert undone > 0


def test_a_base_from_another_game_is_not_used() -> None:
    state = candlebox.new_game("candle-quest", players=2, seed=1)
    other = candlebox.new_game("candle-quest", players=2, seed=2)
    rng = random.Random(1)
    for _ in range(12):
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    mover = state.history[-1][0]
    assert verdict(state, mover, other) == verdict(state, mover)
