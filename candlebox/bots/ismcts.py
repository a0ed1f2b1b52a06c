"""Information-set Monte Carlo tree search (single observer), for every game.

    >>> from candlebox import bots
    >>> bot = bots.make("ismcts", seed=1, iterations=200)

Each iteration deals one *determinization*, ``state.resample(seat, seed)``: a complete state that the
bot's seat cannot tell from the real one. It descends one tree, shared by all determinizations, choosing
with UCB among the actions legal in that determinization (each edge counts how often it was available,
as Cowling, Powley and Whitehouse's ISMCTS does), adds one edge, plays the game on with a rollout policy,
and credits every seat that chose on the way with its own reward. The real state is only ever read
through ``legal_actions(seat)``, ``view(seat)`` (or ``typed_view``), ``log(seat)`` and ``resample(seat, ·)``, so the bot
knows nothing its seat does not.

The tree is the observer's: a node is what the bot's seat has seen so far. A child is keyed by the
action (for the bot's own moves) and by the events the bot's seat is shown (``State.log`` rules), so a
chance outcome the seat sees (a flipped candle, its own new cards) starts a new node, and a rival's
hidden choice (which way it turned its cards) does not split the tree: the seat cannot tell those apart.
Several seats in ``to_act`` decide simultaneously: at such a node each chooses from its own statistics,
none conditioned on another's choice, and the choices are applied one after another.

Rewards are in [0, 1] for every seat. A finished game pays ``reward="win"`` (the default) 1 shared by
the winners (1/k each of k), 0 to the others; ``reward="rank"`` pays by rank of ``state.scores``
((n − 1 − rank) / (n − 1), ties averaged). Raw points (advanced Candle Quest) are never the reward: a
bot that maximised points would trade wins for margin. A rollout cut off at ``depth`` steps is scored
by an estimate of each seat's standing (the game's ``evaluate`` hook, e.g. Candle Quest's colours
filled or advanced score; otherwise its current ``scores``), turned into shares of one win.

Parameters (``SearchParams``, checked when the bot is made: ``bot.params``): ``iterations``
(default 200) or ``seconds`` per decision (both: whichever comes first); ``c`` the UCB exploration
constant; ``rollout``: ``"heuristic"`` (the heuristic bot's policy for the
game, with ``epsilon`` random moves for variety: default 0.1, or the game's tuned default), ``"random"``, or ``"auto"`` (heuristic when the game
has one); ``depth`` the rollout cap in steps (default 400 for heuristic rollouts, 40 for random);
``prior``: the weight of a progressive bias towards the heuristic's choice at each node (0 turns it
off); the heuristic's choice is also the first action tried at a node; ``widening``: progressive
widening, at most ``ceil(widening * (visits + 1) ** 0.5)`` actions are tried at a node besides the
heuristic's (default: 1 where the game has a heuristic, else off; 0 turns it off); ``tree_depth``: the
most decisions the tree holds below the root (1 is flat Monte Carlo over the root's actions with the
rollout policy playing everything after; default: no limit); ``reward`` as above; ``anchor``: the
heuristic's (or the game's own ``policy`` hook's) choice is credited with ``anchor`` × iterations extra
visits at the root, so it is kept unless the search clearly prefers another (default 0, or the game's
tuned default: 16 Candies plays ``epsilon=0, anchor=0.5`` unless told otherwise).

Per-game hooks (``SearchHooks``, the game's ``search`` capability: ``game_info(id).search_hooks()``,
e.g. candlebox/games/sixteen_candies/search.py; looked up once per bot and game)
tune the search without leaving the engine contract: the searching seat's own rollout policy (the
heuristic still plays the rivals: the rival model), an evaluation of unfinished games, a ``horizon``
at which rollouts stop and are evaluated, and a rival model (``observe`` the rivals' choices in the
seat's own log and view; ``plausibility`` of a determinization under them). ``horizon`` (default true)
uses the game's horizon hook; ``model`` (default 32) is how many determinizations an iteration may try
under the rival model, kept with their plausibility as chance (rejection sampling; 0 or 1 turns it off);
``rivals``: ``"policy"`` plays the rivals' decisions in the tree with the rollout policy from their own
view of the determinization (a rival's choice depends on its hidden hand, which the observer's node does
not know), ``"search"`` searches them with UCB at the observer's nodes, ``"auto"`` (default) is
``"policy"`` where the game models its rivals. ``hooks="generic"`` ignores the game's hooks (all but
the fast copy of its heuristic, which chooses as the heuristic does): the search every game gets, an
opponent the game's tuning was not made against (issue 16's cross-check).
``guide``: whose choice is the favourite at the tree's nodes (tried first, and the target of ``prior``):
``"heuristic"`` (the default: the rollout policy's), or ``"policy"``, the game's shipped trained network
(the ``policy`` bot's greedy choice, for the configuration it was trained for; numpy needed); the
rollouts stay the heuristic's. docs/rl.md measures whether it helps.
``clock``: what ``seconds`` counts: ``"wall"`` (the default) time, or ``"cpu"``, the searching
thread's own CPU time (a post-game review's budget: the same search however busy the machine).
A seeded bot with an iteration budget is deterministic; a time budget is not (it depends on speed).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from candlebox.bots.policy import PolicyBot, shipped_path
from candlebox.engine import GameInfo, Rng, State, game_info
from candlebox.engine.plugin import (
    Evaluator,
    Policy,
    SearchHooks,
    StatePolicy,
    Viewer,
    shares_of,
)
from candlebox.engine.rng import fresh_seed

__all__ = [
    "Focus",
    "ISMCTSBot",
    "SearchHooks",
    "SearchParams",
    "best_action",
    "rank_rewards",
    "shares_of",
    "win_shares",
]

_UNIT = 1 << 30
_MIXED_TEMPERATURE = 0.1  # simultaneous decisions: softmax temperature over mean rewards
_MIXED_EXPLORE = 0.1  # and the share of uniform exploration
EPSILON = 0.1  # the rollouts' share of random moves, where the game's hooks set no default
CPU_WALL_CEILING = 4.0  # a CPU-clocked search's wall seconds, at most, per second of its budget
_MODEL_TRIES = 32  # determinizations tried per iteration where a game models its rivals


@dataclass(frozen=True)
class Focus:
    """A review's search of one decision: only the actions ``among`` are tried at the root (the move
    played and the few the heuristic rates best: tries spread over twenty moves tell nothing of
    any), and ``insist`` (the move played) is tried ``floor`` times at least, every other iteration
    until it has them, because a review needs its estimate and UCB starves a move that looks bad."""

    among: frozenset[str]
    insist: str | None = None
    floor: int = 0


class _Node:
    """What the observer has seen so far; ``edges[actor][action]`` is ``[visits, reward, available]``."""

    __slots__ = ("children", "edges", "visits")

    def __init__(self) -> None:
        self.visits = 0
        self.edges: dict[int, dict[str, list[float]]] = {}
        self.children: dict[tuple[Any, ...], _Node] = {}


# ----------------------------------------------------------------------------- rewards
def win_shares(state: State) -> list[float]:
    """1 shared by the winners of a finished game, 0 for the others (all 0 when nobody won)."""
    shares = [0.0] * state.num_players
    winners = state.winners
    for seat in winners:
        shares[seat] = 1.0 / len(winners)
    return shares


def rank_rewards(scores: tuple[float, ...] | list[float]) -> list[float]:
    """(n − 1 − rank) / (n − 1) by score, the ranks of tied seats averaged: 1 for the best, 0 the worst."""
    n = len(scores)
    if n < 2:
        return [1.0] * n
    order = sorted(range(n), key=lambda s: -scores[s])
    rewards = [0.0] * n
    i = 0
    while i < n:
        j = i
        while j + 1 < n and scores[order[j + 1]] == scores[order[i]]:
            j += 1
        mean_rank = (i + j) / 2
        for k in range(i, j + 1):
            rewards[order[k]] = (n - 1 - mean_rank) / (n - 1)
        i = j + 1
    return rewards


def _score_standing(state: State) -> list[float]:
    """Any game: its current scores as shares (equal scores, or none yet, share equally)."""
    scores = [float(s) for s in state.scores]
    if not scores or max(scores) == min(scores):
        return [1.0 / state.num_players] * state.num_players
    # A lead of a third of the typical score is worth about three to one.
    scale = sum(abs(s) for s in scores) / len(scores)
    return shares_of(scores, max(1.0, 0.3 * scale))


def _own_policy(guide: Policy | None, hooks: SearchHooks) -> Policy | None:
    """The searching seat's own policy: the game's own hook where it has one, else the guide."""
    return hooks.policy if guide is not None and hooks.policy is not None else guide


def _models_rivals(hooks: SearchHooks) -> bool:
    """Whether the game models its rivals (observes their choices, weighs determinizations)."""
    return hooks.observe is not None and hooks.plausibility is not None


# ----------------------------------------------------------------------------- the parameters
def _whole(label: str, value: object, least: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        raise ValueError(f"{label} must be a whole number of at least {least}, got {value!r}")


def _number(label: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        raise ValueError(f"{label} must be a number of at least 0, got {value!r}")
    return float(value)


def _positive(label: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
        raise ValueError(f"{label} must be a positive number, got {value!r}")
    return float(value)


def _probability(label: str, value: object) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
        raise ValueError(f"{label} must be a probability between 0 and 1, got {value!r}")
    return float(value)


def _choice(label: str, value: object, choices: tuple[str, ...]) -> None:
    if value not in choices:
        named = ", ".join(choices[:-1]) + f" or {choices[-1]}"
        raise ValueError(f"{label} must be {named}, got {value!r}")


@dataclass(frozen=True)
class SearchParams:
    """ISMCTS's parameters (the module's docstring says what each does), checked when made: a
    ValueError names the first one out of range. ``None`` means the default, which for
    ``epsilon``, ``anchor``, ``widening`` and ``depth`` depends on the game (its hooks, whether it
    has a heuristic); neither ``iterations`` nor ``seconds`` means 200 iterations."""

    iterations: int | None = None
    seconds: float | None = None
    c: float = 0.7
    rollout: str = "auto"
    depth: int | None = None
    epsilon: float | None = None
    prior: float = 0.5
    widening: float | None = None
    reward: str = "win"
    tree_depth: int | None = None
    anchor: float | None = None
    horizon: bool | int = True
    model: int | None = None
    rivals: str = "auto"
    hooks: str = "game"
    guide: str = "heuristic"
    clock: str = "wall"

    def __post_init__(self) -> None:
        # frozen: the checked values (numbers as floats) are set through object.__setattr__
        def set_(name: str, value: object) -> None:
            object.__setattr__(self, name, value)

        if self.iterations is None and self.seconds is None:
            set_("iterations", 200)
        if self.iterations is not None:
            _whole("iterations", self.iterations, 1)
        if self.seconds is not None:
            set_("seconds", _positive("seconds", self.seconds))
        _choice("rollout", self.rollout, ("auto", "heuristic", "random"))
        _choice("rivals", self.rivals, ("auto", "search", "policy"))
        _choice("guide", self.guide, ("heuristic", "policy"))
        _choice("clock", self.clock, ("wall", "cpu"))
        _choice("hooks", self.hooks, ("game", "generic"))
        _choice("reward", self.reward, ("win", "rank"))
        set_("c", _number("c", self.c))
        set_("prior", _number("prior", self.prior))
        for name in ("widening", "anchor"):
            if getattr(self, name) is not None:
                set_(name, _number(name, getattr(self, name)))
        if self.epsilon is not None:
            set_("epsilon", _probability("epsilon", self.epsilon))
        if self.tree_depth is not None:
            _whole("tree_depth", self.tree_depth, 1)
        if self.horizon not in (True, False, 0, 1):
            raise ValueError(f"horizon must be true or false (1 or 0), got {self.horizon!r}")
        set_("horizon", bool(self.horizon))
        for name in ("model", "depth"):
            if getattr(self, name) is not None:
                _whole(name, getattr(self, name), 0)


# ----------------------------------------------------------------------------- the bot
class ISMCTSBot:
    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        iterations: int | None = None,
        seconds: float | None = None,
        c: float = 0.7,
        rollout: str = "auto",
        depth: int | None = None,
        epsilon: float | None = None,
        prior: float = 0.5,
        widening: float | None = None,
        reward: str = "win",
        tree_depth: int | None = None,
        anchor: float | None = None,
        horizon: bool | int = True,
        model: int | None = None,
        rivals: str = "auto",
        hooks: str = "game",
        guide: str = "heuristic",
        clock: str = "wall",
    ) -> None:
        # Keywords, as bots.make passes a bot spec's parameters; checked by SearchParams.
        self.params = SearchParams(
            iterations=iterations,
            seconds=seconds,
            c=c,
            rollout=rollout,
            depth=depth,
            epsilon=epsilon,
            prior=prior,
            widening=widening,
            reward=reward,
            tree_depth=tree_depth,
            anchor=anchor,
            horizon=horizon,
            model=model,
            rivals=rivals,
            hooks=hooks,
            guide=guide,
            clock=clock,
        )
        self.rng = Rng(fresh_seed() if seed is None else seed)
        self._network: Any = None  # guide="policy": the PolicyBot whose network guides the tree
        self.last: dict[str, float] = {}  # the last search: iterations and seconds
        # The game's capabilities, looked up once per game rather than once per decision.
        self._game: tuple[str, Policy | None, SearchHooks, Viewer] | None = None

    # ------------------------------------------------------------------ the game's capabilities
    def _capabilities(self, game_id: str) -> tuple[Policy | None, SearchHooks, Viewer]:
        """The game's policy, search hooks, and how to get the view its policies read."""
        if self._game is None or self._game[0] != game_id:
            info: GameInfo = game_info(game_id)
            hooks = info.search_hooks()
            if self.params.hooks == "generic":
                # Only the heuristic read straight from the state stays: it chooses exactly as the
                # heuristic does (a speed-up, not a tuning), so the search is the generic one.
                hooks = SearchHooks(state_policy=hooks.state_policy)
            self._game = (game_id, info.policy(), hooks, info.policy_viewer())
        return self._game[1], self._game[2], self._game[3]

    def plays(self, game_id: str) -> bool:
        """Every game: a search needs only the engine contract (random rollouts where the game has
        no heuristic); guided by a network, the games that ship one."""
        if self.params.guide == "policy":
            return shipped_path(game_id).is_file()
        return True

    def check_table(self, state: State) -> None:
        """Guided by a network (``guide="policy"``): a ValueError naming the table it was trained
        for, unless it is ``state``'s. Any other search plays every table."""
        if self.params.guide == "policy":
            self._policy_guide(state)

    def _policy_guide(self, state: State) -> StatePolicy:
        """The trained network's greedy choice as a state policy (``guide="policy"``); loaded once,
        and checked against the state's configuration (a ValueError names what it was trained for)."""
        if self._network is None:
            self._network = PolicyBot(seed=0)
        network = self._network.network(state)

        def greedy(world: State, seat: int, legal: list[str], rng: Rng) -> str:
            return network.pick(world, seat, 0.0, 0.0)

        return greedy

    # ------------------------------------------------------------------ the decision
    def choose(self, state: State, seat: int) -> str:
        actions = state.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no decision to make now")
        if len(actions) == 1:
            self.last = {"iterations": 0, "seconds": 0.0}
            return actions[0]
        return self._search(state, seat, actions)[0]

    def ponder(
        self, state: State, seat: int, focus: Focus | None = None
    ) -> tuple[str, dict[str, tuple[int, float]]]:
        """The search's choice and, for each legal action, its visits and mean reward at the root (the
        share of a win it is expected to bring): what hints and reviews show. A forced decision is
        searched too. ``focus`` narrows the root to a few of the actions (a review's: see
        :class:`Focus`); the others are reported with no visits."""
        actions = state.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no decision to make now")
        choice, root = self._search(state, seat, actions, focus)
        table = root.edges.get(seat, {})
        stats = {}
        for action in actions:
            edge = table.get(action)
            stats[action] = (int(edge[0]), edge[1] / edge[0]) if edge and edge[0] else (0, 0.0)
        return choice, stats

    def _search(
        self, state: State, seat: int, actions: list[str], focus: Focus | None = None
    ) -> tuple[str, _Node]:
        guide, hooks, viewer = self._capabilities(state.game_id)
        search = self._prepare(state, seat, guide, hooks, viewer)
        search.focus = focus
        if focus is not None:
            actions = [a for a in actions if a in focus.among] or actions
        root = _Node()
        done = self._iterate(root, search, state, seat, hooks)
        params = self.params
        anchor = params.anchor if params.anchor is not None else hooks.defaults.get("anchor", 0.0)
        own = _own_policy(guide, hooks)
        favourite = None
        if own is not None and anchor > 0:
            favourite = own(viewer(state, seat), actions, self.rng)
        return best_action(root, seat, actions, favourite, anchor * done), root

    def _prepare(
        self, state: State, seat: int, guide: Policy | None, hooks: SearchHooks, viewer: Viewer
    ) -> _Search:
        """One decision's search: its policies, budgets and rival model, from the parameters and
        the game's hooks."""
        params = self.params
        rollout = None if params.rollout == "random" else guide  # no heuristic: random rollouts
        depth = params.depth if params.depth is not None else (400 if rollout else 40)
        evaluate = hooks.evaluate or _score_standing
        prior = guide if params.prior > 0 or params.widening != 0 else None
        epsilon = (
            params.epsilon if params.epsilon is not None else hooks.defaults.get("epsilon", EPSILON)
        )
        search = _Search(self, seat, rollout, prior, depth, evaluate, epsilon, viewer)
        if rollout is not None:
            search.own_policy = _own_policy(guide, hooks)
        if (
            guide is not None
        ):  # the same policies read straight from the state, where the game has them
            search.rival_fast = hooks.state_policy
            search.own_fast = (
                hooks.own_state_policy if hooks.policy is not None else hooks.state_policy
            )
        if params.guide == "policy" and search.prior_policy is not None:
            search.tree_guide = self._policy_guide(state)
        if params.horizon:
            search.horizon = hooks.horizon
        search.rivals_by_policy = rollout is not None and (
            params.rivals == "policy" or (params.rivals == "auto" and _models_rivals(hooks))
        )
        return search

    def _iterate(
        self, root: _Node, search: _Search, state: State, seat: int, hooks: SearchHooks
    ) -> int:
        """The search's iterations, each in a new determinization, until the budget is spent: how
        many were made (``last`` says it, with the time taken)."""
        params = self.params
        tries = params.model if params.model is not None else _MODEL_TRIES
        observed = None
        if tries > 1 and _models_rivals(hooks):
            assert hooks.observe is not None
            observed = hooks.observe(state, seat)
        # the thread's own CPU time: a server charging a search's seconds to whoever asked gives
        # it that much computing however busy the machine (wall seconds shrink under load)
        now = time.thread_time if params.clock == "cpu" else time.perf_counter
        start = now()
        limit = params.iterations
        deadline = None if params.seconds is None else start + params.seconds
        # ...but it still ends by the wall: on a machine so busy that the search gets less than a
        # share of a core (1 / CPU_WALL_CEILING), a review stops with fewer tries instead of
        # holding its slot while others wait
        wall_end = (
            time.perf_counter() + CPU_WALL_CEILING * params.seconds
            if params.clock == "cpu" and params.seconds is not None
            else None
        )
        done = 0
        while (limit is None or done < limit) and (
            deadline is None
            or done == 0
            or (now() < deadline and (wall_end is None or time.perf_counter() < wall_end))
        ):
            if observed:
                world = self.determinize(state, seat, hooks, observed, tries)
            else:
                world = state.resample(seat, self.rng.next64() >> 1)
            search.iterate(root, world)
            done += 1
        self.last = {"iterations": done, "seconds": now() - start}
        return done

    def determinize(
        self, state: State, seat: int, hooks: SearchHooks, observed: Any, tries: int
    ) -> State:
        """A determinization kept with the chance the game's rival model gives it (rejection
        sampling, at most ``tries`` deals; then the likeliest of them). A game with ``redeal``
        deals again into the one world instead of copying the state for every deal, and the same
        seeds give the same deals either way."""
        assert hooks.plausibility is not None
        redeal = hooks.redeal
        world: State | None = None
        best: State | None = None
        best_seed = seed = 0
        best_weight = -1.0
        for _ in range(tries):
            seed = self.rng.next64() >> 1
            if world is None or redeal is None:
                world = state.resample(seat, seed)
            else:
                redeal(world, seat, seed)
            if hooks.orient is not None:
                hooks.orient(world, seat, observed)
            weight = hooks.plausibility(world, seat, observed)
            if weight >= 1.0 or self.rng.below(_UNIT) < weight * _UNIT:
                return world
            if weight > best_weight:
                best, best_seed, best_weight = world, seed, weight
        assert world is not None and best is not None
        if redeal is None or best_seed == seed:
            return best
        redeal(world, seat, best_seed)  # the likeliest deal, dealt again
        if hooks.orient is not None:
            hooks.orient(world, seat, observed)
        return world


def best_action(
    root: _Node, seat: int, actions: list[str], favourite: str | None = None, bonus: float = 0.0
) -> str:
    """The most visited of the real legal actions, the heuristic's ``favourite`` credited with
    ``bonus`` extra visits; ties go to the higher mean, then to legal order."""
    table = root.edges.get(seat, {})
    best = actions[0]
    best_key = (-1.0, -1.0)
    for action in actions:
        edge = table.get(action)
        if edge is None:
            continue
        visits = edge[0] + (bonus if action == favourite else 0.0)
        key = (visits, edge[1] / edge[0] if edge[0] else 0.0)
        if key > best_key:
            best, best_key = action, key
    return best


class _Search:
    """One decision's search: the observer, the policies and the budgets, shared by its iterations."""

    def __init__(
        self,
        bot: ISMCTSBot,
        me: int,
        rollout: Policy | None,
        prior: Policy | None,
        depth: int,
        evaluate: Evaluator,
        epsilon: float,
        viewer: Viewer = State.view,
    ) -> None:
        self.bot = bot
        self.viewer = viewer  # the view the policies read: GameInfo.viewer()
        self.rng = bot.rng
        self.me = me
        self.rollout_policy = rollout
        self.prior_policy = prior
        self.depth = depth
        self.evaluate = evaluate
        self.epsilon = int(epsilon * _UNIT)
        self.levels = bot.params.tree_depth if bot.params.tree_depth else -1  # -1: no limit
        self.horizon: Callable[[State], Hashable] | None = None  # SearchHooks.horizon, if used
        self.rivals_by_policy = False  # rivals' decisions in the tree: the rollout policy's
        self.focus: Focus | None = None  # a review's narrower root (ISMCTSBot.ponder)
        self.own_policy = rollout  # the searching seat's own rollout policy and prior
        # The heuristic's and the own policy read from the state (SearchHooks.state_policy), or None:
        # the same choices as the policies above, without building a view at every decision.
        self.rival_fast: StatePolicy | None = None
        self.own_fast: StatePolicy | None = None
        # guide="policy": the favourite at the tree's nodes for every seat (the rollouts keep theirs).
        self.tree_guide: StatePolicy | None = None
        if bot.params.widening is not None:
            self.widening = bot.params.widening
        else:  # auto: widen where a heuristic orders the actions, else try every action at once
            self.widening = 1.0 if prior is not None else 0.0

    def iterate(self, root: _Node, world: State) -> None:
        me = self.me
        node = root
        path: list[tuple[list[float], int]] = []
        expanded = False
        levels = self.levels
        horizon = self.horizon
        stage = horizon(world) if horizon is not None else None
        while not expanded and not world.is_over and levels:
            if horizon is not None and horizon(world) != stage:
                break
            levels -= 1
            actors = world.to_act
            choices: list[tuple[int, str]] = []
            # Several seats in to_act choose from their own statistics at this node, none seeing another's
            # choice; the choices are applied one after another below.
            alone = len(actors) == 1
            for actor in actors:
                legal = world.legal_actions(actor)
                if alone and actor != me and self.rivals_by_policy:
                    # A rival's choice depends on its hand, which the observer's node does not
                    # know: it is the rollout policy's, made from the rival's view of this world.
                    choices.append((actor, self.policy_choice(world, actor, legal)))
                    break
                table = node.edges.get(actor)
                if table is None:
                    table = node.edges[actor] = {}
                if alone and node is root and actor == me and self.focus is not None:
                    action, new = self.select_focused(world, actor, legal, table, node.visits)
                elif alone:
                    action, new = self.select(world, actor, legal, table, node.visits)
                else:
                    action, new = self.select_mixed(legal, table)
                choices.append((actor, action))
                path.append((table[action], actor))
                expanded = expanded or new
            node.visits += 1
            mark = world.event_count
            self.apply_all(world, choices)
            key = self.observation(world, choices, mark, me)
            child = node.children.get(key)
            if child is None:
                child = node.children[key] = _Node()
            node = child
        rewards = self.play_out(world, stage)
        for edge, actor in path:
            edge[0] += 1
            edge[1] += rewards[actor]

    # ------------------------------------------------------------------ the tree
    def select(
        self, world: State, actor: int, legal: list[str], table: dict[str, list[float]], visits: int
    ) -> tuple[str, bool]:
        bot = self.bot
        widening = self.widening
        favourite = None
        if self.tree_guide is not None and len(legal) > 1:
            favourite = self.tree_guide(world, actor, legal, self.rng)
        elif self.prior_policy is not None and len(legal) > 1:
            if actor == self.me and self.own_policy:
                guide, fast = self.own_policy, self.own_fast
            else:
                guide, fast = self.prior_policy, self.rival_fast
            if fast is not None:
                favourite = fast(world, actor, legal, self.rng)
            else:
                favourite = guide(self.viewer(world, actor), legal, self.rng)
        tried = 0
        untried: list[str] = []
        for action in legal:
            edge = table.get(action)
            if edge is None:
                untried.append(action)
            else:
                edge[2] += 1
                tried += 1
        # The heuristic's choice is tried first; with widening, further actions join as the node's
        # visits grow, so lightly visited nodes play like the heuristic rather than at random.
        if favourite is not None and favourite in untried:
            table[favourite] = [0, 0.0, 1]
            return favourite, True
        if untried and (widening <= 0 or tried < math.ceil(widening * math.sqrt(visits + 1))):
            action = untried[self.rng.below(len(untried))]
            table[action] = [0, 0.0, 1]
            return action, True
        c = bot.params.c
        weight = bot.params.prior
        best = ""
        best_value = -math.inf
        for action in legal:
            edge = table.get(action)
            if edge is None:
                continue
            n = edge[0]
            if n == 0:
                value = math.inf
            else:
                value = edge[1] / n + c * math.sqrt(math.log(edge[2]) / n)
                if action == favourite:
                    value += weight / (n + 1)
            if value > best_value:
                best, best_value = action, value
        return best, False

    def select_focused(
        self, world: State, actor: int, legal: list[str], table: dict[str, list[float]], visits: int
    ) -> tuple[str, bool]:
        """The root of a review's search (``focus``): its few actions, the one it insists on
        whenever that has fewer than its floor of tries and no more than half of the root's."""
        focus = self.focus
        assert focus is not None
        kept = [a for a in legal if a in focus.among] or legal
        insist = focus.insist
        edge = table.get(insist) if insist is not None else None
        tries = int(edge[0]) if edge is not None else 0
        if insist not in kept or tries >= focus.floor or 2 * tries > visits:
            return self.select(world, actor, kept, table, visits)
        for action in kept:  # each was available this iteration, as select() counts it
            if action in table:
                table[action][2] += 1
        if edge is None:
            table[insist] = [0, 0.0, 1]
        return insist, edge is None

    def select_mixed(self, legal: list[str], table: dict[str, list[float]]) -> tuple[str, bool]:
        """A simultaneous decision: an action drawn from a mixed strategy (a softmax of the means, untried
        actions counted as wins, mixed with 10% uniform exploration), as Exp3-style decoupled search
        does; deterministic UCB would let the seats choose in lockstep."""
        edges = []
        for action in legal:
            edge = table.get(action)
            if edge is None:
                edge = table[action] = [0, 0.0, 0]
            edge[2] += 1
            edges.append(edge)
        means = [edge[1] / edge[0] if edge[0] else 1.0 for edge in edges]
        top = max(means)
        weights = [math.exp((mean - top) / _MIXED_TEMPERATURE) for mean in means]
        total = sum(weights)
        share = 1.0 / len(legal)
        draw = self.rng.below(_UNIT) / _UNIT
        for action, edge, weight in zip(legal, edges, weights, strict=True):
            draw -= (1 - _MIXED_EXPLORE) * weight / total + _MIXED_EXPLORE * share
            if draw < 0:
                return action, edge[0] == 0
        return legal[-1], edges[-1][0] == 0

    @staticmethod
    def apply_all(world: State, choices: list[tuple[int, str]]) -> None:
        if len(choices) == 1:
            seat, action = choices[0]
            world.apply_unchecked(seat, action)
            return
        for seat, action in choices:
            if action in world.legal_actions(seat):
                world.apply_unchecked(seat, action)

    @staticmethod
    def observation(
        world: State, choices: list[tuple[int, str]], mark: int, me: int
    ) -> tuple[Any, ...]:
        """What the observer learns from a step: its own action, and the new events as it sees them."""
        mine = tuple(action for seat, action in choices if seat == me)
        return (mine, *(repr(entry) for entry in world.log(me, since=mark)))

    # ------------------------------------------------------------------ the rollout
    def policy_choice(self, world: State, seat: int, legal: list[str]) -> str:
        """The rollout policy's action (a random one with chance ``epsilon``, or without a policy)."""
        if len(legal) == 1:
            return legal[0]
        mine = seat == self.me
        policy = self.own_policy if mine else self.rollout_policy
        rng = self.rng
        if policy is None or (self.epsilon and rng.below(_UNIT) < self.epsilon):
            return legal[rng.below(len(legal))]
        fast = self.own_fast if mine else self.rival_fast
        if fast is not None:
            return fast(world, seat, legal, rng)
        return policy(self.viewer(world, seat), legal, rng)

    def play_out(self, world: State, stage: Hashable = None) -> list[float]:
        """The rollout policy plays on: to the game's end, ``depth`` steps, or the ``horizon``."""
        policy = self.rollout_policy
        rng = self.rng
        epsilon = self.epsilon
        steps = 0
        depth = self.depth
        horizon = self.horizon
        while not world.is_over and steps < depth:
            if horizon is not None and horizon(world) != stage:
                break
            actors = world.to_act
            if len(actors) == 1:
                seat = actors[0]
                world.apply_unchecked(
                    seat, self.policy_choice(world, seat, world.legal_actions(seat))
                )
            else:
                choices = []
                for seat in actors:
                    legal = world.legal_actions(seat)
                    if (
                        policy is None
                        or len(legal) == 1
                        or (epsilon and rng.below(_UNIT) < epsilon)
                    ):
                        choices.append((seat, legal[rng.below(len(legal))]))
                    elif self.rival_fast is not None:
                        choices.append((seat, self.rival_fast(world, seat, legal, rng)))
                    else:
                        choices.append((seat, policy(self.viewer(world, seat), legal, rng)))
                self.apply_all(world, choices)
            steps += 1
        if not world.is_over:
            return self.evaluate(world)
        if self.bot.params.reward == "rank":
            return rank_rewards(world.scores)
        return win_shares(world)
