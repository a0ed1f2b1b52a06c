"""Per-game invariants the conformance suite checks at every step, written independently of the games.

Each checker gets a state and raises AssertionError when something is off. They read the saved form
(``to_json``) and the content files directly, so a bug in a game's own bookkeeping cannot hide itself.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from itertools import product
from pathlib import Path
from typing import Any

import candlebox

ROOT = Path(candlebox.__file__).parent


def _candle_quest_full_set() -> Counter:
    data = json.loads((ROOT / "games/candle_quest/content/candles.json").read_text())
    codes: list[str] = []
    for colour in data["colours"]:
        codes += [f"{colour['code']}{c['face']}" for c in colour["candles"]]
    codes += [f"D{c['face']}" for c in data["dancing"]]
    codes += [f"U{c['face']}" for c in data["unlit"]]
    return Counter(codes)


CQ_FULL = _candle_quest_full_set()


def candle_quest(state: candlebox.State) -> None:
    saved = state.to_json()
    snap = saved["state"]
    where: list[str] = list(snap["stack"]) + snap["aside"] + snap["removed"]
    for pile in snap["piles"]:
        where += pile
    for screen in snap["screens"]:
        where += screen
    if snap["table"] is not None:
        where.append(snap["table"])
    assert Counter(where) == CQ_FULL, "all 60 candles are somewhere, once"
    assert sum(snap["shekels"]) + snap["bank"] == saved["options"]["bank"], "shekels conserved"
    assert min(snap["shekels"]) >= 0 and snap["bank"] >= 0
    for seat in range(state.num_players):
        view = state.view(seat)
        for other in view["seats"]:
            if other["seat"] != seat and not view["over"]:
                assert "candles" not in other and "shekels" not in other, "screens hide"
        assert isinstance(view["stack"], int), "the stack's order is nobody's to see"
    spectator = state.view(None)
    if not spectator["over"]:
        assert all("candles" not in p and "shekels" not in p for p in spectator["seats"])
    if saved["variant"] == "junior":
        assert "U6" not in Counter(where) - Counter(snap["removed"]), "junior: no 6-value Unlit"


def _sixteen_candies_deck() -> tuple[Counter, dict[str, tuple[str, int, int]]]:
    """Every card code of the box, and each half code's (candy, count, penalty), from the data file."""
    data = json.loads((ROOT / "games/sixteen_candies/content/deck.json").read_text())
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


def sixteen_candies(state: candlebox.State) -> None:
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
        for seat in range(n):
            want = 0 if pools[seat] == 0 else 3
            if seat == snap["actor"] and snap["phase"] == "discard":
                want = 4
            assert len(snap["hands"][seat]) == want, f"seat {seat} holds the wrong number of cards"
    # The pools change only by the scoring tables: check the latest scored round against the
    # pools before it (the previous round's scores, or the starting pool).
    events = json.loads(json.dumps(state.events))  # as plain lists, as a log would have them
    ends = [i for i, e in enumerate(events) if e[0] == "score"]
    if not ends:
        assert pools == [options["pool"]] * n, "no round scored yet: every pool is the starting one"
    else:
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
                seat, logged_due, pool = event[1], event[4], event[5]
                assert logged_due == due[seat], (
                    f"seat {seat}: due {logged_due}, tables say {due[seat]}"
                )
                expected = before[seat] + logged_due
                if options["pool_cap"] and logged_due > 0:
                    expected = min(expected, max(options["pool"], before[seat]))
                assert pool == max(0, expected), f"seat {seat}'s pool went to {pool}"
                after[seat] = pool
        assert set(due) == {e[1] for e in block if e[0] == "score"}, "every hand is scored"
        assert after == pools, "the pools are what the last scoring left"
    # No hidden information in views (and, now and then, in logs).
    for seat in [None, *range(n)]:
        view = state.view(seat)
        for other in view["seats"]:
            if other["seat"] != seat and not view["over"]:
                assert "hand" not in other and "value" not in other, "hands are hidden"
        assert isinstance(view["draw_pile"], int), "the draw pile's order is nobody's to see"
    if len(saved["history"]) % 16 == 0 or over:
        for seat in [None, *range(n)]:
            for entry in state.log(seat):
                private = entry["event"] == "deal" or (
                    entry["event"] == "draw" and entry["source"] == "pile"
                )
                if private and entry["seat"] != seat:
                    assert "card" not in entry, f"seat {seat} sees another's private card"


def _candelabria_box() -> tuple[Counter, dict[str, int], int, dict[str, int], int]:
    """Every candle card code, the temple counts, the tile count, the reserve, the common tactics."""
    folder = ROOT / "games/candelabria/content"

    def read(name: str) -> Any:
        return json.loads((folder / f"{name}.json").read_text())

    candles = read("candles")
    codes = Counter(c["code"] for c in candles["house"] + candles["advanced"])
    components = read("components")
    tiles = sum(t.get("copies", 1) for t in read("upgrades")["tiles"])
    common = sum(t.get("copies", 1) for t in read("tactics")["common"])
    return codes, components["temples"], tiles, components["reserve"], common


CA_CANDLES, CA_TEMPLES, CA_TILES, CA_RESERVE, CA_COMMON = _candelabria_box()
CA_LAND_FLAMES, CA_CANDLE_FLAMES, CA_WAREHOUSE, CA_CURSES = 25, 12, 10, 9
CA_FLAME_IN_HAND = 6  # a saved frame [6, seat]: an extinguished Land Flame its owner is placing


def candelabria(state: candlebox.State) -> None:
    saved = state.to_json()
    snap = saved["state"]
    n = state.num_players
    cards = snap["advanced_deck"] + snap["set_aside"] + snap["boxed_candles"]
    cards += [c for c in snap["curse_deck"] if not c.isdigit()]
    for seat in range(n):
        cards += snap["hands"][seat] + snap["maneuvered"][seat]
        cards += [c for c in snap["seal_cards"][seat] if c is not None]
    assert Counter(cards) == CA_CANDLES, "every candle card is somewhere, once"
    curses = snap["curses"] + snap["curses_out"] + [c for c in snap["curse_deck"] if c.isdigit()]
    assert sorted(curses, key=int) == sorted(set(curses), key=int) and len(curses) == CA_CURSES
    in_hand = Counter(f[1] for f in snap["stack"] if f[0] == CA_FLAME_IN_HAND)
    for seat in range(n):
        on_map = len(snap["land_flames"][seat])
        at_curses = sum(row[seat] for row in snap["curse_influence"])
        marker = 1  # the turn-order marker is one of the 25
        total = on_map + at_curses + snap["land_flame_supply"][seat] + in_hand[seat] + marker
        assert total == CA_LAND_FLAMES, f"seat {seat}: {total} Land Flames, not 25"
        assert len(set(snap["land_flames"][seat])) == on_map, "one Land Flame per house a territory"
        assert snap["land_flame_supply"][seat] >= 0
        flames = snap["candle_flames"][seat]
        assert min(flames) >= 0 and sum(flames) + snap["candle_flame_supply"][seat] == 12
        assert snap["gold"][seat] >= 0 and snap["wax"][seat] >= 0
        assert snap["gold"][seat] + snap["wax"][seat] <= CA_WAREHOUSE, "the warehouse holds 10"
        assert len(snap["upgrades"][seat]) <= 6, "six upgrade slots"
    assert snap["reserve_gold"] + sum(snap["gold"]) == CA_RESERVE["gold"], "gold conserved"
    assert snap["reserve_wax"] + sum(snap["wax"]) == CA_RESERVE["wax"], "wax conserved"
    placed = Counter(c for stack in snap["temples"].values() for c in stack)
    for colour, supply in zip(("white", "grey", "black"), snap["temple_supply"], strict=True):
        assert placed[colour] + supply == CA_TEMPLES[colour], f"{colour} temples conserved"
    tiles = [t for p in snap["upgrade_piles"] for t in p] + snap["upgrade_box"]
    tiles += [t for u in snap["upgrades"] for t in u]
    assert len(tiles) == CA_TILES, "36 upgrade tiles"
    tactics = snap["tactics_board"] + snap["tactics_deck"]
    tactics += [t for ts in snap["tactics"] + snap.get("tactics_used", []) for t in ts]
    tactics += [t for p in snap.get("played_tactics", []) for t in p if isinstance(t, str)]
    assert len(tactics) == CA_COMMON + 3 * n, "75 common tactic cards and 3 per house"
    assert len(set(snap["castles"])) == n, "one castle per territory"
    if saved["variant"] == "two-player":
        assert n == 2 and len(snap["curses"]) <= 3
        assert not snap["corrupted"], "2-player: region tokens stay on their numbered side"
        assert all(not any(row) for row in snap["curse_influence"]), "2-player: no curse influence"
        assert all(o == -1 for o in snap["curse_owners"]), "2-player: no curse is controlled"
        if snap["stack"][-1][0] != 31:  # once the houses are chosen, every curse stands on the map
            assert len(snap["curse_models"]) == len(snap["curses"])
            assert all(t is not None for t in snap["curse_models"])
    over = state.is_over
    decay = snap.get("decay")
    if decay is not None:
        held = [f[2] for f in snap["stack"] if f[0] == 32]  # DECAY_AT: a card being placed
        cards = (
            decay["decay_deck"]
            + [c for s in decay["decay_slots"] for c in s if c]
            + [f"D{c + 1}" for c in held]
        )
        assert sorted(cards) == sorted(f"D{k}" for k in range(1, 17)), "16 Decay cards, each once"
        assert all(len(s) == 2 for s in decay["decay_slots"]), "two War Board slots"
    missions = snap.get("missions")
    if missions is not None:
        cards = missions["mission_box"] + missions["public_missions"] + missions["private_missions"]
        assert len(cards) == len(set(cards)) == 24, "24 mission cards, each once"
        assert len(missions["private_missions"]) == n, "one private mission a seat"
        for seat in range(n):
            shown = state.view(seat)["missions"]["private"]
            for other, code in enumerate(missions["private_missions"]):
                done = seat in (other,) or other in missions["mission_places"][code]
                assert shown[snap["house_of"][other]] is not None or not done or over
                if not done and not over:
                    assert shown[snap["house_of"][other]] is None, (
                        "another's private mission is hidden"
                    )
    for seat in [None, *range(n)]:
        view = state.view(seat)
        for other in view["seats"]:
            if other["seat"] != seat and not over:
                assert "hand" not in other, "candle hands are hidden"
                assert "secret" not in other, "a secret choice of tactic cards is hidden"
    if len(saved["history"]) % 25 == 0 or over:
        for seat in [None, *range(n)]:
            for entry in state.log(seat):
                if entry["event"] == "chose":
                    assert set(entry) == {"event", "seat"}, "a secret choice is logged bare"
                elif entry["event"] in ("draw", "return") and entry["seat"] != seat:
                    assert "card" not in entry, "another's drawn or returned card is hidden"


# ----------------------------------------------------------------------------- resampled states
# A resampled state must be a possible world: what each seat's log says about the cards must agree
# with where the state holds them. Each game says what that means for its cards (checked on the
# twins resample deals; a real game meets it too).


def _ca_house_candles() -> dict[str, list[str]]:
    data = json.loads((ROOT / "games/candelabria/content/candles.json").read_text())
    starts: dict[str, list[str]] = {}
    for card in data["house"]:
        if card["year"] == 1:
            starts.setdefault(card["house"], []).append(card["code"])
    return starts


CA_START_HANDS = _ca_house_candles()
CA_ADVANCED = Counter(
    c["code"]
    for c in json.loads((ROOT / "games/candelabria/content/candles.json").read_text())["advanced"]
)


def _events(state: candlebox.State) -> list[list[Any]]:
    """The state's events as JSON would have them (a saved game keeps none: loading replays them)."""
    return json.loads(json.dumps(state.events))


def candelabria_story(state: candlebox.State) -> None:
    """Replay where the candle cards went from the events alone (the setup's house candles, the
    Advanced deck, draws, keeps, returns, deploys, maneuvers, house candles from the Curse deck, the
    Epilogue): every card an event moves is where the story so far puts it, and the story ends with
    the hands, the aside cards and the Advanced deck the state holds."""
    saved = state.to_json()
    snap = saved["state"]
    n = state.num_players
    hands = [Counter(CA_START_HANDS[house]) for house in snap["house_of"]]
    deck = Counter(CA_ADVANCED)
    deployed: list[list[str]] = [[] for _ in range(n)]
    maneuvered: list[list[str]] = [[] for _ in range(n)]
    order = list(range(n))

    def leave(where: Counter, card: str, what: str) -> None:
        assert where[card] > 0, f"{card} is not {what}"
        where[card] -= 1

    for k, event in enumerate(_events(state)):
        kind = event[0]
        if kind == "setup":
            order = event[3]
        elif kind == "order":
            order = event[1]
        elif kind == "draw":
            leave(deck, event[2], "in the Advanced deck")
            hands[event[1]][event[2]] += 1
        elif kind == "keep":  # the three drawn went to the hand in this story; the others leave it
            for card in event[3]:
                leave(hands[event[1]], card, f"among the cards seat {event[1]} drew")
                deck[card] += 1
            assert hands[event[1]][event[2]] > 0, f"event {k}: {event[2]} was not drawn"
        elif kind == "return":
            leave(hands[event[1]], event[2], f"in seat {event[1]}'s hand")
            deck[event[2]] += 1
        elif kind == "deploy":
            leave(hands[event[1]], event[2], f"in seat {event[1]}'s hand")
            deployed[event[1]].append(event[2])
        elif kind == "maneuver":
            leave(hands[event[1]], event[2], f"in seat {event[1]}'s hand")
            maneuvered[event[1]].append(event[2])
        elif kind == "house-candle":
            hands[event[3]][event[2]] += 1
        elif kind == "epilogue":
            for seat in order:
                deck.update(deployed[seat])
                hands[seat].update(maneuvered[seat])
                deployed[seat], maneuvered[seat] = [], []
    drawn_aside: Counter = Counter()
    for seat in range(n):
        held = Counter(snap["hands"][seat])
        assert not held - hands[seat], (
            f"seat {seat} holds {sorted((held - hands[seat]).elements())}, which no event gave it"
        )
        drawn_aside += hands[seat] - held
        assert not Counter(snap["known_hands"][seat]) - held, (
            f"seat {seat}'s known cards are in hand"
        )
    assert drawn_aside == Counter(snap["set_aside"]), (
        f"the events leave {sorted(drawn_aside.elements())} in hands the state does not hold"
    )
    assert Counter(snap["advanced_deck"]) == deck, "the Advanced deck holds what the events left"
    for seat in range(n):
        placed = [c for c in snap["seal_cards"][seat] if c is not None]
        assert sorted(placed) == sorted(deployed[seat]), f"seat {seat}'s deployed cards"
        assert sorted(snap["maneuvered"][seat]) == sorted(maneuvered[seat])


def sixteen_candies_story(state: candlebox.State) -> None:
    """The round's deals, draws and discards give each hand the cards it holds, and nobody holds
    (``instant_win="held"``, at each check) or shows (``"top"``, now) a 4-5-6 of one candy, since no
    Instant Round Win was called (rulings SC-10)."""
    saved = state.to_json()
    snap = saved["state"]
    if snap["phase"] == "over":
        return
    held_mode = saved["options"]["instant_win"] == "held"
    hands: list[Counter] = [Counter() for _ in snap["hands"]]
    for event in _events(state)[snap["round_start"] :]:
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
    for seat, hand in enumerate(snap["hands"]):
        assert Counter(hand) == hands[seat], f"seat {seat} holds cards its events did not give it"
    if held_mode or snap["phase"] in ("setup", "rotate"):
        return
    for seat, tops in enumerate(snap["tops"]):
        if seat == snap["actor"] and snap["phase"] == "discard":
            tops = tops[:-1]  # the card just drawn: the hand is checked once turned
        candies = {SC_HALVES[t][0] for t in tops}
        counts = sorted(SC_HALVES[t][1] for t in tops)
        assert not (
            len(tops) == 3 and len(candies) == 1 and "*" not in candies and counts == [4, 5, 6]
        ), f"seat {seat} shows a 4-5-6 of one candy, an Instant Round Win nobody called"


def _sc_holds_456(cards: list[str]) -> bool:
    if len(cards) != 3:
        return False
    for picks in product(*(card.split("-") for card in cards)):
        halves = [SC_HALVES[h] for h in picks]
        one_candy = len({h[0] for h in halves}) == 1 and halves[0][0] != "*"
        if one_candy and sorted(h[1] for h in halves) == [4, 5, 6]:
            return True
    return False


def candle_quest_story(state: candlebox.State) -> None:
    """Nothing hidden is named in the log (every candle's whereabouts is public); what everyone knows
    of the stack is the candles the option ``deck`` put on top, until drawn or shuffled: they are
    there, in order."""
    candle_quest(state)
    saved = state.to_json()
    known = list(saved["options"].get("deck") or [])
    for event in _events(state):
        if event[0] in ("mix-back", "rebuild"):
            known = []
        elif event[0] in ("flip", "set-aside") and known:
            assert event[2] == known.pop(0), f"{event}: the deck option put another candle on top"
    stack = saved["state"]["stack"]
    if known:
        top = stack[: len(known)]  # the saved stack is top first
        assert top == known[: len(top)], f"the stack's top {top} is not the known {known}"


STORIES: dict[str, Callable[[Any], None]] = {
    "candelabria": candelabria_story,
    "candle-quest": candle_quest_story,
    "sixteen-candies": sixteen_candies_story,
}


INVARIANTS: dict[str, Callable[[Any], None]] = {
    "candelabria": candelabria,
    "candle-quest": candle_quest,
    "sixteen-candies": sixteen_candies,
}
