"""The state readers of Candle Quest and Candelabria keep each state's last observation and write again
only what changed since (their kept rows). Read as the vector env reads them —
each game's seat to act after every step, in the env's own rows, games replaced as they end — every
observation must equal a fresh encoding of the seat's view (``spec.observe_view``, which keeps nothing),
at every step of random games of every game, variant and player count."""

from __future__ import annotations

import pickle

import pytest

from tests.rl.deps import require_rl

require_rl()

import numpy as np  # noqa: E402

import candlebox  # noqa: E402
import candlebox.rl  # noqa: E402
from candlebox.rl import Spec, covered_games  # noqa: E402
from tests.deep import ends, split  # noqa: E402
from tests.rl.test_core import configs  # noqa: E402

GAMES = 4  # games stepped at once
STEPS = 120  # batched steps: with short games, several games end and are replaced in each row
SHORT = {"max_turns": 10}


def _quick(config: tuple[str, str, int]) -> bool:
    """The README's run keeps each variant's fewest and most players; CI's second step the rest."""
    return config in ends(configs(), lambda c: c[:2], lambda c: c[2])


def _reader_and_reference(game: str, most: bool) -> tuple[Spec, Spec]:
    """The game's first variant at its fewest (or ``most``) players, short, twice: the spec whose
    encoder is under test and a reference with an encoder of its own (nothing shared)."""
    variant = candlebox.variants(game)[0]
    players = max(variant.players) if most else min(variant.players)
    return (
        Spec.make(game, players, variant.name, **SHORT),
        Spec.make(game, players, variant.name, **SHORT),
    )


def _differing(spec: Spec, got: np.ndarray, expected: np.ndarray) -> list[str]:
    return [
        name
        for name, start, length in spec.encoder.fields()
        if not np.array_equal(got[start : start + length], expected[start : start + length])
    ]


@pytest.mark.parametrize("config", split(configs(), _quick), ids=lambda c: "{}-{}-{}p".format(*c))
def test_every_vector_env_observation_is_a_fresh_encoding(config: tuple[str, str, int]) -> None:
    game, variant, players = config
    _vector_reads_are_fresh(game, variant, players, SHORT, STEPS)


# Candelabria's optional rules write parts of the state the default game never does (its reader
# rewrites a part when the rules mark it: candlebox/games/candelabria/marks.py).
CANDELABRIA_OPTIONS = [
    ("standard", 3, {"missions": True, "decay": True}),
    ("standard", 4, {"missions": True, "decay": True, "decay_draw": "every"}),
    ("two-player", 2, {"missions": True}),
]


@pytest.mark.parametrize(
    "config",
    split(CANDELABRIA_OPTIONS, lambda c: c[1] == 3),  # the rest in CI's second step (-m deep)
    ids=lambda c: "{}-{}p-{}".format(c[0], c[1], "-".join(c[2])),
)
def test_candelabria_with_its_options_reads_as_fresh_encodings(
    config: tuple[str, int, dict[str, object]],
) -> None:
    variant, players, options = config
    # long enough for a War Season (battles, curses, Decay cards) and a game's end in each row
    _vector_reads_are_fresh("candelabria", variant, players, {"max_turns": 24, **options}, 600)


def _vector_reads_are_fresh(
    game: str, variant: str, players: int, options: dict[str, object], steps: int
) -> None:
    venv = candlebox.rl.vector_env(game, GAMES, players=players, variant=variant, **options)
    reference = Spec.make(game, players, variant, **options)  # its own encoder: nothing shared
    obs, info = venv.reset(seed=3)
    rng = np.random.default_rng(3)
    endings = 0
    for step in range(steps):
        for i, state in enumerate(venv.games):
            assert state is not None
            seat = int(info["current_player"][i])
            expected = reference.observe_view(state, seat)
            if not np.array_equal(obs[i], expected):
                wrong = _differing(reference, obs[i], expected)
                pytest.fail(f"step {step}, game {i}, seat {seat}: fields differ: {wrong}")
        actions = np.array([ids[int(rng.integers(len(ids)))] for ids in venv.legal_ids()])
        obs, _rewards, terminated, truncated, info = venv.step(actions)
        endings += int(terminated.sum() + truncated.sum())
    assert endings > 0, "no game ended: the replaced games' rows were not checked"


@pytest.mark.parametrize("game", covered_games())
def test_loaded_and_taken_back_states_read_as_their_views(game: str) -> None:
    """A game read at every step, and now and then a save of it loaded and a decision taken back,
    each read at once: new objects (dropped after, so their ids come back) that a reader keeping
    rows must read whole, and the game read after them must still read as itself."""
    spec, reference = _reader_and_reference(game, most=False)
    rng = np.random.default_rng(11)
    state = spec.config.new_game(11)
    copies = 0
    for step in range(80):
        if state.is_over:
            state = spec.config.new_game(step)
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[int(rng.integers(len(legal)))])
        if state.is_over:
            continue
        looker = state.to_act[0]
        got = spec.observe(state, looker)
        assert np.array_equal(got, reference.observe_view(state, looker)), "the game itself"
        if step % 3:
            continue
        others = [candlebox.load(state.to_json())]
        if state.undoable(seat):
            others.append(state.undo(seat))
        for other in others:
            for who in range(spec.config.players):
                got = spec.observe(other, who)
                expected = reference.observe_view(other, who)
                assert np.array_equal(got, expected), _differing(spec, got, expected)
            copies += 1
        del others, other
    assert copies > 10


@pytest.mark.parametrize("game", covered_games())
def test_copies_dropped_and_their_ids_reused_read_as_their_views(game: str) -> None:
    """Copies read twice (so kept) and dropped: the next copies often get their ids, and must be
    read as themselves, not as the kept copy that had the id (a kept row is compared by value with
    whatever state is read under its id)."""
    spec, reference = _reader_and_reference(game, most=False)
    rng = np.random.default_rng(5)
    state = spec.config.new_game(5)
    ids: list[int] = []
    for _ in range(40):
        if state.is_over:
            state = spec.config.new_game(len(ids))
        for _ in range(2):
            copy = state.clone()
            for _ in range(int(rng.integers(0, 4))):  # the copy goes its own way
                if copy.is_over:
                    break
                seat = copy.to_act[0]
                legal = copy.legal_actions(seat)
                copy.apply(seat, legal[int(rng.integers(len(legal)))])
            seat = int(rng.integers(spec.config.players))
            expected = reference.observe_view(copy, seat)
            for _ in range(2):
                got = spec.observe(copy, seat)
                assert np.array_equal(got, expected), _differing(spec, got, expected)
            ids.append(id(copy))
            del copy
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[int(rng.integers(len(legal)))])
    assert len(set(ids)) < len(ids), "no id was reused: the case this test is for never arose"


@pytest.mark.parametrize("game", covered_games())
def test_a_game_read_now_and_then_reads_as_its_view(game: str) -> None:
    """One encoder reading a few games only now and then (several moves, a round's end or a whole
    round between reads, any seat), as a bot reads the states it is shown: whatever a reader kept
    from the last read (kept rows, 16 Candies' discard-pile draws) must catch up with every event
    since, and the games must not be mistaken for one another."""
    spec, reference = _reader_and_reference(game, most=True)
    rng = np.random.default_rng(9)
    games = [spec.config.new_game(seed) for seed in range(3)]
    reads = 0
    for _ in range(150):
        i = int(rng.integers(len(games)))
        state = games[i]
        for _ in range(int(rng.integers(0, 12))):
            if state.is_over:
                break
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            state.apply(seat, legal[int(rng.integers(len(legal)))])
        seat = int(rng.integers(spec.config.players))
        got = spec.observe(state, seat)
        expected = reference.observe_view(state, seat)
        assert np.array_equal(got, expected), _differing(spec, got, expected)
        reads += 1
        if state.is_over:
            games[i] = spec.config.new_game(100 + reads)
    assert reads == 150


@pytest.mark.parametrize("game", covered_games())
def test_an_encoder_pickled_after_reads_reads_as_fresh(game: str) -> None:
    """A worker process of ``vector_env(..., processes=K)`` gets the encoder pickled: one that has
    read games already (its kept rows and blocks are memoryviews, which do not pickle) must pickle
    without them and read every state whole again."""
    spec, reference = _reader_and_reference(game, most=True)
    rng = np.random.default_rng(4)
    state = spec.config.new_game(4)
    for _ in range(30):
        if state.is_over:
            break
        spec.observe(state, state.to_act[0])
        seat = state.to_act[0]
        legal = state.legal_actions(seat)
        state.apply(seat, legal[int(rng.integers(len(legal)))])
    spec.encoder = pickle.loads(pickle.dumps(spec.encoder))
    for seat in range(spec.config.players):
        got = spec.observe(state, seat)
        expected = reference.observe_view(state, seat)
        assert np.array_equal(got, expected), _differing(spec, got, expected)
