"""The encoders that read the state write exactly what the view encoders write, for every seat of
random states of every configuration (options included): an observation read from the state holds what
the seat may know and nothing else, because it equals the encoding of the seat's view."""

from __future__ import annotations

import pytest

from tests.rl.deps import require_rl

require_rl()

import random  # noqa: E402

import numpy as np  # noqa: E402

import candlebox  # noqa: E402
from candlebox.rl import Spec, covered_games  # noqa: E402
from tests.deep import first_of  # noqa: E402

SMALL = {"max_turns": 40}


def configs() -> list[tuple[str, str, int, tuple[tuple[str, object], ...]]]:
    out = []
    for game in covered_games():
        for variant in candlebox.variants(game):
            for players in variant.players:
                out.append((game, variant.name, players, ()))
    # Options that change what the state holds or how it is encoded.
    out += [
        ("candle-quest", "basic", 3, (("bank", 200),)),
        ("sixteen-candies", "standard", 3, (("draw", "optional"), ("rediscard", True))),
        ("sixteen-candies", "standard", 4, (("instant_win", "held"),)),
        # Candelabria: the options that add fields (missions, decay) or an action (spare).
        ("candelabria", "standard", 3, (("decay", True),)),
        ("candelabria", "standard", 4, (("missions", True),)),
        ("candelabria", "standard", 5, (("decay", True), ("missions", True))),
        ("candelabria", "two-player", 2, (("missions", True),)),
        (
            "candelabria",
            "standard",
            4,
            (("castle_entry", "optional"), ("warrior_push", "optional")),
        ),
    ]
    return out


def _ids(config: tuple) -> str:
    game, variant, players, options = config
    extra = "".join(f"-{k}={v}" for k, v in options)
    return f"{game}-{variant}-{players}p{extra}"


# each variant and option set at its fewest players by default; the other counts: -m deep (CI)
@pytest.mark.parametrize("config", first_of(configs(), lambda c: (*c[:2], c[3])), ids=_ids)
def test_state_encoding_equals_view_encoding(config: tuple) -> None:
    game, variant, players, options = config
    spec = Spec.make(game, players, variant, **SMALL, **dict(options))
    # Every covered game reads the state (the adapters' fast path); a new game may start without.
    assert spec.encoder.reads_state, f"{game} encodes its view only (no fill_state)"
    out = np.full(spec.observation_size, 7.0, dtype=np.float32)  # stale values must be cleared
    compared = 0
    for seed in range(4):
        rng = random.Random(seed)
        state = candlebox.new_game(
            game, players=players, variant=variant, seed=seed, **SMALL, **dict(options)
        )
        while True:
            for seat in range(players):
                expected = spec.observe_view(state, seat)
                got = spec.observe(state, seat, out)
                assert got is out
                if not np.array_equal(got, expected):
                    wrong = [
                        name
                        for name, start, length in spec.encoder.fields()
                        if not np.array_equal(
                            got[start : start + length], expected[start : start + length]
                        )
                    ]
                    pytest.fail(f"seed {seed}, seat {seat}: fields differ: {wrong}")
                compared += 1
            if state.is_over:
                break
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    assert compared > 100


@pytest.mark.parametrize("game", covered_games())
def test_mask_into_a_used_row_is_the_fresh_mask(game: str) -> None:
    spec = Spec.make(game, 3, **SMALL)
    state = candlebox.new_game(game, players=3, seed=2, **SMALL)
    row = np.ones(spec.num_distinct_actions, dtype=np.int8)
    rng = random.Random(2)
    for _ in range(30):
        if state.is_over:
            break
        seat = state.to_act[0]
        assert spec.actions.mask(state, seat, row) is row
        assert np.array_equal(row, spec.actions.mask(state, seat))
        state.apply(seat, rng.choice(state.legal_actions(seat)))


def test_candle_quest_kept_piles_follow_each_state_by_value() -> None:
    """Candle Quest keeps each state's pile section between reads (encoder.KEPT_STATES of them):
    states read in turn, copies read once and then dropped (their ids reused by new copies) all
    get exactly their view's encoding, and the kept sections stay bounded."""
    from candlebox.games.candle_quest import encoder as cq

    spec = Spec.make("candle-quest", 3, "basic", **SMALL)
    games = [candlebox.new_game("candle-quest", players=3, seed=s, **SMALL) for s in (5, 6)]
    rng = random.Random(5)
    for _ in range(120):
        for state in games:
            if state.is_over:
                continue
            for seat in range(3):
                assert np.array_equal(spec.observe(state, seat), spec.observe_view(state, seat))
            for _ in range(3):  # copies read twice (kept), then dropped: their ids come back
                copy = state.clone()
                seat = copy.to_act[0] if not copy.is_over else 0
                assert np.array_equal(spec.observe(copy, seat), spec.observe(copy, seat))
                assert np.array_equal(spec.observe(copy, seat), spec.observe_view(copy, seat))
                del copy
            seat = state.to_act[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    kept = spec.encoder._kept  # type: ignore[attr-defined]
    assert 0 < len(kept) <= cq.KEPT_STATES


@pytest.mark.parametrize("variant", ["basic", "advanced", "junior"])
def test_candle_quest_kept_sections_follow_whole_games(variant: str) -> None:
    """Candle Quest writes its kept count sections only where the state's data changed (a candle
    added to or taken from a pile's top, a removed candle, a screen that changed): over whole games,
    with new stacks built from the piles, loots, removed candles and screens that grow and shrink,
    every seat's observation read at every step equals its view's encoding."""
    spec = Spec.make("candle-quest", 3, variant, max_turns=250)
    seen: set[str] = set()
    for seed in (11, 12):
        rng = random.Random(seed)
        state = candlebox.new_game(
            "candle-quest", players=3, variant=variant, seed=seed, max_turns=250
        )
        while True:
            for seat in range(3):
                got = spec.observe(state, seat)
                assert np.array_equal(got, spec.observe_view(state, seat)), (
                    seed,
                    len(state.history),
                )
            if state.is_over:
                break
            seat = state.to_act[0]
            before = len(state.events)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            seen.update(event[0] for event in state.events[before:])
    # The changes the kept sections follow all happened (else this test would prove little).
    wanted = {"rebuild", "sell", "discard"} | ({"loot"} if variant != "junior" else {"give"})
    assert wanted <= seen, wanted - seen
