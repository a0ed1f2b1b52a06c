"""Missions Expansion (option ``missions``): 24 Mission cards, 12 Yearly and 12 Ranking.

"Every player will receive two Mission Cards at the beginning of a game during setup. One of the two cards
is taken by the player in the form of a private mission ..., while the other card is placed near the board
thus creating a set of missions that all the players have access to." A private mission can be completed
by its holder only (rulings CA-M2).

Yearly: one completion a year, locked with a flame; "as many Victory Points as they win a battle in a
Region" (4/8/12 by year); the flames are removed every Mist Season. Ranking: three places, 12/8/4 VP in
order of completion; the same player may take several places; a full card leaves the game. With 2 players
every Ranking card's second place is blocked, and every Yearly mission is blocked in the First Year.

The game calls :func:`note` where a mission's event happens (a hook per event kind below); it awards at
once. Missions are plain data: a mission is an index into :data:`MISSIONS`.

State: ``mdeck`` (the cards left in the box), ``mpub`` (the public missions, in deal order), ``mpriv``
(seat -> its private mission), ``mlock`` (mission -> places: one for a Yearly card, three for a Ranking
card; a seat, -1 free, -2 blocked), ``mtally`` (seat -> [resources, purchases, tactic cards] acquired in
the current action, CA-M4), ``mcount`` (seat -> cancels against each seat in the current battle).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candelabria.marks import MISSIONS as MISSIONS_PART
from candlebox.games.candelabria.marks import VP, moved

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState

YEARLY, RANKING = "yearly", "ranking"
FREE, BLOCKED = -1, -2
RANK_VP = (12, 8, 4)
YEAR_VP = (0, 4, 8, 12)

# (code, type, event it watches, printed text). Codes are reconstructed: Y1-Y12, K1-K12 in printed order.
MISSIONS: tuple[tuple[str, str, str, str], ...] = (
    ("Y1", YEARLY, "build-temple", "Build a Temple."),
    ("Y2", YEARLY, "destroy-temple", "Destroy a Temple."),
    ("Y3", YEARLY, "curse-1", "Control the First Curse."),
    ("Y4", YEARLY, "curse-2", "Control the Second Curse."),
    ("Y5", YEARLY, "curse-3", "Control the Third Curse."),
    ("Y6", YEARLY, "candle-out", "Extinguish all the flames of a Candle."),
    ("Y7", YEARLY, "tier-1", "Buy a Tier-1 Upgrade."),
    ("Y8", YEARLY, "tier-2", "Buy a Tier-2 Upgrade."),
    ("Y9", YEARLY, "tier-3", "Buy a Tier-3 Upgrade."),
    ("Y10", YEARLY, "land-flame", "Extinguish a land Flame."),
    ("Y11", YEARLY, "win-6", "Control the Region number 6."),
    ("Y12", YEARLY, "counter", "Counter a Tactic Card."),
    ("K1", RANKING, "win-grey", "Win a Battle with the help of a Grey Temple."),
    ("K2", RANKING, "win-white", "Win a Battle in a region with a White Temple."),
    ("K3", RANKING, "win-black", "Win a Battle in a region with a Black Temple."),
    ("K4", RANKING, "third-candle", "Deploy the third Candle in the turn."),
    ("K5", RANKING, "out-by-castle", "Extinguish the last flame of a Candle using a Castle."),
    ("K6", RANKING, "out-by-candle", "Extinguish the last flame of a Candle using a Candle."),
    ("K7", RANKING, "win-enemy-curse", "Win a battle with an enemy Curse in the Region."),
    ("K8", RANKING, "win-allied-curse", "Win a battle with an allied Curse in the Region."),
    (
        "K9",
        RANKING,
        "counter-both",
        "Counter both the Tactic Cards of a player in the same combat.",
    ),
    ("K10", RANKING, "resources-6", "Acquire at least 6 resources from a single action."),
    ("K11", RANKING, "buy-3", "Buy 3 Upgrades or Temples with the same action."),
    ("K12", RANKING, "tactics-3", "Acquire at least 3 Tactic Cards with the same action."),
)
CODES = {m[0]: i for i, m in enumerate(MISSIONS)}
WATCH: dict[str, list[int]] = {}
for _i, _m in enumerate(MISSIONS):
    WATCH.setdefault(_m[2], []).append(_i)


def is_yearly(m: int) -> bool:
    return MISSIONS[m][1] == YEARLY


def deal(st: CandelabriaState) -> None:
    """Setup: two cards each (after the rest of the setup, from the game's generator): the first kept
    private, the second public (rulings CA-M1)."""
    st.mission_places = [
        [FREE] if is_yearly(m) else [FREE, FREE, FREE] for m in range(len(MISSIONS))
    ]
    deck = list(range(len(MISSIONS)))
    st.rng.shuffle(deck)
    n = st.num_players
    st.private_missions = [deck.pop() for _ in range(n)]
    st.public_missions = [deck.pop() for _ in range(n)]
    st.mission_box = sorted(deck)
    st.mission_tally = [[0, 0, 0] for _ in range(n)]
    st.mission_cancels = [[0] * n for _ in range(n)]
    if st.two_player:  # "The second place of each Ranking Mission is blocked"
        for m in range(len(MISSIONS)):
            if not is_yearly(m):
                st.mission_places[m][1] = BLOCKED
    for seat in range(n):
        st.events.append(("mission-private", seat, MISSIONS[st.private_missions[seat]][0]))
    st.events.append(("missions", tuple(MISSIONS[m][0] for m in st.public_missions)))
    moved(st, MISSIONS_PART)


def on(st: CandelabriaState) -> bool:
    return bool(st.mission_places)


def mist(st: CandelabriaState) -> None:
    """ "The flames from Yearly Missions are removed every Mist Season"; with 2 players the Yearly
    missions are blocked during the First Year."""
    if not st.mission_places:
        return
    block = st.two_player and st.year == 1
    for m in range(len(MISSIONS)):
        if is_yearly(m):
            st.mission_places[m][0] = BLOCKED if block else FREE
    moved(st, MISSIONS_PART)


def new_action(st: CandelabriaState) -> None:
    """A new action (a Kindling turn, or a battle): the per-action tallies start again."""
    if st.mission_places:
        st.mission_tally = [[0, 0, 0] for _ in range(st.num_players)]
        st.mission_cancels = [[0] * st.num_players for _ in range(st.num_players)]


def tally(st: CandelabriaState, seat: int, kind: int, amount: int = 1) -> None:
    """Resources (0), purchases (1) or tactic cards (2) acquired by ``seat`` in the current action."""
    if not st.mission_places or amount <= 0:
        return
    row = st.mission_tally[seat]
    before = row[kind]
    row[kind] += amount
    goal = (6, 3, 3)[kind]
    if before < goal <= row[kind]:
        note(st, seat, ("resources-6", "buy-3", "tactics-3")[kind])


def countered(st: CandelabriaState, seat: int, other: int) -> None:
    if not st.mission_places:
        return
    note(st, seat, "counter")
    st.mission_cancels[seat][other] += 1
    if st.mission_cancels[seat][other] == 2:
        note(st, seat, "counter-both")


def note(st: CandelabriaState, seat: int, event: str) -> None:
    """``seat`` did ``event``: it completes every public mission, and its own private one, watching it
    that has a free place."""
    if not st.mission_places or seat < 0:
        return
    for m in WATCH.get(event, ()):
        if m not in st.public_missions and st.private_missions[seat] != m:
            continue
        places = st.mission_places[m]
        if FREE not in places:
            continue
        k = places.index(FREE)
        places[k] = seat
        moved(st, MISSIONS_PART)
        vp = YEAR_VP[st.year] if is_yearly(m) else RANK_VP[k]
        st.events.append(("mission", seat, MISSIONS[m][0], k + 1, vp))
        st.vp[seat] += vp
        moved(st, VP)
        st.events.append(("vp", seat, vp, "mission"))
        if not is_yearly(m) and FREE not in places:
            # "since the Mission Card is complete, it may be removed from the game": full, it can be
            # completed no more (it stays listed with its flames).
            st.events.append(("mission-done", MISSIONS[m][0]))


def revealed(st: CandelabriaState, seat: int) -> bool:
    """A private mission is shown once its holder has completed it (its VP are public), and every
    one once the game is over. The view and ``resample`` both ask here, so they agree."""
    m = st.private_missions[seat]
    return st.is_over or any(p == seat for p in st.mission_places[m])
