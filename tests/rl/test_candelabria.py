"""The Curse of Candelabria in the RL adapters: its numbering in every configuration (options
included), its length bound, and observations that show a seat nothing it may not know — above all
the simultaneous secret choice of tactic cards."""

from __future__ import annotations

import pytest

from tests.rl.deps import require_rl

require_rl()

import random  # noqa: E402

import numpy as np  # noqa: E402

import candlebox  # noqa: E402
from candlebox.games.candelabria import encoder as candelabria  # noqa: E402
from candlebox.rl import Spec  # noqa: E402
from candlebox.testing.encoders import numbering_masks_and_observations  # noqa: E402

GAME = "candelabria"
# Every configuration: variant, players, options.
CONFIGS = [
    ("standard", 3, {}),
    ("standard", 4, {}),
    ("standard", 5, {}),
    ("two-player", 2, {}),
    ("standard", 4, {"missions": True}),
    ("two-player", 2, {"missions": True}),
    ("standard", 3, {"decay": True}),
    ("standard", 5, {"decay": True, "missions": True}),
    ("standard", 4, {"castle_entry": "optional", "warrior_push": "optional"}),
]
# (variant, players, options) -> (num_distinct_actions, observation size), as docs/rl.md lists them.
SIZES = {
    ("standard", 3, ()): (2462, 2578),
    ("standard", 4, ()): (2843, 3331),
    ("standard", 5, ()): (2843, 3954),
    ("two-player", 2, ()): (2510, 1989),
    ("standard", 3, ("decay",)): (2539, 2674),
    ("standard", 4, ("decay",)): (2847, 3459),
    ("standard", 4, ("missions",)): (2843, 3812),
    ("two-player", 2, ("missions",)): (2510, 2278),
}


def _ids(config: tuple) -> str:
    variant, players, options = config
    return "-".join([variant, f"{players}p", *(f"{k}={v}" for k, v in options.items())])


def _play_to_secret(state: candlebox.State, rng: random.Random, choosers: int = 2) -> None:
    """Random moves until a secret choice of tactic cards with at least ``choosers`` seats."""
    while not state.is_over:
        pending = state.pending()
        if pending["decision"] == "secret" and len(state.to_act) >= choosers:
            return
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError("the game ended before a secret choice")


@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_every_legal_text_of_whole_games_has_an_id(config: tuple) -> None:
    """Whole random games (no turn limit): every legal text is numbered, masks count them exactly."""
    variant, players, options = config
    spec = Spec.make(GAME, players, variant, **options)
    numbering = spec.actions
    for seed in range(2):
        rng = random.Random(seed)
        state = spec.config.new_game(seed)
        steps = 0
        while not state.is_over:
            for seat in state.to_act:
                legal = state.legal_actions(seat)
                mask = numbering.mask(state, seat)
                assert int(mask.sum()) == len(legal)
            seat = state.to_act[0]
            state.apply(seat, numbering.to_text(rng.choice(numbering.legal_ids(state, seat))))
            steps += 1
        assert not state.truncated and state.winners
        assert steps <= spec.max_game_length
        assert state.turns <= candelabria.turn_bound(spec.config)


@pytest.mark.parametrize("config", CONFIGS[4:], ids=_ids)
def test_the_options_are_numbered_and_encoded(config: tuple) -> None:
    variant, players, options = config
    numbering_masks_and_observations(GAME, variant, players, {**options, "max_turns": 25}, range(1))


@pytest.mark.slow
@pytest.mark.parametrize("config", CONFIGS, ids=_ids)
def test_many_whole_games_stay_numbered_and_bounded(config: tuple) -> None:
    variant, players, options = config
    """Half the games decline nothing they can avoid (``done``, ``skip``, ``pass``...), the longest
    games random play finds."""
    spec = Spec.make(GAME, players, variant, **options)
    declining = {"done", "skip", "pass", "stay", "spare"}
    for seed in range(300):
        rng = random.Random(seed)
        state = spec.config.new_game(seed)
        steps = 0
        while not state.is_over:
            seat = state.to_act[0]
            ids = spec.actions.legal_ids(state, seat)
            if seed % 2:
                ids = [i for i in ids if spec.actions.texts[i] not in declining] or ids
            state.apply(seat, spec.actions.to_text(rng.choice(ids)))
            steps += 1
        assert steps <= spec.max_game_length
        assert state.turns <= candelabria.turn_bound(spec.config)


def test_the_sizes_are_those_documented() -> None:
    for (variant, players, flags), sizes in SIZES.items():
        spec = Spec.make(GAME, players, variant, **dict.fromkeys(flags, True))
        assert (spec.num_distinct_actions, spec.observation_size) == sizes


def test_the_numbering_follows_the_side_the_houses_and_the_options() -> None:
    small = Spec.make(GAME, 3).actions
    large = Spec.make(GAME, 4).actions
    duo = Spec.make(GAME, 2).actions
    decay = Spec.make(GAME, 3, decay=True).actions
    assert small.to_id("done") == 0 and small.texts[:4] == ("done", "skip", "pass", "supply")
    # the small side: 24 territories, no Luminis (its start region 9 is not on it)
    assert "move C 8c" in small and "move C 10a" not in small and "move C 10a" in large
    assert "destroy L" not in small and "destroy L-W" in large and "play L-3I -" in large
    assert "play - N-3I1X" in small and "play 1I1X N-3I1X" in small
    assert "play N-3I1X N-3I1X" not in small  # one copy of a house card
    assert "play 3V! 3V!" not in small and "play 1I1X 1I1X" in small  # copies: 1 and 6
    assert "play N-3I1X C-1X1V" not in large  # two houses' cards never in one hand
    # Luminis's Year I power (shift) only where Luminis can sit; Decay nudges too
    assert "shift W 9b" in large and "shift W 3b" not in small and "shift W 3b" in decay
    assert "stay" in decay and "stay" not in small
    # the most a Mine gives: 8 on the small side (7 Mines and a tile), 6 on the large one
    assert "mine gold 8 wax 0" in small and "mine gold 8 wax 1" not in small
    assert "mine gold 0 wax 6" in large and "mine gold 0 wax 7" not in large
    # the two-player mode: a house choice and moving curses, no curse control, no Decay
    assert "house C" in duo and "haunt 3 2b" in duo and "curse 1" not in duo
    assert "supply" not in duo and "lift C-W" not in duo and "haunt 1 2b" not in small
    assert "decay 2" in decay and "either 1" in decay and "decay 1" not in small
    assert "spare" in Spec.make(GAME, 3, castle_entry="optional").actions and "spare" not in small
    with pytest.raises(ValueError, match="content"):
        Spec.make(GAME, 3, content="/somewhere")


def test_the_secret_choice_is_invisible_to_the_other_seats() -> None:
    """In a real battle, a seat that has not chosen observes the same thing whatever an earlier seat
    chose; its own choice shows in its own observation only."""
    spec = Spec.make(GAME, 4, missions=True, decay=True)
    state = spec.config.new_game(2)
    _play_to_secret(state, random.Random(2), choosers=2)
    first, second = state.to_act[:2]
    assert state.pending()["seats"] == list(state.to_act)
    choices = state.legal_actions(first)
    assert len(choices) >= 2 and all(c.startswith("play ") for c in choices)
    seen, own = [], []
    for choice in (choices[0], choices[-1]):
        world = state.clone()
        world.apply(first, choice)
        assert world.to_act[0] == second and first not in world.to_act
        seen.append(spec.observe(world, second))
        own.append(spec.observe(world, first))
        seen.append(spec.observe(world.resample(second, 7), second))
    assert all(np.array_equal(seen[0], other) for other in seen[1:])
    assert not np.array_equal(own[0], own[1])  # the chooser sees its own choice
    chosen = spec.encoder.layout.fields["chosen"]
    assert seen[0][chosen.start + first] == 1.0  # that it has chosen is public


@pytest.mark.parametrize("config", [CONFIGS[0], CONFIGS[3], CONFIGS[7]], ids=_ids)
def test_an_observation_depends_on_the_view_alone_through_a_war(config: tuple) -> None:
    variant, players, options = config
    spec = Spec.make(GAME, players, variant, **options)
    rng = random.Random(3)
    state = spec.config.new_game(3)
    _play_to_secret(state, rng, choosers=1)
    for _ in range(40):  # through the battle: choices, reveal, cancels, resolution
        if state.is_over:
            break
        for seat in range(players):
            twin = state.resample(seat, rng.getrandbits(32))
            obs = spec.observe(state, seat)
            assert np.array_equal(spec.observe(twin, seat), obs)
            assert obs.min() >= 0.0 and obs.max() <= 1.0
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
