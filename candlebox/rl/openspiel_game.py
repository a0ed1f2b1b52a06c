"""Candlebox games as OpenSpiel Python games (``pyspiel.register_game``).

Each covered game is registered as ``candlebox_<game id with underscores>``: sequential, imperfect
information, terminal rewards, and **explicit** chance (``ChanceMode.EXPLICIT_STOCHASTIC``): all chance
is the engine's own seeded generator inside the state (the shuffle, every later reshuffle), and the
seed is drawn by chance nodes at the start (``SEED_DRAWS``; ``CandleboxState.deal(seed)`` applies a
chosen one): the game object holds no generator, so ``pyspiel.serialize_game_and_state`` round-trips
a state (its history, and its engine pickled).
``clone()`` copies the generator, so a clone replays the same future chance;
``resample_from_infostate(player, sampler)`` deals what ``player`` cannot know anew (the engine's
``resample``) and reseeds chance, as ISMCTS needs.

Parameters: ``players``, ``variant`` ('' for the game's default), ``recall_bytes`` (the bound of the
information state tensor's exact recall, below) and the game's options of kind int, bool or choice
(a nullable int option takes -1 for "not set"). An option the chosen variant does not have is
ignored. Several seats deciding at once are asked one after another in seat order
(``current_player`` is the first seat of ``to_act``); each seat's information state shows nothing of
the choices already made until the engine reveals them.

Observations (``CandleboxObserver``): ``observation_string`` is the seat's view as JSON and
``observation_tensor`` that view encoded by the per-game module (the PettingZoo observation, named
pieces in ``observer.dict``); ``information_state_string`` adds the seat's log and its own actions
(perfect recall). ``information_state_tensor`` is the observation tensor followed by how far chance
has dealt (``dealing``), the seat's own actions in order (``own_actions``, one slot per action,
``(id + 1) / num_distinct_actions``, 0 after the last) and ``recall``: the information state string
itself, its bytes packed three to a number (:func:`pack_text`), so the tensor is a function of the
whole information state (the view, the seat's log with its private events in order, its own
actions) and two information states never share one. The string grows ~90 bytes a move, so laying
it out for the 13,000-move bound (Candle Quest; Candelabria 52,832) would take a million numbers:
the recall holds ``recall_bytes`` (default 196,608: 65,536 numbers, 2.5 times the longest string
measured in whole heuristic games of every game and count at the default ``max_turns``), and a
longer string is refused with a
ValueError naming the parameter, never cut (a cut could make two information states one). A learner
that wants features rather than identity reads the named pieces (``observer.dict``) before
``recall``. ``make_observation`` also offers public information only (the spectator's view, with its
log under perfect recall) and the seat's private information only, as text; it refuses every seat's
private information.
``str(state)`` is the spectator's view with the generator's position.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import numpy as np
import pyspiel

import candlebox
from candlebox.engine import State
from candlebox.rl.core import Config, Spec, covered_games, rewards

PREFIX = "candlebox_"
_REGISTERED: dict[str, str] = {}  # short name -> game id
# The information state tensor's exact recall holds an information state string of up to this many
# bytes (the ``recall_bytes`` parameter), packed three to a number: see :func:`pack_text`.
# 2^16 numbers: 2.5 times the longest string of whole heuristic games at the default max_turns
# (5-player Candelabria, 77,673 bytes; 16 Candies' 4-player 25,412; Candle Quest's 5-player 19,270).
RECALL_BYTES = 3 * 65_536


def short_name(game_id: str) -> str:
    return PREFIX + game_id.replace("-", "_")


def _parameter_spec(game_id: str) -> tuple[dict[str, Any], dict[str, str]]:
    """OpenSpiel parameters (with defaults) and, per option, how it maps back ("plain"/"nullable")."""
    info = candlebox.game_info(game_id)
    players = min(
        max(2, min(v.min_players for v in info.variants)), max(v.max_players for v in info.variants)
    )
    spec: dict[str, Any] = {"players": players, "variant": "", "recall_bytes": RECALL_BYTES}
    kinds: dict[str, str] = {}
    for variant in info.variants:
        for opt in variant.options:
            if opt.name in kinds or opt.name in spec:
                continue
            if opt.kind in ("bool", "choice") and opt.default is not None:
                spec[opt.name] = opt.default
                kinds[opt.name] = "plain"
            elif opt.kind == "int":
                spec[opt.name] = -1 if opt.default is None else opt.default
                kinds[opt.name] = "nullable" if opt.default is None else "plain"
    return spec, kinds


def config_from_params(game_id: str, params: dict[str, Any]) -> Config:
    _spec, kinds = _parameter_spec(game_id)
    info = candlebox.game_info(game_id)
    players = int(params["players"])
    variant_name = params.get("variant") or info.default_variant(players)
    variant = info.variant(variant_name)
    options: dict[str, Any] = {}
    for opt in variant.options:
        if opt.name not in kinds or opt.name not in params:
            continue
        value = params[opt.name]
        if kinds[opt.name] == "nullable" and value == -1:
            continue
        options[opt.name] = value
    return Config.make(game_id, players, variant_name, **options)


# Chance is explicit: the game's seed, uniform over 0 … 2^63 - 1 like a server's, is drawn at the
# start by chance nodes, its first 7 bits and then 8 at a time, most significant first. The seed
# fixes all later chance (the engine's generator), so the history of a state is all it depends on,
# and OpenSpiel can serialize it (a Python game cannot give pyspiel a sampled generator's state).
SEED_DRAWS = (128,) + (256,) * 7


def seed_outcomes(seed: int) -> list[int]:
    """The chance outcomes that deal the game from ``seed`` (0 … 2^63 - 1)."""
    if not 0 <= seed < 1 << 63:
        raise ValueError(f"a seed is a whole number from 0 to 2^63 - 1, not {seed}")
    outcomes = []
    for size in reversed(SEED_DRAWS):
        seed, outcome = divmod(seed, size)
        outcomes.append(outcome)
    return outcomes[::-1]


@functools.lru_cache(maxsize=32)
def _spec(config: Config) -> Spec:
    return Spec(config)


def _restore(config: Config, seed: int, draws: int, state: State | None) -> _Engine:
    return _Engine(_spec(config), seed, draws, state)


class _Engine:
    """The engine state inside an OpenSpiel state: while chance deals, the seed drawn so far
    (``draws`` outcomes of SEED_DRAWS), then the Candlebox game dealt from it. Deep-copied (by
    ``clone``) with ``State.clone``; pickled (by ``serialize``) without the shared ``Spec``."""

    __slots__ = ("draws", "seed", "spec", "state")

    def __init__(self, spec: Spec, seed: int, draws: int, state: State | None = None) -> None:
        self.spec = spec
        self.seed = seed
        self.draws = draws
        self.state = state

    def draw(self, outcome: int) -> None:
        self.seed = self.seed * SEED_DRAWS[self.draws] + outcome
        self.draws += 1
        if self.draws == len(SEED_DRAWS):
            self.state = self.spec.config.new_game(self.seed)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Engine:
        state = None if self.state is None else self.state.clone()
        return _Engine(self.spec, self.seed, self.draws, state)

    def __reduce__(self) -> tuple[Any, ...]:
        return _restore, (self.spec.config, self.seed, self.draws, self.state)


class CandleboxState(pyspiel.State):
    """An OpenSpiel state wrapping one Candlebox game."""

    def __init__(self, game: CandleboxGame) -> None:
        super().__init__(game)
        self._engine = _Engine(game.candlebox_spec, 0, 0)

    @property
    def dealt(self) -> bool:
        return self._engine.state is not None

    @property
    def engine(self) -> State:
        """The Candlebox state (the full game, hidden information included)."""
        state = self._engine.state
        if state is None:
            raise ValueError("the game is not dealt yet: apply the chance outcomes (or deal(seed))")
        return state

    def deal(self, seed: int) -> None:
        """Apply the chance outcomes that deal the game from ``seed`` (a reproducible start)."""
        if self._engine.draws:
            raise ValueError("deal(seed) starts from a new initial state")
        for outcome in seed_outcomes(seed):
            self.apply_action(outcome)

    def current_player(self) -> int:
        state = self._engine.state
        if state is None:
            return int(pyspiel.PlayerId.CHANCE)
        if state.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return state.to_act[0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.dealt:
            return []
        size = SEED_DRAWS[self._engine.draws]
        return [(outcome, 1.0 / size) for outcome in range(size)]

    def _legal_actions(self, player: int) -> list[int]:
        return self._engine.spec.actions.legal_ids(self.engine, player)

    def _apply_action(self, action: int) -> None:
        if not self.dealt:
            self._engine.draw(action)
            return
        state = self.engine
        state.apply(state.to_act[0], self._engine.spec.actions.to_text(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"seed part {action}"
        return self._engine.spec.actions.to_text(action)

    def is_terminal(self) -> bool:
        return self.dealt and self.engine.is_over

    def returns(self) -> list[float]:
        if not self.dealt:
            return [0.0] * self.get_game().num_players()
        return rewards(self.engine)

    def rewards(self) -> list[float]:
        return self.returns()

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> CandleboxState:
        """A state ``player_id`` cannot tell from this one: the engine's ``resample`` with a seed
        drawn from ``probability_sampler`` (a callable returning floats in [0, 1))."""
        seed = int(probability_sampler() * (1 << 53))
        twin = self.clone()
        twin._engine = _Engine(
            self._engine.spec, seed, len(SEED_DRAWS), self.engine.resample(player_id, seed)
        )
        return twin

    def __str__(self) -> str:
        if not self.dealt:
            return f"dealing: {self._engine.draws} of {len(SEED_DRAWS)} seed parts drawn"
        state = self.engine
        return json.dumps({"view": state.view(None), "rng": state.rng.state}, sort_keys=True)


def _plain_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _private_part(mine: Any, public: Any) -> Any:
    """What of a seat's view the spectator's view lacks: objects keep the keys whose values differ,
    lists of the same length their differing items (None where equal); anything else is kept."""
    if isinstance(mine, dict) and isinstance(public, dict):
        return {
            key: _private_part(value, public.get(key))
            for key, value in mine.items()
            if value != public.get(key)
        }
    if isinstance(mine, list) and isinstance(public, list) and len(mine) == len(public):
        return [None if a == b else _private_part(a, b) for a, b in zip(mine, public, strict=True)]
    return mine


def pack_text(text: str, out: np.ndarray, player: int) -> None:
    """Write ``text``'s UTF-8 bytes into ``out``, three bytes to a number: ``(b0·2^16 + b1·2^8 +
    b2) / 2^24``, exact in float32 (24 bits of mantissa), zeros after the end. Different texts give
    different numbers: the byte strings differ, and no text holds a NUL byte (JSON escapes it), so
    the zeros that pad a shorter text never read as its bytes. A text longer than ``out`` holds is
    refused (a ValueError naming the bound), never cut: a cut could make two texts one."""
    data = text.encode()
    room = 3 * len(out)
    if len(data) > room:
        raise ValueError(
            f"seat {player}'s information state is {len(data):,} bytes, more than the {room:,} "
            "this game's information_state_tensor recalls: load the game with a larger "
            f"recall_bytes (at least {len(data):,}), or read information_state_string"
        )
    data += b"\0" * (-len(data) % 3)
    triples = np.frombuffer(data, np.uint8).reshape(-1, 3).astype(np.uint32)
    values = (triples[:, 0] << 16) | (triples[:, 1] << 8) | triples[:, 2]
    out[: len(values)] = values.astype(np.float64) / (1 << 24)
    out[len(values) :] = 0.0


def own_action_ids(spec: Spec, state: State, player: int) -> list[int]:
    """The seat's own actions so far, in order, as action ids."""
    return [spec.actions.to_id(action) for seat, action in state.history if seat == player]


class CandleboxObserver:
    """OpenSpiel's PyObserver interface, for the observation types the games offer.

    - public and the seat's private information, no recall (``observation_*``, the default): the
      seat's view as text and as a tensor (the encoded view, named pieces in ``dict``);
    - the same with perfect recall (``information_state_*``): the view, the seat's log and its own
      actions as text; as a tensor the encoded view, the chance progress, the own actions and that
      text packed exactly (``recall``, up to ``recall_bytes``);
    - public information only (``private_info=NONE``): the spectator's view, with perfect recall
      the spectator's log too, as text only — nothing any single seat alone knows;
    - the seat's private information only (``public_info=False``): the parts of its view the
      spectator's view lacks, as text only.

    Any other type (every seat's private information, or nothing at all) raises ValueError, and so
    does a type whose tensor is asked for but not offered (pyspiel reads ``tensor is None`` as "no
    tensor")."""

    def __init__(
        self,
        spec: Spec,
        iig_obs_type: Any,
        params: dict[str, Any] | None,
        recall_bytes: int = RECALL_BYTES,
    ) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(
                "Candlebox games do not offer observations with every seat's private information "
                "(a seat sees only its own)"
            )
        if not iig_obs_type.public_info and private == pyspiel.PrivateInfoType.NONE:
            raise ValueError("an observation with neither public nor private information is empty")
        self.spec = spec
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.public = bool(iig_obs_type.public_info)
        self.private = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.tensor: np.ndarray | None = None
        self.dict: dict[str, np.ndarray] = {}
        if self.public and self.private:
            fields = list(spec.encoder.fields())
            size = spec.observation_size
            if self.perfect_recall:  # the information state: recall pieces after the view
                recall = -(-recall_bytes // 3)
                fields += [
                    ("dealing", size, len(SEED_DRAWS)),
                    ("own_actions", size + len(SEED_DRAWS), spec.max_game_length),
                    ("recall", size + len(SEED_DRAWS) + spec.max_game_length, recall),
                ]
                size += len(SEED_DRAWS) + spec.max_game_length + recall
            tensor = np.zeros(size, np.float32)
            self.tensor = tensor
            self.dict = {name: tensor[start : start + length] for name, start, length in fields}

    def set_from(self, state: CandleboxState, player: int) -> None:
        if self.tensor is None:
            raise ValueError("this observation type has no tensor; use string_from")
        size = self.spec.observation_size
        self.tensor.fill(0.0)
        if self.perfect_recall:
            self.dict["dealing"][: state._engine.draws] = 1.0
            # The whole information state, exactly: equal tensors only for equal strings.
            pack_text(self.string_from(state, player), self.dict["recall"], player)
        if not state.dealt:  # nothing else to see while chance deals
            return
        engine = state.engine
        self.spec.encoder.encode(self.spec.viewer(engine, player), out=self.tensor[:size])
        if self.perfect_recall:
            # One slot per own action, in order: (id + 1) / N, distinct for each id (0: none yet).
            mine = np.asarray(own_action_ids(self.spec, engine, player), np.float32)
            self.dict["own_actions"][: len(mine)] = (mine + 1) / self.spec.num_distinct_actions

    def string_from(self, state: CandleboxState, player: int) -> str:
        if not state.dealt:
            return str(state)  # the same for everyone: how far chance has dealt
        engine = state.engine
        if not self.private:  # public only: what a spectator sees, whoever asks
            view = _plain_json(engine.view(None))
            if not self.perfect_recall:
                return view
            return f"view {view}\nlog {_plain_json(engine.log(None))}"
        if not self.public:
            return _plain_json(_private_part(engine.view(player), engine.view(None)))
        view = _plain_json(engine.view(player))
        if not self.perfect_recall:
            return view
        log = _plain_json(engine.log(player))
        mine = json.dumps([action for seat, action in engine.history if seat == player])
        return f"seat {player}\nview {view}\nlog {log}\nmine {mine}"


class CandleboxGame(pyspiel.Game):
    """Base class; :func:`register` makes one subclass per Candlebox game."""

    GAME_ID = ""
    GAME_TYPE: Any = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        spec_defaults, _ = _parameter_spec(self.GAME_ID)
        params = {**spec_defaults, **(params or {})}
        config = config_from_params(self.GAME_ID, params)
        self.recall_bytes = int(params["recall_bytes"])
        if self.recall_bytes < 1:
            raise ValueError(f"recall_bytes must be 1 or more, not {self.recall_bytes}")
        self.candlebox_spec = Spec(config)
        spec = self.candlebox_spec
        info = pyspiel.GameInfo(
            num_distinct_actions=spec.num_distinct_actions,
            max_chance_outcomes=max(SEED_DRAWS),
            num_players=config.players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=1.0 if spec.always_a_winner else None,
            max_game_length=spec.max_game_length,
        )
        super().__init__(self.GAME_TYPE, info, params)

    def new_initial_state(self, *args: Any) -> CandleboxState:
        if args:
            raise ValueError("Candlebox OpenSpiel games start only from a new deal")
        return CandleboxState(self)

    def max_chance_nodes_in_history(self) -> int:
        return len(SEED_DRAWS)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> CandleboxObserver:
        # no type: the default observation (public and the seat's own information, no recall)
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return CandleboxObserver(self.candlebox_spec, kind, params, self.recall_bytes)


def game_type(game_id: str) -> Any:
    info = candlebox.game_info(game_id)
    params, _ = _parameter_spec(game_id)
    always = all(Spec.make(game_id, v.min_players, v.name).always_a_winner for v in info.variants)
    return pyspiel.GameType(
        short_name=short_name(game_id),
        long_name=f"Candlebox {info.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=(
            pyspiel.GameType.Utility.CONSTANT_SUM
            if always
            else pyspiel.GameType.Utility.GENERAL_SUM
        ),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(v.max_players for v in info.variants),
        min_num_players=min(v.min_players for v in info.variants),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


def register_game(game_id: str) -> str:
    """Register one Candlebox game with OpenSpiel (idempotent); its OpenSpiel name."""
    name = short_name(game_id)
    if name not in _REGISTERED and name not in pyspiel.registered_names():
        kind = game_type(game_id)
        cls = type(
            f"Candlebox_{game_id.replace('-', '_')}_Game",
            (CandleboxGame,),
            {"GAME_ID": game_id, "GAME_TYPE": kind},
        )
        pyspiel.register_game(kind, cls)
    _REGISTERED[name] = game_id
    return name


def register_openspiel() -> list[str]:
    """Register every covered Candlebox game with OpenSpiel (idempotent); the registered names."""
    return [register_game(game_id) for game_id in covered_games()]
