"""The shared conformance test every game meets (after OpenSpiel's random_sim_test).

For every game, variant and player count: many seeded games played by random (and heuristic) bots,
checking at each step that the contract holds — to_act and legal_actions agree, illegal and malformed
actions are refused with the state untouched, saves and clones round-trip, views and logs are JSON-safe,
resample keeps the seat's view and deals a possible world, the same seed replays the same game, and the
game's own invariants (conservation, hidden information) hold.
"""

from __future__ import annotations

import json
import random

import pytest

import candlebox
from candlebox import bots
from candlebox.engine import HIDDEN_ACTION
from tests.conformance.invariants import INVARIANTS, STORIES

CONFIGS = [
    (game, variant.name, players)
    for game in candlebox.GAMES
    for variant in candlebox.variants(game)
    for players in variant.players
]
SEEDS = 3
DEEP_EVERY = (
    23  # the expensive checks (save, clone, resample) run on every 23rd step and the first 40
)


def _ids(config: tuple[str, str, int]) -> str:
    return "{}-{}-{}p".format(*config)


def check_step(state: candlebox.State, rng: random.Random, seen: set[str], deep: bool) -> None:
    to_act = state.to_act
    assert to_act, "a game not over has a seat to act"
    assert len(set(to_act)) == len(to_act)
    for seat in range(state.num_players):
        actions = state.legal_actions(seat)
        if seat not in to_act:
            assert actions == [], f"seat {seat} does not act but has {actions}"
            continue
        assert actions, f"seat {seat} acts but has no legal action"
        assert len(set(actions)) == len(actions), f"duplicates in {actions}"
        assert all(isinstance(a, str) and a == a.strip() for a in actions)
        assert state.legal_actions(seat) == actions, "legal_actions is stable"
        # the list the engine keeps (or the game handed it) is what the game computes now
        assert state._legal_for(seat) == actions, "the kept legal list is stale"
        assert all(state.move_kind(a) is not None for a in actions), "an undeclared move kind"
        assert state.explain(seat, actions[-1]) is None
        seen.update(actions)
    if deep:
        check_refusals(state, rng, seen)
        check_round_trips(state, rng)


def check_refusals(state: candlebox.State, rng: random.Random, seen: set[str]) -> None:
    before = state.to_json()
    seat = state.to_act[0]
    legal = state.legal_actions(seat)
    others = sorted(seen - set(legal))
    attempts: list[tuple[object, object]] = [
        (seat, "definitely not an action"),
        (seat, ""),
        (seat, 42),
        (state.num_players, legal[0]),
        (-1, legal[0]),
    ]
    if others:
        attempts.append((seat, rng.choice(others)))
    idle = [s for s in range(state.num_players) if s not in state.to_act]
    if idle:
        attempts.append((idle[0], legal[0]))
    malformed = {"definitely not an action", "", 42}
    for who, action in attempts:
        with pytest.raises(candlebox.IllegalAction) as refused:
            state.apply(who, action)  # type: ignore[arg-type]
        assert str(refused.value), "the refusal says what was wrong"
        assert str(refused.value) == state.explain(who, action)  # type: ignore[arg-type]
        if who == seat and action in malformed:
            assert isinstance(refused.value, candlebox.MalformedAction), action
        elif isinstance(action, str) and action in seen:
            assert not isinstance(refused.value, candlebox.MalformedAction), action
        assert state.to_json() == before, f"refusing {action!r} for {who} changed the state"


def check_round_trips(state: candlebox.State, rng: random.Random) -> None:
    saved = state.to_json()
    text = json.dumps(saved)
    assert json.loads(text) == saved, "to_json is plain JSON already (no tuples, no objects)"
    restored = candlebox.load(json.loads(text))
    assert restored.to_json() == saved, "to_json/load round trip"
    twin = state.clone()
    assert twin.to_json() == saved, "clone equals the original"
    seat = twin.to_act[0]
    twin.apply(seat, rng.choice(twin.legal_actions(seat)))
    assert state.to_json() == saved, "playing on a clone leaves the original alone"
    for viewer in [None, *range(state.num_players)]:
        json.dumps(state.view(viewer))
        json.dumps(state.log(viewer))
    STORIES[state.game_id](state)  # the real game tells a possible story too
    for seat in range(state.num_players):
        other = state.resample(seat, rng.randrange(2**32))
        assert other.view(seat) == state.view(seat), "resample keeps the seat's view"
        assert other.log(seat) == state.log(seat), "resample keeps the seat's log"
        assert other.legal_actions(seat) == state.legal_actions(seat)
        assert other.to_act == state.to_act
        check_history_scrubbed(state, other, seat)
        check_possible_world(other)
        twin = state.resample(seat, 99)  # a state the seat cannot tell from this one
        assert twin.resample(seat, 5).to_json() == state.resample(seat, 5).to_json(), (
            "resample is canonical: it depends only on what the seat knows and the seed"
        )


def check_possible_world(twin: candlebox.State) -> None:
    """A resampled state is a world that could be: every card any seat's log names agrees with where
    the twin holds it (the game's own story check), and its save loads back (so it passes the game's
    consistency checks on load)."""
    STORIES[twin.game_id](twin)
    # A twin's history hides the others' private moves, so its save cannot be replayed (loading is a
    # replay): it is refused, naming the hidden move, rather than loaded as something it is not.
    if any(action == candlebox.HIDDEN_ACTION for _, action in twin.history):
        with pytest.raises(ValueError, match="does not replay"):
            candlebox.load(json.loads(json.dumps(twin.to_json())))


def check_history_scrubbed(state: candlebox.State, other: candlebox.State, seat: int) -> None:
    """A resampled history hides the others' private actions and keeps everything else."""
    assert len(other.history) == len(state.history)
    for (mover, action), (twin_mover, shown) in zip(state.history, other.history, strict=True):
        assert twin_mover == mover
        kind = state.move_kind(action)
        assert kind is not None, f"{action!r} is of no move kind the game declares"
        hidden = mover != seat and kind.redact
        assert shown == (HIDDEN_ACTION if hidden else action), (mover, action, shown)
    assert other.history == state.visible_history(seat)


def play_checked(game: str, variant: str, players: int, seed: int, bot: str, **options) -> None:
    state = candlebox.new_game(game, players=players, variant=variant, seed=seed, **options)
    rng = random.Random(seed)
    players_bots = [bots.make(bot, seed=seed * 10 + s) for s in range(players)]
    invariant = INVARIANTS.get(game)
    seen: set[str] = set()
    step = 0
    while not state.is_over:
        check_step(state, rng, seen, deep=step < 40 or step % DEEP_EVERY == 0)
        if invariant:
            invariant(state)
        seat = rng.choice(state.to_act)
        state.apply(seat, players_bots[seat].choose(state, seat))
        step += 1
    check_final(state)
    if invariant:
        invariant(state)
    check_replay(state)


def check_final(state: candlebox.State) -> None:
    assert state.to_act == ()
    assert all(state.legal_actions(s) == [] for s in range(state.num_players))
    assert state.winners and set(state.winners) <= set(range(state.num_players))
    assert len(state.scores) == state.num_players
    assert all(isinstance(x, float) for x in state.scores)
    assert isinstance(state.truncated, bool)
    with pytest.raises(candlebox.IllegalAction):
        state.apply(0, "pass")
    assert candlebox.load(json.loads(json.dumps(state.to_json()))).to_json() == state.to_json()


def check_replay(state: candlebox.State) -> None:
    """Same seed and options, same actions: the same game, RNG included."""
    again = candlebox.new_game(
        state.game_id,
        players=state.num_players,
        variant=state.variant,
        seed=state.seed,
        **state.options,
    )
    for seat, action in state.history:
        again.apply(seat, action)
    assert again.to_json() == state.to_json()


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_random_games(config: tuple[str, str, int]) -> None:
    game, variant, players = config
    for seed in range(SEEDS):
        play_checked(game, variant, players, seed, "random", max_turns=150 + 100 * seed)


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_heuristic_games(config: tuple[str, str, int]) -> None:
    """Bots that finish games, so the natural ends are checked too."""
    game, variant, players = config
    for seed in range(SEEDS):
        play_checked(game, variant, players, 100 + seed, "heuristic")


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_random_games_long(config: tuple[str, str, int]) -> None:
    game, variant, players = config
    for seed in range(1000, 1040):
        play_checked(game, variant, players, seed, "random")


def test_registry_facts() -> None:
    assert "candle-quest" in candlebox.GAMES
    for game in candlebox.GAMES:
        info = candlebox.game_info(game)
        assert info.max_turns > 0
        for variant in candlebox.variants(game):
            assert variant.min_players <= variant.max_players
            assert {"deck", "first_player", "max_turns"} <= {o.name for o in variant.options} or {
                "decks",
                "first_player",
                "max_turns",
            } <= {o.name for o in variant.options}


def test_new_game_validation() -> None:
    with pytest.raises(ValueError, match="unknown game"):
        candlebox.new_game("chess")
    with pytest.raises(ValueError, match="players"):
        candlebox.new_game("candle-quest", players=6)
    with pytest.raises(ValueError, match="unknown option"):
        candlebox.new_game("candle-quest", players=2, colour="blue")
    with pytest.raises(ValueError, match="max_turns"):
        candlebox.new_game("candle-quest", players=2, max_turns=0)
    with pytest.raises(ValueError, match="variant"):
        candlebox.new_game("candle-quest", players=2, variant="expert")
