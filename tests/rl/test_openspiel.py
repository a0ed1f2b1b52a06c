"""The OpenSpiel registration: pyspiel.random_sim_test passes, and OpenSpiel's own MCTSBot and
ISMCTSBot play whole games of every covered game."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.rl.deps import require_rl

require_rl()

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import candlebox  # noqa: E402
import candlebox.rl  # noqa: E402
from candlebox.rl import covered_games  # noqa: E402
from candlebox.rl.openspiel_game import register_game, seed_outcomes, short_name  # noqa: E402
from tests.deep import first_of, split  # noqa: E402

NAMES = candlebox.rl.register_openspiel()


def dealt(loaded: Any, seed: int) -> Any:
    """A new state of ``loaded`` with its chance nodes dealt from ``seed`` (reproducible)."""
    state = loaded.new_initial_state()
    state.deal(seed)
    return state


def test_every_covered_game_is_registered() -> None:
    assert [short_name(game) for game in covered_games()] == NAMES
    assert "candlebox_candle_quest" in NAMES
    assert candlebox.rl.register_openspiel() == NAMES  # idempotent
    registered = set(pyspiel.registered_names())
    assert set(NAMES) <= registered


# Candelabria's games are long (~500 decisions) and random_sim_test's cost grows with the square of a
# game's length (the information state holds the whole log): one game cut at 24 Kindling turns, which
# still reach a War Season with its secret choices.
SIMS = {"candelabria": (1, 24)}  # game -> (num_sims, max_turns); otherwise (3, 40)


@pytest.mark.parametrize(
    "game,params",
    first_of(  # each variant at its fewest players by default; its most: -m deep (CI)
        [
            (
                game,
                {
                    "players": players,
                    "variant": variant.name,
                    "max_turns": SIMS.get(game, (3, 40))[1],
                },
            )
            for game in covered_games()
            for variant in candlebox.variants(game)
            for players in sorted({variant.min_players, variant.max_players})
        ],
        lambda case: (case[0], case[1]["variant"]),
        unpack=True,
    ),
    ids=lambda x: x if isinstance(x, str) else "{variant}-{players}p".format(**x),
)
def test_random_sim_test_passes(game: str, params: dict) -> None:
    loaded = pyspiel.load_game(short_name(game), params)
    assert loaded.num_players() == params["players"]
    sims = SIMS.get(game, (3, 40))[0]
    pyspiel.random_sim_test(loaded, num_sims=sims, serialize=True, verbose=False)


def test_candelabria_options_pass_random_sim_test() -> None:
    params = {"players": 3, "decay": True, "missions": True, "max_turns": 16}
    loaded = pyspiel.load_game(short_name("candelabria"), params)
    assert dealt(loaded, 2).engine.options["decay"] is True
    pyspiel.random_sim_test(loaded, num_sims=1, serialize=True, verbose=False)


def test_candelabria_secret_choices_are_asked_in_turn_and_stay_hidden() -> None:
    """The real game's simultaneous choice: OpenSpiel asks the seats of ``to_act`` one after another,
    and a later chooser's information state is the same whatever the earlier one chose."""
    loaded = pyspiel.load_game(short_name("candelabria"), {"players": 4})
    state = dealt(loaded, 5)
    rng = np.random.RandomState(2)
    while not (state.engine.pending()["decision"] == "secret" and len(state.engine.to_act) >= 2):
        state.apply_action(int(rng.choice(state.legal_actions())))
    first, second = state.engine.to_act[:2]
    assert state.current_player() == first
    legal = state.legal_actions()
    strings, tensors = set(), []
    for action in (legal[0], legal[-1]):
        world = state.clone()
        world.apply_action(action)
        assert world.current_player() == second
        strings.add(world.information_state_string(second))
        strings.add(world.observation_string(second))
        tensors.append(np.array(world.observation_tensor(second)))
    assert len(strings) == 2  # one information state, one observation: the same in both worlds
    assert np.array_equal(tensors[0], tensors[1])


def test_the_secret_choices_game_passes_random_sim_test(secret_numbers: str) -> None:
    name = register_game(secret_numbers)
    pyspiel.random_sim_test(
        pyspiel.load_game(name, {"players": 3}), 5, serialize=True, verbose=False
    )


def test_parameters_reach_the_engine() -> None:
    game = pyspiel.load_game(
        "candlebox_candle_quest",
        {
            "players": 4,
            "variant": "advanced",
            "bank": 200,
            "tiebreak": "shekels",
            "first_player": 2,
        },
    )
    state = game.new_initial_state()
    assert state.is_chance_node()  # the seed is dealt by chance first
    state.deal(11)
    assert state.engine.variant == "advanced" and state.engine.num_players == 4
    assert state.engine.options["tiebreak"] == "shekels" and state.current_player() == 2
    assert "bid 200" in [state.action_to_string(2, a) for a in range(game.num_distinct_actions())]
    params = pyspiel.load_game("candlebox_candle_quest").get_parameters()
    assert params["players"] == 2 and params["variant"] == ""
    with pytest.raises(ValueError, match="not 7"):
        pyspiel.load_game("candlebox_candle_quest", {"players": 7})


def _mcts_against_ismcts(loaded: Any, simulations: int, seed: int) -> tuple[Any, int]:
    """OpenSpiel's MCTSBot (seat 0) against its ISMCTSBot (seat 1) to the end: (state, moves)."""
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    players = [
        mcts.MCTSBot(
            loaded, uct_c=2.0, max_simulations=simulations, evaluator=evaluator, random_state=rng
        ),
        ismcts.ISMCTSBot(
            loaded, evaluator, uct_c=2.0, max_simulations=simulations, random_state=rng
        ),
    ]
    state = dealt(loaded, seed)
    moves = 0
    while not state.is_terminal():
        action = players[state.current_player()].step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    return state, moves


@pytest.mark.parametrize("game", covered_games())
def test_mcts_and_ismcts_play_a_whole_game(game: str) -> None:
    loaded = pyspiel.load_game(short_name(game), {"players": 2, "max_turns": 6})
    state, moves = _mcts_against_ismcts(loaded, simulations=8, seed=3)
    assert moves <= loaded.max_game_length()
    returns = state.returns()
    assert sum(returns) == pytest.approx(1.0) and min(returns) >= 0.0


def test_mcts_and_ismcts_play_a_whole_game_of_candelabria() -> None:
    """A whole 2-player game, no turn limit: three years, each with its War Season (and battles with
    secret choices whenever two houses meet in a region holding a curse), on a budget of three
    simulations a move (about 2 s)."""
    loaded = pyspiel.load_game(short_name("candelabria"), {"players": 2})
    state, moves = _mcts_against_ismcts(loaded, simulations=3, seed=2)
    engine = state.engine
    assert not engine.truncated and engine.year == 3
    assert sum(1 for event in engine.events if event[0] == "war") == 3
    assert moves <= loaded.max_game_length()
    assert sum(state.returns()) == pytest.approx(1.0)


def test_ismcts_plays_the_secret_choices_game(secret_numbers: str) -> None:
    loaded = pyspiel.load_game(register_game(secret_numbers), {"players": 3})
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=2, random_state=rng)
    bot = ismcts.ISMCTSBot(loaded, evaluator, uct_c=2.0, max_simulations=20, random_state=rng)
    state = dealt(loaded, 2)
    while not state.is_terminal():
        state.apply_action(bot.step(state))
    assert sum(state.returns()) == pytest.approx(1.0)


def test_information_states_hide_what_the_seat_cannot_know(secret_numbers: str) -> None:
    name = register_game(secret_numbers)
    game = pyspiel.load_game(name, {"players": 3})
    strings, tensors = set(), []
    for first in (0, 2):  # seat 0 picks 1 or 3; seat 1 must not be able to tell
        state = dealt(game, 5)
        state.apply_action(first)
        assert state.current_player() == 1
        strings.add(state.information_state_string(1))
        strings.add(state.observation_string(1))
        tensors.append(np.array(state.observation_tensor(1)))
    assert len(strings) == 2  # one information state, one observation: the same in both worlds
    assert np.array_equal(tensors[0], tensors[1])


@pytest.mark.parametrize("game", covered_games())
def test_resample_keeps_the_information_state(game: str) -> None:
    loaded = pyspiel.load_game(short_name(game), {"players": 3, "max_turns": 20})
    state = dealt(loaded, 9)
    rng = np.random.RandomState(4)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for _ in range(30):
        if state.is_terminal():
            break
        player = state.current_player()
        twin = state.resample_from_infostate(player, sampler)
        assert twin.information_state_string(player) == state.information_state_string(player)
        assert twin.history() == state.history()
        assert twin.observation_tensor(player) == state.observation_tensor(player)
        state.apply_action(int(rng.choice(state.legal_actions())))
    tensor = np.array(state.observation_tensor(0))
    assert tensor.shape == tuple(loaded.observation_tensor_shape())


PUBLIC = pyspiel.IIGObservationType(
    perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
)
PUBLIC_RECALL = pyspiel.IIGObservationType(
    perfect_recall=True, public_info=True, private_info=pyspiel.PrivateInfoType.NONE
)
PRIVATE = pyspiel.IIGObservationType(
    perfect_recall=False, public_info=False, private_info=pyspiel.PrivateInfoType.SINGLE_PLAYER
)


def _twins() -> tuple[Any, Any, Any]:
    """(game, state, twin) of 16 Candies a few moves in: the twin is dealt anew all that seat 1
    cannot see, so the two differ in seat 0's hand and agree on everything public."""
    loaded = pyspiel.load_game(short_name("sixteen-candies"), {"players": 2})
    state = dealt(loaded, 4)
    rng = np.random.RandomState(3)
    for _ in range(4):
        state.apply_action(int(rng.choice(state.legal_actions())))
    twin = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    hands = [world.engine.view(0)["seats"][0]["hand"] for world in (state, twin)]
    assert hands[0] != hands[1]
    return loaded, state, twin


def test_public_and_private_observations_of_twins() -> None:
    from open_spiel.python.observation import make_observation

    loaded, state, twin = _twins()
    # public information only: nothing seat 0 alone knows, so the twins look the same to anyone
    public = make_observation(loaded, PUBLIC)
    assert len({public.string_from(world, seat) for world in (state, twin) for seat in (0, 1)}) == 1
    recall = make_observation(loaded, PUBLIC_RECALL)
    assert recall.string_from(state, 0) == recall.string_from(twin, 0)
    # seat 0's private information only: its hand, which the twins deal differently
    private = make_observation(loaded, PRIVATE)
    assert private.string_from(state, 0) != private.string_from(twin, 0)
    assert private.string_from(state, 1) == private.string_from(twin, 1)
    assert state.observation_string(0) != twin.observation_string(0)  # the default has both


@pytest.mark.parametrize("game", covered_games())
def test_observers_give_what_their_type_asks_for(game: str) -> None:
    from open_spiel.python.observation import make_observation

    loaded = pyspiel.load_game(short_name(game), {"players": 2, "max_turns": 20})
    state = dealt(loaded, 4)
    rng = np.random.RandomState(3)
    for _ in range(6):
        state.apply_action(int(rng.choice(state.legal_actions())))
    spectator = json.dumps(state.engine.view(None), sort_keys=True, separators=(",", ":"))
    public = make_observation(loaded, PUBLIC)
    assert public.tensor is None  # offered as text only
    assert public.string_from(state, 0) == public.string_from(state, 1) == spectator
    recall = make_observation(loaded, PUBLIC_RECALL)
    assert recall.string_from(state, 0) == recall.string_from(state, 1) != spectator
    private = make_observation(loaded, PRIVATE)
    assert private.tensor is None
    assert private.string_from(state, 0) != private.string_from(state, 1)
    # perfect recall (the information state) is more than the observation, with a tensor too
    assert state.information_state_string(0) != state.observation_string(0)
    recall_tensor = make_observation(loaded, pyspiel.IIGObservationType(perfect_recall=True))
    recall_tensor.set_from(state, 0)
    assert recall_tensor.tensor.tolist() == state.information_state_tensor(0)
    assert loaded.get_type().provides_information_state_tensor
    assert loaded.get_type().provides_observation_tensor
    default = make_observation(loaded)
    default.set_from(state, 0)
    assert default.tensor.tolist() == state.observation_tensor(0)


def test_observation_types_not_offered_are_refused() -> None:
    from open_spiel.python.observation import make_observation

    loaded = pyspiel.load_game("candlebox_candle_quest")
    every_seat = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=True, private_info=pyspiel.PrivateInfoType.ALL_PLAYERS
    )
    with pytest.raises(ValueError, match="every seat's private information"):
        make_observation(loaded, every_seat)
    nothing = pyspiel.IIGObservationType(
        perfect_recall=False, public_info=False, private_info=pyspiel.PrivateInfoType.NONE
    )
    with pytest.raises(ValueError, match="neither public nor private"):
        make_observation(loaded, nothing)


@pytest.mark.parametrize("game", covered_games())
def test_a_state_round_trips_through_serialization(game: str) -> None:
    """Chance is the seed dealt by explicit chance nodes, so a state (dealt or half dealt, or a
    resampled twin) serializes and comes back the same, and plays on the same."""
    loaded = pyspiel.load_game(short_name(game), {"players": 3, "max_turns": 20})
    half = loaded.new_initial_state()
    for outcome in seed_outcomes(12345)[:3]:
        half.apply_action(outcome)
    state = dealt(loaded, 12345)
    rng = np.random.RandomState(5)
    for _ in range(12):
        state.apply_action(int(rng.choice(state.legal_actions())))
    twin = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))
    for world in (half, state, twin):
        text = pyspiel.serialize_game_and_state(loaded, world)
        again_game, again = pyspiel.deserialize_game_and_state(text)
        assert str(again_game) == str(loaded)
        assert str(again) == str(world) and again.history() == world.history()
    again.apply_action(again.legal_actions()[0])
    twin.apply_action(twin.legal_actions()[0])
    assert str(again) == str(twin)
    assert loaded.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert seed_outcomes(12345) == dealt(loaded, 12345).history()
    assert dealt(loaded, 12345).engine.seed == 12345


def _own_history(state: Any, player: int) -> tuple[Any, ...]:
    """What the tensor recalls for a seat: how far chance has dealt, the seat's own actions in
    order, and its current observation."""
    steps = state.full_history()
    mine = tuple(step.action for step in steps if step.player == player)
    chance = sum(1 for step in steps if step.player == pyspiel.PlayerId.CHANCE)
    return chance, mine, tuple(state.observation_tensor(player))


@pytest.mark.parametrize("game", covered_games())
def test_different_own_histories_never_share_an_information_state_tensor(game: str) -> None:
    """Every state on a few random paths (half-dealt ones too), for every seat: two different
    own-histories (chance progress, own actions, observation) give two different tensors, and the
    observation and the own actions are read back from the tensor's named pieces."""
    from open_spiel.python.observation import make_observation

    loaded = pyspiel.load_game(short_name(game), {"players": 3, "max_turns": 12})
    observer = make_observation(loaded, pyspiel.IIGObservationType(perfect_recall=True))
    actions = loaded.num_distinct_actions()
    seen: dict[bytes, tuple[Any, ...]] = {}
    rng = np.random.RandomState(7)
    for _ in range(3):
        state = loaded.new_initial_state()
        while not state.is_terminal():
            for player in range(3):
                tensor = np.asarray(state.information_state_tensor(player), np.float32)
                history = _own_history(state, player)
                assert seen.setdefault(tensor.tobytes(), history) == history
                observer.set_from(state, player)
                assert observer.dict["dealing"].sum() == history[0]
                own = observer.dict["own_actions"]
                ids = np.rint(own[own > 0] * actions).astype(int) - 1
                assert tuple(ids) == history[1]
            if state.is_chance_node():
                state.apply_action(int(rng.randint(2)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(seen) > 30


@pytest.mark.parametrize("game", covered_games())
def test_game_and_state_serialize_through_the_python_game_api(game: str) -> None:
    loaded = pyspiel.load_game(short_name(game), {"players": 3, "max_turns": 20})
    again_game = pyspiel.deserialize_game(loaded.serialize())
    assert str(again_game) == str(loaded)
    assert again_game.get_parameters() == loaded.get_parameters()
    state = dealt(loaded, 99)
    rng = np.random.RandomState(2)
    for _ in range(10):
        state.apply_action(int(rng.choice(state.legal_actions())))
    for game_object in (loaded, again_game):
        again = game_object.deserialize_state(state.serialize())
        assert str(again) == str(state) and again.history() == state.history()
        assert again.information_state_tensor(1) == state.information_state_tensor(1)
        move = again.legal_actions()[-1]
        again.apply_action(move)
        twin = state.clone()
        twin.apply_action(move)
        assert str(again) == str(twin)


@pytest.mark.parametrize("game", covered_games())
def test_outcome_sampling_mccfr_and_mcts_run_on_each_game(game: str) -> None:
    from open_spiel.python.algorithms import outcome_sampling_mccfr

    loaded = pyspiel.load_game(short_name(game), {"players": 2, "max_turns": 4})
    np.random.seed(11)  # outcome sampling draws from numpy's global generator
    solver = outcome_sampling_mccfr.OutcomeSamplingSolver(loaded)
    for _ in range(3):
        solver.iteration()
    policy = solver.average_policy()
    state = dealt(loaded, 21)
    probabilities = policy.action_probabilities(state)
    assert set(probabilities) == set(state.legal_actions())
    assert sum(probabilities.values()) == pytest.approx(1.0)
    played, moves = _mcts_against_ismcts(loaded, simulations=4, seed=5)
    assert played.is_terminal() and moves <= loaded.max_game_length()


def _counts(game: str) -> list[int]:
    """Every player count the game plays (in its default variant for that count)."""
    info = candlebox.game_info(game)
    return sorted({n for v in info.variants for n in range(v.min_players, v.max_players + 1)})


# The default run keeps every game at 2 players and Candle Quest at 4 (where the tensor before the
# exact recall collided); CI's second step (-m deep) plays the other counts.
RECALL_KEPT = {("candle-quest", 4)}


@pytest.mark.parametrize(
    "game,players",
    split(
        [(game, n) for game in covered_games() for n in _counts(game)],
        lambda pair: pair[1] == 2 or pair in RECALL_KEPT,
        unpack=True,
    ),
)
def test_information_state_tensors_are_equal_exactly_when_the_strings_are(
    game: str, players: int
) -> None:
    """Perfect recall in the tensor: over every state of a few random games (half-dealt ones too)
    and every seat, two states share an information_state_tensor if and only if they share an
    information_state_string (the tensor recalls what the string recalls: the log as well as the
    view), and the tensor has the game's declared shape."""
    loaded = pyspiel.load_game(short_name(game), {"players": players, "max_turns": 10})
    shape = tuple(loaded.information_state_tensor_shape())
    by_string: dict[str, bytes] = {}
    by_tensor: dict[bytes, str] = {}
    rng = np.random.RandomState(players)
    for _ in range(3):
        state = loaded.new_initial_state()
        while not state.is_terminal():
            for player in range(players):
                tensor = np.asarray(state.information_state_tensor(player), np.float32)
                assert tensor.shape == shape
                text = state.information_state_string(player)
                assert by_string.setdefault(text, tensor.tobytes()) == tensor.tobytes()
                assert by_tensor.setdefault(tensor.tobytes(), text) == text
            if state.is_chance_node():
                state.apply_action(int(rng.randint(2)))
            else:
                state.apply_action(int(rng.choice(state.legal_actions())))
    assert len(by_string) > 20 * players


def test_an_information_state_beyond_the_recall_bound_is_refused_naming_it() -> None:
    """The tensor never cuts what it recalls (two cut strings could share a tensor): a string
    longer than ``recall_bytes`` is refused, naming the parameter; the string itself still reads."""
    loaded = pyspiel.load_game(short_name("candle-quest"), {"players": 2, "recall_bytes": 600})
    assert loaded.information_state_tensor_size() == (
        loaded.observation_tensor_size() + 8 + loaded.max_game_length() + 200
    )
    state = dealt(loaded, 3)
    assert len(state.information_state_string(0)) > 600
    with pytest.raises(Exception, match="larger recall_bytes"):
        state.information_state_tensor(0)
    with pytest.raises(Exception, match="recall_bytes must be 1 or more, not 0"):
        pyspiel.load_game(short_name("candle-quest"), {"recall_bytes": 0})
