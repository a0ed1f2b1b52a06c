"""3-5 Player Mode Setup, as printed: the board side, the Tactics board of 6, the Upgrade Board of 9 piles of
3, the Curse deck (three curse piles — 3/2/2 with 3 players — with the Year II and Year III house candles
between them), the Advanced deck, the reserve, each house's pieces and start positions, the turn order.

Chance is the state's own generator, used in a fixed order (houses, tactics, upgrades, curses, advanced
cards). Scenario options fix it: ``houses`` (a house per seat), ``first_player`` (the seat first in turn
order), ``decks`` (the top of any deck, top first; the rest shuffled beneath).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from candlebox.games.candelabria import missions
from candlebox.games.candelabria.decay import set_up as decay_set_up
from candlebox.games.candelabria.kindling import start_kindling
from candlebox.games.candelabria.marks import all_moved
from candlebox.games.candelabria.mist import run_mist
from candlebox.games.candelabria.pieces import place_land_flame
from candlebox.games.candelabria.schema import ICONS, NEVER_CORRUPTED, TEMPLES
from candlebox.games.candelabria.state import CandelabriaState
from candlebox.games.candelabria.two_player import check_pair

LAND_FLAMES = 25
CANDLE_FLAMES = 12
START_GOLD = 2
START_WAX = 2
TACTICS_BOARD = 6
UPGRADE_PILES = 9
# players -> pile sizes, top pile first; otherwise 3/3/3. 2-player: "The Curse setup will be the same as
# the one from the 3 player mode."
CURSE_PILES = {2: (3, 2, 2), 3: (3, 2, 2)}
TURN_MARKER = 1  # the Land Flame on the turn order track
DECK_NAMES = ("curse", "tactics", "advanced", "upgrades")


def stack_from(
    st: CandelabriaState, pool: list[int], wanted: list[str], index: dict[str, int], name: str
) -> list[int]:
    """A deck (top last) with the ``wanted`` codes on top, top first, the rest of ``pool`` shuffled."""
    ids: list[int] = []
    for code in wanted:
        if code not in index:
            known = ", ".join(sorted(index)[:12])
            raise ValueError(
                f"option 'decks': {name}: {code!r} is not a card of that deck (codes such as {known})"
            )
        ids.append(index[code])
    have = Counter(pool)
    extra = Counter(ids) - have
    if extra:
        too_many = ", ".join(
            f"{code}×{k}" for code, k in sorted((_code(index, i), k) for i, k in extra.items())
        )
        raise ValueError(
            f"option 'decks': {name}: more cards than the deck holds ({too_many} too many)"
        )
    rest = list((have - Counter(ids)).elements())
    st.rng.shuffle(rest)
    return rest + ids[::-1]


def _code(index: dict[str, int], card: int) -> str:
    return next(code for code, i in index.items() if i == card)


def choose_houses(st: CandelabriaState, given: list[str] | None, first: int | None) -> list[int]:
    content = st.content
    n = st.num_players
    seatable = content.seatable(st.side)
    names = {h.code.lower(): i for i, h in enumerate(content.houses)}
    names.update({h.name.lower(): i for i, h in enumerate(content.houses)})
    names.update({h.name.split()[0].lower(): i for i, h in enumerate(content.houses)})
    if given is not None:
        if len(given) != n:
            raise ValueError(f"option 'houses': one house per seat ({n}), got {len(given)}")
        houses = []
        for text in given:
            h = names.get(text.strip().lower())
            if h is None:
                raise ValueError(
                    f"option 'houses': {text!r} is not a house "
                    f"({', '.join(f'{x.code} {x.name}' for x in content.houses)})"
                )
            if h not in seatable:
                raise ValueError(
                    f"option 'houses': {content.houses[h].name} starts in region "
                    f"{content.houses[h].region}, which is not on the {len(st.board.regions)}-region "
                    "side of the board (rulings CA-9)"
                )
            houses.append(h)
        if len(set(houses)) != n:
            raise ValueError("option 'houses': each house can be played by one seat only")
        if st.two_player:
            check_pair(st, houses)
        if first is not None:
            lowest = min(range(n), key=lambda s: content.houses[houses[s]].turn_order)
            if lowest != first:
                raise ValueError(
                    f"option 'first_player': with these houses seat {lowest} "
                    f"({content.houses[houses[lowest]].name}) is first in turn order"
                )
        return houses
    pool = list(seatable)
    st.rng.shuffle(pool)
    houses = pool[:n]
    if first is not None:
        lowest = min(range(n), key=lambda s: content.houses[houses[s]].turn_order)
        houses[first], houses[lowest] = houses[lowest], houses[first]
    return houses


def set_up(st: CandelabriaState, options: dict[str, Any]) -> None:
    decks: dict[str, list[str]] = options.get("decks") or {}
    first = _checked_options(st, options, decks)
    _seat_houses(st, options, first)
    _lay_tactics_board(st, decks)
    _lay_upgrade_board(st, decks, options.get("upgrade_pile") or 3)
    _build_curse_deck(st, decks)
    # The Advanced Candle deck.
    st.advanced_deck = stack_from(
        st, list(st.content.advanced), decks.get("advanced", []), _advanced_index(st), "advanced"
    )
    st.advanced_known_by = [-1] * len(st.advanced_deck)
    _give_pieces(st)
    _log_setup(st)
    assert NEVER_CORRUPTED in st.board.regions
    if options.get("missions"):
        missions.deal(st)
    if options.get("decay"):
        decay_set_up(st)
    all_moved(st)


def _checked_options(
    st: CandelabriaState, options: dict[str, Any], decks: dict[str, list[str]]
) -> int | None:
    """The first player asked for (or None); a ValueError names an unknown deck or seat."""
    n = st.num_players
    for name in decks:
        if name not in DECK_NAMES:
            raise ValueError(f"option 'decks': no deck {name!r}; decks: {', '.join(DECK_NAMES)}")
    first = options.get("first_player")
    if first is not None and first >= n:
        raise ValueError(f"option 'first_player': seat {first} is not in a {n}-player game")
    return first


def _seat_houses(st: CandelabriaState, options: dict[str, Any], first: int | None) -> None:
    """Player area: houses, and the turn order track (compacted)."""
    st.house_of = choose_houses(st, options.get("houses"), first)
    for seat, h in enumerate(st.house_of):
        st.seat_of[h] = seat
    houses = st.content.houses
    st.order = sorted(range(st.num_players), key=lambda s: houses[st.house_of[s]].turn_order)


def _lay_tactics_board(st: CandelabriaState, decks: dict[str, list[str]]) -> None:
    """Tactics board of 6 face up, the rest the Tactics deck."""
    st.tactics_deck = stack_from(
        st, list(st.content.common_tactics), decks.get("tactics", []), _common_index(st), "tactics"
    )
    st.tactics_board = [
        st.tactics_deck.pop() for _ in range(min(TACTICS_BOARD, len(st.tactics_deck)))
    ]


def _lay_upgrade_board(st: CandelabriaState, decks: dict[str, list[str]], size: int) -> None:
    """Upgrade Board: 9 piles of ``size`` (3; option upgrade_pile: 4); the tiles left over stay in
    the box."""
    content = st.content
    tiles = stack_from(
        st, list(content.all_tiles), decks.get("upgrades", []), content.tile_index, "upgrades"
    )
    st.upgrade_piles = []
    for _ in range(UPGRADE_PILES):
        pile = [tiles.pop() for _ in range(min(size, len(tiles)))]
        st.upgrade_piles.append(pile[::-1])
    st.upgrade_box = tiles


def _build_curse_deck(st: CandelabriaState, decks: dict[str, list[str]]) -> None:
    """The Curse deck: curse piles with the Year II and III house candles between them; the
    candles of the houses not played stay in the box."""
    content = st.content
    on_board = set(st.board.regions)
    playing = [k for k, curse in enumerate(content.curses) if curse.region in on_board]
    st.curses_out = [k for k in range(len(content.curses)) if k not in playing]
    curses = stack_from(st, playing, decks.get("curse", []), _curse_index(st, playing), "curse")
    sizes = CURSE_PILES.get(st.num_players, (3, 3, 3))
    piles = []
    for k in sizes:
        piles.append([curses.pop() for _ in range(min(k, len(curses)))])
    in_play = [st.house_of[s] for s in st.order]
    year2 = [~c for h in in_play for c in content.house_candles[h][2]]
    year3 = [~c for h in in_play for c in content.house_candles[h][3]]
    top_first = piles[0] + year2 + piles[1] + year3 + piles[2] + curses
    st.curse_deck = top_first[::-1]
    st.boxed_candles = [
        c
        for h in range(len(content.houses))
        if st.seat_of[h] < 0
        for year in (1, 2, 3)
        for c in content.house_candles[h][year]
    ]


def _give_pieces(st: CandelabriaState) -> None:
    """Each house's pieces, supply and start position."""
    content, board = st.content, st.board
    st.reserve_gold, st.reserve_wax = content.reserve
    for seat in range(st.num_players):
        house = content.houses[st.house_of[seat]]
        st.gold[seat] = START_GOLD
        st.wax[seat] = START_WAX
        st.reserve_gold -= START_GOLD
        st.reserve_wax -= START_WAX
        st.candle_flame_supply[seat] = CANDLE_FLAMES
        st.land_flame_supply[seat] = LAND_FLAMES - TURN_MARKER
        st.hands[seat] = list(content.house_candles[st.house_of[seat]][1])
        st.known_hands[seat] = list(st.hands[seat])
        st.tactics[seat] = list(content.house_tactics[st.house_of[seat]])
        for t in board.region_terr[house.region]:
            icon = board.icon[t]
            if icon == house.castle:
                st.castles[seat] = t
            if icon not in house.no_flame:
                place_land_flame(st, seat, t)
        if house.temple >= 0:
            st.temple_supply[house.temple] -= 1
            st.temples[house.region].append(house.temple)


def _log_setup(st: CandelabriaState) -> None:
    """The setup's events: the board, houses, turn order and Tactics board; each house's start."""
    content, board, n = st.content, st.board, st.num_players
    st.events.append(
        (
            "setup",
            st.side,
            tuple(st.house_code(s) for s in range(n)),
            tuple(st.order),
            tuple(content.tactics[c].code for c in st.tactics_board),
        )
    )
    for seat in range(n):
        house = content.houses[st.house_of[seat]]
        st.events.append(
            (
                "start",
                seat,
                house.code,
                house.region,
                board.names[st.castles[seat]],
                ICONS[board.icon[st.castles[seat]]],
                TEMPLES[house.temple] if house.temple >= 0 else None,
            )
        )


def _common_index(st: CandelabriaState) -> dict[str, int]:
    return {t.code: i for i, t in enumerate(st.content.tactics) if t.house < 0}


def _advanced_index(st: CandelabriaState) -> dict[str, int]:
    return {st.content.candles[c].code: c for c in st.content.advanced}


def _curse_index(st: CandelabriaState, playing: list[int]) -> dict[str, int]:
    return {st.content.curses[k].code: k for k in playing}


def start_year(st: CandelabriaState) -> None:
    st.events.append(("year", st.year))
    run_mist(st)
    start_kindling(st)


# ----------------------------------------------------------------------------- 2-player house choice
# The choice made, the setup is made again with the chosen houses (two_player.py lists the choices).
def do_pick(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    seat = frame[1]
    st.events.append(("pick", seat, st.content.houses[a].code))
    if frame[2] == 0:
        frame[1] = 1 - seat
        frame[2] = 1
        frame[3] = a
        return
    st.stack.pop()
    houses = [0, 0]
    houses[1 - seat] = frame[3]
    houses[seat] = a
    rebuild(st, [st.content.houses[h].code for h in houses])


def rebuild(st: CandelabriaState, codes: list[str]) -> None:
    """The setup made again with the chosen houses (its chance from the game's generator)."""
    options: dict[str, Any] = dict(st.options)
    options["houses"] = codes
    options["first_player"] = None
    fresh = CandelabriaState(st.variant, st.num_players, st.rng.next64() >> 1, options)
    set_up(fresh, options)
    marks = st.marks  # the game's own: a reader of this state reads its marks on from here
    for name in CandelabriaState.__slots__:  # the game's own slots; events and history stay
        setattr(st, name, getattr(fresh, name))
    st.marks = marks
    all_moved(st)
    st.rng = fresh.rng
    st.events.extend(fresh.events)
    start_year(st)
