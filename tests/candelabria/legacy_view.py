"""Candelabria's plain view as view.py built it before the typed view (frozen copy, a test oracle):
the typed view's plain form must equal it on every state."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from candlebox.games.candelabria.decay import CODES, effect_of
from candlebox.games.candelabria.decision import NAMES, ROLE_NAMES, Auto, Phase
from candlebox.games.candelabria.missions import MISSIONS, revealed
from candlebox.games.candelabria.schema import ICONS, TEMPLES
from candlebox.games.candelabria.war import waiting

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState

_WAR_STEPS = (Auto.WAR_PREP, Auto.BATTLES, Auto.EPILOGUE)


def season(st: CandelabriaState) -> str:
    if st.is_over:
        return "over"
    return "war" if any(frame[0] in _WAR_STEPS for frame in st.stack) else "kindling"


def _card(st: CandelabriaState, card: int) -> str:
    return st.content.candles[card].code


def pending(st: CandelabriaState, seat: int | None) -> dict[str, Any] | None:
    frame = st.stack[-1]
    kind = frame[0]
    if kind == Phase.OVER:
        return None
    if kind == Phase.SECRET:
        return {"decision": "secret", "seats": list(waiting(st)), "region": frame[2]}
    info: dict[str, Any] = {"decision": NAMES[kind], "seats": [frame[1]]}
    names = st.board.names
    if kind == Phase.MOVE:
        info.update(moves_left=frame[2], extra_used=bool(frame[3]))
    elif kind in (Phase.DESTROY, Phase.PUSH, Phase.EXTINGUISH_AT):
        info["territory"] = names[frame[2]]
    elif kind == Phase.PUSH_TO:
        info.update(
            territory=names[frame[2]],
            candle=f"{st.house_code(frame[4])}-{'EPW'[frame[5]]}",
            steps=frame[3],
        )
    elif kind in (
        Phase.INFLUENCE,
        Phase.TAKE,
        Phase.FORGE,
        Phase.MINE,
        Phase.PORTAL,
        Phase.RETURN,
        Phase.STEAL,
    ):
        info["count"] = frame[2]
    elif kind in (Phase.IGNITE, Phase.EXTINGUISH, Phase.RAZE):
        info["count"] = frame[2]
        info["region"] = frame[3] if frame[3] >= 0 else None
    elif kind == Phase.SHIFT:
        info["region"] = frame[2]
    elif kind == Phase.KEEP and seat == frame[1]:
        info["cards"] = [_card(st, c) for c in st.set_aside]
    elif kind == Phase.DEPLOY_AT:
        info["role"] = ROLE_NAMES[frame[2]]
    elif kind == Phase.CURSE_AT:
        info["curse"] = frame[2] + 1
    elif kind == Phase.HAUNT:
        info["count"] = frame[2]
    elif kind in (Phase.DECAY_AT, Phase.EITHER):
        info["decay"] = _decay_card(frame[2])
    elif kind == Phase.PICK:
        info["stage"] = frame[2] + 1
        if frame[2]:
            info["first"] = st.content.houses[frame[3]].code
    elif kind in (Phase.RECAST, Phase.LIFT, Phase.GIFT, Phase.CANCEL):
        info["region"] = frame[2]
    elif kind == Phase.LIFT_TO:
        info["candle"] = f"{st.house_code(frame[2])}-{'EPW'[frame[3]]}"
    return info


def _decay_card(card: int) -> dict[str, Any] | None:

    return {"card": CODES[card], "effect": effect_of(card)[0]} if card >= 0 else None


def _seat(st: CandelabriaState, owner: int, viewer: int | None) -> dict[str, Any]:
    content = st.content
    house = content.houses[st.house_of[owner]]
    names = st.board.names
    info: dict[str, Any] = {
        "seat": owner,
        "house": house.code,
        "name": house.name,
        "vp": st.vp[owner],
        "gold": st.gold[owner],
        "wax": st.wax[owner],
        "land_flames": st.land_flame_supply[owner],
        "candle_flames": st.candle_flame_supply[owner],
        "castle": names[st.castles[owner]],
        "candles": {
            ROLE_NAMES[r].lower(): {
                "territory": names[st.candle_territories[owner][r]],
                "flames": st.candle_flames[owner][r],
                "card": _card(st, st.seal_cards[owner][r]),
            }
            for r in range(3)
            if st.seal_cards[owner][r] >= 0 and st.candle_territories[owner][r] >= 0
        },
        "deployed": [_card(st, c) if c >= 0 else None for c in st.seal_cards[owner]],
        "maneuvered": [_card(st, c) for c in st.maneuvered[owner]],
        "upgrades": [content.tiles[t].code for t in st.upgrades[owner]],
        "tactics": [content.tactics[t].code for t in st.tactics[owner]],
        "tactics_used": [content.tactics[t].code for t in st.tactics_used[owner]],
        **({"decay": [_decay_card(c) for c in st.decay_slots[owner]]} if st.decay_slots else {}),
        "hand_size": len(st.hands[owner]),
        "territories": [names[t] for t in range(st.board.size) if st.land_flames[t] >> owner & 1],
    }
    if st.battle and owner in st.battle:
        if st.secret_tactics[owner]:
            info["chosen"] = True  # that it has chosen is seen; what, only by itself
            if viewer == owner:
                info["secret"] = [
                    content.tactics[c].code if c >= 0 else None for c in st.secret_tactics[owner]
                ]
        elif any(c != -1 for c in st.played_tactics[owner]):
            info["played"] = [
                content.tactics[c].code if c >= 0 else ("resolved" if c == -2 else None)
                for c in st.played_tactics[owner]
            ]
    if viewer == owner or st.is_over:
        info["hand"] = [_card(st, c) for c in st.hands[owner]]
    else:
        info["known_hand"] = [_card(st, c) for c in st.known_hands[owner]]
    return info


def _missions(st: CandelabriaState, seat: int | None) -> dict[str, Any]:
    """Public missions with their places; each seat's private mission to itself only (shown to all
    once completed, or when the game is over)."""

    def card(m: int) -> dict[str, Any]:
        code, kind, _, text = MISSIONS[m]
        places = [
            st.house_code(p) if p >= 0 else ("blocked" if p == -2 else None)
            for p in st.mission_places[m]
        ]
        return {"mission": code, "type": kind, "text": text, "places": places}

    private: dict[str, Any] = {}
    for owner in range(st.num_players):
        if owner == seat or revealed(st, owner):
            private[st.house_code(owner)] = card(st.private_missions[owner])
        else:
            private[st.house_code(owner)] = None
    return {
        "public": [card(m) for m in st.public_missions],
        "private": private,
        "box": len(st.mission_box),
    }


def _house_choice(st: CandelabriaState, seat: int | None) -> dict[str, Any]:
    """The 2-player house choice: only what is decided — the board side and its map, the seats and the
    houses already chosen. The state holds a provisional deal (rulings CA-2P1) that the choice
    replaces, so nothing of it (houses, pieces, hands, tactics, upgrade tiles, missions) is shown; the
    view keeps its usual fields, empty."""
    content = st.content
    board = st.board
    frame = st.stack[-1]
    chosen = {frame[1] ^ 1: frame[3]} if frame[2] else {}  # the first chooser's house, at stage 2
    seats = []
    for owner in range(st.num_players):
        h = chosen.get(owner)
        info: dict[str, Any] = {
            "seat": owner,
            "house": content.houses[h].code if h is not None else None,
            "name": content.houses[h].name if h is not None else None,
            "vp": 0,
            "gold": 0,
            "wax": 0,
            "land_flames": 0,
            "candle_flames": 0,
            "castle": None,
            "candles": {},
            "deployed": [None, None, None],
            "maneuvered": [],
            "upgrades": [],
            "tactics": [],
            "tactics_used": [],
            "hand_size": 0,
            "territories": [],
        }
        info["hand" if owner == seat else "known_hand"] = []
        seats.append(info)
    return {
        "game": st.game_id,
        "variant": st.variant,
        "players": st.num_players,
        "seat": seat,
        "side": st.side,
        "year": st.year,
        "season": season(st),
        "turn": st.turns,
        "max_turns": st.max_turns,
        "order": [],  # the houses' numbers will set it
        "active": None,
        "pending": pending(st, seat),
        "regions": [
            {"region": r, "colour": board.colour[r], "corrupted": False, "temples": []}
            for r in board.regions
        ],
        "territories": [
            {
                "territory": name,
                "region": board.region[t],
                "icon": ICONS[board.icon[t]],
                "land_flames": [],
            }
            for t, name in enumerate(board.names)
        ],
        "curses": [],
        "curse_models": [],
        "battles_left": [],
        "battle": [],
        "curse_deck": 0,
        "tactics_board": [],
        "tactics_deck": 0,
        "upgrade_piles": [{"top": None, "size": 0} for _ in st.upgrade_piles],
        "temples_left": dict(zip(TEMPLES, content.temples, strict=True)),
        "advanced_deck": 0,
        "reserve": {"gold": content.reserve[0], "wax": content.reserve[1]},
        "seats": seats,
        **({"missions": _undealt_missions(st)} if st.mission_places else {}),
        "over": False,
    }


def _undealt_missions(st: CandelabriaState) -> dict[str, Any]:
    return {
        "public": [],
        "private": {},
        "box": len(st.mission_box) + len(st.public_missions) + len(st.private_missions),
    }


def view(st: CandelabriaState, seat: int | None) -> dict[str, Any]:
    if st.stack[-1][0] == Phase.PICK:
        return _house_choice(st, seat)
    content = st.content
    board = st.board
    territories = []
    for t, name in enumerate(board.names):
        pieces: dict[str, Any] = {
            "territory": name,
            "region": board.region[t],
            "icon": ICONS[board.icon[t]],
            "land_flames": [
                st.house_code(s) for s in range(st.num_players) if st.land_flames[t] >> s & 1
            ],
        }
        castles = [st.house_code(s) for s in range(st.num_players) if st.castles[s] == t]
        if castles:
            pieces["castle"] = castles[0]
        candles = [
            {"candle": f"{st.house_code(s)}-{'EPW'[r]}", "flames": st.candle_flames[s][r]}
            for s in range(st.num_players)
            for r in range(3)
            if st.candle_territories[s][r] == t
        ]
        if candles:
            pieces["candles"] = candles
        territories.append(pieces)
    regions = [
        {
            "region": r,
            "colour": board.colour[r],
            "corrupted": bool(st.corrupted >> r & 1),
            "temples": [TEMPLES[c] for c in st.temples[r]],
        }
        for r in board.regions
    ]
    return {
        "game": st.game_id,
        "variant": st.variant,
        "players": st.num_players,
        "seat": seat,
        "side": st.side,
        "year": st.year,
        "season": season(st),
        "turn": st.turns,
        "max_turns": st.max_turns,
        "order": list(st.order),
        "active": st.active if not st.is_over else None,
        "pending": pending(st, seat),
        "regions": regions,
        "territories": territories,
        "curses": [
            {
                "curse": content.curses[k].code,
                "region": content.curses[k].region,
                "effect": content.curses[k].effect,
                "flames": dict(
                    (st.house_code(s), st.curse_influence[i][s])
                    for s in range(st.num_players)
                    if st.curse_influence[i][s]
                ),
            }
            for i, k in enumerate(st.curses)
        ],
        "curse_models": [
            {
                "curse": k + 1,
                "territory": board.names[t],
                "owner": st.house_code(st.curse_owners[k]) if st.curse_owners[k] >= 0 else None,
            }
            for k, t in enumerate(st.curse_models)
            if t >= 0
        ],
        "battles_left": list(st.battles_left),
        "battle": list(st.battle),
        "curse_deck": len(st.curse_deck),
        "tactics_board": [content.tactics[t].code for t in st.tactics_board],
        "tactics_deck": len(st.tactics_deck),
        "upgrade_piles": [
            {"top": content.tiles[p[-1]].code if p else None, "size": len(p)}
            for p in st.upgrade_piles
        ],
        "temples_left": dict(zip(TEMPLES, st.temple_supply, strict=True)),
        "advanced_deck": len(st.advanced_deck),
        "reserve": {"gold": st.reserve_gold, "wax": st.reserve_wax},
        "seats": [_seat(st, owner, seat) for owner in range(st.num_players)],
        **({"missions": _missions(st, seat)} if st.mission_places else {}),
        **({"decay_deck": len(st.decay_deck)} if st.decay_slots else {}),
        "over": st.is_over,
        **(
            {
                "winners": list(st.winning_seats),
                "scores": list(st.final_scores),
                "end_reason": st.end_reason,
                "truncated": st.truncated,
            }
            if st.is_over
            else {}
        ),
    }
