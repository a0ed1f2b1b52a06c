"""Hints and reviews (candlebox/analysis.py): from what the seat may know only, and reproducible."""

from __future__ import annotations

import random

import pytest

import candlebox
from candlebox import analysis
from candlebox.bots import ismcts
from candlebox.bots.ismcts import Focus, ISMCTSBot
from candlebox.engine import Rng, State


def _midgame(game: str, players: int, seed: int, steps: int) -> State:
    state = candlebox.new_game(game, players=players, seed=seed)
    pick = random.Random(seed)
    for _ in range(steps):
        seat = state.to_act[0]
        state.apply(seat, pick.choice(state.legal_actions(seat)))
    while len(state.legal_actions(state.to_act[0])) < 2:
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[0])
    return state


@pytest.mark.parametrize(
    ("game", "players", "steps"), [("sixteen-candies", 3, 9), ("candle-quest", 3, 14)]
)
def test_hint_is_the_same_on_states_the_seat_cannot_tell_apart(
    game: str, players: int, steps: int
) -> None:
    state = _midgame(game, players, 4, steps)
    seat = state.to_act[0]
    twins = [state.resample(seat, 11), state.resample(seat, 12)]
    # The twins differ in what the seat cannot see (others' cards or the draw order)...
    assert any(twin.to_json()["state"] != state.to_json()["state"] for twin in twins)
    # ...and look the same from the seat.
    assert all(twin.view(seat) == state.view(seat) for twin in twins)
    tip = analysis.hint(state, seat, None, iterations=60, seed=5)
    assert all(analysis.hint(twin, seat, None, iterations=60, seed=5) == tip for twin in twins)
    assert sorted(o.action for o in tip.options) == sorted(state.legal_actions(seat))
    assert tip.options[0].action == tip.best
    assert all(0.0 <= o.win <= 1.0 and o.visits >= 1 for o in tip.options)
    assert sum(o.visits for o in tip.options) == 60
    assert tip.options[0].label == state.label(seat, tip.best)


@pytest.mark.parametrize("game", ["candle-quest", "sixteen-candies"])
def test_review_of_the_search_own_choices_marks_nothing(game: str) -> None:
    state = candlebox.new_game(game, players=2, seed=8, max_turns=8)
    rival = candlebox.game_info(game).policy()
    assert rival is not None
    while not state.is_over:
        seat = state.to_act[0]
        actions = state.legal_actions(seat)
        if seat == 0 and len(actions) > 1:
            action = analysis.hint(state, 0, None, iterations=25, seed=3).best
        else:
            action = rival(state.typed_view(seat), actions, Rng(1))
        state.apply(seat, action)
    seen: list[tuple[int, int]] = []
    result = analysis.review(
        state.to_json(), 0, None, iterations=25, seed=3, progress=lambda d, t: seen.append((d, t))
    )
    assert result.decisions, "the seat had decisions to review"
    # the review weighs the move played against others, each to enough tries to tell: none of
    # the search's own choices is called a mistake (losses within what the tries can tell)
    assert not [d for d in result.decisions if d.mark]
    assert seen and seen[-1][0] == seen[-1][1]  # progress reached the end
    # The same game reviewed for the other seat (the heuristic's choices) finds some to question.
    other = analysis.review(state.to_json(), 1, None, iterations=25, seed=3)
    assert any(d.chosen != d.best for d in other.decisions)


def test_review_marks_a_losing_choice_and_rejects_bad_input() -> None:
    assert analysis.mark(0.25) == "blunder"
    assert analysis.mark(0.12) == "mistake"
    assert analysis.mark(0.06) == "inaccuracy"
    assert analysis.mark(0.01) == ""
    state = candlebox.new_game("candle-quest", players=2, seed=1)
    with pytest.raises(ValueError, match="seat 5 is not a seat"):
        analysis.review(state.to_json(), 5, None, iterations=5)
    with pytest.raises(ValueError, match="'game' field"):
        analysis.review({"history": []}, 0, None, iterations=5)
    with pytest.raises(ValueError, match="search budget"):
        analysis.hint(state, 0, None)


def test_a_review_is_its_decisions_reviewed_one_by_one() -> None:
    state = candlebox.new_game("candle-quest", players=2, seed=2, max_turns=4)
    pick = random.Random(2)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, pick.choice(state.legal_actions(seat)))
    whole = analysis.review(state.to_json(), 1, None, iterations=15, seed=1)
    numbers = analysis.decisions_of(state.to_json(), 1)
    assert [d.move for d in whole.decisions] == numbers
    one_by_one = [
        analysis.review_move(state.to_json(), 1, n, None, iterations=15, seed=1) for n in numbers
    ]
    assert list(whole.decisions) == one_by_one
    with pytest.raises(ValueError, match="not a decision of seat 1"):
        analysis.review_move(state.to_json(), 1, 10_000, None, iterations=5)


def test_a_review_leaves_out_the_moves_a_bot_made_for_the_player() -> None:
    """A server's file records when a bot played a seat for its player (``stand_ins``); a review
    of the file covers the player's own decisions only and counts the others."""
    state = candlebox.new_game("candle-quest", players=2, seed=2, max_turns=4)
    pick = random.Random(2)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, pick.choice(state.legal_actions(seat)))
    numbers = analysis.decisions_of(state.to_json(), 1)
    cut = numbers[len(numbers) // 2] - 1  # a bot for seat 1 from this many moves on
    saved = {**state.to_json(), "stand_ins": [[1, cut, None], [0, 0, None]]}
    assert candlebox.load(saved) == state  # the record does not change the game
    result = analysis.review(saved, 1, None, iterations=5, seed=1)
    assert [d.move for d in result.decisions] == [m for m in numbers if m - 1 < cut]
    assert result.stood_in == len(numbers) - len(result.decisions) > 0
    assert analysis.Review.from_json(result.to_json()) == result
    back = {**saved, "stand_ins": [[1, 0, numbers[0]]]}  # a span with an end: taken back then
    assert [d.move for d in analysis.review(back, 1, None, iterations=5).decisions] == numbers[1:]
    with pytest.raises(ValueError, match="stand_ins"):
        analysis.review({**saved, "stand_ins": [["one", 0, None]]}, 1, None, iterations=5)


def test_the_worst_decisions_are_the_marked_ones_or_else_those_that_lost_anything() -> None:
    """A game lost by small slips, none big enough to mark, still has its costliest decisions named."""

    def decision(move: int, loss: float) -> analysis.Decision:
        return analysis.Decision(
            move, "pass", "Pass", "flip", "Flip", 0.5, 0.5 - loss, loss, analysis.mark(loss)
        )

    slips = analysis.Review("candle-quest", 0, tuple(decision(m, x) for m, x in
                            [(1, 0.0), (3, 0.03), (5, 0.04), (7, 0.01), (9, 0.02)]))  # fmt: skip
    assert [d.move for d in analysis.worst(slips)] == [5, 3, 9]
    marked = analysis.Review("candle-quest", 0, (*slips.decisions, decision(11, 0.3)))
    assert [d.move for d in analysis.worst(marked)] == [11]
    clean = analysis.Review("candle-quest", 0, (decision(1, 0.0),))
    assert analysis.worst(clean) == []
    # as stored by the server and read back for its answer
    assert analysis.Review.from_json(marked.to_json()) == marked


@pytest.mark.parametrize("game", candlebox.game_ids())
def test_the_hint_s_best_move_is_the_one_the_search_tried_most(game: str) -> None:
    """What a hint calls best agrees with the numbers it shows: the most-tried move (the search's
    own choice without the lean toward the heuristic's pick that 16 Candies' bot plays with, which
    made a hint star a move tried 1,040 times above one tried 1,546)."""
    for seed in range(3):
        state = _midgame(game, 2, seed, 6 + 5 * seed)
        seat = state.to_act[0]
        tip = analysis.hint(state, seat, None, iterations=150, seed=seed)
        assert tip.options[0].action == tip.best
        assert tip.options[0].visits == max(o.visits for o in tip.options), (game, seed, tip)


def test_a_loss_within_the_estimates_uncertainty_is_not_marked() -> None:
    """A playtester played a hint's best move, and the review (another search) called it a mistake:
    34% against 23%, on a move that search had tried a few dozen times. A loss is marked only when
    it is beyond twice the standard error of the two chances."""
    best = analysis.Option("a", "A", 0.34, 400)
    barely = analysis.Option("b", "B", 0.23, 30)
    often = analysis.Option("b", "B", 0.23, 400)
    loss = 0.11
    assert analysis.mark(loss) == "mistake"  # by the loss alone
    assert analysis.margin(best, barely) > loss  # 30 tries: within chance
    assert analysis.mark(loss, analysis.margin(best, barely)) == ""
    assert analysis.margin(best, often) < loss  # 400 tries each: beyond it
    assert analysis.mark(loss, analysis.margin(best, often)) == "mistake"
    assert analysis.margin(best, None) == 1.0  # never tried: nothing to go on
    # a decided position (every try won or lost) still has a margin from its few tries
    assert (
        analysis.margin(analysis.Option("a", "A", 1.0, 4), analysis.Option("b", "B", 0.0, 4)) > 0.3
    )


def test_a_handful_of_tries_marks_nothing() -> None:
    """Issue 36: a Candelabria review (an 18 s search shared by 76 decisions, a few tries each)
    called a move a blunder at 0% in a game the player won 63–51: 2 tries of the chosen move, both
    lost, against 4 of the search's choice (3 won). Two rollouts say nothing of a chance; a mark
    needs ``MARK_TRIES`` tries of each move."""
    best = analysis.Option("a", "A", 0.75, 4)
    chosen = analysis.Option("b", "B", 0.0, 2)
    assert analysis.mark(0.75, analysis.margin(best, chosen)) == ""
    decided = analysis.Option("a", "A", 1.0, analysis.MARK_TRIES - 1)
    lost = analysis.Option("b", "B", 0.0, analysis.MARK_TRIES)
    assert analysis.mark(1.0, analysis.margin(decided, lost)) == ""
    enough = analysis.Option("a", "A", 1.0, analysis.MARK_TRIES)
    assert analysis.mark(1.0, analysis.margin(enough, lost)) == "blunder"


def test_a_decision_says_how_many_tries_each_chance_is_from() -> None:
    """The review shows a chance with its tries: "0%" from no try at all is no estimate. The
    tries are those of the review's search: the moves it weighed, the one played among them."""
    state = _midgame("candle-quest", 2, 4, 10)
    seat = state.to_act[0]
    chosen = analysis.hint(state, seat, None, iterations=40, seed=3).options[-1].action
    among = analysis.weighed(state, seat, chosen, seed=3)
    focus = Focus(frozenset(among), chosen, analysis.MARK_TRIES)
    bot = ISMCTSBot(seed=3, iterations=40, widening=0, anchor=0, clock="cpu")
    _, stats = bot.ponder(state, seat, focus)
    legal = len(state.legal_actions(seat))
    state.apply(seat, chosen)
    decision = analysis.review_move(
        state.to_json(), seat, len(state.history), None, iterations=40, seed=3
    )
    assert decision.chosen in among and decision.best in among
    assert (decision.best_visits, decision.chosen_visits) == (
        stats[decision.best][0],
        stats[chosen][0],
    )
    assert (decision.weighed, decision.legal) == (len(among), legal)


def _random_against_the_heuristic(game: str, seed: int, **options: object) -> State:
    """A finished game of seat 0 playing at random (a newcomer) against the heuristic."""
    state = candlebox.new_game(game, players=2, seed=seed, **options)
    rival = candlebox.game_info(game).policy()
    assert rival is not None
    pick = random.Random(seed)
    while not state.is_over:
        seat = state.to_act[0]
        actions = state.legal_actions(seat)
        if seat == 0:
            state.apply(seat, pick.choice(actions))
        else:
            state.apply(seat, rival(state.typed_view(seat), actions, Rng(seed)))
    return state


def test_a_candelabria_review_gives_a_chance_at_most_decisions() -> None:
    """A Candelabria decision offers up to fifty moves; a review's search shared by all of a
    game's decisions tried each of them a few times (30 tries a decision, about what the server's
    budget gives one: most moves 1-3 tries), so most chances were "too few tries to tell". It
    weighs the move played against the heuristic's best two, the move played MARK_TRIES times at
    least: both chances of nearly every decision are figures."""
    state = _random_against_the_heuristic("candelabria", 7, max_turns=8)
    result = analysis.review(state.to_json(), 0, None, iterations=30, seed=7)
    few = analysis.MARK_TRIES
    told = [
        d
        for d in result.decisions
        if d.best_visits >= few and (d.chosen == d.best or d.chosen_visits >= few)
    ]
    assert len(result.decisions) >= 10
    assert len(told) >= 0.8 * len(result.decisions), [
        (d.move, d.best_visits, d.chosen_visits) for d in result.decisions
    ]
    assert all(
        d.weighed <= analysis.REVIEW_MOVES < d.legal for d in result.decisions if d.legal > 3
    )


def test_a_review_s_search_is_counted_in_cpu_seconds(monkeypatch: pytest.MonkeyPatch) -> None:
    """A review's seconds are CPU seconds (its budget is the computing it may take): on a machine
    busy with others, where a search waits more than it runs, it still gets its tries. Measured
    by the wall, a review on the busy development machine got a tenth of its budget's computing.
    It still ends by the wall at ``CPU_WALL_CEILING`` times its budget, so a starved review frees
    its slot. The clocks are the test's: each try takes 10 ms of the wall and ``share`` of it in
    CPU."""
    state = _midgame("candle-quest", 2, 4, 10)
    seat = state.to_act[0]
    searched = ismcts._Search.iterate
    clock = {"wall": 0.0, "cpu": 0.0, "share": 0.1}

    def waiting(search: ismcts._Search, root: ismcts._Node, world: State) -> None:
        # another process has the core the rest of the time
        clock["wall"] += 0.01
        clock["cpu"] += 0.01 * clock["share"]
        searched(search, root, world)

    class Clocks:
        @staticmethod
        def perf_counter() -> float:
            return clock["wall"]

        @staticmethod
        def thread_time() -> float:
            return clock["cpu"]

    monkeypatch.setattr(ismcts._Search, "iterate", waiting)
    monkeypatch.setattr(ismcts, "time", Clocks)
    tries = {}
    for kind, share in (("wall", 0.1), ("cpu", 0.1), ("cpu", 0.5)):
        clock["share"] = share
        bot = ISMCTSBot(seed=1, seconds=0.05, widening=0, anchor=0, clock=kind)
        bot.ponder(state, seat)
        tries[kind, share] = bot.last["iterations"]
    # by the wall: its 50 ms; by the CPU at a tenth of a core: 50 ms of CPU would take 500 ms of
    # the wall, past the ceiling (4 x 50 ms); at half a core, 100 ms: within it, every CPU ms had
    assert ismcts.CPU_WALL_CEILING == 4.0
    assert tries == {("wall", 0.1): 5, ("cpu", 0.1): 20, ("cpu", 0.5): 10}, tries
