"""Action numbering, view encoding, rewards and length bounds of every covered game configuration."""

from __future__ import annotations

import pytest

from tests.rl.deps import require_rl

require_rl()

import itertools  # noqa: E402
import random  # noqa: E402

import candlebox  # noqa: E402
from candlebox.rl import Spec, covered_games  # noqa: E402
from candlebox.testing import encoders  # noqa: E402

SMALL = {"max_turns": 25}  # short games keep the suite fast; the numbering does not depend on it


def configs() -> list[tuple[str, str, int]]:
    return [
        (game, variant.name, players)
        for game in covered_games()
        for variant in candlebox.variants(game)
        for players in variant.players
    ]


def _ids(config: tuple[str, str, int]) -> str:
    return "{}-{}-{}p".format(*config)


def test_every_game_is_covered() -> None:
    assert covered_games() == ["candle-quest", "sixteen-candies", "candelabria"]


@pytest.mark.parametrize("config", configs(), ids=_ids)
def test_numbering_masks_and_encoding_follow_the_engine(config: tuple[str, str, int]) -> None:
    game, variant, players = config
    encoders.numbering_masks_and_observations(game, variant, players, SMALL)


def test_unknown_texts_and_ids_are_refused() -> None:
    numbering = Spec.make("candle-quest", 3).actions
    with pytest.raises(ValueError, match="not an action of this configuration"):
        numbering.to_id("juggle")
    with pytest.raises(ValueError, match="out of range"):
        numbering.to_text(numbering.num_distinct_actions)
    with pytest.raises(ValueError, match="out of range"):
        numbering.to_text(-1)


def test_candle_quest_numbering_is_set_by_the_bank_and_the_players() -> None:
    basic = Spec.make("candle-quest", 3).actions
    assert basic.to_id("flip") == 0
    assert "bid 100" in basic and "bid 101" not in basic
    assert "loot 2" in basic and "loot 3" not in basic
    rich = Spec.make("candle-quest", 3, bank=200).actions
    assert "bid 200" in rich
    assert rich.num_distinct_actions == basic.num_distinct_actions + 300
    junior = Spec.make("candle-quest", 3, "junior").actions
    assert "force 1" in junior and "give D9" in junior and "auction 1" not in junior


@pytest.mark.parametrize("game", covered_games())
def test_an_observation_depends_on_the_view_alone(game: str) -> None:
    """Worlds a seat cannot tell apart (the engine's resample) encode identically for that seat."""
    variant = candlebox.game_info(game).default_variant(3)
    encoders.observation_depends_on_the_view_alone(game, variant, 3)


@pytest.mark.parametrize("game", covered_games())
def test_encoder_fields_tile_the_vector(game: str) -> None:
    spec = Spec.make(game, 4)
    fields = spec.encoder.fields()
    assert fields[0][1] == 0
    for (_, start, length), (_, following, _) in itertools.pairwise(fields):
        assert following == start + length
    assert fields[-1][1] + fields[-1][2] == spec.observation_size


def test_simultaneous_choices_are_numbered_like_any_other(secret_numbers: str) -> None:
    spec = Spec.make(secret_numbers, 3)
    state = spec.config.new_game(1)
    assert state.to_act == (0, 1, 2)
    masks = [spec.actions.mask(state, seat) for seat in range(3)]
    assert all(m.tolist() == [1, 1, 1] for m in masks)
    state.apply(0, "pick 3")
    assert state.to_act == (1, 2)
    assert spec.actions.mask(state, 0).tolist() == [0, 0, 0]


@pytest.mark.parametrize("game", covered_games())
def test_a_bounded_encoder_writes_only_numbers_in_0_1_unclipped(game: str) -> None:
    """An encoder that declares its numbers bounded is not clipped: whole games at the default
    length, every seat, its state reader and its view encoder, hold it to its word."""
    spec = Spec.make(game, 3)
    if not spec.encoder.bounded:
        pytest.skip(f"{game}'s encoder is clipped")
    for seed in range(3):
        rng = random.Random(seed)
        state = candlebox.new_game(game, players=3, seed=seed)
        while True:
            for seat in range(3):
                for obs in (spec.observe(state, seat, clip=False), spec.observe_view(state, seat)):
                    assert obs.min() >= 0.0 and obs.max() <= 1.0, (seed, seat)
            if state.is_over:
                break
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
