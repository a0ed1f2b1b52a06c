"""What The Curse of Candelabria adds to the conformance kit (``candlebox.testing``): its invariants
(every card, flame, resource, temple, tile and tactic conserved; hands and secret choices hidden),
the story its events tell of the candle cards, the codes it shows and what its seats may not see,
and its test data.

The checks are written independently of the game's own modules: they read the saved form
(``to_json``) and the content files directly, so a bug in the game's bookkeeping cannot hide itself.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

from candlebox.engine import State
from candlebox.engine.plugin import Conformance
from candlebox.games.candelabria.notation import TEMPLE_LETTER, Verb
from candlebox.games.candelabria.schema import TEMPLES
from candlebox.games.candelabria.state import CandelabriaState

CONTENT = Path(__file__).with_name("content")


def _candelabria_box() -> tuple[Counter, dict[str, int], int, dict[str, int], int]:
    """Every candle card code, the temple counts, the tile count, the reserve, the common tactics."""
    folder = CONTENT

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


def invariant(state: State) -> None:
    saved = state.to_json()
    snap = saved["state"]
    n = state.num_players
    over = state.is_over
    _candle_cards_conserved(snap, n)
    _curses_conserved(snap)
    for seat in range(n):
        _house_pieces(snap, seat)
    _components_conserved(snap, n)
    if saved["variant"] == "two-player":
        _two_player(snap, n)
    decay = snap.get("decay")
    if decay is not None:
        _decay_cards(snap, decay)
    missions = snap.get("missions")
    if missions is not None:
        _missions_hidden(state, snap, missions, over)
    _hands_hidden(state, over)
    if len(saved["history"]) % 25 == 0 or over:
        _log_hidden(state)


def _candle_cards_conserved(snap: dict[str, Any], n: int) -> None:
    cards = snap["advanced_deck"] + snap["set_aside"] + snap["boxed_candles"]
    cards += [c for c in snap["curse_deck"] if not c.isdigit()]
    for seat in range(n):
        cards += snap["hands"][seat] + snap["maneuvered"][seat]
        cards += [c for c in snap["seal_cards"][seat] if c is not None]
    assert Counter(cards) == CA_CANDLES, "every candle card is somewhere, once"


def _curses_conserved(snap: dict[str, Any]) -> None:
    curses = snap["curses"] + snap["curses_out"] + [c for c in snap["curse_deck"] if c.isdigit()]
    assert sorted(curses, key=int) == sorted(set(curses), key=int) and len(curses) == CA_CURSES


def _house_pieces(snap: dict[str, Any], seat: int) -> None:
    """A house's 25 Land Flames, 12 candle flames, warehouse and upgrade slots."""
    in_hand = Counter(f[1] for f in snap["stack"] if f[0] == CA_FLAME_IN_HAND)
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


def _components_conserved(snap: dict[str, Any], n: int) -> None:
    """Gold, wax, temples, Upgrade tiles, tactic cards and castles: all there, once."""
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


def _two_player(snap: dict[str, Any], n: int) -> None:
    assert n == 2 and len(snap["curses"]) <= 3
    assert not snap["corrupted"], "2-player: region tokens stay on their numbered side"
    assert all(not any(row) for row in snap["curse_influence"]), "2-player: no curse influence"
    assert all(o == -1 for o in snap["curse_owners"]), "2-player: no curse is controlled"
    if snap["stack"][-1][0] != 31:  # once the houses are chosen, every curse stands on the map
        assert len(snap["curse_models"]) == len(snap["curses"])
        assert all(t is not None for t in snap["curse_models"])


def _decay_cards(snap: dict[str, Any], decay: dict[str, Any]) -> None:
    held = [f[2] for f in snap["stack"] if f[0] == 32]  # DECAY_AT: a card being placed
    cards = (
        decay["decay_deck"]
        + [c for s in decay["decay_slots"] for c in s if c]
        + [f"D{c + 1}" for c in held]
    )
    assert sorted(cards) == sorted(f"D{k}" for k in range(1, 17)), "16 Decay cards, each once"
    assert all(len(s) == 2 for s in decay["decay_slots"]), "two War Board slots"


def _missions_hidden(
    state: State, snap: dict[str, Any], missions: dict[str, Any], over: bool
) -> None:
    """24 mission cards, one private mission a seat, hidden from the others until it is done."""
    n = state.num_players
    cards = missions["mission_box"] + missions["public_missions"] + missions["private_missions"]
    assert len(cards) == len(set(cards)) == 24, "24 mission cards, each once"
    assert len(missions["private_missions"]) == n, "one private mission a seat"
    for seat in range(n):
        shown = state.view(seat)["missions"]["private"]
        for other, code in enumerate(missions["private_missions"]):
            done = seat in (other,) or other in missions["mission_places"][code]
            assert shown[snap["house_of"][other]] is not None or not done or over
            if not done and not over:
                assert shown[snap["house_of"][other]] is None, "another's private mission is hidden"


def _hands_hidden(state: State, over: bool) -> None:
    for seat in [None, *range(state.num_players)]:
        view = state.view(seat)
        for other in view["seats"]:
            if other["seat"] != seat and not over:
                assert "hand" not in other, "candle hands are hidden"
                assert "secret" not in other, "a secret choice of tactic cards is hidden"


def _log_hidden(state: State) -> None:
    for seat in [None, *range(state.num_players)]:
        for entry in state.log(seat):
            if entry["event"] == "chose":
                assert set(entry) == {"event", "seat"}, "a secret choice is logged bare"
            elif entry["event"] in ("draw", "return") and entry["seat"] != seat:
                assert "card" not in entry, "another's drawn or returned card is hidden"


# A resampled state must be a possible world: what each seat's log says about the cards must agree
# with where the state holds them. Each game says what that means for its cards (checked on the
# twins resample deals; a real game meets it too).


def _ca_house_candles() -> dict[str, list[str]]:
    data = json.loads((CONTENT / "candles.json").read_text())
    starts: dict[str, list[str]] = {}
    for card in data["house"]:
        if card["year"] == 1:
            starts.setdefault(card["house"], []).append(card["code"])
    return starts


CA_START_HANDS = _ca_house_candles()
CA_ADVANCED = Counter(
    c["code"] for c in json.loads((CONTENT / "candles.json").read_text())["advanced"]
)


def _events(state: State) -> list[list[Any]]:
    """The state's events as JSON would have them (a saved game keeps none: loading replays them)."""
    return json.loads(json.dumps(state.events))


def story(state: State) -> None:
    """Replay where the candle cards went from the events alone (the setup's house candles, the
    Advanced deck, draws, keeps, returns, deploys, maneuvers, house candles from the Curse deck, the
    Epilogue): every card an event moves is where the story so far puts it, and the story ends with
    the hands, the aside cards and the Advanced deck the state holds."""
    snap = state.to_json()["state"]
    told = _CandleStory([Counter(CA_START_HANDS[house]) for house in snap["house_of"]])
    for k, event in enumerate(_events(state)):
        told.tell(k, event)
    _story_ends_as_held(snap, told)


class _CandleStory:
    """Where the events so far put the candle cards: each seat's hand, the Advanced deck, each seat's
    deployed and maneuvered cards, and the turn order (the Epilogue takes them back in it)."""

    def __init__(self, hands: list[Counter]) -> None:
        n = len(hands)
        self.hands = hands
        self.deck = Counter(CA_ADVANCED)
        self.deployed: list[list[str]] = [[] for _ in range(n)]
        self.maneuvered: list[list[str]] = [[] for _ in range(n)]
        self.order: list[int] = list(range(n))

    def tell(self, k: int, event: list[Any]) -> None:
        kind = event[0]
        if kind == "setup":
            self.order = event[3]
        elif kind == "order":
            self.order = event[1]
        elif kind == "draw":
            _leave(self.deck, event[2], "in the Advanced deck")
            self.hands[event[1]][event[2]] += 1
        elif kind == "keep":
            self.keep(k, event)
        elif kind in ("return", "deploy", "maneuver"):
            _leave(self.hands[event[1]], event[2], f"in seat {event[1]}'s hand")
            if kind == "return":
                self.deck[event[2]] += 1
            else:
                (self.deployed if kind == "deploy" else self.maneuvered)[event[1]].append(event[2])
        elif kind == "house-candle":
            self.hands[event[3]][event[2]] += 1
        elif kind == "epilogue":
            self.epilogue()

    def keep(self, k: int, event: list[Any]) -> None:
        """The three drawn went to the hand in this story; the others leave it."""
        for card in event[3]:
            _leave(self.hands[event[1]], card, f"among the cards seat {event[1]} drew")
            self.deck[card] += 1
        assert self.hands[event[1]][event[2]] > 0, f"event {k}: {event[2]} was not drawn"

    def epilogue(self) -> None:
        """The deployed cards go to the Advanced deck, the maneuvered ones back to the hands."""
        for seat in self.order:
            self.deck.update(self.deployed[seat])
            self.hands[seat].update(self.maneuvered[seat])
            self.deployed[seat], self.maneuvered[seat] = [], []


def _leave(where: Counter, card: str, what: str) -> None:
    assert where[card] > 0, f"{card} is not {what}"
    where[card] -= 1


def _story_ends_as_held(snap: dict[str, Any], told: _CandleStory) -> None:
    """The story's hands, aside cards, Advanced deck, deployed and maneuvered cards are the state's."""
    drawn_aside: Counter = Counter()
    for seat, hand in enumerate(told.hands):
        held = Counter(snap["hands"][seat])
        assert not held - hand, (
            f"seat {seat} holds {sorted((held - hand).elements())}, which no event gave it"
        )
        drawn_aside += hand - held
        assert not Counter(snap["known_hands"][seat]) - held, (
            f"seat {seat}'s known cards are in hand"
        )
    assert drawn_aside == Counter(snap["set_aside"]), (
        f"the events leave {sorted(drawn_aside.elements())} in hands the state does not hold"
    )
    assert Counter(snap["advanced_deck"]) == told.deck, (
        "the Advanced deck holds what the events left"
    )
    for seat, deployed in enumerate(told.deployed):
        placed = [c for c in snap["seal_cards"][seat] if c is not None]
        assert sorted(placed) == sorted(deployed), f"seat {seat}'s deployed cards"
        assert sorted(snap["maneuvered"][seat]) == sorted(told.maneuvered[seat])


# The tokens after the verb, by verb: what kind of code each one is ("-" for none we explain).
CARD, ROLE, HOUSE, ENEMY, TACTIC, TEMPLE = "card", "role", "house", "enemy", "tactic", "temple"
TOKENS: dict[Verb, tuple[str, ...]] = {
    Verb.DEPLOY: (CARD, ROLE),
    Verb.MANEUVER: (CARD,),
    Verb.KEEP: (CARD,),
    Verb.RETURN: (CARD,),
    Verb.MOVE: (ROLE, "-"),
    Verb.EXTRA: (ROLE, "-"),
    Verb.RELOCATE: (ROLE,),
    Verb.IGNITE_CANDLE: (ROLE,),
    Verb.SHIFT: (ROLE, "-"),
    Verb.DESTROY_LAND: (HOUSE,),
    Verb.EXTINGUISH_LAND: (HOUSE,),
    Verb.DESTROY_CANDLE: (ENEMY,),
    Verb.EXTINGUISH_CANDLE: (ENEMY,),
    Verb.PUSH: (ENEMY,),
    Verb.RECAST: (ENEMY,),
    Verb.LIFT: (ENEMY,),
    Verb.STEAL: (HOUSE, "-"),
    Verb.HOUSE: (HOUSE,),
    Verb.TAKE: (TACTIC,),
    Verb.PLAY: (TACTIC, TACTIC),
    Verb.CANCEL: ("-", HOUSE, "-"),
    Verb.TEMPLE: (TEMPLE, "-"),
}


def _token(kind: str, token: str, found: set[str]) -> None:
    if kind in (CARD, TACTIC):
        if token != "-":
            found.add(token)
    elif kind == ROLE:
        found.add(f"role:{token}")
    elif kind == HOUSE:
        found.add(f"house:{token}")
    elif kind == ENEMY:
        house, role = token.split("-")
        found |= {f"house:{house}", f"role:{role}"}
    elif kind == TEMPLE:
        found.add(f"temple:{token}")


def _temple(name: str) -> str:
    return f"temple:{TEMPLE_LETTER[TEMPLES.index(name)]}"


def _cards(codes: Any, found: set[str]) -> None:
    found.update(code for code in codes if code is not None)


def _view_codes(view: dict[str, Any], found: set[str]) -> None:
    for region in view["regions"]:
        found.update(_temple(t) for t in region["temples"])
    for territory in view["territories"]:
        found.add(f"icon:{territory['icon']}")
        found.update(f"house:{h}" for h in territory["land_flames"])
        if "castle" in territory:
            found |= {f"house:{territory['castle']}", "role:C"}
        for candle in territory.get("candles", []):
            _token(ENEMY, candle["candle"], found)
        if territory["land_flames"]:
            found.add("role:land")
    for curse in view["curses"]:
        found.add(f"curse:{curse['curse']}")
        found.update(f"house:{h}" for h in curse["flames"])
    _cards(view["tactics_board"], found)
    _cards((pile["top"] for pile in view["upgrade_piles"]), found)
    found.update(_temple(t) for t in view["temples_left"])
    for seat in view["seats"]:
        if seat["house"] is not None:  # None: the 2-player house choice, before it is made
            _seat_codes(seat, found)
    if "missions" in view:
        _cards((m["mission"] for m in view["missions"]["public"]), found)
        _cards((m["mission"] for m in view["missions"]["private"].values() if m), found)


def _seat_codes(seat: dict[str, Any], found: set[str]) -> None:
    """The codes a house's part of the view shows: its house, cards, tiles and Decay cards."""
    found.add(f"house:{seat['house']}")
    for key in ("deployed", "maneuvered", "upgrades", "tactics", "tactics_used"):
        _cards(seat[key], found)
    _cards(seat.get("hand", []), found)
    _cards(seat.get("known_hand", []), found)
    _cards((c["card"] for c in seat["candles"].values()), found)
    for slot in seat.get("decay", []):
        if slot is not None:
            found.add(slot["card"])


def _log_codes(log: list[dict[str, Any]], found: set[str]) -> None:
    for event in log:
        kind = event["event"]
        for key in ("card", "tile", "mission", "target"):
            if isinstance(event.get(key), str):
                found.add(event[key])
        for key in ("cards", "others", "tactics_board", "missions"):
            _cards(event.get(key) or [], found)
        if kind in ("setup",):
            found.update(f"house:{h}" for h in event["houses"])
        if kind in ("start", "pick"):
            found.add(f"house:{event['house']}")
        if kind in ("temple", "raze", "start") and event.get(
            "colour" if kind != "start" else "temple"
        ):
            found.add(_temple(event["colour" if kind != "start" else "temple"]))
        if kind == "curse":
            found.add(f"curse:{event['curse']}")
        if kind == "start":
            found.add(f"icon:{event['icon']}")
        for key in ("role", "model"):
            if isinstance(event.get(key), str):
                found.add(f"role:{event[key]}")


TERRITORY = re.compile(r"\d+[a-z]")  # how board.json names territories ("4c", "10a")


def _territories(data: Any, found: set[str]) -> None:
    """Every string of a view or log (at any depth) written as a territory id."""
    if isinstance(data, dict):
        for value in data.values():
            _territories(value, found)
    elif isinstance(data, list):
        for value in data:
            _territories(value, found)
    elif isinstance(data, str) and TERRITORY.fullmatch(data):
        found.add(data)


def shown_codes(state: State) -> set[str]:
    """Every code in the seats' legal actions (read with the game's own parser), views and logs."""
    assert isinstance(state, CandelabriaState)
    found: set[str] = set()
    for seat in range(state.num_players):
        for action in state.legal_actions(seat):
            verb = Verb(state.notation.parse[action][0])
            for kind, token in zip(TOKENS.get(verb, ()), action.split(" ")[1:], strict=False):
                _token(kind, token, found)
            found.update(t for t in action.split(" ")[1:] if TERRITORY.fullmatch(t))
    for seat in [*range(state.num_players), None]:
        view, log = state.view(seat), state.log(seat)
        _view_codes(view, found)
        _log_codes(log, found)
        _territories(view, found)
        _territories(log, found)
    return found


def seen(view: dict[str, Any], log: list[dict[str, Any]], seat: int | None) -> None:
    """Hands are private (their size is public); a secret tactic choice is its chooser's alone."""
    if view["over"]:
        return
    for player in view["seats"]:
        if player["seat"] != seat:
            hidden = {"hand", "secret"} & set(player)
            assert not hidden, f"seat {seat} sees seat {player['seat']}'s {hidden}"
    for entry in log:
        if entry["event"] == "chose":
            assert set(entry) == {"event", "seat"}, f"a secret choice leaks: {entry}"


CONFORMANCE = Conformance(
    invariant=invariant,
    story=story,
    shown_codes=shown_codes,
    seen=seen,
    word_options={
        "standard": ({"missions": True, "decay": True, "decay_draw": "every"},),
        "two-player": ({"missions": True},),
    },
    # Missions, Decay cards, a Warrior's optional push and a castle's optional entry bring
    # decisions and events of their own.
    text_options={
        "standard": {
            "missions": True,
            "decay": True,
            "warrior_push": "optional",
            "castle_entry": "optional",
        },
        "two-player": {"missions": True},
    },
    scoring_options=(("standard", 4, {"missions": True, "decay": True}),),
    perft_counts=CONTENT / "perft.json",
    perft_options=(
        {"missions": True},
        {"decay": True},
        {"decay": True, "decay_draw": "every", "battle_shift": "none"},
        {"castle_entry": "optional", "warrior_push": "optional"},
    ),
    # The war (and with it Decay and most Missions) comes after a few hundred steps.
    perft_later_steps=(200, 350),
)
