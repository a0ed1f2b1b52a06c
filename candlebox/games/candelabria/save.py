"""The Candelabria position as readable data (what a saved game's replay is checked against), and
resampling what a seat cannot know.

The snapshot is readable: territories by name, cards and tiles by code, decks top first. The pending
decisions are the stack of integer frames (decision.py).
"""

from __future__ import annotations

from typing import Any

from candlebox.engine import Rng
from candlebox.games.candelabria.decay import CODES
from candlebox.games.candelabria.decision import Phase
from candlebox.games.candelabria.missions import MISSIONS, revealed
from candlebox.games.candelabria.redeal import redeal
from candlebox.games.candelabria.schema import TEMPLES
from candlebox.games.candelabria.state import CandelabriaState
from candlebox.games.candelabria.war import secret_actions

MAX_WAREHOUSE = 10

# Snapshots saved before the state's slots got their long names (format 1, and format 2 until then)
# used other keys; the replay is checked against them through this table, the one place that knows
# the old vocabulary. Keys not listed kept their name. Only reading old files uses it.
OLD_KEYS: dict[str, str] = {
    "houses": "house_of",
    "candles": "candle_territories",
    "deployed": "seal_cards",
    "known": "known_hands",
    "curse_flames": "curse_influence",
    "advanced_marks": "advanced_known_by",
    "aside": "set_aside",
    "boxed": "boxed_candles",
    "secret": "secret_tactics",
    "played": "played_tactics",
    "final": "final_scores",
    "winners": "winning_seats",
}
OLD_PART_KEYS: dict[str, dict[str, str]] = {  # inside the "missions" and "decay" parts
    "missions": {
        "box": "mission_box",
        "public": "public_missions",
        "private": "private_missions",
        "places": "mission_places",
        "tally": "mission_tally",
        "counters": "mission_cancels",
    },
    "decay": {"deck": "decay_deck", "slots": "decay_slots"},
}


def current_keys(saved: dict[str, Any]) -> dict[str, Any]:
    """A saved snapshot with any old key given its current name (values untouched)."""
    result: dict[str, Any] = {}
    for key, value in saved.items():
        inner = OLD_PART_KEYS.get(key)
        if inner is not None and isinstance(value, dict):
            value = {inner.get(k, k): v for k, v in value.items()}
        result[OLD_KEYS.get(key, key)] = value
    return result


def snapshot(st: CandelabriaState) -> dict[str, Any]:
    return {
        **_turn_part(st),
        **_pieces_part(st),
        **_cards_part(st),
        **_temples_and_curses_part(st),
        **_candle_decks_part(st),
        **_war_part(st),
        "missions": _missions(st),
        "decay": _decay(st),
    }


def _candle_codes(st: CandelabriaState, cs: list[int]) -> list[str]:
    return [st.content.candles[c].code for c in cs]


def _tactic_codes(st: CandelabriaState, ts: list[int]) -> list[str]:
    return [st.content.tactics[t].code for t in ts]


def _tile_codes(st: CandelabriaState, ts: list[int]) -> list[str]:
    return [st.content.tiles[t].code for t in ts]


def _turn_part(st: CandelabriaState) -> dict[str, Any]:
    """The board's side, the houses, the turn order, the year and whose turn it is."""
    return {
        "side": st.side,
        "house_of": [st.house_code(s) for s in range(st.num_players)],
        "order": list(st.order),
        "year": st.year,
        "turns": st.turns,
        "active": st.active,
    }


def _pieces_part(st: CandelabriaState) -> dict[str, Any]:
    """The flames, castles and candles on the board, the supplies, gold, wax and VP."""
    names = st.board.names
    candles = st.content.candles
    return {
        "land_flames": [
            [names[t] for t in range(st.board.size) if st.land_flames[t] >> s & 1]
            for s in range(st.num_players)
        ],
        "castles": [names[t] for t in st.castles],
        "candle_territories": [
            [names[t] if t >= 0 else None for t in pos] for pos in st.candle_territories
        ],
        "candle_flames": [list(fl) for fl in st.candle_flames],
        "seal_cards": [
            [candles[c].code if c >= 0 else None for c in slots] for slots in st.seal_cards
        ],
        "land_flame_supply": list(st.land_flame_supply),
        "candle_flame_supply": list(st.candle_flame_supply),
        "gold": list(st.gold),
        "wax": list(st.wax),
        "vp": list(st.vp),
    }


def _cards_part(st: CandelabriaState) -> dict[str, Any]:
    """The hands, the tactic cards and the Upgrade tiles: held, on their boards and in the box."""
    return {
        "hands": [_candle_codes(st, h) for h in st.hands],
        "known_hands": [_candle_codes(st, h) for h in st.known_hands],
        "maneuvered": [_candle_codes(st, h) for h in st.maneuvered],
        "upgrades": [_tile_codes(st, u) for u in st.upgrades],
        "tactics": [_tactic_codes(st, ts) for ts in st.tactics],
        "tactics_board": _tactic_codes(st, st.tactics_board),
        "tactics_deck": _tactic_codes(st, st.tactics_deck[::-1]),
        "upgrade_piles": [_tile_codes(st, p[::-1]) for p in st.upgrade_piles],
        "upgrade_box": _tile_codes(st, st.upgrade_box),
    }


def _temples_and_curses_part(st: CandelabriaState) -> dict[str, Any]:
    """The temples, the reserve, the Curse board and the Curse deck."""
    content = st.content

    def deck_entry(e: int) -> str:
        return content.curses[e].code if e >= 0 else content.candles[~e].code

    return {
        "temples": {
            str(r): [TEMPLES[c] for c in st.temples[r]] for r in st.board.regions if st.temples[r]
        },
        "temple_supply": list(st.temple_supply),
        "reserve_gold": st.reserve_gold,
        "reserve_wax": st.reserve_wax,
        "curses": [content.curses[k].code for k in st.curses],
        "curse_influence": [list(row) for row in st.curse_influence],
        "corrupted": [r for r in st.board.regions if st.corrupted >> r & 1],
        "curse_deck": [deck_entry(e) for e in reversed(st.curse_deck)],
        "curses_out": [content.curses[k].code for k in st.curses_out],
    }


def _candle_decks_part(st: CandelabriaState) -> dict[str, Any]:
    """The Advanced deck (and who knows its cards), the cards set aside and boxed, the decisions'
    stack."""
    return {
        "advanced_deck": _candle_codes(st, st.advanced_deck[::-1]),
        "advanced_known_by": st.advanced_known_by[::-1],
        "set_aside": _candle_codes(st, st.set_aside),
        "boxed_candles": _candle_codes(st, st.boxed_candles),
        "stack": [list(frame) for frame in st.stack],
    }


def _war_part(st: CandelabriaState) -> dict[str, Any]:
    """The curses won and where they stand, the battles and their tactic cards, the game's end."""
    names = st.board.names
    tactics = st.content.tactics

    def tcode(c: int) -> str | None:
        return tactics[c].code if c >= 0 else None

    return {
        "curses_granted": st.curses_granted,
        "curse_models": [names[t] if t >= 0 else None for t in st.curse_models],
        "curse_owners": list(st.curse_owners),
        "battles_left": list(st.battles_left),
        "battle": list(st.battle),
        "secret_tactics": [[tcode(c) for c in sec] for sec in st.secret_tactics],
        "played_tactics": [[tcode(c) if c != -2 else 0 for c in pl] for pl in st.played_tactics],
        "tactics_used": [_tactic_codes(st, ts) for ts in st.tactics_used],
        "end_reason": st.end_reason,
        "final_scores": list(st.final_scores),
        "winning_seats": list(st.winning_seats),
    }


def _decay(st: CandelabriaState) -> dict[str, Any] | None:

    if not st.decay_slots:
        return None
    return {
        "decay_deck": [CODES[c] for c in reversed(st.decay_deck)],
        "decay_slots": [[CODES[c] if c >= 0 else None for c in slots] for slots in st.decay_slots],
    }


def _missions(st: CandelabriaState) -> dict[str, Any] | None:

    if not st.mission_places:
        return None
    code = [m[0] for m in MISSIONS]
    return {
        "mission_box": [code[m] for m in st.mission_box],
        "public_missions": [code[m] for m in st.public_missions],
        "private_missions": [code[m] for m in st.private_missions],
        "mission_places": {code[m]: list(p) for m, p in enumerate(st.mission_places)},
        "mission_tally": [list(t) for t in st.mission_tally],
        "mission_cancels": [list(c) for c in st.mission_cancels],
    }


def resample(st: CandelabriaState, seat: int, seed: int) -> CandelabriaState:
    """What ``seat`` cannot know dealt anew (rulings CA-39): the order of the Tactics deck and of the
    curses left in the Curse deck, the tiles under the tops of the Upgrade piles and in the box, and
    the cards of the Advanced deck and of the other hands that the seat has not seen (redeal.py), the
    others' private missions not yet shown. The events that name what was dealt anew are rewritten
    to name the new deal, so the others' logs agree with their new hands."""
    twin = st.clone()
    assert isinstance(twin, CandelabriaState)
    rng = twin.rng = Rng(seed)
    # Every unknown pool is sorted before it is shuffled, so the result depends only on what the
    # seat knows and the seed, never on the real hidden order (two indistinguishable states resample
    # alike, which information-set search relies on).
    _shuffle_decks(twin, rng)
    if twin.mission_places:
        _deal_private_missions(twin, seat, rng)
    _choose_secret_tactics(twin, seat, rng)
    # Candle cards: a hidden history dealt anew, its events naming the cards it deals (redeal.py).
    dealt = redeal(st, seat, rng)
    twin.hands = dealt.hands
    twin.advanced_deck = dealt.advanced_deck
    twin.set_aside = dealt.set_aside
    for k, event in dealt.events.items():
        twin.events[k] = event
    return twin


def _shuffle_decks(twin: CandelabriaState, rng: Rng) -> None:
    """The Tactics deck, the curses in the Curse deck, the tiles under the Upgrade piles' tops and in
    the box, and the Decay deck (rulings CA-D4), each shuffled."""
    twin.tactics_deck.sort()
    rng.shuffle(twin.tactics_deck)
    slots = [i for i, e in enumerate(twin.curse_deck) if e >= 0]
    hidden = sorted(twin.curse_deck[i] for i in slots)
    rng.shuffle(hidden)
    for i, e in zip(slots, hidden, strict=True):
        twin.curse_deck[i] = e
    tiles = sorted([t for p in twin.upgrade_piles for t in p[:-1]] + twin.upgrade_box)
    rng.shuffle(tiles)
    for p in twin.upgrade_piles:
        for i in range(len(p) - 1):
            p[i] = tiles.pop()
    twin.upgrade_box = tiles
    twin.decay_deck.sort()
    rng.shuffle(twin.decay_deck)


def _deal_private_missions(twin: CandelabriaState, seat: int, rng: Rng) -> None:
    """The others' private missions not yet shown, and the box (rulings CA-M2)."""
    unknown = [o for o in range(twin.num_players) if o != seat and not revealed(twin, o)]
    missions = sorted([twin.private_missions[o] for o in unknown] + twin.mission_box)
    rng.shuffle(missions)
    for o in unknown:
        twin.private_missions[o] = missions.pop()
    twin.mission_box = sorted(missions)
    for k, event in enumerate(twin.events):  # the log tells each its own mission: the new one
        if event[0] == "mission-private" and event[1] in unknown:
            twin.events[k] = (event[0], event[1], MISSIONS[twin.private_missions[event[1]]][0])


def _choose_secret_tactics(twin: CandelabriaState, seat: int, rng: Rng) -> None:
    """The others' secret choices of tactic cards, made but not revealed: any they could have made."""
    if twin.stack[-1][0] == Phase.SECRET:
        for other in twin.battle:
            if other != seat and twin.secret_tactics[other]:
                _, a, b = twin.notation.parse[rng.choice(secret_actions(twin, other))]
                twin.secret_tactics[other] = [a - 1, b - 1]
