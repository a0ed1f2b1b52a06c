"""16 Candies' search hooks: what the ISMCTS bot knows of the game beyond the engine contract.

``SEARCH_HOOKS`` (a :class:`candlebox.engine.plugin.SearchHooks`): the searching seat's own rollout
policy (``search_policy``: calling later, which pays against the heuristic policy), rollouts judged at
the end of the round by the chance of winning from the pools (``standing``, ``horizon``), and a model of
rivals playing the heuristic policy (``observe`` what they did this round in the seat's own log;
``plausibility`` of a determinization under it).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from candlebox.engine import Rng, State
from candlebox.engine.plugin import SearchHooks
from candlebox.games.sixteen_candies import save
from candlebox.games.sixteen_candies.cards import Tables
from candlebox.games.sixteen_candies.decision import Phase
from candlebox.games.sixteen_candies.heuristic import (
    INSTANT,
    Faces,
    call_need,
    faces_in,
    faces_of,
    own_seat,
    policy,
    state_players,
    state_policy,
    state_value,
)
from candlebox.games.sixteen_candies.state import SixteenCandiesState
from candlebox.games.sixteen_candies.view import turns_in_round
from candlebox.games.sixteen_candies.views import SixteenCandiesView, ValuedSeat
from candlebox.games.sixteen_candies.wild import hand_penalty, hand_value

# ----------------------------------------------------------------------------- the searcher's own play
# Against this policy it pays to let it call first: a non-caller never pays more than its penalty and
# sees the caller's hand bounded below. Measured, one seat playing search_policy against this policy,
# 3,000 seeded 2-player games each: calling at the need + 1, + 2, + 4: 58%, 64%, 67%; with the
# least penalty when beaten as below: + 2: 67%, + 4: 70%.
LATER = 4


def search_policy(view: SixteenCandiesView, actions: list[str], rng: Rng) -> str:
    """The ISMCTS bot's own rollout policy (its rivals are modelled by ``policy``): this policy, but
    calling LATER hand values later, and in a final turn against a caller whose hand it cannot beat
    (the caller called, so its hand was at least ``call_need`` then) turning its cards for the
    least penalty."""
    pending = view.pending
    assert pending is not None, "a policy is asked only while the game goes on"
    decision = pending.decision
    if decision == "call":
        me = own_seat(view)
        assert isinstance(me, ValuedSeat), "a hand of three cards is called on"
        players = sum(1 for p in view.seats if not p.out)
        need = call_need(players, view.turn_in_round) + LATER
        return "call" if me.value >= need else "end"
    if decision == "rotate" and view.caller is not None:
        faces = faces_in(view)
        best = faces.best_orientation(tuple(actions))
        if faces.shown(best.split(" ")[1:])[0] < caller_bound(view):
            return _least_penalty(faces, tuple(actions))
        return best
    return policy(view, actions, rng)


def own_state_policy(state: State, seat: int, actions: list[str], rng: Rng) -> str:
    """``search_policy`` for ``seat`` read straight from the state: the same choice, no view built."""
    assert isinstance(state, SixteenCandiesState)
    phase = state.phase
    if phase is Phase.CALL:
        need = call_need(state_players(state), turns_in_round(state)) + LATER
        return "call" if state_value(state, seat) >= need else "end"
    if phase is Phase.ROTATE and state.caller >= 0:
        faces = faces_of(state.content)
        best = faces.best_orientation(tuple(actions))
        players = state_players(state)
        bound = _bound(players, len(state.queue), turns_in_round(state))
        if faces.shown(best.split(" ")[1:])[0] < bound:
            return _least_penalty(faces, tuple(actions))
        return best
    return state_policy(state, seat, actions, rng)


def caller_bound(view: SixteenCandiesView) -> int:
    """The least hand value the caller of this round called with, if it plays like ``policy``."""
    players = sum(1 for p in view.seats if not p.out)
    return _bound(players, len(view.final_turns), view.turn_in_round)


def _bound(players: int, finals_left: int, turn_in_round: int) -> int:
    finals_done = players - 2 - finals_left  # before this seat's (the current) turn
    return call_need(players, turn_in_round - finals_done - 1)


@lru_cache(maxsize=1 << 14)
def _least_penalty(faces: Faces, actions: tuple[str, ...]) -> str:
    def cost(action: str) -> tuple[int, int]:
        value, penalty = faces.shown(action.split(" ")[1:])
        return penalty, -value

    return min(actions, key=cost)


# ----------------------------------------------------------------------------- search hooks
# What the ISMCTS bot (candlebox/bots/ismcts.py, through these SearchHooks) knows of this game beyond the engine
# contract: how a round's result stands for winning the game, and what the rivals' choices this round
# say about their hands when they play like this policy.

# Pool changes (seat, rival) of a 2-player round between two of these heuristic players: 600 seeded
# games, 3,187 rounds, both seats' views counted. Payments cut short by an emptied pool are left out
# (they end the game anyway). The chance of winning from given pools follows from them (win_chance).
ROUND_OUTCOMES: dict[tuple[int, int], int] = {
    (2, -5): 647,
    (-6, 0): 604,
    (2, -6): 535,
    (2, -4): 418,
    (-3, 2): 285,
    (0, -5): 211,
    (0, -4): 120,
    (-7, 0): 83,
    (-7, 2): 69,
}
_POOL_LIMIT = 64  # pools above this are judged as this


@lru_cache(maxsize=1)
def _win_table() -> dict[tuple[int, int], float]:
    """P(the first wins) from pools (a, b), a two-player game of these rounds played out. Every round
    takes at least one candy from the table, so pools are solved in order of their sum."""
    outcomes: dict[tuple[int, int], int] = {}
    for (mine, theirs), count in ROUND_OUTCOMES.items():
        outcomes[mine, theirs] = outcomes.get((mine, theirs), 0) + count
        outcomes[theirs, mine] = outcomes.get((theirs, mine), 0) + count
    total = sum(outcomes.values())
    steps = [(mine, theirs, count / total) for (mine, theirs), count in outcomes.items()]
    table: dict[tuple[int, int], float] = {}
    top = _POOL_LIMIT
    for pools in range(2, 2 * top + 1):
        for a in range(max(1, pools - top), min(top, pools - 1) + 1):
            b = pools - a
            chance = 0.0
            for mine, theirs, p in steps:
                x, y = min(a + mine, top), min(b + theirs, top)
                if y <= 0:
                    chance += p * (1.0 if x > 0 else 0.5)
                elif x > 0:
                    chance += p * table[x, y]
            table[a, b] = chance
    return table


def win_chance(mine: float, theirs: float) -> float:
    """The chance that a player with ``mine`` candies beats one with ``theirs`` (two players)."""
    if theirs <= 0 or mine <= 0:
        return 0.5 if mine == theirs else float(mine > theirs)
    top = _POOL_LIMIT
    return _win_table()[min(int(mine), top), min(int(theirs), top)]


def standing(state: State) -> list[float]:
    """Each seat's chance of winning from the pools (between rounds). With more than two players
    a seat's chance is the product of its two-player chances against each rival, normalised."""
    pools = state.scores
    n = len(pools)
    chances = [
        0.0
        if pools[i] <= 0
        else math.prod(win_chance(pools[i], pools[j]) for j in range(n) if j != i and pools[j] > 0)
        for i in range(n)
    ]
    total = sum(chances)
    return [c / total for c in chances] if total else [1.0 / n] * n


def horizon(state: State) -> tuple[float, ...]:
    """A rollout is judged once this changes: the pools change at the end of every round."""
    return state.scores


# A rival's choice this policy would not have made is kept as a determinization this often.
UNLIKELY = 0.05


@dataclass(frozen=True)
class Rival:
    """What one rival's last turn of this round showed (from the observer's log)."""

    seat: int
    below: int | None = None  # did not call: its hand's value is below this
    called: bool = False  # called: its hand is at least ``at_least`` and turned its best way
    at_least: int = 0
    discarded: str | None = None  # kept three cards over this one


def observe(state: State, seat: int) -> tuple[Rival, ...]:
    """The rivals' last turns this round, read only through the seat's own log and view."""
    log = state.log(seat)
    start = max((i for i, e in enumerate(log) if e["event"] == "round"), default=0)
    view = state.typed_view(seat)
    players = sum(1 for p in view.seats if not p.out)
    turns = 0
    called = False
    discarded: dict[int, str] = {}
    found: dict[int, Rival] = {}
    for entry in log[start:]:
        kind = entry["event"]
        if kind in ("draw", "skip"):
            discarded.pop(entry["seat"], None)
        elif kind == "discard":
            discarded[entry["seat"]] = entry["card"]
        elif kind == "call":
            called = True
            if entry["seat"] != seat:
                need = call_need(players, turns)
                found[entry["seat"]] = Rival(
                    entry["seat"],
                    called=True,
                    at_least=need,
                    discarded=discarded.get(entry["seat"]),
                )
        elif kind == "end-turn":
            who = entry["seat"]
            if who != seat and not (called and who in found and found[who].called):
                # A turn without a call (a final turn has no call step: no bound).
                below = None if called else call_need(players, turns)
                found[who] = Rival(who, below=below, discarded=discarded.get(who))
            turns += 1
    return tuple(found.values())


@lru_cache(maxsize=1 << 14)
def best_shown(faces: Faces, cards: tuple[str, ...]) -> tuple[int, int]:
    """(value, penalty) of the (sorted) cards turned as this policy turns them."""
    tops = [faces.halves_of[code] for code in cards]
    best = (-1, 0)
    for choice in product(*(dict.fromkeys(t) for t in tops)):
        value, penalty = faces.shown(list(choice))
        if (value, -penalty) > (best[0], -best[1]):
            best = (value, penalty)
    return best


def plausibility(world: State, seat: int, rivals: tuple[Rival, ...]) -> float:
    """How likely the rivals' observed choices are in this determinization if they play like this
    policy: 1 when each would have made them, UNLIKELY for each choice it would not have. It reads
    each rival's hand straight from the determinization (what ``typed_view(rival)`` would show)."""
    assert isinstance(world, SixteenCandiesState)
    deck = world.content
    faces = faces_of(deck)
    best_value = faces.best_value
    weight = 1.0
    for rival in rivals:
        types = world.hands[rival.seat]
        if len(types) != 3:  # not three cards
            continue
        hand = [deck.code[card] for card in types]
        value = best_value(hand)
        # This policy would have turned up an instant win, called with this hand when the rival
        # did not, or not called with it when it did; and a caller's cards stay turned its best
        # way (resample turns them at random; ``orient`` turns them back).
        if (
            value >= INSTANT
            or (rival.below is not None and value >= rival.below)
            or (
                rival.called
                and (
                    value < rival.at_least
                    or _shown_of(deck, tuple(types), tuple(world.ups[rival.seat]))
                    != best_shown(faces, tuple(sorted(hand)))
                )
            )
        ):
            weight *= UNLIKELY
        if rival.discarded is not None:
            for i in range(3):
                if best_value([*hand[:i], *hand[i + 1 :], rival.discarded]) > value:
                    weight *= UNLIKELY
                    break
    return weight


@lru_cache(maxsize=1 << 14)
def _shown_of(deck: Tables, types: tuple[int, ...], ups: tuple[int, ...]) -> tuple[int, int]:
    """(value, penalty) of cards turned so, as the holder's view shows them (``ValuedSeat``)."""
    halves = [2 * card + up for card, up in zip(types, ups, strict=True)]
    return hand_value(deck, halves)[0], hand_penalty(deck, halves)


@lru_cache(maxsize=1 << 14)
def _best_ups(faces: Faces, types: tuple[int, ...]) -> tuple[int, ...] | None:
    """How this policy turns these cards (the first of the best ways), or None when the best way
    shows an instant win (the model then rules the hand out anyway)."""
    wild, half_code = faces.deck.wild, faces.deck.half_code
    choices = [(0,) if card == wild else (0, 1) for card in types]
    best: tuple[int, ...] | None = None
    best_key = (-1, 0)
    for ups in product(*choices):
        value, penalty = faces.shown(
            [half_code[2 * card + up] for card, up in zip(types, ups, strict=True)]
        )
        if (value, -penalty) > best_key:
            best, best_key = ups, (value, -penalty)
    return None if best_key[0] >= INSTANT else best


def orient(world: State, seat: int, rivals: tuple[Rival, ...]) -> None:
    """A caller's cards turned this policy's best way in a fresh determinization, as the rival model
    says they are (resample turns them at random; rejecting deals until chance turns them right
    cost most of the search's time). The best way shows no instant win, so the deal stays a
    possible one."""
    assert isinstance(world, SixteenCandiesState)
    for rival in rivals:
        if not rival.called:
            continue
        types = world.hands[rival.seat]
        if len(types) != 3:
            continue
        ups = _best_ups(faces_of(world.content), tuple(types))
        if ups is not None:
            world.ups[rival.seat] = list(ups)


def redeal(world: State, seat: int, seed: int) -> None:
    """A determinization dealt anew in place, exactly as a fresh ``resample(seat, seed)`` (save.py)."""
    assert isinstance(world, SixteenCandiesState)
    save.redeal(world, seat, seed)
    world._forget_legal()  # the rivals' hands changed: a kept list of legal actions is stale


SEARCH_HOOKS = SearchHooks(
    policy=search_policy,
    # Measured (docs/simulation.md, Strength): rollouts exactly as the policies play, and the
    # policy's choice kept unless the search clearly prefers another.
    defaults={"epsilon": 0.0, "anchor": 0.5},
    evaluate=standing,
    horizon=horizon,
    observe=observe,
    plausibility=plausibility,
    orient=orient,
    redeal=redeal,
    state_policy=state_policy,
    own_state_policy=own_state_policy,
)
