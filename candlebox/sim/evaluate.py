"""An outside agent against a game's opponent levels: ``candlebox evaluate`` and ``candlebox.rl.evaluate``.

An agent is any object with ``choose(state, seat) -> action``, as the bots: it sees the state it is
handed and must, like a bot, read only its own seat (``legal_actions``, ``view``). It is named
``MODULE:FACTORY`` (a function or class called with no arguments) or given as a factory from Python.
Game ``i`` against a level seats the agent at ``i mod players`` (so it sits everywhere as often as the
games allow) and the level's bot in every other seat; game ``i`` is dealt from seed ``seed + i`` and
the bots are seeded from it, so a rerun plays the same games. A win shared by ``k`` seats counts as
``1/k`` of a win (the rewards' rule), and each level's win rate comes with its Wilson 95% interval.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import candlebox
from candlebox import bots
from candlebox.engine.levels import Level, find
from candlebox.sim.game import bot_seed
from candlebox.sim.stats import Rate, wilson

AgentFactory = Callable[[], Any]


@dataclass(frozen=True)
class LevelRecord:
    """The agent's games against one level."""

    level: str
    bot: str  # the level's bot and parameters, as ``candlebox bots`` names them
    games: int
    wins: float  # a shared win counts as its share

    @property
    def rate(self) -> Rate:
        return wilson(self.wins, self.games)

    def to_json(self) -> dict[str, Any]:
        rate = self.rate
        return {
            "level": self.level,
            "bot": self.bot,
            "games": self.games,
            "wins": self.wins,
            "win_rate": rate.rate,
            "low95": rate.low,
            "high95": rate.high,
        }


@dataclass(frozen=True)
class Evaluation:
    game: str
    variant: str
    players: int
    agent: str
    seed: int
    levels: tuple[LevelRecord, ...]

    @property
    def fair_share(self) -> float:
        """The win rate of an agent exactly as strong as its rivals: one game in ``players``."""
        return 1.0 / self.players

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "variant": self.variant,
            "players": self.players,
            "agent": self.agent,
            "seed": self.seed,
            "fair_share": self.fair_share,
            "levels": [record.to_json() for record in self.levels],
        }


def load_agent(spec: str) -> AgentFactory:
    """The factory named ``MODULE:FACTORY``; ValueError saying which part is wrong."""
    module_name, colon, attribute = spec.partition(":")
    if not colon or not module_name or not attribute:
        raise ValueError(f"an agent is named MODULE:FACTORY (e.g. my_agents:make), got {spec!r}")
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"agent module {module_name!r} cannot be imported: {exc}") from None
    factory = getattr(module, attribute, None)
    if not callable(factory):
        raise ValueError(f"agent module {module_name!r} has no callable {attribute!r}")
    return factory


def make_agent(factory: AgentFactory, name: str) -> Any:
    agent = factory()
    if not callable(getattr(agent, "choose", None)):
        raise ValueError(
            f"agent {name!r} made {type(agent).__name__}, which has no choose(state, seat)"
        )
    return agent


def chosen_levels(game: str, names: Sequence[str] | None) -> tuple[Level, ...]:
    """The game's levels named (all of them, weakest first, when ``names`` is None)."""
    ladder = candlebox.game_info(game).levels
    if names is None:
        return ladder
    return tuple(find(ladder, name) for name in names)


def level_label(level: Level) -> str:
    params = ",".join(f"{key}={value}" for key, value in sorted(level.params.items()))
    return f"{level.bot}:{params}" if params else level.bot


def play_one(
    game: str,
    players: int,
    variant: str | None,
    options: dict[str, Any],
    agent: Any,
    level: Level,
    seed: int,
    agent_seat: int,
) -> float:
    """One game: the agent's share of the win (0 when it lost)."""
    state = candlebox.new_game(game, players=players, variant=variant, seed=seed, **options)
    seats = [
        agent
        if seat == agent_seat
        else bots.make(level.bot, seed=bot_seed(seed, seat), **level.params)
        for seat in range(players)
    ]
    while not state.is_over:
        # Seats that decide at the same time all choose before any choice is applied.
        choices = [(seat, seats[seat].choose(state, seat)) for seat in sorted(state.to_act)]
        for seat, action in choices:
            if seat in state.to_act:
                if seat == agent_seat and action not in state.legal_actions(seat):
                    raise ValueError(
                        f"the agent chose {action!r} in seat {seat}, not a legal action "
                        f"(game seed {seed})"
                    )
                state.apply(seat, action)
    winners = state.winners
    return 1.0 / len(winners) if agent_seat in winners else 0.0


def evaluate(
    game: str,
    agent: AgentFactory | str,
    players: int = 2,
    games: int = 20,
    levels: Sequence[str] | None = None,
    variant: str | None = None,
    seed: int = 0,
    options: dict[str, Any] | None = None,
) -> Evaluation:
    """``games`` games of ``agent`` (a factory, or ``"MODULE:FACTORY"``) against each level."""
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games is a whole number of at least 1, got {games!r}")
    options = dict(options or {})
    # The table is checked (game, players, variant, options) before the agent is made.
    first = candlebox.new_game(game, players=players, variant=variant, seed=seed, **options)
    chosen = chosen_levels(game, levels)
    name = agent if isinstance(agent, str) else getattr(agent, "__name__", type(agent).__name__)
    factory = load_agent(agent) if isinstance(agent, str) else agent
    player = make_agent(factory, name)
    records = []
    for level in chosen:
        wins = sum(
            play_one(game, players, variant, options, player, level, seed + i, i % players)
            for i in range(games)
        )
        records.append(LevelRecord(level.name, level_label(level), games, wins))
    return Evaluation(game, first.variant, players, name, seed, tuple(records))
