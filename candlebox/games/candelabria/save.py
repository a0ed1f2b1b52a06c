"""The Candelabria position as readable data (what a saved game's replay is checked against), and
resampling what a seat cannot know.

The snapshot is readable: territories by name, cards and tiles by code, decks top first. The pending
decisions are the stack of integer frames (decision.py).
"""

from __future__ import annotations

from typing import Any

from candlebox.engine import Rng
from candlebox.games.candelabria.components import TEMPLES
from candlebox.games.candelabria.decision import Phase
from candlebox.games.candelabria.redeal import redeal
from candlebox.games.candelabria.state import CandelabriaState

MAX_WAREHOUSE = 10


def snapshot(st: CandelabriaState) -> dict[str, Any]:
    content = st.content
    names = st.board.names
    n = st.num_players

    def card(c: int) -> str:
        return content.candles[c].code

    def cards(cs: list[int]) -> list[str]:
        return [content.candles[c].code for c in cs]

    def tcode(c: int) -> str | None:
        return content.tactics[c].code if c >= 0 else None

    def deck_entry(e: int) -> str:
        return content.curses[e].code if e >= 0 else content.candles[~e].code

    return {
        "side": st.side,
        "houses": [st.house_code(s) for s in range(n)],
        "order": list(st.order),
        "year": st.year,
        "turns": st.turns,
        "active": st.active,
        "land_flames": [
            [names[t] for t in range(st.board.size) if st.lf[t] >> s & 1] for s in range(n)
        ],
        "castles": [names[t] for t in st.castle],
        "candles": [[names[t] if t >= 0 else None for t in pos] for pos in st.cpos],
        "candle_flames": [list(fl) for fl in st.cfl],
        "deployed": [[card(c) if c >= 0 else None for c in slots] for slots in st.rcard],
        "land_flame_supply": list(st.lf_sup),
        "candle_flame_supply": list(st.cf_sup),
        "gold": list(st.gold),
        "wax": list(st.wax),
        "vp": list(st.vp),
        "hands": [cards(h) for h in st.hand],
        "known": [cards(h) for h in st.known],
        "maneuvered": [cards(h) for h in st.mpile],
        "upgrades": [[content.tiles[t].code for t in u] for u in st.upg],
        "tactics": [[content.tactics[t].code for t in ts] for ts in st.tac],
        "tactics_board": [content.tactics[t].code for t in st.tboard],
        "tactics_deck": [content.tactics[t].code for t in reversed(st.tdeck)],
        "upgrade_piles": [[content.tiles[t].code for t in reversed(p)] for p in st.piles],
        "upgrade_box": [content.tiles[t].code for t in st.tbox],
        "temples": {
            str(r): [TEMPLES[c] for c in st.temples[r]] for r in st.board.regions if st.temples[r]
        },
        "temple_supply": list(st.tsup),
        "reserve_gold": st.rgold,
        "reserve_wax": st.rwax,
        "curses": [content.curses[k].code for k in st.curses],
        "curse_flames": [list(row) for row in st.cinf],
        "corrupted": [r for r in st.board.regions if st.corrupt >> r & 1],
        "curse_deck": [deck_entry(e) for e in reversed(st.cdeck)],
        "curses_out": [content.curses[k].code for k in st.cout],
        "advanced_deck": cards(st.adeck[::-1]),
        "advanced_marks": st.amark[::-1],
        "aside": cards(st.aside),
        "boxed": cards(st.boxed),
        "stack": [list(frame) for frame in st.stack],
        "curses_granted": st.granted,
        "curse_models": [names[t] if t >= 0 else None for t in st.cplace],
        "curse_owners": list(st.cown),
        "battles_left": list(st.wlist),
        "battle": list(st.fight),
        "secret": [[tcode(c) for c in sec] for sec in st.secret],
        "played": [[tcode(c) if c != -2 else 0 for c in pl] for pl in st.played],
        "tactics_used": [[content.tactics[t].code for t in ts] for ts in st.tused],
        "end_reason": st.end_reason,
        "final": list(st.final),
        "winners": list(st.win),
        "missions": _missions(st),
        "decay": _decay(st),
    }


def _decay(st: CandelabriaState) -> dict[str, Any] | None:
    from candlebox.games.candelabria.decay import CODES

    if not st.dslot:
        return None
    return {
        "deck": [CODES[c] for c in reversed(st.ddeck)],
        "slots": [[CODES[c] if c >= 0 else None for c in slots] for slots in st.dslot],
    }


def _missions(st: CandelabriaState) -> dict[str, Any] | None:
    from candlebox.games.candelabria.missions import MISSIONS

    if not st.mlock:
        return None
    code = [m[0] for m in MISSIONS]
    return {
        "box": [code[m] for m in st.mdeck],
        "public": [code[m] for m in st.mpub],
        "private": [code[m] for m in st.mpriv],
        "places": {code[m]: list(p) for m, p in enumerate(st.mlock)},
        "tally": [list(t) for t in st.mtally],
        "counters": [list(c) for c in st.mcount],
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
    twin.tdeck.sort()
    rng.shuffle(twin.tdeck)
    slots = [i for i, e in enumerate(twin.cdeck) if e >= 0]
    hidden = sorted(twin.cdeck[i] for i in slots)
    rng.shuffle(hidden)
    for i, e in zip(slots, hidden, strict=True):
        twin.cdeck[i] = e
    tiles = sorted([t for p in twin.piles for t in p[:-1]] + twin.tbox)
    rng.shuffle(tiles)
    for p in twin.piles:
        for i in range(len(p) - 1):
            p[i] = tiles.pop()
    twin.tbox = tiles
    twin.ddeck.sort()
    rng.shuffle(twin.ddeck)  # the Decay deck's order (rulings CA-D4)
    if twin.mlock:  # the others' private missions not yet shown, and the box (rulings CA-M2)
        from candlebox.games.candelabria.missions import MISSIONS, revealed

        unknown = [o for o in range(st.num_players) if o != seat and not revealed(twin, o)]
        missions = sorted([twin.mpriv[o] for o in unknown] + twin.mdeck)
        rng.shuffle(missions)
        for o in unknown:
            twin.mpriv[o] = missions.pop()
        twin.mdeck = sorted(missions)
        for k, event in enumerate(twin.events):  # the log tells each its own mission: the new one
            if event[0] == "mission-private" and event[1] in unknown:
                twin.events[k] = (event[0], event[1], MISSIONS[twin.mpriv[event[1]]][0])
    # The others' secret choices of tactic cards, made but not revealed: any they could have made.
    if twin.stack[-1][0] == Phase.SECRET:
        from candlebox.games.candelabria.war import secret_actions

        for other in twin.fight:
            if other != seat and twin.secret[other]:
                _, a, b = twin.notation.parse[rng.choice(secret_actions(twin, other))]
                twin.secret[other] = [a - 1, b - 1]
    # Candle cards: a hidden history dealt anew, its events naming the cards it deals (redeal.py).
    dealt = redeal(st, seat, rng)
    twin.hand = dealt.hands
    twin.adeck = dealt.adeck
    twin.aside = dealt.aside
    for k, event in dealt.events.items():
        twin.events[k] = event
    return twin
