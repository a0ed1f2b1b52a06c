"""The ISMCTS bot: legal choices in every game, seeded determinism, information discipline, rewards,
and simultaneous decisions searched without peeking. Strength is measured in bench/strength.py."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

import candlebox
from candlebox import bots
from candlebox.bots import ismcts
from candlebox.engine import (
    Capabilities,
    GameInfo,
    MoveKind,
    State,
    Variant,
    register,
    unregister,
)
from candlebox.games.candle_quest.state import CandleQuestState

FAST = {"iterations": 16}


def seats_for(game: str, fewest: int = 2) -> int:
    """The smallest player count from ``fewest`` that the game's default variant allows."""
    info = candlebox.game_info(game)
    for players in range(fewest, 9):
        variant = info.variant(info.default_variant(players))
        if players in variant.players:
            return players
    raise AssertionError(f"{game} allows no player count from {fewest}")


def walk(
    game: str, seed: int, steps: int, players: int | None = None, **options: Any
) -> list[State]:
    """States of a game driven by the heuristic bot, one per decision with a real choice."""
    count = seats_for(game) if players is None else players
    state = candlebox.new_game(game, players=count, seed=seed, **options)
    driver = bots.make("heuristic", seed=seed)
    found = []
    while not state.is_over and len(found) < steps:
        seat = state.to_act[0]
        if len(state.legal_actions(seat)) > 1:
            found.append(state.clone())
        state.apply(seat, driver.choose(state, seat))
    return found


@pytest.mark.parametrize("game", candlebox.GAMES)
def test_plays_only_legal_actions_in_every_variant(game: str) -> None:
    for variant in candlebox.variants(game):
        count = max(variant.min_players, min(3, variant.max_players))
        state = candlebox.new_game(game, players=count, variant=variant.name, seed=2, max_turns=12)
        players = [
            bots.make("ismcts", seed=i, iterations=12, rollout="random") for i in range(count)
        ]
        while not state.is_over:
            seat = state.to_act[0]
            action = players[seat].choose(state, seat)
            assert action in state.legal_actions(seat)
            state.apply(seat, action)


def test_registry_and_parameters() -> None:
    assert "ismcts" in bots.available()
    bot = bots.make("ismcts", seed=1, seconds=0.05, c=1.0, rollout="random", depth=10)
    state = walk("candle-quest", 3, 1)[0]
    seat = state.to_act[0]
    assert bot.choose(state, seat) in state.legal_actions(seat)
    assert 0 < bot.last["seconds"] < 1 and bot.last["iterations"] >= 1  # type: ignore[attr-defined]
    bads = (
        {"iterations": 0},
        {"seconds": -1},
        {"rollout": "smart"},
        {"reward": "points"},
        {"tree_depth": 0},
        {"anchor": -1},
        {"horizon": 2},
        {"model": -1},
        {"rivals": "mind-reading"},
    )
    for bad in bads:
        with pytest.raises(ValueError):
            bots.make("ismcts", **bad)


def test_the_parameters_are_one_checked_value() -> None:
    """ISMCTS's parameters are a frozen dataclass checked when made: defaults filled in, numbers as
    floats, and a ValueError naming the parameter that is out of range."""
    chosen = ismcts.SearchParams()
    assert (chosen.iterations, chosen.seconds, chosen.horizon) == (200, None, True)
    timed = ismcts.SearchParams(seconds=1, c=1, epsilon=0, horizon=0)
    assert (timed.iterations, timed.seconds, timed.c, timed.epsilon) == (None, 1.0, 1.0, 0.0)
    assert timed.horizon is False and isinstance(timed.seconds, float)
    with pytest.raises(dataclasses.FrozenInstanceError):
        timed.c = 2.0  # type: ignore[misc]
    refused = {
        "iterations": (0, "iterations must be a whole number of at least 1"),
        "seconds": (0, "seconds must be a positive number"),
        "epsilon": (1.5, "epsilon must be a probability between 0 and 1"),
        "prior": (True, "prior must be a number of at least 0"),
        "widening": (-1, "widening must be a number of at least 0"),
        "guide": ("oracle", "guide must be heuristic or policy"),
        "clock": ("sun", "clock must be wall or cpu"),
        "depth": (-1, "depth must be a whole number of at least 0"),
    }
    for name, (value, message) in refused.items():
        with pytest.raises(ValueError, match=message):
            ismcts.SearchParams(**{name: value})
    bot = bots.make("ismcts", seed=1, seconds=0.5, model=0)
    assert isinstance(bot, ismcts.ISMCTSBot)
    assert bot.params == ismcts.SearchParams(seconds=0.5, model=0)


def test_flat_and_anchored_searches_choose_legal_actions() -> None:
    for state in walk("candle-quest", 8, 3):
        seat = state.to_act[0]
        for params in ({"tree_depth": 1}, {"anchor": 1.0}, {"widening": 0, "prior": 0}):
            bot = bots.make("ismcts", seed=1, iterations=16, **params)
            assert bot.choose(state, seat) in state.legal_actions(seat)
    # With a full anchor the heuristic's choice is kept unless search visits another more often
    # than all the iterations together: the bot then plays as the heuristic does.
    for state in walk("candle-quest", 9, 4):
        seat = state.to_act[0]
        anchored = bots.make("ismcts", seed=2, iterations=16, anchor=1.0).choose(state, seat)
        assert anchored == bots.make("heuristic", seed=2).choose(state, seat)


@pytest.mark.parametrize("game", candlebox.GAMES)
def test_same_seed_same_choices(game: str) -> None:
    for state in walk(game, 4, 3):
        seat = state.to_act[0]
        first = bots.make("ismcts", seed=9, **FAST).choose(state, seat)
        assert bots.make("ismcts", seed=9, **FAST).choose(state.clone(), seat) == first


# ----------------------------------------------------------------------------- information discipline
class Observer:
    """A state as one seat may consult it: its own decisions, its own view, its own resampling, and the
    game's public settings. Anything else fails the test."""

    PUBLIC = ("game_id", "variant", "num_players", "options", "is_over")

    def __init__(self, state: State, seat: int) -> None:
        self._state = state
        self._seat = seat
        self.calls: list[str] = []

    def __getattr__(self, name: str) -> Any:
        if name in self.PUBLIC:
            return getattr(self._state, name)
        raise AssertionError(f"the bot read state.{name}")

    @property
    def to_act(self) -> tuple[int, ...]:
        return self._state.to_act

    def legal_actions(self, seat: int) -> list[str]:
        assert seat == self._seat, f"the bot asked for seat {seat}'s actions"
        return self._state.legal_actions(seat)

    def view(self, seat: int | None) -> dict[str, Any]:
        assert seat == self._seat, f"the bot looked at seat {seat}'s view"
        return self._state.view(seat)

    def typed_view(self, seat: int | None) -> Any:
        assert seat == self._seat, f"the bot looked at seat {seat}'s view"
        return self._state.typed_view(seat)

    def log(self, seat: int | None, since: int = 0) -> list[dict[str, Any]]:
        assert seat == self._seat, f"the bot read seat {seat}'s log"
        self.calls.append("log")
        return self._state.log(seat, since)

    def resample(self, seat: int, seed: int) -> State:
        assert seat == self._seat, f"the bot resampled for seat {seat}"
        self.calls.append("resample")
        return self._state.resample(seat, seed)


@pytest.mark.parametrize("game", candlebox.GAMES)
def test_reads_the_real_state_only_as_its_seat(game: str) -> None:
    for state in walk(game, 5, 3):
        seat = state.to_act[0]
        guard = Observer(state, seat)
        choice = bots.make("ismcts", seed=2, **FAST).choose(guard, seat)  # type: ignore[arg-type]
        # A game that models its rivals (16 Candies) may deal several determinizations an iteration.
        assert guard.calls.count("resample") >= FAST["iterations"]
        if not candlebox.game_info(game).search_hooks().plausibility:
            assert guard.calls.count("resample") == FAST["iterations"]
        assert choice == bots.make("ismcts", seed=2, **FAST).choose(state, seat)


def test_the_rival_model_reads_only_the_seats_log_and_view() -> None:
    """16 Candies: the rivals' calls, non-calls and discards are read from the seat's own log, every
    decision of a game (final turns after a rival's call included), with the same choice as unguarded."""
    states = walk("sixteen-candies", 12, 60)
    assert any(s.view(s.to_act[0])["caller"] is not None for s in states)
    read = 0
    for state in states[::3]:
        seat = state.to_act[0]
        guard = Observer(state, seat)
        params = {"iterations": 8, "epsilon": 0.0, "anchor": 0.5}
        choice = bots.make("ismcts", seed=3, **params).choose(guard, seat)  # type: ignore[arg-type]
        read += guard.calls.count("log")
        assert choice == bots.make("ismcts", seed=3, **params).choose(state.clone(), seat)
        assert choice == bots.make("ismcts", seed=3, **params).choose(state, seat)
    assert read > 0


def test_search_hooks_can_be_turned_off() -> None:
    for state in walk("sixteen-candies", 13, 8)[4:]:
        seat = state.to_act[0]
        for params in (
            {"horizon": 0},
            {"model": 0},
            {"rivals": "search"},
            {"rollout": "random"},
        ):
            bot = bots.make("ismcts", seed=1, iterations=12, **params)
            assert bot.choose(state, seat) in state.legal_actions(seat)


def test_generic_hooks_search_as_a_game_without_hooks(monkeypatch: pytest.MonkeyPatch) -> None:
    """``hooks="generic"`` (issue 16's cross-check opponent) searches 16 Candies as if the game had
    no hooks but the fast copy of its heuristic, and so chooses otherwise than the tuned search."""
    states = walk("sixteen-candies", 13, 12)[4:]

    def choices(**params: Any) -> list[str]:
        return [
            bots.make("ismcts", seed=2, iterations=40, **params).choose(state, state.to_act[0])
            for state in states
        ]

    generic = choices(hooks="generic")
    tuned = choices()
    real = candlebox.game_info("sixteen-candies")

    class Stripped:  # the game's capabilities with its search hooks taken away
        def policy(self) -> Any:
            return real.policy()

        def policy_viewer(self) -> Any:
            return real.policy_viewer()

        def search_hooks(self) -> ismcts.SearchHooks:
            return ismcts.SearchHooks(state_policy=real.search_hooks().state_policy)

    monkeypatch.setattr(ismcts, "game_info", lambda game_id: Stripped())
    assert generic == choices()
    assert generic != tuned
    with pytest.raises(ValueError, match="hooks must be game or generic"):
        bots.make("ismcts", hooks="none")


def test_games_tuned_defaults_apply_unless_given() -> None:
    """16 Candies' measured epsilon=0, anchor=0.5 are its defaults; values given explicitly win, and
    a game without tuned defaults keeps epsilon 0.1 and no anchor."""

    def choices(game: str, **params: Any) -> list[str]:
        found = []
        for state in walk(game, 21, 30)[2:]:
            seat = state.to_act[0]
            bot = bots.make("ismcts", seed=4, iterations=30, **params)
            found.append(bot.choose(state, seat))
        return found

    assert choices("sixteen-candies") == choices("sixteen-candies", epsilon=0, anchor=0.5)
    assert choices("sixteen-candies", epsilon=0.1, anchor=0) != choices("sixteen-candies")
    assert choices("candle-quest") == choices("candle-quest", epsilon=0.1, anchor=0)


def canonical(state: State, seat: int) -> bool:
    """Whether resample(seat, s) depends only on what the seat knows (tried on a pair of twins)."""
    twin = state.resample(seat, 99)
    return state.resample(seat, 5).to_json() == twin.resample(seat, 5).to_json()


@pytest.mark.parametrize("game", candlebox.GAMES)
def test_same_choice_in_states_the_seat_cannot_tell_apart(game: str) -> None:
    states = walk(game, 11, 4, players=seats_for(game, 3))
    for state in states:
        assert canonical(state, state.to_act[0])
        seat = state.to_act[0]
        twin = state.resample(seat, 1234)
        assert bots.make("ismcts", seed=4, **FAST).choose(state, seat) == bots.make(
            "ismcts", seed=4, **FAST
        ).choose(twin, seat)


def test_same_choice_when_resample_is_canonical() -> None:
    """Candle Quest's resample depends only on the seat's knowledge (it forgets the stack's order
    before dealing it anew), so the bot's choice does too: it reads nothing else. (Every candle's
    whereabouts is public but the stack's order.) The real resample is used, not a copy of it: the
    twin's stack is in another order, and resampling the twin deals the same stack again."""
    reordered = 0
    for variant in ("basic", "advanced", "junior"):
        for state in walk("candle-quest", 7, 5, players=3, variant=variant):
            assert isinstance(state, CandleQuestState)
            seat = state.to_act[0]
            twin = state.resample(seat, 5)
            assert isinstance(twin, CandleQuestState)
            reordered += twin.stack != state.stack
            again = twin.resample(seat, 77)
            assert isinstance(again, CandleQuestState)
            assert again.stack == state.resample(seat, 77).stack  # canonical: order forgotten
            assert bots.make("ismcts", seed=6, **FAST).choose(state, seat) == bots.make(
                "ismcts", seed=6, **FAST
            ).choose(twin, seat)
    assert reordered, "the twins must differ from the real game for the test to mean anything"


# ----------------------------------------------------------------------------- rewards
def test_rewards() -> None:
    assert ismcts.rank_rewards([3.0, 9.0, 5.0]) == [0.0, 1.0, 0.5]
    assert ismcts.rank_rewards([4.0, 4.0]) == [0.5, 0.5]
    shares = ismcts.shares_of([1.0, 1.0, 1.0], 1.0)
    assert shares == pytest.approx([1 / 3] * 3)
    state = walk("candle-quest", 3, 30, variant="advanced")[-1]
    evaluate = candlebox.game_info("candle-quest").search_hooks().evaluate
    assert evaluate is not None
    standing = evaluate(state)
    assert sum(standing) == pytest.approx(1.0) and all(0 <= r <= 1 for r in standing)


# ----------------------------------------------------------------------------- simultaneous decisions
class Paper(State):
    """Rock, paper, scissors, both seats at once: the simplest game whose to_act holds two seats."""

    __slots__ = ("picks",)
    MOVES = tuple(
        MoveKind(pick, "a secret pick", redact=True) for pick in ("rock", "paper", "scissors")
    )
    BEATS = {"rock": "scissors", "paper": "rock", "scissors": "paper"}

    def __init__(self) -> None:
        super().__init__("rps", "standard", 2, 0, {})
        self.picks: dict[int, str] = {}

    @property
    def to_act(self) -> tuple[int, ...]:
        return tuple(seat for seat in (0, 1) if seat not in self.picks)

    def pending(self) -> dict[str, Any] | None:
        return {"decision": "pick", "seats": list(self.to_act)} if self.to_act else None

    def describe_pending(self) -> str:
        return "pick"

    def _legal_for(self, seat: int) -> list[str]:
        return ["rock", "paper", "scissors"] if seat in self.to_act else []

    def _do(self, seat: int, action: str) -> None:
        self.picks[seat] = action
        self.events.append(("picked", seat, action))

    @property
    def is_over(self) -> bool:
        return len(self.picks) == 2

    @property
    def truncated(self) -> bool:
        return False

    @property
    def winners(self) -> tuple[int, ...]:
        if not self.is_over or self.picks[0] == self.picks[1]:
            return (0, 1) if self.is_over else ()
        return (0,) if self.BEATS[self.picks[0]] == self.picks[1] else (1,)

    @property
    def scores(self) -> tuple[float, ...]:
        return tuple(1.0 if seat in self.winners else 0.0 for seat in (0, 1))

    def _view(self, seat: int | None) -> dict[str, Any]:
        return {"seat": seat, "mine": self.picks.get(seat) if seat is not None else None}

    def _event_view(self, event: tuple, seat: int | None) -> dict[str, Any] | None:
        # A pick stays hidden until both have picked.
        return {"event": "picked", "seat": event[1]}

    def _resample(self, seat: int, seed: int) -> State:
        twin = self.clone()
        assert isinstance(twin, Paper)
        twin.picks = {s: a for s, a in self.picks.items() if s == seat}
        return twin

    def _snapshot(self) -> dict[str, Any]:
        return {"picks": dict(self.picks)}


# The test game is a game like the real ones: one plug-in object, registered with the same call (no
# capabilities: the bots find no heuristic and no hooks, and play it with random rollouts).
PAPER = GameInfo(
    id="rps",
    title="Rock, Paper, Scissors",
    variants=(Variant("standard", 2, 2, (), "both seats pick at once"),),
    default_variant=lambda players: "standard",
    max_turns=1,
    create=lambda variant, players, seed, options: Paper(),
    capabilities=Capabilities(),
)


@pytest.fixture
def paper() -> Any:
    register(PAPER)
    try:
        yield PAPER
    finally:
        unregister(PAPER.id)


def test_the_test_game_is_registered_like_the_real_games(paper: GameInfo) -> None:
    state = candlebox.new_game("rps", players=2, seed=1)
    assert isinstance(state, Paper) and candlebox.game_info("rps") is paper
    assert paper.policy() is None and paper.search_hooks() == ismcts.SearchHooks()
    with pytest.raises(ValueError, match="no policy"):
        bots.make("heuristic", seed=1).choose(state, 0)


def test_simultaneous_choices_are_searched_without_peeking(paper: GameInfo) -> None:
    """Both seats pick at once. Searched one after another with the second conditioned on the first,
    seat 1 would always win and every pick of seat 0 would look lost; searched without peeking,
    each pick of seat 0 is worth about an even share."""
    state = candlebox.new_game("rps", players=2, seed=0)
    assert state.to_act == (0, 1)
    bot = bots.make("ismcts", seed=3, iterations=600, rollout="random")
    action = bot.choose(state, 0)
    assert action in ("rock", "paper", "scissors")
    search = ismcts._Search(bot, 0, None, None, 10, ismcts._score_standing, ismcts.EPSILON)  # type: ignore[arg-type]
    root = ismcts._Node()
    for i in range(600):
        search.iterate(root, state.resample(0, i))
    for seat in (0, 1):
        edges = root.edges[seat]
        assert set(edges) == {"rock", "paper", "scissors"}
        for visits, reward, _ in edges.values():
            assert 0.25 < reward / visits < 0.75, (seat, edges)
