"""A rule-of-thumb 16 Candies player.

It keeps the three cards that show the most of one candy, turning each card so its best half is on top
(fewest penalty candies among equals, and always an Instant Round Win when the cards allow it). It takes
the discard pile's top card when that beats what the draw pile would bring on average (over the cards it
has not seen), and calls "I've got candy!" when its hand is strong for the number of opponents and the
time the round has run. It reads nothing but its own view and the game's public facts.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import candlebox
from candlebox.engine import Rng

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


def best_value(cards: list[str]) -> int:
    """The best hand three of these cards can show (an instant win counts as INSTANT)."""
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
    left = Counter(BOX)
    left.subtract(hand)
    left.subtract(view["discard_pile"])
    for player in view["seats"]:
        if player["seat"] != view["seat"]:
            left.subtract(player["known"])
    return [code for code, k in left.items() for _ in range(max(k, 0))]


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
    def worth(action: str) -> tuple[int, int]:
        value, penalty = shown(action.split(" ")[1:])
        return value, -penalty

    return max(actions, key=worth)


def _draw(view: dict[str, Any], actions: list[str], hand: list[str]) -> str:
    now = best_value(hand)
    if "draw discard" not in actions:
        return actions[0]
    top = view["discard_pile"][-1]
    taken = best_value([*hand, top])
    if "draw pile" not in actions:
        return "draw discard" if taken > now or "skip" not in actions else "skip"
    pool = unseen(view, hand)
    expected = sum(best_value([*hand, card]) for card in pool) / len(pool) if pool else now
    if taken >= INSTANT or taken > expected + 0.5:
        return "draw discard"
    return "draw pile"


def _discard(actions: list[str], hand: list[str]) -> str:
    def worth(action: str) -> tuple[int, int]:
        card = action.split(" ", 1)[1]
        rest = list(hand)
        rest.remove(card)
        # Keep the strongest three; among equals throw away the card with the least potential.
        return best_value(rest), -max(CONTRIB[card])

    return max(actions, key=worth)


def _call(view: dict[str, Any], me: dict[str, Any]) -> str:
    value = me["value"]
    opponents = sum(1 for p in view["seats"] if not p["out"]) - 1
    waited = view.get("turn_in_round", 0) // max(1, opponents + 1)  # rounds of turns so far
    need = 11 + opponents - min(waited, 3)
    return "call" if value >= need else "end"
