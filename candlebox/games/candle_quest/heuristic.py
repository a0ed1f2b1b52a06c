"""A rule-of-thumb Candle Quest player.

It collects colours it lacks, buys what it needs, auctions what it does not need for a token opening bid
(the candle is still worth its face value as payment if nobody outbids), pays with spare candles before
shekels, and loots only what fills a gap. It reads nothing but its own view.
"""

from __future__ import annotations

from candlebox.engine import Rng, game_info
from candlebox.games.candle_quest.views import CandleQuestView, OpenSeat, PayPending

_FACTS = game_info("candle-quest").facts
CANDLE = _FACTS["candles"]
N_COLOURS = len(_FACTS["colours"])
GUARD_RESERVE = 4  # shekels kept back against the next Unlit candle


class Hand:
    """The bot's own collection, split into what it needs to keep and what it can spend."""

    def __init__(self, codes: list[str]) -> None:
        self.colours: dict[str, list[str]] = {}
        self.dancing: list[str] = []
        self.unlit: list[str] = []
        for code in codes:
            info = CANDLE[code]
            if info["kind"] == "lit":
                self.colours.setdefault(info["colour"], []).append(code)
            elif info["kind"] == "dancing":
                self.dancing.append(code)
            else:
                self.unlit.append(code)
        self.missing = max(0, N_COLOURS - len(self.colours) - len(self.dancing))
        self.spare = self._spare()

    def _spare(self) -> list[str]:
        """Unlit candles, every Lit candle but the best of its colour, and surplus Dancing candles."""
        spare = list(self.unlit)
        for codes in self.colours.values():
            spare.extend(sorted(codes, key=_face, reverse=True)[1:])
        useful_dancing = max(0, N_COLOURS - len(self.colours))
        surplus = len(self.dancing) - useful_dancing
        if surplus > 0:
            spare.extend(sorted(self.dancing, key=_face)[:surplus])
        return spare

    def needs(self, code: str) -> bool:
        info = CANDLE[code]
        if info["kind"] == "lit":
            return info["colour"] not in self.colours and self.missing > 0
        return info["kind"] == "dancing" and self.missing > 0


def _face(code: str) -> int:
    return int(CANDLE[code]["face"])


def _numbers(actions: list[str], verb: str) -> list[int]:
    return [int(a.split()[1]) for a in actions if a.startswith(verb + " ")]


def policy(view: CandleQuestView, actions: list[str], rng: Rng) -> str:
    seat = view.seat
    assert seat is not None, "a policy plays a seat"
    me = view.seats[seat]
    assert isinstance(me, OpenSeat), "a seat sees behind its own screen"
    hand = Hand(me.candles)
    money = me.shekels
    pending = view.pending
    assert pending is not None, "a policy is asked only while the game goes on"
    decision = pending.decision
    if decision == "turn":
        return _turn(view, actions, hand, money)
    candle = pending.candle
    if decision == "buy-sell-auction" and candle:
        return _choose(candle, actions, hand, money)
    if decision == "bid" and candle:
        return _bid(candle, actions, hand, money)
    if decision in ("pay", "guard-short"):
        return _pay(actions, hand, money, pending.due if isinstance(pending, PayPending) else None)
    if decision == "give":
        return _give(actions, hand)
    return actions[rng.below(len(actions))]  # pragma: no cover - every decision is handled above


def _turn(view: CandleQuestView, actions: list[str], hand: Hand, money: int) -> str:
    spare_value = sum(_face(c) for c in hand.spare)
    best: tuple[int, str] | None = None
    seats = view.seats
    for seat in _numbers(actions, "loot"):
        top = seats[seat].discard_pile[-1]
        if not hand.needs(top):
            continue
        cost = _face(top) + int(CANDLE[top]["sell"])
        shekels_needed = max(0, cost - spare_value)
        affordable = shekels_needed <= money - (GUARD_RESERVE if hand.missing > 2 else 0)
        if affordable and (best is None or cost < best[0]):
            best = (cost, f"loot {seat}")
    if best is not None:
        return best[1]
    forced = _numbers(actions, "force")
    if forced:
        counts = {s: seats[s].candles_behind_screen for s in forced}
        target = max(forced, key=lambda s: counts[s])
        if counts[target] >= 2:
            return f"force {target}"
    return "flip" if "flip" in actions else actions[0]


def _choose(candle: str, actions: list[str], hand: Hand, money: int) -> str:
    face = _face(candle)
    if hand.needs(candle):
        if "buy" in actions and (money - face >= GUARD_RESERVE or hand.missing <= 2):
            return "buy"
        bids = _numbers(actions, "auction")
        if bids:
            return f"auction {min(max(bids), face)}"
        return "buy" if "buy" in actions else "sell"
    if "auction 1" in actions and face >= 4:
        return "auction 1"
    return "sell"


def _bid(candle: str, actions: list[str], hand: Hand, money: int) -> str:
    bids = _numbers(actions, "bid")
    if not bids:
        return "pass"
    lowest = min(bids)
    face = _face(candle)
    limit = face if hand.needs(candle) else face // 3
    if hand.needs(candle) and hand.missing > 2:
        limit = min(limit, money - GUARD_RESERVE)
    return f"bid {lowest}" if lowest <= limit else "pass"


def _pay(actions: list[str], hand: Hand, money: int, due: int | None) -> str:
    """``due``: what is still owed, None when the payment cannot be made in full (guard-short)."""
    discards = [a.split()[1] for a in actions if a.startswith("discard ")]
    pays = [a for a in actions if a.startswith("pay ")]
    spare = [c for c in discards if c in hand.spare]
    if spare:
        if due is None:  # cannot pay in full: lose a spare highest candle rather than shekels
            return f"discard {spare[0]}"
        covering = [c for c in spare if _face(c) >= due]
        if covering:
            return f"discard {min(covering, key=_face)}"
        unlit = [c for c in spare if CANDLE[c]["kind"] == "unlit"]
        return f"discard {max(unlit or spare, key=_face)}"
    if pays:
        if due is None and discards and _numbers(pays, "pay")[0] > _face(discards[0]) + 2:
            return f"discard {discards[0]}"
        return pays[0]
    return f"discard {min(discards, key=_face)}"


def _give(actions: list[str], hand: Hand) -> str:
    codes = [a.split()[1] for a in actions]
    spare = [c for c in codes if c in hand.spare]
    return f"give {min(spare or codes, key=_face)}"
