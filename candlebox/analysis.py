"""Coaching from the search: hints during a game and a review of a finished one (issue 16).

    >>> import candlebox
    >>> from candlebox import analysis
    >>> game = candlebox.new_game("candle-quest", players=2, seed=3)
    >>> tip = analysis.hint(game, game.to_act[0], iterations=50)
    >>> tip.options[0].action == tip.best
    True

Both run the ISMCTS bot (candlebox/bots/ismcts.py) for one seat. It reads the real state only through
that seat's legal actions, view, log and determinizations (``State.resample``), so a hint or a review
uses nothing the seat may not know: two states the seat cannot tell apart get the same answer (with an
iteration budget and the same seed; a time budget depends on the machine's speed). Every action is
tried at least once (no progressive widening), so each gets an estimate.

A win chance is the search's mean reward for an action: the share of a win it expects the seat to get
after choosing it (1 shared by the winners of a finished game, the game's own estimate where a rollout
stops early). A review compares, at each of the seat's decisions with a choice, the win chance of the
search's preferred action (``before``) with that of the action chosen (``after``); the difference is
what the choice lost, marked like a chess site's analysis (``MARKS``) when it is more than the two
estimates' own uncertainty (``margin``) and each of the two moves was tried ``MARK_TRIES`` times: a
loss seen on a move the search barely tried is shown, not called a mistake. Each decision keeps how
many tries each chance is from (a chance from no try at all is no estimate: shown as such).
A review's search weighs only the move played and the heuristic's best others (``weighed``), the
move played to ``MARK_TRIES`` tries at least, its seconds counted in CPU time: a short search spread
over a Candelabria decision's twenty moves gave most of them too few tries to tell anything.

This module may import bots; the engine and the games never import it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from candlebox.bots.ismcts import Focus, ISMCTSBot
from candlebox.engine import Rng, State, game_info, load

__all__ = [
    "MARKS",
    "MARK_TRIES",
    "REVIEW_MOVES",
    "Decision",
    "Hint",
    "Option",
    "Review",
    "decisions_of",
    "hint",
    "margin",
    "mark",
    "review",
    "review_move",
    "weighed",
    "worst",
]

# What a decision lost, in shares of a win, for each mark: the largest that applies.
MARKS: tuple[tuple[str, float], ...] = (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))


@dataclass(frozen=True)
class Option:
    """One legal action as the search sees it: ``win`` its estimated win chance, ``visits`` how many
    of the search's iterations tried it."""

    action: str
    label: str
    win: float
    visits: int


@dataclass(frozen=True)
class Hint:
    """The seat's legal actions ranked: the search's choice first, then by visits and win chance."""

    seat: int
    best: str
    options: tuple[Option, ...]
    iterations: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _bot(
    seconds: float | None, iterations: int | None, seed: int, clock: str = "wall"
) -> ISMCTSBot:
    if seconds is None and iterations is None:
        raise ValueError("give a search budget: seconds or iterations")
    # anchor=0: a hint or review names the move the search itself tried most, the figures it shows;
    # the lean toward the heuristic's pick that a game's bot may play with (16 Candies') would
    # star a move with fewer tries and a lower chance than another
    return ISMCTSBot(
        seed=seed, seconds=seconds, iterations=iterations, widening=0, anchor=0, clock=clock
    )


def hint(
    state: State,
    seat: int,
    seconds: float | None = 1.0,
    *,
    iterations: int | None = None,
    seed: int = 0,
) -> Hint:
    """The seat's legal actions ranked by the search, within ``seconds`` and ``iterations``
    (whichever ends first; pass ``seconds=None`` and an iteration count for a reproducible hint).
    ValueError when the seat has no decision to make."""
    return _ranked(state, seat, _bot(seconds, iterations, seed))


def _ranked(state: State, seat: int, bot: ISMCTSBot, focus: Focus | None = None) -> Hint:
    """The seat's legal actions as ``bot``'s search ranks them (with ``focus``: the actions left
    out of it last, with no visits)."""
    best, stats = bot.ponder(state, seat, focus)
    options = [
        Option(action, state.label(seat, action), round(mean, 4), visits)
        for action, (visits, mean) in stats.items()
    ]
    options.sort(key=lambda o: (o.action != best, -o.visits, -o.win))
    return Hint(seat, best, tuple(options), int(bot.last.get("iterations", 0)))


def mark(loss: float, margin: float = 0.0) -> str:
    """The mark of a decision that lost ``loss`` (a share of a win): "" for none, and none for a
    loss within ``margin``, the estimates' own uncertainty (:func:`margin`)."""
    if loss <= margin:
        return ""
    for name, threshold in MARKS:
        if loss >= threshold:
            return name
    return ""


# A mark needs at least this many tries of the chosen move and of the search's: a review's search
# shares a bounded time between all the decisions of a game, and a slow game's (Candelabria's) can
# try a move twice, lose both, and would call a 75%-against-0% difference a blunder on six rollouts.
MARK_TRIES = 10


def margin(best: Option, chosen: Option | None) -> float:
    """How far apart two win chances from the search may be by chance alone: twice the standard
    error of their difference, each chance a mean of ``visits`` results between 0 and 1 (at most
    a quarter's variance, ``p(1 − p)``). A move the search barely tried has a wide margin: a
    review of it by another search (a hint's, a second review's) may see it the other way round,
    so it is not called a mistake on so little (fewer than ``MARK_TRIES`` tries: nothing)."""
    if chosen is None or min(chosen.visits, best.visits) < MARK_TRIES:
        return 1.0
    spread = sum(max(o.win * (1 - o.win), 1 / (4 * o.visits)) / o.visits for o in (best, chosen))
    return round(2 * math.sqrt(spread), 4)


@dataclass(frozen=True)
class Decision:
    """One decision of the reviewed seat: ``move`` its number in the game's history (from 1)."""

    move: int
    chosen: str
    chosen_label: str
    best: str
    best_label: str
    before: float  # the win chance of the search's preferred action
    after: float  # the win chance of the action chosen
    loss: float
    mark: str
    # how many of the search's tries each chance is from (0 with the chosen move: no estimate);
    # 0 as well in a review stored before they were kept
    best_visits: int = 0
    chosen_visits: int = 0
    # how many moves the search weighed (the one played and the heuristic's best others: at a
    # decision of many, each would get too few tries) of how many legal ones; 0 in older reviews
    weighed: int = 0
    legal: int = 0


@dataclass(frozen=True)
class Review:
    game: str
    seat: int
    decisions: tuple[Decision, ...]
    stood_in: int = 0  # the seat's decisions a bot made for its player: left out

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Review:
        """A review from :meth:`to_json`'s data (as the server stores it)."""
        decisions = tuple(Decision(**d) for d in data["decisions"])
        return cls(str(data["game"]), int(data["seat"]), decisions, int(data.get("stood_in", 0)))


def worst(result: Review, count: int = 3) -> list[Decision]:
    """The decisions that lost the most, worst first: the marked ones, or, when none is marked,
    those that lost anything at all (a game can slip away by small losses, none big enough to call
    a mistake: the review still names where)."""
    marked = [d for d in result.decisions if d.mark] or [d for d in result.decisions if d.loss > 0]
    return sorted(marked, key=lambda d: (-d.loss, d.move))[:count]


def _replayed(saved: dict[str, Any] | State, seat: int) -> tuple[State, State]:
    """The saved game checked (its final state) and a fresh start of it to replay."""
    data = saved.to_json() if isinstance(saved, State) else saved
    final = load(data)  # checks the file
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < final.num_players:
        raise ValueError(
            f"seat {seat!r} is not a seat of this {final.num_players}-player game "
            f"(seats 0–{final.num_players - 1})"
        )
    info = game_info(final.game_id)
    return final, info.create(final.variant, final.num_players, final.seed, final.options)


# The moves a review weighs at one decision: the move played and the heuristic's best others. A
# review's search is short (its bounded time shared by all of a game's decisions): spread over a
# Candelabria decision's twenty moves, its tries gave most of them too few to tell anything.
REVIEW_MOVES = 3


def weighed(state: State, seat: int, played: str, seed: int = 0) -> list[str]:
    """The moves a review weighs at ``seat``'s decision in ``state``: ``played`` and the ones the
    game's heuristic ranks best (its choice, then its choice among the rest, ...), ``REVIEW_MOVES``
    in all, in legal order; every legal move where there are no more, or no heuristic to rank
    them (or one that picks a move it was not offered). Reads only what the seat may know, as the
    heuristic does."""
    legal = state.legal_actions(seat)
    info = game_info(state.game_id)
    policy = info.policy()
    if len(legal) <= REVIEW_MOVES or policy is None or played not in legal:
        return legal
    view = info.policy_viewer()(state, seat)
    rng = Rng(seed)
    kept = {played}
    rest = [a for a in legal if a != played]
    while len(kept) < REVIEW_MOVES:
        pick = policy(view, rest, rng)
        if pick not in rest:  # a policy that strays from the actions it is given ranks nothing
            return legal
        kept.add(pick)
        rest.remove(pick)
    return [a for a in legal if a in kept]


def _decision(
    state: State,
    seat: int,
    number: int,
    action: str,
    seconds: float | None,
    iterations: int | None,
    seed: int,
) -> Decision:
    among = weighed(state, seat, action, seed)
    # the move played is tried MARK_TRIES times at least: a review is of it, and a search left
    # alone tries a move that looks bad too rarely to give it a chance in figures
    focus = Focus(frozenset(among), action, MARK_TRIES)
    # seconds of CPU: a review's budget is the computing it may take, which on a busy server
    # (other reviews, bots, anything else) is a fraction of the wall seconds; measured by the
    # wall, a review there got a few tries a decision and told nothing (docs/simulation.md)
    tip = _ranked(state, seat, _bot(seconds, iterations, seed, "cpu"), focus)
    found = {o.action: o for o in tip.options}
    chosen = found[action]
    best = _better(chosen, [found[a] for a in among if a != action])
    loss = round(max(0.0, best.win - chosen.win), 4) if best is not chosen else 0.0
    return Decision(
        number,
        action,
        state.label(seat, action),
        best.action,
        state.label(seat, best.action),
        best.win,
        chosen.win,
        loss,
        mark(loss, margin(best, chosen)),
        best.visits,
        chosen.visits,
        len(among),
        len(tip.options),
    )


def _better(chosen: Option, others: list[Option]) -> Option:
    """The search's choice at a review's decision: of the other moves weighed, the one it tried
    most, unless the move played has the higher chance. The move played was tried to a floor
    whatever the search thought of it, so its tries say nothing of the search's preference; its
    chance does."""
    if not others:
        return chosen
    rival = max(others, key=lambda o: (o.visits, o.win))
    return rival if rival.visits and rival.win > chosen.win else chosen


def decisions_of(saved: dict[str, Any] | State, seat: int) -> list[int]:
    """The move numbers (from 1) at which ``seat`` chose among several actions: what a review
    searches. ValueError for a malformed save or a seat not in the game."""
    final, state = _replayed(saved, seat)
    numbers = []
    for number, (mover, action) in enumerate(final.history, start=1):
        if mover == seat and len(state.legal_actions(seat)) > 1:
            numbers.append(number)
        state.apply_unchecked(mover, action)
    return numbers


def own_decisions(numbers: list[int], spans: list[tuple[int, int | None]]) -> list[int]:
    """Of the move numbers ``numbers``, those a seat's player made: not in a span (from, until or
    None) of moves a bot made for them. Move number m is made with m - 1 moves behind it."""
    return [
        m for m in numbers if not any(f <= m - 1 and (u is None or m - 1 < u) for f, u in spans)
    ]


def stand_ins(saved: dict[str, Any] | State, seat: int) -> list[tuple[int, int | None]]:
    """The spans of moves a bot made for ``seat``'s player, as a server's download records them
    (``stand_ins``; none in a file without it, or for a state)."""
    if isinstance(saved, State):
        return []
    spans = saved.get("stand_ins") or []
    return [(int(f), None if u is None else int(u)) for s, f, u in spans if s == seat]


def review_move(
    saved: dict[str, Any] | State,
    seat: int,
    number: int,
    seconds: float | None = 1.0,
    *,
    iterations: int | None = None,
    seed: int = 0,
) -> Decision:
    """One decision of a review (move ``number``, from :func:`decisions_of`), as :func:`review`
    gives it: a plain function of plain data, for a worker process (the server runs a review as
    one such job per decision, which is also its progress)."""
    final, state = _replayed(saved, seat)
    if not 1 <= number <= len(final.history) or final.history[number - 1][0] != seat:
        raise ValueError(f"move {number} is not a decision of seat {seat}")
    for mover, action in final.history[: number - 1]:
        state.apply_unchecked(mover, action)
    return _decision(state, seat, number, final.history[number - 1][1], seconds, iterations, seed)


def review(
    saved: dict[str, Any] | State,
    seat: int,
    seconds: float | None = 1.0,
    *,
    iterations: int | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Each decision ``seat`` made with a choice in the saved game (``State.to_json``'s form, or a
    state), searched as :func:`hint` does from that seat's knowledge at the time; the decisions a
    bot made for the seat's player (a server's download records them: ``stand_ins``) are left out,
    and counted in ``stood_in``. ``progress(done, total)`` is called after each. ValueError for a
    malformed save or a seat not in the game."""
    final, state = _replayed(saved, seat)
    every = decisions_of(final, seat)
    own = set(own_decisions(every, stand_ins(saved, seat)))
    decisions: list[Decision] = []
    for number, (mover, action) in enumerate(final.history, start=1):
        if number in own:
            decisions.append(_decision(state, seat, number, action, seconds, iterations, seed))
            if progress is not None:
                progress(len(decisions), len(own))
        state.apply_unchecked(mover, action)
    return Review(final.game_id, seat, tuple(decisions), len(every) - len(own))
