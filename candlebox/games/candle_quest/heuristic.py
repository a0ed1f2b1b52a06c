"""A rule-of-thumb Candle Quest player.

It collects colours it lacks, buys what it needs, auctions what it does not need for a token opening bid
(the candle is still worth its face value as payment if nobody outbids), pays with spare candles before
shekels, and loots only what fills a gap. It reads nothing but its own view.

``state_policy`` is the same player reading a state directly for one seat (its own screen and
shekels, and what is public), without building the view: the search's rollouts call it hundreds of
thousands of times (issue 16). tests/candle_quest/test_heuristic_fast.py checks the two agree.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from candlebox.engine import Rng, State, game_info
from candlebox.games.candle_quest.candles import Candles
from candlebox.games.candle_quest.decision import NAMES, Phase
from candlebox.games.candle_quest.state import CandleQuestState
from candlebox.games.candle_quest.views import CandleQuestView, OpenSeat, PayPending

N_COLOURS = len(game_info("candle-quest").facts["colours"])  # eight in every pack
GUARD_RESERVE = 4  # shekels kept back against the next Unlit candle


class Hand:
    """The bot's own collection, split into what it needs to keep and what it can spend."""

    def __init__(self, codes: list[str]) -> None:
        self.colours: dict[str, list[str]] = {}
        self.dancing: list[str] = []
        self.unlit: list[str] = []
        for code in codes:
            kind = _KINDS[code]
            if kind == "lit":
                self.colours.setdefault(code[0], []).append(code)
            elif kind == "dancing":
                self.dancing.append(code)
            else:
                self.unlit.append(code)
        self.missing = max(0, N_COLOURS - len(self.colours) - len(self.dancing))
        self.spare = self._spare()
        self.spare_set = frozenset(self.spare)
        self.spare_value = sum(_face(c) for c in self.spare)
        self._needs: dict[str, bool] = {}  # needs(), remembered per candle (a Hand never changes)

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
        known = self._needs.get(code)
        if known is None:
            known = self._needs[code] = self._need(code)
        return known

    def _need(self, code: str) -> bool:
        kind = _KINDS[code]
        if kind == "lit":
            return code[0] not in self.colours and self.missing > 0
        return kind == "dancing" and self.missing > 0


@lru_cache(maxsize=1 << 14)
def _hand(codes: tuple[str, ...]) -> Hand:
    """The Hand of these (sorted) candles; cached, as a collection changes far less often than it
    is read. Readers never change a Hand."""
    return Hand(list(codes))


@lru_cache(maxsize=1 << 14)
def _screen_hand(content: Candles, screen: tuple[tuple[int, int], ...]) -> Hand:
    """The Hand behind a screen given as sorted (type, count) pairs, in the view's order, of the
    game's ``content`` (hashed by identity: one shared object per pack)."""
    code = content.code
    return _hand(tuple(code[candle] for candle, count in screen for _ in range(count)))


# A candle's code says what the bot reads of it (R7: a Lit Red 7; D9: Dancing; U4: Unlit), in every
# content pack alike, so the bot plays a pack's candles without being told the pack. Read once per
# code into dicts, whose lookups are as fast as the facts' table they replace.
class _Faces(dict[str, int]):
    def __missing__(self, code: str) -> int:
        face = self[code] = int(code[1:])
        return face


class _Kinds(dict[str, str]):
    def __missing__(self, code: str) -> str:
        kind = self[code] = "dancing" if code[0] == "D" else "unlit" if code[0] == "U" else "lit"
        return kind


_FACES = _Faces()
_KINDS = _Kinds()
_face = _FACES.__getitem__


def _loot_cost(code: str) -> int:
    """What the bot reckons a loot costs: the face and the sell value, which it takes as half the
    face rounded down (true of every printed candle; a design pack's own sell values it does not
    see in its view)."""
    face = _face(code)
    return face + face // 2


def _numbers(actions: list[str], verb: str) -> list[int]:
    prefix = verb + " "
    start = len(prefix)
    return [int(a[start:]) for a in actions if a.startswith(prefix)]


def policy(view: CandleQuestView, actions: list[str], rng: Rng) -> str:
    seat = view.seat
    assert seat is not None, "a policy plays a seat"
    me = view.seats[seat]
    assert isinstance(me, OpenSeat), "a seat sees behind its own screen"
    pending = view.pending
    assert pending is not None, "a policy is asked only while the game goes on"
    seats = view.seats
    return _decide(
        pending.decision,
        pending.candle or None,
        pending.due if isinstance(pending, PayPending) else None,
        actions,
        _hand(tuple(me.candles)),
        me.shekels,
        lambda s: seats[s].discard_pile[-1],
        lambda s: seats[s].candles_behind_screen,
        rng,
    )


def state_policy(state: State, seat: int, actions: list[str], rng: Rng) -> str:
    """``policy`` for ``seat`` read straight from the state: the same choice, no view built. It
    reads the seat's own screen and shekels and public facts only (a search calls it on
    determinizations, where the rivals' screens are invented anyway)."""
    assert isinstance(state, CandleQuestState)
    phase = state.phase
    piles = state.piles
    screens = state.screens
    code = state.content.code
    return _decide(
        NAMES[phase],
        code[state.table] if state.table >= 0 else None,
        state.due if phase is Phase.PAY else None,
        actions,
        _screen_hand(state.content, tuple(sorted(screens[seat].items()))),
        state.shekels[seat],
        lambda s: code[piles[s][-1]],
        lambda s: sum(screens[s].values()),
        rng,
    )


def _decide(
    decision: str,
    candle: str | None,
    due: int | None,
    actions: list[str],
    hand: Hand,
    money: int,
    top: Callable[[int], str],
    behind: Callable[[int], int],
    rng: Rng,
) -> str:
    """The choice, from what the seat knows: ``top(s)`` the candle on top of seat s's discard pile,
    ``behind(s)`` how many candles are behind its screen."""
    if decision == "turn":
        return _turn(actions, hand, money, top, behind)
    if decision == "buy-sell-auction" and candle:
        return _choose(candle, actions, hand, money)
    if decision == "bid" and candle:
        return _bid(candle, actions, hand, money)
    if decision in ("pay", "guard-short"):
        return _pay(actions, hand, money, due)
    if decision == "give":
        return _give(actions, hand)
    return actions[rng.below(len(actions))]  # pragma: no cover - every decision is handled above


def _turn(
    actions: list[str],
    hand: Hand,
    money: int,
    top_of: Callable[[int], str],
    behind: Callable[[int], int],
) -> str:
    spare_value = hand.spare_value
    best: tuple[int, str] | None = None
    for seat in _numbers(actions, "loot"):
        top = top_of(seat)
        if not hand.needs(top):
            continue
        cost = _loot_cost(top)
        shekels_needed = max(0, cost - spare_value)
        affordable = shekels_needed <= money - (GUARD_RESERVE if hand.missing > 2 else 0)
        if affordable and (best is None or cost < best[0]):
            best = (cost, f"loot {seat}")
    if best is not None:
        return best[1]
    forced = _numbers(actions, "force")
    if forced:
        counts = {s: behind(s) for s in forced}
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
    spare = [c for c in discards if c in hand.spare_set]
    if spare:
        if due is None:  # cannot pay in full: lose a spare highest candle rather than shekels
            return f"discard {spare[0]}"
        covering = [c for c in spare if _face(c) >= due]
        if covering:
            return f"discard {min(covering, key=_face)}"
        unlit = [c for c in spare if _KINDS[c] == "unlit"]
        return f"discard {max(unlit or spare, key=_face)}"
    if pays:
        if due is None and discards and _numbers(pays, "pay")[0] > _face(discards[0]) + 2:
            return f"discard {discards[0]}"
        return pays[0]
    return f"discard {min(discards, key=_face)}"


def _give(actions: list[str], hand: Hand) -> str:
    codes = [a.split()[1] for a in actions]
    spare = [c for c in codes if c in hand.spare_set]
    return f"give {min(spare or codes, key=_face)}"
