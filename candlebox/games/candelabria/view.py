"""What each seat may see, the pending decision in data and words, and the log filtered per seat.

Hidden (rulings CA-39): the candle cards in another player's hand (its size is public, and so are the
cards everyone saw it receive face up and has not seen leave it), the cards a player draws from the
Advanced deck or returns under it, the order of every deck, the tiles under the top of each Upgrade pile,
the tiles and curses left in the box. Public: the map, the Curse Board and every flame in front of it, the
Tactics board, the tactic cards each house owns (CA-40), warehouses, upgrades, Victory Points, the turn
order, maneuver discards and deployed cards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from msgspec import UNSET, UnsetType, to_builtins

from candlebox.games.candelabria.decay import CODES, effect_of
from candlebox.games.candelabria.decision import MODEL_LETTER, NAMES, ROLE_NAMES, Auto, Phase
from candlebox.games.candelabria.missions import MISSIONS, revealed
from candlebox.games.candelabria.schema import EFFECTS, ICONS, TEMPLES
from candlebox.games.candelabria.views import (
    CandelabriaView,
    Candle,
    Curse,
    CurseModel,
    DecayCard,
    FinishedView,
    Mission,
    Missions,
    Pending,
    Region,
    Reserve,
    Seat,
    SeatCandle,
    Territory,
    UpgradePile,
)
from candlebox.games.candelabria.war import waiting

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState

# Field names of each event kind, after the kind itself. Territories by name, cards by code, seats by
# number; in the log, roles are E, P, W ("land" for a Land Flame), curse places and Upgrade piles count
# from 1.
EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "setup": ("side", "houses", "order", "tactics_board"),
    "start": ("seat", "house", "region", "castle", "icon", "temple"),
    "year": ("year",),
    "mist": ("year", "seat"),
    "curse": ("seat", "curse", "place", "region"),
    "house-candle": ("drawer", "card", "seat"),  # seat: who receives it; drawer: who drew it (Mist)
    "kindling": ("year",),
    "deploy": ("seat", "card", "role", "wax", "flames", "territory"),
    "place": ("seat", "role", "territory"),
    "maneuver": ("seat", "card"),
    "move": ("seat", "model", "from", "to", "extra"),
    "destroy": ("seat", "territory", "owner", "role"),
    "spare": ("seat", "territory"),
    "push": ("seat", "owner", "role", "from", "to"),
    "land": ("seat", "territory", "count"),
    "no-land-flame": ("seat", "territory"),
    "influence": ("seat", "curse"),
    "flame": ("seat", "curse"),
    "refill": ("cards",),
    "take": ("seat", "card"),
    "upgrade": ("seat", "pile", "tile", "gold"),
    "temple": ("seat", "colour", "region"),
    "raze": ("seat", "colour", "region"),
    "mine": ("seat", "gold", "wax", "discarded"),
    "relocate": ("seat", "model", "from", "to"),
    "draw": ("seat", "card"),  # the card is seen by its drawer only
    "deck-empty": ("seat",),
    "keep": ("seat", "card", "others"),  # seen by its seat only
    "bottom": ("seat", "count"),
    "return": ("seat", "card"),  # the card is seen by its seat only
    "vp": ("seat", "amount", "reason"),
    "ignite": ("seat", "role", "territory"),
    "extinguish": ("seat", "territory", "owner", "role"),
    "steal": ("seat", "from", "resource", "kept"),
    "shift": ("seat", "role", "from", "to"),
    "end-turn": ("seat", "turn"),
    "war": ("year",),
    "curse-unclaimed": ("curse", "reason"),
    "deploy-curse": ("seat", "curse", "territory", "effect"),
    "order": ("order",),
    "recast": ("seat", "owner", "role", "card"),
    "lift": ("seat", "owner", "role", "from", "to"),
    "battles": ("regions",),
    "battle": ("region", "seats"),
    "chose": ("seat",),  # a secret choice: nothing of it is shown until the reveal
    "reveal": ("seat", "cards"),
    "cancel": ("seat", "card", "owner", "target"),
    "resolve": ("seat", "card"),
    "powers": ("region", "powers"),
    "win": ("seat", "region"),
    "epilogue": ("year",),
    "game-over": ("reason", "winners"),
    "pick": ("seat", "house"),  # 2-player house choice
    "haunt": ("seat", "curse", "to"),  # 2-player: a curse placed (seat -1, Mist) or moved
    "mission-private": ("seat", "mission"),  # the mission is seen by its seat only
    "missions": ("missions",),  # the public missions
    "mission": ("seat", "mission", "place", "vp"),
    "mission-done": ("mission",),
    "decay": ("seat", "card"),  # a Decay card drawn (public: it is placed at once)
    "decay-place": ("seat", "card", "slot"),
    "decay-discard": ("seat", "card"),
}
PRIVATE = {
    "draw": ("card",),
    "keep": ("card", "others"),
    "return": ("card",),
    "mission-private": ("mission",),
}


def event_view(event: tuple, seat: int | None) -> dict[str, Any]:
    kind = event[0]
    entry: dict[str, Any] = {"event": kind}
    for name, value in zip(EVENT_FIELDS[kind], event[1:], strict=True):
        entry[name] = list(value) if isinstance(value, tuple) else value
    hidden = PRIVATE.get(kind)
    if hidden and seat != event[1]:
        for name in hidden:
            del entry[name]
    if kind in ("temple", "raze"):
        entry["colour"] = TEMPLES[entry["colour"]]
    elif kind == "steal":
        entry["resource"] = ("gold", "wax")[entry["resource"]]
    elif kind == "move":
        entry["model"] = MODEL_LETTER[entry["model"]]
    elif kind == "curse":
        entry["place"] += 1  # Curse Board places count from 1, as in the notation ("curse 2")
    elif kind in ("influence", "flame"):
        entry["curse"] = entry["curse"] + 1 if entry["curse"] >= 0 else "supply"
    elif kind in ("curse-unclaimed", "deploy-curse", "haunt"):
        entry["curse"] += 1
    elif kind == "upgrade":
        entry["pile"] += 1  # Upgrade piles count from 1, as on the board and in "upgrade P"
    elif kind == "house-candle":  # the receiver is the subject, as "seat" is in every event
        entry = {
            "event": kind,
            "seat": entry["seat"],
            "card": entry["card"],
            "drawer": entry["drawer"],
        }
    elif kind == "powers":
        entry["powers"] = {str(s): p for s, p in entry["powers"]}
    if "role" in entry:
        role = entry["role"]
        entry["role"] = "EPW"[role] if role >= 0 else ("land" if kind in _LAND_EVENTS else None)
    return entry


_LAND_EVENTS = ("destroy", "extinguish", "ignite")  # role -1 there: a Land Flame
_WAR_STEPS = (Auto.WAR_PREP, Auto.BATTLES, Auto.EPILOGUE)


def season(st: CandelabriaState) -> str:
    if st.is_over:
        return "over"
    return "war" if any(frame[0] in _WAR_STEPS for frame in st.stack) else "kindling"


def _card(st: CandelabriaState, card: int) -> str:
    return st.content.candles[card].code


def _effects(effects: tuple[tuple[int, int], ...]) -> dict[str, int]:
    return {EFFECTS[icon]: n for icon, n in effects}


def pending(st: CandelabriaState, seat: int | None) -> dict[str, Any] | None:
    """The pending decision as plain data (``State.pending``)."""
    typed = typed_pending(st, seat)
    return None if typed is None else to_builtins(typed)


def typed_pending(st: CandelabriaState, seat: int | None) -> Pending | None:
    frame = st.stack[-1]
    kind = frame[0]
    if kind == Phase.OVER:
        return None
    if kind == Phase.SECRET:
        return Pending(decision="secret", seats=list(waiting(st)), region=frame[2])
    decision = NAMES[kind]
    seats = [frame[1]]
    names = st.board.names
    if kind == Phase.MOVE:
        return Pending(
            decision=decision, seats=seats, moves_left=frame[2], extra_used=bool(frame[3])
        )
    if kind in (Phase.DESTROY, Phase.PUSH, Phase.EXTINGUISH_AT):
        return Pending(decision=decision, seats=seats, territory=names[frame[2]])
    if kind == Phase.PUSH_TO:
        return Pending(
            decision=decision,
            seats=seats,
            territory=names[frame[2]],
            candle=f"{st.house_code(frame[4])}-{'EPW'[frame[5]]}",
            steps=frame[3],
        )
    if kind in (
        Phase.INFLUENCE,
        Phase.TAKE,
        Phase.FORGE,
        Phase.MINE,
        Phase.PORTAL,
        Phase.RETURN,
        Phase.STEAL,
        Phase.HAUNT,
    ):
        return Pending(decision=decision, seats=seats, count=frame[2])
    if kind in (Phase.IGNITE, Phase.EXTINGUISH, Phase.RAZE):
        region = frame[3] if frame[3] >= 0 else None
        return Pending(decision=decision, seats=seats, count=frame[2], region=region)
    if kind in (Phase.SHIFT, Phase.RECAST, Phase.LIFT, Phase.GIFT, Phase.CANCEL):
        return Pending(decision=decision, seats=seats, region=frame[2])
    if kind == Phase.KEEP and seat == frame[1]:
        return Pending(decision=decision, seats=seats, cards=[_card(st, c) for c in st.set_aside])
    if kind == Phase.DEPLOY_AT:
        return Pending(decision=decision, seats=seats, role=ROLE_NAMES[frame[2]])
    if kind == Phase.CURSE_AT:
        return Pending(decision=decision, seats=seats, curse=frame[2] + 1)
    if kind in (Phase.DECAY_AT, Phase.EITHER):
        return Pending(decision=decision, seats=seats, decay=_decay_card(frame[2]))
    if kind == Phase.PICK:
        if frame[2]:
            first = st.content.houses[frame[3]].code
            return Pending(decision=decision, seats=seats, stage=frame[2] + 1, first=first)
        return Pending(decision=decision, seats=seats, stage=frame[2] + 1)
    if kind == Phase.LIFT_TO:
        candle = f"{st.house_code(frame[2])}-{'EPW'[frame[3]]}"
        return Pending(decision=decision, seats=seats, candle=candle)
    return Pending(decision=decision, seats=seats)


def describe(st: CandelabriaState) -> str:
    frame = st.stack[-1]
    kind = frame[0]
    if kind == Phase.OVER:
        return "the game is over"
    if kind == Phase.SECRET:
        seats = ", ".join(f"{s} ({st.house_code(s)})" for s in waiting(st))
        return f"seats {seats} are to choose their tactic cards in secret for region {frame[2]}"
    if kind == Phase.PICK:  # no house is the chooser's yet
        return f"seat {frame[1]} {_what(st, frame)}"
    who = f"seat {frame[1]} ({st.house_code(frame[1])})"
    return f"{who} {_what(st, frame)}"


# What a seat is to do, by decision: the same words whatever the frame says...
_WHAT_FIXED: dict[int, str] = {
    Phase.TURN: "is to deploy a candle or maneuver",
    Phase.DEPLOY_AT: "is to choose where the new candle goes",
    Phase.PUSH_TO: "is to choose where the candle goes",
    Phase.PORTAL_TO: "is to choose where the miniature goes",
    Phase.FLAME: "is to place an extinguished Land Flame: in front of a Curse or in the supply",
    Phase.KEEP: "is to keep one of the cards drawn",
    Phase.LIFT_TO: "is to choose where the candle goes",
    Phase.DECAY_AT: "is to place a Decay card over a War Board slot",
    Phase.EITHER: "is to choose one effect of its Decay card",
    Phase.NUDGE: "may move one of its candles one territory (Decay)",
}
# ... naming the frame's territory ...
_WHAT_AT: dict[int, str] = {
    Phase.DESTROY: "is to destroy an enemy flame in {}",
    Phase.PUSH: "is to push an enemy candle out of {}",
    Phase.EXTINGUISH_AT: "is to choose the flame to extinguish in {}",
}
# ... or giving the frame's number (a region, moves left).
_WHAT_NUMBER: dict[int, str] = {
    Phase.SHIFT: "may move a candle within region {}",
    Phase.RECAST: "is to choose a candle in region {} whose effects it performs again",
    Phase.LIFT: "is to choose a candle in region {} to place anywhere",
    Phase.GIFT: "is to place a Temple in region {} or take a free Upgrade tile",
    Phase.HAUNT: "is to move a curse one territory ({} move(s) left)",
    Phase.CANCEL: "may cancel an opponent's tactic card in the battle for region {}",
}


def _what(st: CandelabriaState, frame: list[int]) -> str:
    kind = frame[0]
    if kind in _WHAT_FIXED:
        return _WHAT_FIXED[kind]
    if kind in _WHAT_AT:
        return _WHAT_AT[kind].format(st.board.names[frame[2]])
    if kind in _WHAT_NUMBER:
        return _WHAT_NUMBER[kind].format(frame[2])
    if kind == Phase.MOVE:
        return f"is maneuvering ({frame[2]} move{'' if frame[2] == 1 else 's'} left)"
    if kind == Phase.CURSE_AT:
        return f"is to place curse {frame[2] + 1} on a territory at war"
    if kind == Phase.PICK:
        return (
            "is to choose a start region and its house"
            if frame[2] == 0
            else "is to choose a house on the opposite side of the map"
        )
    count = frame[2]
    return {
        Phase.INFLUENCE: f"is to place {count} flame(s) in front of the Curses",
        Phase.TAKE: f"is to take {count} Tactic card(s) from the Tactics board",
        Phase.FORGE: f"may buy {count} Upgrade tile(s) or Temple level(s)",
        Phase.MINE: f"is to take {count} resource(s) from the Mine",
        Phase.PORTAL: f"may relocate {count} miniature(s) through the Portal",
        Phase.RETURN: f"is to return {count} candle card(s) under the Advanced deck",
        Phase.IGNITE: f"may ignite {count} flame(s)",
        Phase.EXTINGUISH: f"may extinguish {count} flame(s)",
        Phase.STEAL: f"may steal {count} resource(s)",
        Phase.RAZE: f"may destroy {count} temple level(s)",
    }.get(Phase(kind), "is to decide")


def _decay_card(card: int) -> DecayCard | None:
    return DecayCard(card=CODES[card], effect=effect_of(card)[0]) if card >= 0 else None


def _seat(st: CandelabriaState, owner: int, viewer: int | None) -> Seat:
    content = st.content
    house = content.houses[st.house_of[owner]]
    names = st.board.names
    tactic_codes = content.tactics
    chosen, secret, played = _battle_tactics(st, owner, viewer)
    seen = viewer == owner or st.is_over
    land = st.land_flames
    return Seat(
        seat=owner,
        house=house.code,
        name=house.name,
        vp=st.vp[owner],
        gold=st.gold[owner],
        wax=st.wax[owner],
        land_flames=st.land_flame_supply[owner],
        candle_flames=st.candle_flame_supply[owner],
        castle=names[st.castles[owner]],
        candles=_seat_candles(st, owner),
        deployed=[_card(st, c) if c >= 0 else None for c in st.seal_cards[owner]],
        maneuvered=[_card(st, c) for c in st.maneuvered[owner]],
        upgrades=[content.tiles[t].code for t in st.upgrades[owner]],
        tactics=[tactic_codes[t].code for t in st.tactics[owner]],
        tactics_used=[tactic_codes[t].code for t in st.tactics_used[owner]],
        decay=[_decay_card(c) for c in st.decay_slots[owner]] if st.decay_slots else UNSET,
        hand_size=len(st.hands[owner]),
        territories=[names[t] for t in range(st.board.size) if land[t] >> owner & 1],
        chosen=chosen,
        secret=secret,
        played=played,
        hand=[_card(st, c) for c in st.hands[owner]] if seen else UNSET,
        known_hand=UNSET if seen else [_card(st, c) for c in st.known_hands[owner]],
    )


def _battle_tactics(
    st: CandelabriaState, owner: int, viewer: int | None
) -> tuple[bool | UnsetType, list[str | None] | UnsetType, list[str | None] | UnsetType]:
    """In a battle: whether ``owner`` has chosen its tactic cards (seen by all), what it chose (seen
    by itself), and once revealed the cards it played."""
    tactic_codes = st.content.tactics
    chosen: bool | UnsetType = UNSET
    secret: list[str | None] | UnsetType = UNSET
    played: list[str | None] | UnsetType = UNSET
    if st.battle and owner in st.battle:
        if st.secret_tactics[owner]:
            chosen = True  # that it has chosen is seen; what, only by itself
            if viewer == owner:
                secret = [
                    tactic_codes[c].code if c >= 0 else None for c in st.secret_tactics[owner]
                ]
        elif any(c != -1 for c in st.played_tactics[owner]):
            played = [
                tactic_codes[c].code if c >= 0 else ("resolved" if c == -2 else None)
                for c in st.played_tactics[owner]
            ]
    return chosen, secret, played


def _seat_candles(st: CandelabriaState, owner: int) -> dict[str, SeatCandle]:
    """The seat's candles on the map, by role."""
    names = st.board.names
    return {
        ROLE_NAMES[r].lower(): SeatCandle(
            territory=names[st.candle_territories[owner][r]],
            flames=st.candle_flames[owner][r],
            card=_card(st, st.seal_cards[owner][r]),
        )
        for r in range(3)
        if st.seal_cards[owner][r] >= 0 and st.candle_territories[owner][r] >= 0
    }


def _missions(st: CandelabriaState, seat: int | None) -> Missions:
    """Public missions with their places; each seat's private mission to itself only (shown to all
    once completed, or when the game is over)."""

    def card(m: int) -> Mission:
        code, kind, _, text = MISSIONS[m]
        places = [
            st.house_code(p) if p >= 0 else ("blocked" if p == -2 else None)
            for p in st.mission_places[m]
        ]
        return Mission(mission=code, type=kind, text=text, places=places)

    private: dict[str, Mission | None] = {}
    for owner in range(st.num_players):
        if owner == seat or revealed(st, owner):
            private[st.house_code(owner)] = card(st.private_missions[owner])
        else:
            private[st.house_code(owner)] = None
    return Missions(
        public=[card(m) for m in st.public_missions], private=private, box=len(st.mission_box)
    )


def _house_choice(st: CandelabriaState, seat: int | None) -> CandelabriaView:
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
        seats.append(
            Seat(
                seat=owner,
                house=content.houses[h].code if h is not None else None,
                name=content.houses[h].name if h is not None else None,
                vp=0,
                gold=0,
                wax=0,
                land_flames=0,
                candle_flames=0,
                castle=None,
                candles={},
                deployed=[None, None, None],
                maneuvered=[],
                upgrades=[],
                tactics=[],
                tactics_used=[],
                hand_size=0,
                territories=[],
                hand=[] if owner == seat else UNSET,
                known_hand=UNSET if owner == seat else [],
            )
        )
    return CandelabriaView(
        game=st.game_id,
        variant=st.variant,
        players=st.num_players,
        seat=seat,
        side=st.side,
        year=st.year,
        season=season(st),
        turn=st.turns,
        max_turns=st.max_turns,
        order=[],  # the houses' numbers will set it
        active=None,
        pending=typed_pending(st, seat),
        regions=[
            Region(region=r, colour=board.colour[r], corrupted=False, temples=[])
            for r in board.regions
        ],
        territories=[
            Territory(
                territory=name, region=board.region[t], icon=ICONS[board.icon[t]], land_flames=[]
            )
            for t, name in enumerate(board.names)
        ],
        curses=[],
        curse_models=[],
        battles_left=[],
        battle=[],
        curse_deck=0,
        tactics_board=[],
        tactics_deck=0,
        upgrade_piles=[UpgradePile(top=None, size=0) for _ in st.upgrade_piles],
        temples_left=dict(zip(TEMPLES, content.temples, strict=True)),
        advanced_deck=0,
        reserve=Reserve(gold=content.reserve[0], wax=content.reserve[1]),
        seats=seats,
        missions=_undealt_missions(st) if st.mission_places else UNSET,
        over=False,
    )


def _undealt_missions(st: CandelabriaState) -> Missions:
    return Missions(
        public=[],
        private={},
        box=len(st.mission_box) + len(st.public_missions) + len(st.private_missions),
    )


def _territories(st: CandelabriaState, codes: list[str]) -> list[Territory]:
    """Every territory of the board side: its Land Flames, castle and candles, by house code."""
    board = st.board
    players = range(st.num_players)
    territories = []
    for t, name in enumerate(board.names):
        flames = st.land_flames[t]
        castles = [codes[s] for s in players if st.castles[s] == t]
        candles = [
            Candle(candle=f"{codes[s]}-{'EPW'[r]}", flames=st.candle_flames[s][r])
            for s in players
            for r in range(3)
            if st.candle_territories[s][r] == t
        ]
        territories.append(
            Territory(
                territory=name,
                region=board.region[t],
                icon=ICONS[board.icon[t]],
                land_flames=[codes[s] for s in players if flames >> s & 1],
                castle=castles[0] if castles else UNSET,
                candles=candles or UNSET,
            )
        )
    return territories


def typed_view(st: CandelabriaState, seat: int | None) -> CandelabriaView:
    """What ``seat`` may know, as typed data (``State.typed_view``; its plain form is ``view``)."""
    if st.stack[-1][0] == Phase.PICK:
        return _house_choice(st, seat)
    content = st.content
    board = st.board
    players = range(st.num_players)
    codes = [st.house_code(s) for s in players]
    territories = _territories(st, codes)
    regions = [
        Region(
            region=r,
            colour=board.colour[r],
            corrupted=bool(st.corrupted >> r & 1),
            temples=[TEMPLES[c] for c in st.temples[r]],
        )
        for r in board.regions
    ]
    fields: dict[str, Any] = {
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
        "pending": typed_pending(st, seat),
        "regions": regions,
        "territories": territories,
        "curses": [
            Curse(
                curse=content.curses[k].code,
                region=content.curses[k].region,
                effect=content.curses[k].effect,
                flames={
                    codes[s]: st.curse_influence[i][s] for s in players if st.curse_influence[i][s]
                },
            )
            for i, k in enumerate(st.curses)
        ],
        "curse_models": [
            CurseModel(
                curse=k + 1,
                territory=board.names[t],
                owner=codes[st.curse_owners[k]] if st.curse_owners[k] >= 0 else None,
            )
            for k, t in enumerate(st.curse_models)
            if t >= 0
        ],
        "battles_left": list(st.battles_left),
        "battle": list(st.battle),
        "curse_deck": len(st.curse_deck),
        "tactics_board": [content.tactics[t].code for t in st.tactics_board],
        "tactics_deck": len(st.tactics_deck),
        "upgrade_piles": [
            UpgradePile(top=content.tiles[p[-1]].code if p else None, size=len(p))
            for p in st.upgrade_piles
        ],
        "temples_left": dict(zip(TEMPLES, st.temple_supply, strict=True)),
        "advanced_deck": len(st.advanced_deck),
        "reserve": Reserve(gold=st.reserve_gold, wax=st.reserve_wax),
        "seats": [_seat(st, owner, seat) for owner in players],
        "missions": _missions(st, seat) if st.mission_places else UNSET,
        "decay_deck": len(st.decay_deck) if st.decay_slots else UNSET,
        "over": st.is_over,
    }
    if st.is_over:
        return FinishedView(
            **fields,
            winners=list(st.winning_seats),
            scores=list(st.final_scores),
            end_reason=st.end_reason,
            truncated=st.truncated,
        )
    return CandelabriaView(**fields)


def view(st: CandelabriaState, seat: int | None) -> dict[str, Any]:
    """What ``seat`` may know, as plain JSON-ready data: the typed view's plain form."""
    result: dict[str, Any] = to_builtins(typed_view(st, seat))
    return result
