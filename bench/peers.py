"""Random-playout speed of every Candlebox game next to its peers, measured in one run.

    python bench/peers.py            # 3 s per measurement, 3 repeats, medians
    python bench/peers.py --quick    # 1 s, 1 repeat

Peers: OpenSpiel's C++ games ``hearts`` and ``hanabi`` driven through ``pyspiel``, OpenSpiel's
pure-Python ``python_block_dominoes`` and RLCard's ``uno`` rules engine (pure Python); optionally
RLCard's uno RL environment and, with ``--adapters``, Candlebox's own PettingZoo and OpenSpiel adapters.

Every game is driven through its public API by the same kind of loop: a fresh game, then "list the
legal actions, let a ``random.Random(seed)`` pick one, apply it" until the game is over. A *step* is
one applied action (OpenSpiel's chance outcomes are applied actions too, and count as steps). Each
measurement plays whole games back to back for a fixed wall time; games/s therefore includes creating
the game, steps/s is steps over the same wall time. Measurements are interleaved (ours, peer, ours,
peer, ...), repeated, and the median reported. The targets (steps/s, and a ratio to every pure-Python
peer) are checked for each game's headline configuration. See bench/README.md.
"""

from __future__ import annotations

import argparse
import cProfile
import datetime as _dt
import gc
import io
import json
import os
import platform
import pstats
import random
import statistics
import subprocess
import sys
import textwrap
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import candlebox

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
MAX_STEPS = 1_000_000  # per game: a safety net so a looping game fails loudly instead of hanging
PEERS = (
    "openspiel-hearts",
    "openspiel-hanabi",
    "openspiel-dominoes",
    "rlcard-uno",
    "rlcard-uno-env",
)
DEFAULT_PEERS = PEERS
PURE_PYTHON = "pure Python"
CPP = "C++"


def target_for(game_id: str) -> tuple[int, float | None]:
    """What the game's headline configuration must reach: steps/s and, where a ratio is given, that
    many times the steps/s of every pure-Python peer (C++ peers are shown, not targeted). Each game
    declares it in its plug-in (``GameInfo.playout_target``)."""
    return candlebox.game_info(game_id).playout_target


class Skip(Exception):
    """A peer that cannot be measured here (not installed, import error, API mismatch)."""


# A playout: seed -> (steps, aux). ``aux`` is a per-game count whose meaning is ``Config.aux_name``.
Playout = Callable[[int], tuple[int, int]]


@dataclass
class Config:
    key: str  # unique, for the JSON
    game: str  # what is shown in the Game column
    setup: str  # what is shown in the Config column
    ours: bool
    play: Playout
    api: str
    aux_name: str = ""  # "truncated" (games that hit max_turns) or "chance steps"
    headline: bool = False
    peer: str = ""  # for peers: the short name used for ratio columns
    kind: str = ""  # for peers: PURE_PYTHON or CPP (only pure-Python peers are targeted)
    # A pure-Python peer measured below its public API (RLCard's UnoGame) is shown as a stricter
    # reference, not targeted: see bench/README.md, "Which RLCard uno".
    targeted: bool = True
    meta: dict[str, Any] = field(default_factory=dict)


# ----------------------------------------------------------------------------- Candlebox
def candlebox_playout(game_id: str, players: int, variant: str) -> Playout:
    new_game = candlebox.new_game

    def play(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        state = new_game(game_id, players=players, variant=variant, seed=seed)
        steps = 0
        while not state.is_over and steps < MAX_STEPS:
            seat = state.to_act[0]
            actions = state.legal_actions(seat)
            state.apply(seat, rng.choice(actions))
            steps += 1
        if steps >= MAX_STEPS:
            raise RuntimeError(
                f"{game_id} {variant} {players}p seed {seed}: no end in {steps} steps"
            )
        return steps, int(state.truncated)

    return play


def headline_setup(game_id: str) -> tuple[str, int]:
    """The representative configuration: the default variant at 3 players (2 if 3 is not allowed)."""
    info = candlebox.game_info(game_id)
    for players in (3, 2):
        try:
            variant = info.variant(info.default_variant(players))
        except Exception:
            continue
        if players in variant.players:
            return variant.name, players
    variant = info.variants[0]
    return variant.name, variant.min_players


def search_positions(
    game_id: str, players: int, variant: str, seed: int
) -> list[tuple[candlebox.State, int]]:
    """Fixed positions for timing a search (bench/compare_trees.py, bench/search_ratio.py): one seeded
    random game's every 4th decision with a choice, up to 12, each a clone with the seat to act."""
    rng = random.Random(seed)
    state = candlebox.new_game(game_id, players=players, variant=variant, seed=seed)
    positions: list[tuple[candlebox.State, int]] = []
    decision = 0
    while not state.is_over and len(positions) < 12:
        seat = state.to_act[0]
        actions = state.legal_actions(seat)
        if len(actions) > 1:
            if decision % 4 == 0:
                positions.append((state.clone(), seat))
            decision += 1
        state.apply(seat, actions[rng.randrange(len(actions))])
    return positions


def candlebox_configs(game_ids: list[str]) -> list[Config]:
    """The default variant at 2, 3 and 4 players (those allowed); every other variant at 3 (or 2)."""
    configs: list[Config] = []
    for game_id in game_ids:
        info = candlebox.game_info(game_id)
        head_variant, head_players = headline_setup(game_id)
        setups: list[tuple[str, int]] = []
        for variant in info.variants:
            if variant.name == head_variant:
                counts = [p for p in (2, 3, 4) if p in variant.players] or [head_players]
            else:
                counts = [next((p for p in (3, 2) if p in variant.players), variant.min_players)]
            setups.extend((variant.name, p) for p in counts)
        for variant_name, players in setups:
            headline = (variant_name, players) == (head_variant, head_players)
            configs.append(
                Config(
                    key=f"{game_id}/{variant_name}/{players}p",
                    game=info.title,
                    setup=f"{variant_name}, {players}p",
                    ours=True,
                    play=candlebox_playout(game_id, players, variant_name),
                    api="candlebox.new_game; to_act / legal_actions / apply",
                    aux_name="truncated",
                    headline=headline,
                    meta={
                        "game_id": game_id,
                        "variant": variant_name,
                        "players": players,
                        "max_turns": info.max_turns,
                    },
                )
            )
    return configs


def adapter_configs(game_ids: list[str]) -> list[Config]:
    """Candlebox's own RL adapters on each game's headline configuration (``--adapters``): the
    PettingZoo AEC env (an encoded observation and a mask every step, random masked actions) next to
    the PettingZoo cap (``cap_env``), the batched ``vector_env`` and the OpenSpiel registration
    driven through pyspiel. Needs ``pip install -e '.[rl]'``."""
    try:
        import numpy  # noqa: F401  (the rl group: say so here rather than fail later)
        import pyspiel

        import candlebox.rl
        from candlebox.rl.core import covered_games
    except Exception as exc:
        say(f"! adapters skipped: {type(exc).__name__}: {exc} (pip install -e '.[rl]')")
        return []
    candlebox.rl.register_openspiel()
    configs: list[Config] = []
    for game_id in game_ids:
        if game_id not in covered_games():
            continue
        info = candlebox.game_info(game_id)
        variant, players = headline_setup(game_id)
        # Ours and the cap go through the same standard wrappers (what pettingzoo's own env() gives).
        env = standard_wrappers(
            candlebox.rl.pettingzoo_env(game_id, players=players, variant=variant)
        )
        cap = standard_wrappers(cap_env(env.unwrapped))
        meta = {"game_id": game_id, "variant": variant, "players": players}
        meta["max_turns"] = info.max_turns
        name = candlebox.rl.openspiel_game.short_name(game_id)
        game = pyspiel.load_game(name, {"players": players, "variant": variant})
        aec = "agent_iter / last / step (observation + mask), standard wrappers"
        n = VECTOR_ENVS
        vector = f"candlebox.rl.vector_env(N={n}, copy=False): reset / step, random legal actions"
        rows: list[tuple[str, str, str, Playout, str]] = [
            (
                "pettingzoo", "via PettingZoo AEC", f"candlebox.rl.pettingzoo_env: {aec}",
                aec_playout(env), "truncated",
            ),
            (
                "pettingzoo-cap", "PettingZoo AEC cap", f"a trivial AEC env, same spaces: {aec}",
                aec_playout(cap), "truncated",
            ),
            (
                f"vector{n}", f"via vector_env (N={n})", f"{vector} from legal_ids()",
                vector_playout(game_id, players, variant), "",
            ),
            (
                f"vector-cap{n}", f"vector_env cap, observation copied (N={n})",
                f"{vector}; each observation one copy of a fixed row",
                vector_playout(game_id, players, variant, copied_observation=True), "",
            ),
            (
                "openspiel", f"via OpenSpiel ({name})",
                f"pyspiel.load_game({name!r}): legal_actions / apply_action",
                openspiel_playout(game, name), "",
            ),
        ]  # fmt: skip
        if game_id in jax_games():
            rows.append(
                (
                    f"jax{JAX_GAMES}", f"via candlebox.rl.jax ({JAX_GAMES} games vmapped)",
                    f"candlebox.rl.jax.make: jit(vmap(init)), then {JAX_STEPS} x jit(vmap(step)) "
                    f"of {JAX_GAMES} games, random legal actions from legal_action_ids, each "
                    "observation read",
                    jax_playout(game_id, players, variant), "",
                )
            )  # fmt: skip
            rows.append(
                (
                    f"jax{JAX_GAMES}-unobserved",
                    f"via candlebox.rl.jax ({JAX_GAMES} games, observations not read)",
                    f"as jax{JAX_GAMES}, the observations never read (XLA leaves them out)",
                    jax_playout(game_id, players, variant, observed=False), "",
                )
            )  # fmt: skip
        for key, label, api, play, aux in rows:
            configs.append(
                Config(
                    key=f"adapter/{key}/{game_id}/{variant}/{players}p",
                    game=f"{info.title} {label}",
                    setup=f"{variant}, {players}p",
                    ours=True,
                    play=play,
                    api=api,
                    aux_name=aux,
                    meta=meta,
                )
            )
    return configs


VECTOR_ENVS = 64  # games stepped at once by the vector env measured with --adapters
VECTOR_STEPS = (
    100  # batched steps per measured "game" (a reset of the N games, then this many steps)
)


def standard_wrappers(env: Any) -> Any:
    """The wrappers PettingZoo's own environments put around a raw AEC env (``env()``)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(env))


def aec_playout(env: Any) -> Playout:
    """Whole games through the AEC loop, random masked actions (the loop any PettingZoo user runs)."""
    import numpy as np

    def play(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        env.reset(seed=seed)
        steps = 0
        for _agent in env.agent_iter():
            obs, _reward, terminated, truncated, _info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(rng.choice(np.flatnonzero(obs["action_mask"])))
            steps += 1
        return steps, int(env.unwrapped.game.truncated)

    return play


def cap_env(ours: Any) -> Any:
    """What the PettingZoo AEC API itself allows (issue 18): an env with our env's spaces and the
    engine's own cost (each step plays a random legal action in a Candlebox game), whose observation
    is a constant array and whose mask allows one action. No env doing more can be faster."""
    import numpy as np
    from pettingzoo import AECEnv

    class CapEnv(AECEnv):
        metadata = {"render_modes": [], "name": "cap_v0", "is_parallelizable": False}

        def __init__(self) -> None:
            super().__init__()
            self.possible_agents = list(ours.possible_agents)
            self.observation_spaces = ours.observation_spaces
            self.action_spaces = ours.action_spaces
            space = self.observation_spaces[self.possible_agents[0]]
            mask = np.zeros(space["action_mask"].shape, dtype=np.int8)
            mask[0] = 1
            self._obs = {
                "observation": np.zeros(space["observation"].shape, dtype=np.float32),
                "action_mask": mask,
            }
            self.config = ours.game_spec.config
            self.game: Any = None

        def observation_space(self, agent: str) -> Any:
            return self.observation_spaces[agent]

        def action_space(self, agent: str) -> Any:
            return self.action_spaces[agent]

        def reset(self, seed: int | None = None, options: dict | None = None) -> None:
            self.game = self.config.new_game(seed or 0)
            self._rng = random.Random(seed)
            self.agents = self.possible_agents[:]
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos: dict[str, dict] = {agent: {} for agent in self.agents}
            self.agent_selection = self.possible_agents[self.game.to_act[0]]

        def observe(self, agent: str) -> dict[str, Any]:
            return self._obs

        def step(self, action: Any) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            state = self.game
            seat = state.to_act[0]
            state.apply(seat, self._rng.choice(state.legal_actions(seat)))
            self._cumulative_rewards[agent] = 0.0
            self._clear_rewards()
            if state.is_over:
                for other in self.agents:
                    self.terminations[other] = True
            else:
                self.agent_selection = self.possible_agents[state.to_act[0]]
            self._accumulate_rewards()

    return CapEnv()


def copied_observation_spec(game_id: str, players: int, variant: str) -> Any:
    """The configuration's ``Spec`` with an encoder whose every observation is one slice copy of a
    fixed row of the same size: the cheapest observation any encoder could write, so a vector env
    over it (its engine, masks, checks and loops unchanged) caps what any encoder can reach."""
    import numpy as np

    from candlebox.rl.core import Spec, ViewEncoder

    spec = Spec.make(game_id, players, variant)
    size = spec.observation_size
    row = np.random.default_rng(0).random(size, dtype=np.float32)

    class CopiedObservation(ViewEncoder):
        reads_state = True
        bounded = True

        def build(self, config: Any, layout: Any) -> None:
            layout.add("fixed", size)

        def fill_state(self, state: Any, seat: int, out: Any) -> None:
            out[:] = row

    spec.encoder = CopiedObservation(spec.config)
    return spec


def vector_playout(
    game_id: str, players: int, variant: str, copied_observation: bool = False
) -> Playout:
    """``VECTOR_STEPS`` batched steps of ``VECTOR_ENVS`` games (auto-reset), each game's seat to act
    playing a random legal action; a step of each game counts as a step. ``copied_observation``:
    the vector env's cap, every observation one copy of a fixed row (``copied_observation_spec``)."""
    import numpy as np

    import candlebox.rl
    from candlebox.rl.vector import CandleboxVectorEnv

    if copied_observation:
        spec = copied_observation_spec(game_id, players, variant)
        venv = CandleboxVectorEnv(spec, VECTOR_ENVS, copy=False)
    else:
        venv = candlebox.rl.vector_env(
            game_id, VECTOR_ENVS, players=players, variant=variant, copy=False
        )
    n = VECTOR_ENVS

    def play(seed: int) -> tuple[int, int]:
        rng = np.random.default_rng(seed)
        venv.reset(seed=seed)
        actions = np.zeros(n, dtype=np.int64)
        for _ in range(VECTOR_STEPS):
            # A random legal action per game from the env's legal ids (the mask rows' ones): a scan
            # of the [N, A] masks would cost more than the env (16 Candies: 64 x 15,666).
            for i, (ids, r) in enumerate(
                zip(venv.legal_ids(), rng.random(n).tolist(), strict=True)
            ):
                actions[i] = ids[int(r * len(ids))]
            venv.step(actions)
        return n * VECTOR_STEPS, 0

    return play


JAX_GAMES = 4096  # games stepped at once by candlebox.rl.jax (issue 38: >= 10x the vector env)
JAX_STEPS = 50  # batched steps per measured "game" (a new batch of games, then this many steps)


def jax_games() -> list[str]:
    """The games candlebox.rl.jax covers; none without JAX (pip install 'candlebox[jax]')."""
    try:
        from candlebox.rl.jax import covered_games
    except ImportError as exc:
        say(f"! JAX rows skipped: {exc}")
        return []
    return covered_games()


def jax_playout(game_id: str, players: int, variant: str, observed: bool = True) -> Playout:
    """``JAX_GAMES`` new games dealt from their keys, then ``JAX_STEPS`` batched steps under one
    ``jit(vmap(...))`` (a ``lax.scan``): each game's seat to act plays a random legal action (from
    ``legal_action_ids``: 16 Candies' 17 candidates, not its 15,666-wide mask; one random 32-bit
    word a game picks among them, ``_random_place``). ``observed``: each step's observation is read (summed), as a policy
    reads it, so that it is computed as the vector env computes it; without, XLA leaves out what
    nothing reads. A step of a game still in play counts as a step (a game that ends stays ended:
    there is no auto-reset to pay for, and the dealing of the new games is inside the measured
    time). The first call compiles (the warm-up)."""
    import jax
    import jax.numpy as jnp

    from candlebox.rl.jax import make

    env = make(game_id, players, variant)

    def one(state: Any, key: Any) -> tuple[Any, Any, Any]:
        choose, deal = jax.random.split(key)
        ids, valid = env.legal_action_ids(state)
        action = ids[_random_place(valid, jax.random.bits(choose, (), jnp.uint32))]
        seen = state.observation.sum() if observed else jnp.float32(0)
        return env.step(state, action, deal), ~(state.terminated | state.truncated), seen

    @jax.jit
    def games(key: Any) -> Any:
        deal, play = jax.random.split(key)
        state = jax.vmap(env.init)(jax.random.split(deal, JAX_GAMES))

        def body(carry: Any, k: Any) -> tuple[Any, Any]:
            state, live, seen = jax.vmap(one)(carry, jax.random.split(k, JAX_GAMES))
            return state, (live.sum(), seen.sum())

        _, (live, seen) = jax.lax.scan(body, state, jax.random.split(play, JAX_STEPS))
        return live.sum(), seen.sum()

    def play(seed: int) -> tuple[int, int]:
        live, _ = games(jax.random.key(seed))
        return int(live), 0  # int() waits for the device

    return play


def _random_place(valid: Any, word: Any) -> Any:
    """A random place where ``valid`` is true, from one random 32-bit word: the valid place with
    the largest hash of the word and the place (murmur3's finalizer), about uniform among them. No
    running sum: XLA's cumulative sum over Candle Quest's 347 ids cost a third of a JAX step, more
    than its rules' heaviest part. No argmax either (a reduction over pairs of value and place,
    which XLA does not vectorise on a CPU: a sixth of Candle Quest's observed playout): the place
    is in the hash's low bits, so one plain maximum finds both (ties, two valid places whose hashes
    agree above those bits, go to the higher place: about one draw in a hundred thousand there)."""
    import jax.numpy as jnp

    size = valid.shape[-1]
    places = jnp.arange(size, dtype=jnp.uint32)
    mixed = places * jnp.uint32(0x9E3779B9) ^ word
    mixed = (mixed ^ (mixed >> 16)) * jnp.uint32(0x85EBCA6B)
    mixed = (mixed ^ (mixed >> 13)) * jnp.uint32(0xC2B2AE35)
    mixed = mixed ^ (mixed >> 16)
    low = (1 << max(size - 1, 1).bit_length()) - 1  # the bits that hold a place
    # the top bit set on every valid place, so that none ranks below an invalid one's 0
    ranked = (mixed >> 1) & jnp.uint32(~low & 0x7FFFFFFF) | places | jnp.uint32(1 << 31)
    return (jnp.max(jnp.where(valid, ranked, 0)) & jnp.uint32(low)).astype(jnp.int32)


def adapter_figures(
    configs: list[Config], results: dict[str, dict[str, Any]]
) -> list[dict[str, Any]]:
    """Per game: our PettingZoo env as a share of the cap (target 75%), the vector env as a share of
    its cap (target 75%, issue 38) and of the engine's random playouts of the same configuration,
    and the JAX rules as a multiple of the vector env (target 10x)."""
    rate = {c.key: results[c.key].get("steps_per_s") for c in configs}
    out = []
    for config in configs:
        if not config.key.startswith("adapter/pettingzoo/"):
            continue
        tail = config.key.removeprefix("adapter/pettingzoo/")
        ours, cap = rate[config.key], rate.get(f"adapter/pettingzoo-cap/{tail}")
        vector, engine = rate.get(f"adapter/vector{VECTOR_ENVS}/{tail}"), rate.get(tail)
        vector_cap = rate.get(f"adapter/vector-cap{VECTOR_ENVS}/{tail}")
        batched = rate.get(f"adapter/jax{JAX_GAMES}/{tail}")
        unobserved = rate.get(f"adapter/jax{JAX_GAMES}-unobserved/{tail}")
        out.append(
            {
                "config": tail,
                "pettingzoo": ours,
                "cap": cap,
                "pettingzoo_of_cap": ours / cap if ours and cap else None,
                "vector": vector,
                "engine": engine,
                "vector_of_engine": vector / engine if vector and engine else None,
                "vector_cap": vector_cap,
                "vector_cap_of_engine": vector_cap / engine if vector_cap and engine else None,
                "vector_of_cap": vector / vector_cap if vector and vector_cap else None,
                "jax": batched,
                "jax_of_vector": batched / vector if batched and vector else None,
                "jax_unobserved": unobserved,
                "jax_unobserved_of_vector": unobserved / vector if unobserved and vector else None,
            }
        )
    return out


# ----------------------------------------------------------------------------- docs/rl.md's table
# The adapters' speed table of docs/rl.md ("JAX", "Speed") is generated from a results file kept in
# git (``--adapters --json bench/results/adapters.json``), never typed: ``--write-docs`` writes it,
# and tests/docs/test_speed_table.py fails when the document differs from what the file gives.
DOCS = HERE.parent / "docs" / "rl.md"
ADAPTER_RESULTS = RESULTS / "adapters.json"
BEGIN = "<!-- bench/peers.py --write-docs: speed (generated from the file; do not edit) -->"
END = "<!-- bench/peers.py --write-docs: end of speed -->"


def speed_part(report: dict[str, Any]) -> list[str]:
    """How and when the adapters were measured, then a row per game: the engine, the vector env
    and its cap, and the JAX rules' 4,096 games (n/a for a game without JAX rules), in steps/s,
    with the shares and multiples."""
    rows = [row for row in report.get("adapters", []) if row.get("vector")]
    if not any(row.get("jax") for row in rows):
        raise ValueError("the results file has no adapter row with a JAX figure (--adapters)")
    settings = report["settings"]
    load = report["load_average"]
    loads = [x[0] for x in (load.get("before"), load.get("after")) if x]
    said = (
        f"Measured {report['date'].replace('T', ' ')} on {report['environment']['cpu_count']} "
        f"CPUs (load average {' / '.join(f'{x:.1f}' for x in loads)} before / after), "
        f"`python bench/peers.py --adapters --games {','.join(settings['games'])}` by "
        f"{settings['clock']}, {settings['repeats']} x {settings['seconds']:g} s per figure "
        "(medians), steps/s:"
    )
    lines = [
        *_wrap(said),
        "",
        "| configuration | engine alone | vector env N=64 | vector cap | vector / cap "
        f"| `candlebox.rl.jax`, {JAX_GAMES:,} games | JAX / vector env "
        "| JAX, observations not read | JAX / vector env |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for row in rows:
        game_id, variant, players = row["config"].split("/")
        title = candlebox.game_info(game_id).title
        lines.append(
            f"| {title} {variant} {players} | {_short(row['engine'])} | {_short(row['vector'])} "
            f"| {_short(row['vector_cap'])} | {_percent(row.get('vector_of_cap'))} "
            f"| {_short(row.get('jax'))} | {_bold(_times(row.get('jax_of_vector')))} "
            f"| {_short(row.get('jax_unobserved'))} | {_times(row.get('jax_unobserved_of_vector'))} |"
        )
    return lines


def _wrap(text: str) -> list[str]:
    return textwrap.wrap(text, 100, break_on_hyphens=False)


def _short(rate: float | None) -> str:
    if rate is None:
        return "n/a"
    return f"{rate / 1e6:.2f}M" if rate >= 1e6 else f"{rate / 1e3:.1f}k"


def _times(ratio: float | None) -> str:
    return "n/a" if ratio is None else f"{ratio:.1f}x"


def _bold(text: str) -> str:
    return text if text == "n/a" else f"**{text}**"


def _percent(share: float | None) -> str:
    return "n/a" if share is None else f"{100 * share:.0f}%"


def documented(text: str) -> list[str]:
    """The lines of the speed part of a document, between its BEGIN and END lines."""
    lines = text.splitlines()
    if lines.count(BEGIN) != 1 or lines.count(END) != 1:
        raise ValueError(f"the document needs one line {BEGIN!r} and one line {END!r}")
    first, last = lines.index(BEGIN), lines.index(END)
    if last < first:
        raise ValueError(f"{END!r} comes before {BEGIN!r}")
    return lines[first + 1 : last]


def write_docs(path: Path = DOCS, results: Path = ADAPTER_RESULTS) -> None:
    """Replace the speed part of ``path`` with what the results file gives."""
    text = path.read_text(encoding="utf-8")
    documented(text)  # both marker lines, in order, or a ValueError naming them
    lines = speed_part(json.loads(results.read_text(encoding="utf-8")))
    head, rest = text.split(BEGIN + "\n")
    _, tail = rest.split(END)
    path.write_text(head + BEGIN + "\n" + "\n".join(lines) + "\n" + END + tail, encoding="utf-8")


# ----------------------------------------------------------------------------- peers
def _version(dist: str) -> str:
    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return "?"


def openspiel_playout(game: Any, label: str) -> Playout:
    """Random playouts of a pyspiel game: chance outcomes sampled with their probabilities."""

    def play(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        state = game.new_initial_state()
        steps = chance = 0
        while not state.is_terminal() and steps < MAX_STEPS:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                actions = [a for a, _ in outcomes]
                action = rng.choices(actions, weights=[p for _, p in outcomes])[0]
                chance += 1
            else:
                action = rng.choice(state.legal_actions())
            state.apply_action(action)
            steps += 1
        if steps >= MAX_STEPS:
            raise RuntimeError(f"{label} seed {seed}: no end in {steps} steps")
        return steps, chance

    return play


def openspiel_config(name: str, short: str, kind: str, module: str | None = None) -> Config:
    try:
        import importlib

        import pyspiel

        if module:
            importlib.import_module(module)  # registers a Python game
        game = pyspiel.load_game(name)
    except Exception as exc:
        raise Skip(f"{type(exc).__name__}: {exc}") from None
    players = game.num_players()
    engine = "pure-Python game" if kind == PURE_PYTHON else "C++ game through pyspiel"
    return Config(
        key=f"openspiel/{name}",
        game=f"OpenSpiel {name} ({kind})",
        setup=f"{players}p",
        ours=False,
        play=openspiel_playout(game, name),
        api=(
            f"pyspiel.load_game({name!r}) ({engine}); new_initial_state / chance_outcomes / "
            "legal_actions / apply_action"
        ),
        aux_name="chance steps",
        peer=short,
        kind=kind,
        meta={"package": "open_spiel", "version": _version("open_spiel"), "players": players},
    )


def openspiel_hearts() -> Config:
    return openspiel_config("hearts", "hearts", CPP)


def openspiel_hanabi() -> Config:
    return openspiel_config("hanabi", "hanabi", CPP)


def openspiel_dominoes() -> Config:
    return openspiel_config(
        "python_block_dominoes", "dominoes", PURE_PYTHON, "open_spiel.python.games.block_dominoes"
    )


def rlcard_game_config() -> Config:
    """RLCard's UNO rules engine, ``rlcard.games.uno.game.UnoGame``: the same layer as a Candlebox
    state (rules only). The environment (``rlcard.make``) adds an RL observation encoding per step."""
    try:
        import numpy as np
        from rlcard.games.uno.game import UnoGame
    except Exception as exc:
        raise Skip(f"{type(exc).__name__}: {exc}") from None

    game = UnoGame()  # 2 players, the default (its payoffs assume two)
    deck_rng = np.random.RandomState(0)
    game.np_random = deck_rng  # the engine's own chance (shuffles, draws); reseeded per game

    def play(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        deck_rng.seed(seed)
        game.init_game()
        steps = 0
        while not game.is_over() and steps < MAX_STEPS:
            game.step(rng.choice(game.get_legal_actions()))
            steps += 1
        if steps >= MAX_STEPS:
            raise RuntimeError(f"uno seed {seed}: no end in {steps} steps")
        return steps, 0

    return Config(
        key="rlcard/uno/game",
        game="RLCard uno (UnoGame, pure Python)",
        setup=f"{game.get_num_players()}p",
        ours=False,
        play=play,
        api="rlcard.games.uno.game.UnoGame: init_game / get_legal_actions / step",
        peer="uno",
        kind=PURE_PYTHON,
        targeted=False,
        meta={"package": "rlcard", "version": _version("rlcard"), "players": 2},
    )


def rlcard_env_config() -> Config:
    """RLCard's UNO through its public API, the RL environment ``rlcard.make('uno')``: the peer the
    targets are set against (it encodes an observation every step, as our PettingZoo row does)."""
    try:
        import rlcard

        env = rlcard.make("uno", config={"seed": 0})
    except Exception as exc:
        raise Skip(f"{type(exc).__name__}: {exc}") from None

    def play(seed: int) -> tuple[int, int]:
        rng = random.Random(seed)
        env.seed(seed)
        state, _ = env.reset()
        steps = 0
        while not env.is_over() and steps < MAX_STEPS:
            state, _ = env.step(rng.choice(list(state["legal_actions"])))
            steps += 1
        if steps >= MAX_STEPS:
            raise RuntimeError(f"uno env seed {seed}: no end in {steps} steps")
        return steps, 0

    return Config(
        key="rlcard/uno/env",
        game="RLCard uno env (pure Python)",
        setup=f"{env.num_players}p",
        ours=False,
        play=play,
        api="rlcard.make('uno'): reset / state['legal_actions'] / step (encodes observations)",
        peer="uno env",
        kind=PURE_PYTHON,
        meta={"package": "rlcard", "version": _version("rlcard"), "players": env.num_players},
    )


PEER_BUILDERS: dict[str, Callable[[], Config]] = {
    "openspiel-hearts": openspiel_hearts,
    "openspiel-hanabi": openspiel_hanabi,
    "openspiel-dominoes": openspiel_dominoes,
    "rlcard-uno": rlcard_game_config,
    "rlcard-uno-env": rlcard_env_config,
}


# ----------------------------------------------------------------------------- measuring
# What a measurement's seconds are: wall time, or with --cpu-time this process's CPU time (on a shared
# machine the other processes' load then weighs far less on the rates and their ratios).
CLOCK: list[Callable[[], float]] = [time.perf_counter]


def measure(play: Playout, seconds: float) -> dict[str, Any]:
    """Whole games back to back, from seed 0, until ``seconds`` of wall time have passed."""
    gc.collect()
    clock = CLOCK[0]
    steps = games = aux = 0
    start = clock()
    deadline = start + seconds
    now = start
    while now < deadline:
        n, extra = play(games)
        steps += n
        aux += extra
        games += 1
        now = clock()
    elapsed = now - start
    return {
        "seconds": elapsed,
        "games": games,
        "steps": steps,
        "aux": aux,
        "steps_per_s": steps / elapsed,
        "games_per_s": games / elapsed,
    }


def interleave(ours: list[Config], peers: list[Config]) -> list[Config]:
    """Ours and peers alternating while both last (o p o p o o ...), then the rest."""
    order: list[Config] = []
    for i in range(max(len(ours), len(peers))):
        order.extend(group[i] for group in (ours, peers) if i < len(group))
    return order


def summarize(runs: list[dict[str, Any]]) -> dict[str, Any]:
    sps = [r["steps_per_s"] for r in runs]
    gps = [r["games_per_s"] for r in runs]
    steps = sum(r["steps"] for r in runs)
    games = sum(r["games"] for r in runs)
    aux = sum(r["aux"] for r in runs)
    median = statistics.median(sps)
    return {
        "steps_per_s": median,
        "games_per_s": statistics.median(gps),
        "steps_per_game": steps / games,
        "aux_per_game": aux / games,
        "spread": (max(sps) - min(sps)) / median if median else 0.0,
        "games": games,
        "steps": steps,
    }


def say(text: str = "") -> None:
    print(text, file=sys.stderr, flush=True)


def run(configs: list[Config], seconds: float, repeats: int) -> dict[str, dict[str, Any]]:
    """Warm every configuration up, then ``repeats`` rounds of interleaved measurements."""
    failed: dict[str, str] = {}
    warm = min(0.5, seconds / 4)
    for config in configs:
        try:
            measure(config.play, warm)
        except Exception as exc:
            failed[config.key] = f"{type(exc).__name__}: {exc}"
            say(f"! {config.game} {config.setup} failed in the warm-up:\n{traceback.format_exc()}")
    live = [c for c in configs if c.key not in failed]
    ours = sorted((c for c in live if c.ours), key=lambda c: not c.headline)  # stable
    order = interleave(ours, [c for c in live if not c.ours])
    runs: dict[str, list[dict[str, Any]]] = {c.key: [] for c in live}
    for r in range(repeats):
        sequence = order if r % 2 == 0 else order[::-1]  # no configuration always goes first
        for config in sequence:
            if config.key in failed:
                continue
            say(f"  repeat {r + 1}/{repeats}: {config.game}, {config.setup} ...")
            try:
                runs[config.key].append(measure(config.play, seconds))
            except Exception as exc:
                failed[config.key] = f"{type(exc).__name__}: {exc}"
                say(f"! {config.game} {config.setup} failed:\n{traceback.format_exc()}")
    results: dict[str, dict[str, Any]] = {}
    for config in configs:
        if config.key in failed:
            results[config.key] = {"error": failed[config.key]}
        else:
            results[config.key] = {"runs": runs[config.key], **summarize(runs[config.key])}
    return results


# ----------------------------------------------------------------------------- reporting
def environment() -> dict[str, Any]:
    cpu = platform.processor() or ""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        commit = subprocess.run(
            ["git", "describe", "--always", "--dirty"],
            cwd=HERE,
            capture_output=True,
            text=True,
            timeout=10,
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return {
        "python": sys.version.split()[0],
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "cpu": cpu,
        "cpu_count": os.cpu_count(),
        "git": commit,
        "versions": {d: _version(d) for d in ("candlebox", "open_spiel", "rlcard", "numpy")},
    }


def fmt_rate(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def build_rows(
    configs: list[Config], results: dict[str, dict[str, Any]], peers: list[Config]
) -> tuple[list[str], list[list[str]]]:
    live_peers = [p for p in peers if "error" not in results[p.key]]
    header = ["Game", "Config", "steps/s", "games/s", "steps/game", "spread"]
    header += [f"vs {p.peer}" for p in live_peers]
    rows: list[list[str]] = []
    for config in configs:
        res = results[config.key]
        name = config.game
        setup = config.setup + (" *" if config.headline else "")
        if "error" in res:
            rows.append([name, setup, "FAILED", "", "", "", *([""] * len(live_peers))])
            continue
        row = [
            name,
            setup,
            fmt_rate(res["steps_per_s"]),
            fmt_rate(res["games_per_s"]),
            f"{res['steps_per_game']:,.1f}",
            f"{100 * res['spread']:.0f}%" if len(res["runs"]) > 1 else "-",
        ]
        for peer in live_peers:
            if config.ours:
                ratio = res["steps_per_s"] / results[peer.key]["steps_per_s"]
                row.append(f"{ratio:.2f}x")
            else:
                row.append("")
        rows.append(row)
    return header, rows


def print_table(header: list[str], rows: list[list[str]], title: str) -> None:
    try:
        from rich.console import Console
        from rich.table import Table

        have_rich = True
    except ImportError:  # rich is a Candlebox dependency, but keep a plain fallback
        have_rich = False
    if have_rich:
        table = Table(title=title)
        for i, name in enumerate(header):
            table.add_column(name, justify="left" if i < 2 else "right", no_wrap=True)
        for row in rows:
            table.add_row(*row)
        console = Console()
        if not console.is_terminal:  # piped or redirected: never squeeze the table to 80 columns
            console = Console(width=200)
        console.print(table)
        return
    widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]

    def line(cells: list[str]) -> str:
        return "  ".join(
            c.ljust(w) if i < 2 else c.rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        )

    print(title)
    print(line(header))
    print("  ".join("-" * w for w in widths))
    for row in rows:
        print(line(row))


def headline(
    configs: list[Config], results: dict[str, dict[str, Any]], peers: list[Config]
) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    live_peers = [p for p in peers if "error" not in results[p.key]]
    for config in configs:
        if not (config.ours and config.headline) or "error" in results[config.key]:
            continue
        sps = results[config.key]["steps_per_s"]
        ratios = {p.key: sps / results[p.key]["steps_per_s"] for p in live_peers}
        targeted = [p.key for p in live_peers if p.kind == PURE_PYTHON and p.targeted]
        need_steps, need_ratio = target_for(config.meta["game_id"])
        # A ratio to peers measured in the same run is what decides: the steps/s figure was set on
        # the machine of its day (peers at ~75k steps/s) and moves with the machine's speed and
        # load. It decides only where no ratio is targeted or no targeted peer ran.
        by_ratio = need_ratio is not None and bool(targeted)
        met = (
            all(ratios[k] >= need_ratio for k in targeted)
            if need_ratio is not None and targeted
            else sps >= need_steps
        )
        out.append(
            {
                "config": config.key,
                "steps_per_s": sps,
                "ratios": ratios,
                "target": {
                    "steps_per_s": need_steps,
                    "ratio": need_ratio,
                    "ratio_peers": targeted if need_ratio is not None else [],
                    "decided_by": "ratio" if by_ratio else "steps_per_s",
                    "met": met,
                },
            }
        )
    return out


# ----------------------------------------------------------------------------- profiling
def profile(config: Config, seconds: float, top: int) -> str:
    """cProfile of one configuration's playouts for about ``seconds``; the top functions by own time."""
    profiler = cProfile.Profile()
    profiler.enable()
    measure(config.play, seconds)
    profiler.disable()
    buffer = io.StringIO()
    stats = pstats.Stats(profiler, stream=buffer)
    stats.sort_stats("tottime").print_stats(top)
    stats.sort_stats("cumulative").print_stats(top)
    return buffer.getvalue()


# ----------------------------------------------------------------------------- main
def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description="Random-playout speed of Candlebox games next to OpenSpiel (C++ and Python) and RLCard peers."
    )
    parser.add_argument(
        "--seconds", type=float, default=None, help="wall time per measurement (default 3)"
    )
    parser.add_argument(
        "--repeats", type=int, default=None, help="measurements per configuration (default 3)"
    )
    parser.add_argument(
        "--quick", action="store_true", help="1 s, 1 repeat unless given (a smoke run)"
    )
    parser.add_argument("--json", type=Path, default=None, help="where to write the results")
    parser.add_argument(
        "--write-docs",
        action="store_true",
        help="write docs/rl.md's speed table from the results file (--results); measure nothing",
    )
    parser.add_argument(
        "--results",
        type=Path,
        default=ADAPTER_RESULTS,
        help=f"the results file --write-docs reads (default {ADAPTER_RESULTS.relative_to(HERE.parent)})",
    )
    parser.add_argument(
        "--games",
        default=None,
        help=f"Candlebox game ids, comma-separated (default: all of {', '.join(candlebox.GAMES)})",
    )
    parser.add_argument(
        "--peers",
        default=",".join(DEFAULT_PEERS),
        help=f"peers to measure, comma-separated, from {', '.join(PEERS)}; 'none' for none "
        f"(default: {','.join(DEFAULT_PEERS)})",
    )
    parser.add_argument(
        "--adapters",
        action="store_true",
        help="also measure Candlebox's PettingZoo and OpenSpiel adapters (needs the rl group)",
    )
    parser.add_argument(
        "--cpu-time",
        action="store_true",
        help="time by this process's CPU time, not wall time (for a shared, busy machine)",
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="after measuring, cProfile each headline configuration and print its hotspots",
    )
    args = parser.parse_args(argv)
    if args.seconds is None:
        args.seconds = 1.0 if args.quick else 3.0
    if args.repeats is None:
        args.repeats = 1 if args.quick else 3
    if args.seconds <= 0 or args.repeats < 1:
        parser.error("--seconds must be positive and --repeats at least 1")
    if args.games is None:
        args.game_ids = list(candlebox.GAMES)
    else:
        args.game_ids = [g.strip() for g in args.games.split(",") if g.strip()]
        unknown = [g for g in args.game_ids if g not in candlebox.GAMES]
        if unknown:
            parser.error(
                f"unknown game(s) {', '.join(unknown)}; games: {', '.join(candlebox.GAMES)}"
            )
    names = [p.strip() for p in args.peers.split(",") if p.strip()]
    if names == ["none"]:
        names = []
    unknown = [p for p in names if p not in PEERS]
    if unknown:
        parser.error(f"unknown peer(s) {', '.join(unknown)}; peers: {', '.join(PEERS)}")
    args.peer_names = names
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.write_docs:
        try:
            write_docs(DOCS, args.results)
        except (OSError, ValueError, KeyError) as exc:
            say(f"error: {exc}")
            return 2
        print("\n".join(speed_part(json.loads(args.results.read_text(encoding="utf-8")))))
        return 0
    if args.cpu_time:
        CLOCK[0] = time.process_time
    ours = candlebox_configs(args.game_ids)
    if args.adapters:
        ours += adapter_configs(args.game_ids)
    peers: list[Config] = []
    skipped: dict[str, str] = {}
    for name in args.peer_names:
        try:
            peers.append(PEER_BUILDERS[name]())
        except Skip as exc:
            skipped[name] = f"{exc} (install the peers with: pip install -e '.[bench]')"
            say(f"! peer {name} skipped: {skipped[name]}")
    configs = ours + peers
    env = environment()
    load_before = os.getloadavg() if hasattr(os, "getloadavg") else None
    total = len(configs) * args.repeats * args.seconds
    say(
        f"Measuring {len(configs)} configurations x {args.repeats} repeats x {args.seconds:g} s "
        f"(about {total:.0f} s) on {env['cpu_count']} CPUs ..."
    )
    started = _dt.datetime.now()
    results = run(configs, args.seconds, args.repeats)
    load_after = os.getloadavg() if hasattr(os, "getloadavg") else None

    # failures of a peer during the run count as skips
    for config in peers:
        if "error" in results[config.key]:
            skipped[config.key] = results[config.key]["error"]
    measured_peers = [p for p in peers if "error" not in results[p.key]]

    title = (
        f"Random playouts, median of {args.repeats} x {args.seconds:g} s "
        f"{'of CPU time ' if args.cpu_time else ''}"
        f"(Python {env['python']}, {env['cpu_count']} CPUs)"
    )
    header, rows = build_rows(configs, results, peers)
    print_table(header, rows, title)
    print("* headline configuration (default variant at 3 players, or 2 if 3 is not allowed)")
    print(
        "steps/s: applied actions per second; games/s: whole games (creation included) per "
        "second; spread: (max - min) / median of steps/s over the repeats."
    )
    for config in configs:
        res = results[config.key]
        if "error" in res or not config.aux_name:
            continue
        if config.aux_name == "truncated":
            share = res["aux_per_game"]
            if share > 0:
                print(
                    f"  {config.game} {config.setup}: {100 * share:.0f}% of the random games ended "
                    f"at the max_turns bound ({config.meta['max_turns']}), so games/s is bounded by it"
                )
        elif config.aux_name == "chance steps":
            print(
                f"  {config.game}: {res['aux_per_game']:.1f} of its {res['steps_per_game']:.1f} "
                f"steps/game are chance outcomes (dealing), counted as steps"
            )
    for peer in measured_peers:
        print(f"  peer API {peer.game}: {peer.api}")
    for name, reason in skipped.items():
        print(f"  SKIPPED peer {name}: {reason}")

    heads = headline(configs, results, measured_peers)
    print()
    print("Headline (steps/s, ours / peer):")
    peer_names = {
        p.key: f"{p.peer} ({p.kind}{'' if p.targeted else ', reference, not targeted'})"
        for p in peers
    }
    for head in heads:
        parts = [f"{r:.2f}x {peer_names[k]}" for k, r in head["ratios"].items()] or ["no peers"]
        target = head["target"]
        verdict = "met" if target["met"] else "NOT met"
        if target["decided_by"] == "ratio":
            wanted = f">= {target['ratio']:g}x each targeted pure-Python peer in this run"
            verdict += (
                f" (the {target['steps_per_s']:,} steps/s of a faster day: "
                f"{'reached' if head['steps_per_s'] >= target['steps_per_s'] else 'not reached'})"
            )
        else:
            wanted = f">= {target['steps_per_s']:,} steps/s"
            if target["ratio"] is not None:
                verdict += "; no pure-Python peer measured, so the ratio is untested"
        print(
            f"  {head['config']}: {fmt_rate(head['steps_per_s'])} steps/s; {', '.join(parts)}  "
            f"[target {wanted}: {verdict}]"
        )
    adapters = adapter_figures(configs, results) if args.adapters else []
    if adapters:
        print()
        print(
            "Adapters (same run; targets: PettingZoo >= 75% of the cap, vector env >= 75% of its):"
        )
        for row in adapters:

            def pct(x: float | None) -> str:
                return "n/a" if x is None else f"{100 * x:.0f}%"

            def r(x: float | None) -> str:
                return "n/a" if x is None else fmt_rate(x)

            print(
                f"  {row['config']}: PettingZoo {r(row['pettingzoo'])} steps/s = "
                f"{pct(row['pettingzoo_of_cap'])} of the cap {r(row['cap'])}; vector env "
                f"N={VECTOR_ENVS} {r(row['vector'])} = {pct(row['vector_of_engine'])} of the "
                f"engine's random playouts {r(row['engine'])}; its cap, the observation one "
                f"copy: {r(row['vector_cap'])} ({pct(row['vector_cap_of_engine'])} of the engine), "
                f"so the vector env is {pct(row['vector_of_cap'])} of its cap"
            )
            if row["jax"]:
                print(
                    f"    candlebox.rl.jax, {JAX_GAMES} games vmapped: {r(row['jax'])} steps/s = "
                    f"{row['jax_of_vector']:.1f}x the vector env (target: 10x); with the "
                    f"observations never read {r(row['jax_unobserved'])} = "
                    f"{row['jax_unobserved_of_vector'] or 0:.1f}x"
                )
    if load_before and load_after:
        print(
            f"Load average (1 min) before/after: {load_before[0]:.2f} / {load_after[0]:.2f} "
            f"on {env['cpu_count']} CPUs"
            + ("  -- the machine was busy; numbers are noisy" if load_after[0] > 1.5 else "")
        )

    report = {
        "benchmark": "peers",
        "date": started.isoformat(timespec="seconds"),
        "settings": {
            "seconds": args.seconds,
            "repeats": args.repeats,
            "games": args.game_ids,
            "peers": args.peer_names,
            "step": "one applied action; OpenSpiel chance outcomes count as steps",
            "clock": "process CPU time" if args.cpu_time else "wall time",
        },
        "environment": env,
        "load_average": {"before": load_before, "after": load_after},
        "configs": [
            {
                "key": c.key,
                "game": c.game,
                "setup": c.setup,
                "ours": c.ours,
                "headline": c.headline,
                "api": c.api,
                "aux": c.aux_name,
                **c.meta,
                **results[c.key],
            }
            for c in configs
        ],
        "headline": heads,
        "adapters": adapters,
        "skipped": skipped,
    }
    path = args.json or RESULTS / f"peers-{started.date().isoformat()}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"Results written to {path}")

    if args.profile:
        for config in ours:
            if config.headline and "error" not in results[config.key]:
                print(f"\ncProfile of {config.key} (about {args.seconds:g} s of playouts):")
                print(profile(config, args.seconds, 25))

    failed_ours = [c.key for c in ours if "error" in results[c.key]]
    if failed_ours:
        print(f"FAILED: {', '.join(failed_ours)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
