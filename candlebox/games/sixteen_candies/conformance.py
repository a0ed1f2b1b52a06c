"""What 16 Candies adds to the conformance kit (``candlebox.testing``): its invariants (every card
somewhere once, the pools changed only by the scoring tables, hidden hands), the story its events
tell, the codes it shows and what its seats may not see, and its test data.

The checks are written independently of the game's own modules: they read the saved form
(``to_json``) and the deck file directly, so a bug in the game's bookkeeping cannot hide itself.
"""

from __future__ import annotations

import json
from collections import Counter
from itertools import product
from pathlib import Path
from typing import Any

from candlebox.engine import State
from candlebox.engine.plugin import Conformance
from candlebox.games.sixteen_candies.cards import DECK, HALF_CODES, TYPE_OF
from candlebox.games.sixteen_candies.notation import PRINTED_NOTATION

CONTENT = Path(__file__).with_name("content")


def _sixteen_candies_deck() -> tuple[Counter, dict[str, tuple[str, int, int]]]:
    """Every card code of the box, and each half code's (candy, count, penalty), from the data file."""
    data = json.loads((CONTENT / "deck.json").read_text())
    codes: list[str] = []
    halves: dict[str, tuple[str, int, int]] = {}
    for card in data["cards"]:
        names = []
        for half in card["halves"]:
            name = f"{half['candy']}{half['count']}"
            halves[name] = (half["candy"], half["count"], half["penalty"])
            names.append(name)
        codes.append("-".join(names))
    wild = data["wild"]
    codes += [wild["code"]] * wild["copies"]
    halves[wild["code"]] = ("*", wild["count"], wild["penalty"])
    return Counter(codes), halves


SC_FULL, SC_HALVES = _sixteen_candies_deck()


def _sc_hand(tops: list[str]) -> tuple[int, int]:
    """(value, penalty) of top halves: the most of one candy, each Wild adding its count."""
    totals: Counter = Counter()
    wild = penalty = 0
    for top in tops:
        candy, count, cost = SC_HALVES[top]
        penalty += cost
        if candy == "*":
            wild += count
        else:
            totals[candy] += count
    return max(totals.values(), default=0) + wild, penalty


def _sc_expected(block: list[list[Any]], options: dict[str, Any]) -> dict[int, int]:
    """The change due to each seat in one round, from its reveals, call and instant wins."""
    values: dict[int, int] = {}
    penalties: dict[int, int] = {}
    caller = None
    instant: set[int] = set()
    for event in block:
        if event[0] == "reveal":
            seat, tops, value, penalty = event[1], list(event[3]), event[4], event[6]
            assert (value, penalty) == _sc_hand(tops), f"reveal of seat {seat} miscounted"
            values[seat], penalties[seat] = value, penalty
        elif event[0] == "call":
            caller = event[1]
        elif event[0] == "instant-win":
            instant.add(event[1])
    rank = {seat: (10**6 if seat in instant else v) for seat, v in values.items()}
    high, low = max(rank.values()), min(rank.values())
    due: dict[int, int] = {}
    for seat in values:
        if seat in instant:
            due[seat] = 2 if options["instant_gain"] == "two" else 0
        elif seat == caller:
            if high == low:
                wins = options["all_tied"] == "caller-wins"
                due[seat] = 2 if wins else -(penalties[seat] + 1)
            elif rank[seat] == high:
                due[seat] = 2
            elif rank[seat] == low:
                due[seat] = -(penalties[seat] + 1)
            else:
                due[seat] = -1
        else:
            tied_with_caller = caller is not None and rank[caller] == low
            due[seat] = -penalties[seat] if rank[seat] == low and not tied_with_caller else 0
    return due


def invariant(state: State) -> None:
    saved = state.to_json()
    snap = saved["state"]
    options = saved["options"]
    n = state.num_players
    where = list(snap["draw"]) + list(snap["discard"])
    for hand in snap["hands"]:
        where += hand
    assert Counter(where) == SC_FULL, "every card is somewhere, once"
    pools = snap["pools"]
    assert len(pools) == n and min(pools) >= 0
    over = snap["phase"] == "over"
    if not over:
        _hand_sizes(snap, n)
    _pools_by_the_tables(state, pools, options)
    _views_hidden(state)
    if len(saved["history"]) % 16 == 0 or over:
        _logs_hidden(state)


def _hand_sizes(snap: dict[str, Any], n: int) -> None:
    """Three cards a seat with candy left (four to the actor about to discard), none without."""
    pools = snap["pools"]
    for seat in range(n):
        want = 0 if pools[seat] == 0 else 3
        if seat == snap["actor"] and snap["phase"] == "discard":
            want = 4
        assert len(snap["hands"][seat]) == want, f"seat {seat} holds the wrong number of cards"


def _pools_by_the_tables(state: State, pools: list[int], options: dict[str, Any]) -> None:
    """The pools change only by the scoring tables: the latest scored round is checked against the
    pools before it (the previous round's scores, or the starting pool)."""
    n = state.num_players
    events = json.loads(json.dumps(state.events))  # as plain lists, as a log would have them
    ends = [i for i, e in enumerate(events) if e[0] == "score"]
    if not ends:
        assert pools == [options["pool"]] * n, "no round scored yet: every pool is the starting one"
        return
    last = ends[-1]
    start = max(i for i in range(last + 1) if events[i][0] == "round")
    block = events[start : last + 1]
    before = [options["pool"]] * n
    for event in events[:start]:
        if event[0] == "score":
            before[event[1]] = event[5]
    due = _sc_expected(block, options)
    after = list(before)
    for event in block:
        if event[0] == "score":
            after[event[1]] = _scored(event, before[event[1]], due, options)
    assert set(due) == {e[1] for e in block if e[0] == "score"}, "every hand is scored"
    assert after == pools, "the pools are what the last scoring left"


def _scored(event: list[Any], before: int, due: dict[int, int], options: dict[str, Any]) -> int:
    """A score event's pool, checked against the tables' due and the pool before it."""
    seat, logged_due, pool = event[1], event[4], event[5]
    assert logged_due == due[seat], f"seat {seat}: due {logged_due}, tables say {due[seat]}"
    expected = before + logged_due
    if options["pool_cap"] and logged_due > 0:
        expected = min(expected, max(options["pool"], before))
    assert pool == max(0, expected), f"seat {seat}'s pool went to {pool}"
    return pool


def _views_hidden(state: State) -> None:
    """No hidden information in views: the others' hands, the draw pile's order."""
    for seat in [None, *range(state.num_players)]:
        view = state.view(seat)
        for other in view["seats"]:
            if other["seat"] != seat and not view["over"]:
                assert "hand" not in other and "value" not in other, "hands are hidden"
        assert isinstance(view["draw_pile"], int), "the draw pile's order is nobody's to see"


def _logs_hidden(state: State) -> None:
    """No hidden information in logs: another's dealt or drawn card."""
    for seat in [None, *range(state.num_players)]:
        for entry in state.log(seat):
            private = entry["event"] == "deal" or (
                entry["event"] == "draw" and entry["source"] == "pile"
            )
            if private and entry["seat"] != seat:
                assert "card" not in entry, f"seat {seat} sees another's private card"


def _events(state: State) -> list[list[Any]]:
    """The state's events as JSON would have them (a saved game keeps none: loading replays them)."""
    return json.loads(json.dumps(state.events))


def story(state: State) -> None:
    """The round's deals, draws and discards give each hand the cards it holds, and nobody holds
    (``instant_win="held"``, at each check) or shows (``"top"``, now) a 4-5-6 of one candy, since no
    Instant Round Win was called (rulings SC-10)."""
    saved = state.to_json()
    snap = saved["state"]
    if snap["phase"] == "over":
        return
    held_mode = saved["options"]["instant_win"] == "held"
    hands = _round_told(_events(state)[snap["round_start"] :], snap, held_mode)
    for seat, hand in enumerate(snap["hands"]):
        assert Counter(hand) == hands[seat], f"seat {seat} holds cards its events did not give it"
    if held_mode or snap["phase"] in ("setup", "rotate"):
        return
    for seat, tops in enumerate(snap["tops"]):
        if seat == snap["actor"] and snap["phase"] == "discard":
            tops = tops[:-1]  # the card just drawn: the hand is checked once turned
        assert not _sc_shows_456(tops), (
            f"seat {seat} shows a 4-5-6 of one candy, an Instant Round Win nobody called"
        )


def _round_told(
    round_events: list[list[Any]], snap: dict[str, Any], held_mode: bool
) -> list[Counter]:
    """Each hand as the round's events give it, checked (in ``"held"`` mode) at each discard and
    once all are picked up."""
    hands: list[Counter] = [Counter() for _ in snap["hands"]]
    for event in round_events:
        kind = event[0]
        if kind in ("deal", "draw"):
            hands[event[1]][event[-1]] += 1
        elif kind == "discard":
            assert hands[event[1]][event[2]] > 0, f"{event}: not in seat {event[1]}'s hand"
            hands[event[1]][event[2]] -= 1
            if held_mode:
                assert not _sc_holds_456(list(hands[event[1]].elements())), (
                    f"{event}: the hand kept holds a 4-5-6, an Instant Round Win nobody called"
                )
        elif kind == "flip" and held_mode and snap["phase"] != "setup":
            for seat, hand in enumerate(hands):
                assert not _sc_holds_456(list(hand.elements())), f"seat {seat} was dealt a 4-5-6"
    return hands


def _sc_shows_456(tops: list[str]) -> bool:
    """Whether three top halves show 4, 5 and 6 of one candy (no Wild)."""
    candies = {SC_HALVES[t][0] for t in tops}
    counts = sorted(SC_HALVES[t][1] for t in tops)
    return len(tops) == 3 and len(candies) == 1 and "*" not in candies and counts == [4, 5, 6]


def _sc_holds_456(cards: list[str]) -> bool:
    if len(cards) != 3:
        return False
    for picks in product(*(card.split("-") for card in cards)):
        halves = [SC_HALVES[h] for h in picks]
        one_candy = len({h[0] for h in halves}) == 1 and halves[0][0] != "*"
        if one_candy and sorted(h[1] for h in halves) == [4, 5, 6]:
            return True
    return False


def _card(code: Any, found: set[str]) -> None:
    assert code in TYPE_OF, f"{code!r} is not a card code"
    found.add(code)


def _half(code: Any, found: set[str]) -> None:
    assert code in HALF_CODES, f"{code!r} is not a half code"
    found.add(code)


def _candy(code: Any, found: set[str]) -> None:
    assert code in DECK.candy_codes, f"{code!r} is not a candy letter"
    found.add(f"candy:{code}")


def shown_codes(state: State) -> set[str]:
    """The card, half and candy codes in every seat's legal actions, views and logs (and a
    spectator's), read through the notation: ``discard`` takes a card, ``top`` halves."""
    found: set[str] = set()
    for seat in range(state.num_players):
        for action in state.legal_actions(seat):
            _action_codes(action, found)
    for seat in [*range(state.num_players), None]:
        _view_codes(state.view(seat), found)
        for event in state.log(seat):
            _event_codes(event, found)
    return found


def _action_codes(action: str, found: set[str]) -> None:
    assert PRINTED_NOTATION.malformed(action) is None
    verb, _, arg = action.partition(" ")
    if verb == "discard":
        _card(arg, found)
    elif verb == "top":
        for half in arg.split(" "):
            _half(half, found)


def _view_codes(view: dict[str, Any], found: set[str]) -> None:
    for code in view["candies"]:
        _candy(code, found)
    for code in view["discard_pile"]:
        _card(code, found)
    for player in view["seats"]:
        for code in player["known"]:
            _card(code, found)
        for card in player.get("hand", []):
            _card(card["card"], found)
            _half(card["top"], found)
            _half(card["bottom"], found)
        if "candy" in player:
            _candy(player["candy"], found)


def _event_codes(event: dict[str, Any], found: set[str]) -> None:
    if "card" in event:
        _card(event["card"], found)
    if event["event"] == "reveal":
        for code in event["cards"]:
            _card(code, found)
        for code in event["tops"]:
            _half(code, found)
        _candy(event["candy"], found)
    if event["event"] == "instant-win":
        found.add("term:instant-win")
    if event["event"] == "call":
        found.add("term:call")


def seen(view: dict[str, Any], log: list[dict[str, Any]], seat: int | None) -> None:
    if view["over"]:
        return
    for player in view["seats"]:
        if player["seat"] != seat:
            hidden = {"hand", "value", "candy", "penalty"} & set(player)
            assert not hidden, f"seat {seat} sees seat {player['seat']}'s {hidden}"
    for entry in log:
        private = entry["event"] == "deal" or (
            entry["event"] == "draw" and entry.get("source") == "pile"
        )
        if private and entry.get("seat") != seat:
            assert "card" not in entry, f"seat {seat} sees another seat's card: {entry}"


CONFORMANCE = Conformance(
    invariant=invariant,
    story=story,
    shown_codes=shown_codes,
    seen=seen,
    word_options={"standard": ({"instant_win": "held", "draw": "optional"},)},
    text_options={"standard": {"draw": "optional"}},
    scoring_options=(
        ("standard", 3, {"pool_cap": True, "pool": 8}),
        ("standard", 2, {"all_tied": "caller-wins", "rounds": 3}),
    ),
    perft_counts=CONTENT / "perft.json",
    perft_options=({"draw": "optional", "rediscard": False, "instant_win": "held"},),
)
