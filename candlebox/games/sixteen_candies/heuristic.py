"""A rule-of-thumb 16 Candies player.

It keeps the three cards that show the most of one candy, turning each card so its best half is on top
(fewest penalty candies among equals, and always an Instant Round Win when the cards allow it). It takes
the discard pile's top card when that beats what the draw pile would bring on average (over the cards it
has not seen), and calls "I've got candy!" when its hand is strong for the number of opponents and the
time the round has run. It reads nothing but its own view and the game's public facts. Its hand
judgement is cached on card codes (it is the ISMCTS bot's rollout policy, called millions of times).

``SEARCH_HOOKS`` is what the ISMCTS bot knows of 16 Candies beyond the engine contract (see
``candlebox.bots.ismcts.SearchHooks``): its own rollout policy (``search_policy``: calling later, which
pays against this policy), rollouts judged at the end of the round by the chance of winning from the
pools (``standing``, ``horizon``), and a model of rivals playing this policy (``observe`` what they did
this round in the seat's own log; ``plausibility`` of a determinization under it).
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from itertools import product
from typing import Any

import candlebox
from candlebox.bots.ismcts import SearchHooks
from candlebox.engine import Rng, State

_FACTS = candlebox.game_info("sixteen-candies").facts
CANDIES: list[str] = list(_FACTS["candies"])
CARDS: dict[str, dict[str, Any]] = _FACTS["cards"]
WILD: str = _FACTS["wild"]["code"]
BOX: Counter = Counter({code: info["copies"] for code, info in CARDS.items()})
# Each half code: (candy or None for the Wild, count, penalty).
HALF: dict[str, tuple[str | None, int, int]] = {
    h["code"]: (h["candy"], h["count"], h["penalty"]) for c in CARDS.values() for h in c["halves"]
}
INSTANT = 100  # the worth of a hand that wins the round at once


def _contributions(code: str) -> tuple[int, ...]:
    """The most of each candy the card can show (a Wild: three of any)."""
    info = CARDS[code]
    if info["wild"]:
        return tuple(_FACTS["wild"]["count"] for _ in CANDIES)
    best = dict.fromkeys(CANDIES, 0)
    for half in info["halves"]:
        best[half["candy"]] = max(best[half["candy"]], half["count"])
    return tuple(best[c] for c in CANDIES)


CONTRIB: dict[str, tuple[int, ...]] = {code: _contributions(code) for code in CARDS}
# Which (candy, count) halves a card holds, for spotting 4-5-6.
HOLDS: dict[str, set[tuple[str, int]]] = {
    code: {(h["candy"], h["count"]) for h in info["halves"] if h["candy"]}
    for code, info in CARDS.items()
}


def best_value(cards: list[str] | tuple[str, ...]) -> int:
    """The best hand three of these cards can show (an instant win counts as INSTANT); cached."""
    return _best_value_sorted(tuple(sorted(cards)))


@lru_cache(maxsize=1 << 17)
def _best_value_sorted(cards: tuple[str, ...]) -> int:
    return evaluate_hand(cards)


def evaluate_hand(cards: list[str] | tuple[str, ...]) -> int:
    """``best_value`` computed afresh (no cache): the reference the cache is tested against."""
    best = 0
    for i, candy in enumerate(CANDIES):
        counts = sorted((CONTRIB[c][i] for c in cards), reverse=True)
        best = max(best, sum(counts[:3]))
        holders = [
            {c for c in range(len(cards)) if (candy, n) in HOLDS[cards[c]]} for n in (4, 5, 6)
        ]
        if all(holders) and _distinct(holders):
            return INSTANT
    return best


@lru_cache(maxsize=1 << 14)
def with_each(hand: tuple[str, ...]) -> dict[str, int]:
    """``best_value`` of the (sorted) hand with each card of the box added: the draw's outcomes."""
    return {code: best_value((*hand, code)) for code in CARDS}


def _distinct(holders: list[set[int]]) -> bool:
    """Three different cards, one for each set."""
    return any(
        a != b and b != c and a != c for a in holders[0] for b in holders[1] for c in holders[2]
    )


def shown(tops: list[str]) -> tuple[int, int]:
    """(value, penalty) of the given top halves; a 4-5-6 of one candy is worth INSTANT."""
    totals: Counter = Counter()
    wild = penalty = 0
    for top in tops:
        candy, count, cost = HALF[top]
        penalty += cost
        if candy is None:
            wild += count
        else:
            totals[candy] += count
    if len(totals) == 1 and wild == 0 and sorted(HALF[t][1] for t in tops) == [4, 5, 6]:
        return INSTANT, penalty
    return max(totals.values(), default=0) + wild, penalty


def unseen(view: dict[str, Any], hand: list[str]) -> list[str]:
    """Cards the seat has not seen: neither in its hand, the discard pile nor known in a hand."""
    left = _unseen_counts(view, hand)
    return [code for code, k in left.items() for _ in range(max(k, 0))]


def _unseen_counts(view: dict[str, Any], hand: list[str]) -> Counter:
    left = Counter(BOX)
    left.subtract(hand)
    left.subtract(view["discard_pile"])
    for player in view["seats"]:
        if player["seat"] != view["seat"]:
            left.subtract(player["known"])
    return left


def policy(view: dict[str, Any], actions: list[str], rng: Rng) -> str:
    me = view["seats"][view["seat"]]
    hand = [card["card"] for card in me["hand"]]
    decision = view["pending"]["decision"]
    if decision in ("orient", "rotate"):
        return _orient(actions)
    if decision == "draw":
        return _draw(view, actions, hand)
    if decision == "discard":
        return _discard(actions, hand)
    if decision == "call":
        return _call(view, me)
    return actions[rng.below(len(actions))]  # pragma: no cover - every decision is handled above


def _orient(actions: list[str]) -> str:
    return _best_orientation(tuple(actions))


@lru_cache(maxsize=1 << 15)
def _best_orientation(actions: tuple[str, ...]) -> str:
    def worth(action: str) -> tuple[int, int]:
        value, penalty = shown(action.split(" ")[1:])
        return value, -penalty

    return max(actions, key=worth)


def _draw(view: dict[str, Any], actions: list[str], hand: list[str]) -> str:
    if "draw discard" not in actions:
        return actions[0]
    now = best_value(hand)
    outcomes = with_each(tuple(sorted(hand)))
    taken = outcomes[view["discard_pile"][-1]]
    if "draw pile" not in actions:
        return "draw discard" if taken > now or "skip" not in actions else "skip"
    # The mean over the unseen cards of the hand each would make (whole numbers: summed exactly).
    total = count = 0
    for code, k in _unseen_counts(view, hand).items():
        if k > 0:
            total += outcomes[code] * k
            count += k
    expected = total / count if count else now
    if taken >= INSTANT or taken > expected + 0.5:
        return "draw discard"
    return "draw pile"


def _discard(actions: list[str], hand: list[str]) -> str:
    return _best_discard(tuple(actions), tuple(hand))


@lru_cache(maxsize=1 << 15)
def _best_discard(actions: tuple[str, ...], hand: tuple[str, ...]) -> str:
    def worth(action: str) -> tuple[int, int]:
        card = action.split(" ", 1)[1]
        rest = list(hand)
        rest.remove(card)
        # Keep the strongest three; among equals throw away the card with the least potential.
        return best_value(rest), -max(CONTRIB[card])

    return max(actions, key=worth)


def _call(view: dict[str, Any], me: dict[str, Any]) -> str:
    players = sum(1 for p in view["seats"] if not p["out"])
    return "call" if me["value"] >= call_need(players, view.get("turn_in_round", 0)) else "end"


def call_need(players: int, turns_in_round: int) -> int:
    """The hand value this policy calls with, ``players`` still in and that many turns of the round
    over: 12 against one rival at first, one less after each round of turns, at most three less."""
    opponents = players - 1
    waited = turns_in_round // max(1, players)  # rounds of turns so far
    return 11 + opponents - min(waited, 3)


# ----------------------------------------------------------------------------- the searcher's own play
# Against this policy it pays to let it call first: a non-caller never pays more than its penalty and
# sees the caller's hand bounded below. Measured, one seat playing search_policy against this policy,
# 3,000 seeded 2-player games each: calling at the need + 1, + 2, + 4: 58%, 64%, 67%; with the
# least penalty when beaten as below: + 2: 67%, + 4: 70%.
LATER = 4


def search_policy(view: dict[str, Any], actions: list[str], rng: Rng) -> str:
    """The ISMCTS bot's own rollout policy (its rivals are modelled by ``policy``): this policy, but
    calling LATER hand values later, and in a final turn against a caller whose hand it cannot beat
    (the caller called, so its hand was at least ``call_need`` then) turning its cards for the
    least penalty."""
    decision = view["pending"]["decision"]
    if decision == "call":
        me = view["seats"][view["seat"]]
        players = sum(1 for p in view["seats"] if not p["out"])
        need = call_need(players, view.get("turn_in_round", 0)) + LATER
        return "call" if me["value"] >= need else "end"
    if decision == "rotate" and view["caller"] is not None:
        best = _orient(actions)
        if shown(best.split(" ")[1:])[0] < caller_bound(view):
            return _least_penalty(tuple(actions))
        return best
    return policy(view, actions, rng)


def caller_bound(view: dict[str, Any]) -> int:
    """The least hand value the caller of this round called with, if it plays like ``policy``."""
    players = sum(1 for p in view["seats"] if not p["out"])
    finals_done = players - 2 - len(view["final_turns"])  # before this seat's (the current) turn
    return call_need(players, view.get("turn_in_round", 0) - finals_done - 1)


@lru_cache(maxsize=1 << 14)
def _least_penalty(actions: tuple[str, ...]) -> str:
    def cost(action: str) -> tuple[int, int]:
        value, penalty = shown(action.split(" ")[1:])
        return penalty, -value

    return min(actions, key=cost)


# ----------------------------------------------------------------------------- search hooks
# What the ISMCTS bot (candlebox/bots/ismcts.py, SearchHooks) knows of this game beyond the engine
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
    view = state.view(seat)
    players = sum(1 for p in view["seats"] if not p["out"])
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
def best_shown(cards: tuple[str, ...]) -> tuple[int, int]:
    """(value, penalty) of the (sorted) cards turned as this policy turns them."""
    tops = [[h["code"] for h in CARDS[code]["halves"]] for code in cards]
    best = (-1, 0)
    for choice in product(*(dict.fromkeys(t) for t in tops)):
        value, penalty = shown(list(choice))
        if (value, -penalty) > (best[0], -best[1]):
            best = (value, penalty)
    return best


def plausibility(world: State, seat: int, rivals: tuple[Rival, ...]) -> float:
    """How likely the rivals' observed choices are in this determinization if they play like this
    policy: 1 when each would have made them, UNLIKELY for each choice it would not have."""
    weight = 1.0
    for rival in rivals:
        player = world.view(rival.seat)["seats"][rival.seat]
        hand = [card["card"] for card in player.get("hand", ())]
        if len(hand) != 3:
            continue
        value = best_value(hand)
        # This policy would have turned up an instant win, called with this hand when the rival
        # did not, or not called with it when it did; and a caller's cards stay turned its best
        # way (resample turns them at random).
        if (
            value >= INSTANT
            or (rival.below is not None and value >= rival.below)
            or (
                rival.called
                and (
                    value < rival.at_least
                    or (player["value"], player["penalty"]) != best_shown(tuple(sorted(hand)))
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


SEARCH_HOOKS = SearchHooks(
    policy=search_policy,
    # Measured (docs/simulation.md, Strength): rollouts exactly as the policies play, and the
    # policy's choice kept unless the search clearly prefers another.
    defaults={"epsilon": 0.0, "anchor": 0.5},
    evaluate=standing,
    horizon=horizon,
    observe=observe,
    plausibility=plausibility,
)
