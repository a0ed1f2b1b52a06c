"""A rule-of-thumb Candelabria player, reading only its own view (through a ``Sight``, sight.py: the
typed view, or the cheap ``Glance`` of the state the bots give it).

Kindling: deploy when it can (the Warrior role first: most flames, most combat power), otherwise
maneuver; every move goes where it has no Land Flame yet (a new flame and a territory action), preferring
the regions at war and the actions that pay (Curse Influence, Mine, Forge); it never declines an effect.
Curses: its flames go where it leads or can catch up; with 2 players, it moves a curse so that the
regions at war are those where it is stronger, and its moves favour the regions holding a curse. War: the curse on the territory where its power is
greatest; the two tactic cards with the most icons; it cancels an opponent's card when that card is
worth at least its own; its Extinguish and Steal aim at the leader in Victory Points.
"""

from __future__ import annotations

from collections.abc import Callable

from candlebox.engine import Rng
from candlebox.games.candelabria.sight import Glance, Sight, ViewSight
from candlebox.games.candelabria.views import CandelabriaView

ICON_WORTH = {"curse": 3.0, "mine": 2.5, "forge": 2.0, "barracks": 1.5, "inn": 1.0, "portal": 0.5}
DECLINE = frozenset(("skip", "done", "stay", "spare", "pass", "supply"))
_WORTH: dict[str, int] = {}  # tactic card code -> its icon units (a pure function, kept)
_PLAY_WORTH: dict[str, int] = {}  # "play A B" -> the icon units of both cards (likewise)


def _card_worth(code: str | None) -> int:
    """The icon units of a tactic card code like 'N-3I1X!' (3 + 1)."""
    if not code or code == "-":
        return 0
    worth = _WORTH.get(code)
    if worth is None:
        body = code.split("-")[-1].rstrip("!")
        worth = _WORTH[code] = sum(int(ch) for ch in body if ch.isdigit())
    return worth


def _play_worth(action: str) -> int:
    """The icon units of the tactic cards a secret choice ("play A B") plays."""
    worth = _PLAY_WORTH.get(action)
    if worth is None:
        worth = _PLAY_WORTH[action] = sum(_card_worth(c) for c in action.split()[1:])
    return worth


def _haunt_score(sight: Sight, action: str) -> float:
    """2-player: how many of the regions at war it leads (minus those it trails) after the move."""
    _, curse, where = action.split()
    me = sight.me
    mine = sight.region_power(me)
    other = [h for h in sight.houses() if h != me]
    theirs = sight.region_power(other[0]) if other else {}
    score = 0.0
    for r in sight.haunted((int(curse), where)):
        a, b = mine.get(r, 0), theirs.get(r, 0)
        score += (a > b) - (b > a) + 0.1 * (a - b)
    return score


def _move_score(sight: Sight, target: str) -> float:
    region, icon, flames, mine = sight.spot(target)
    score = 0.0
    if not mine:
        score += 5 + ICON_WORTH[icon]
    if sight.two_player:
        score += 1.5 * (region in sight.haunted())
    elif region not in sight.corrupted():
        score += 1
    score -= 0.5 * flames
    return score


def policy(view: CandelabriaView | Glance, actions: list[str], rng: Rng) -> str:
    sight: Sight = view if isinstance(view, Glance) else ViewSight(view)
    real = [a for a in actions if a not in DECLINE] or actions
    choose = _BY_DECISION.get(sight.decision)
    if choose is None:
        return real[rng.below(len(real))]
    return choose(sight, actions, real, rng)


# Each decision's choice from (the sight, the legal actions, those that decline nothing, the rng).
_Choice = Callable[[Sight, list[str], list[str], Rng], str]


def _turn(sight: Sight, actions: list[str], real: list[str], rng: Rng) -> str:
    """Deploy when it can, the Warrior role first; otherwise maneuver."""
    deploys = [a for a in real if a.startswith("deploy")]
    if deploys:
        return max(deploys, key=lambda a: ("EPW".index(a[-1]), -len(a), a))
    return real[rng.below(len(real))]


def _move(sight: Sight, actions: list[str], real: list[str], rng: Rng) -> str:
    """The best move, or stop when none is worth a new flame."""
    moves = [a for a in real if a.startswith(("move", "extra"))]
    if not moves:
        return actions[-1]
    scores = {a: _move_score(sight, a.split()[-1]) for a in moves}
    best = max(moves, key=scores.__getitem__)
    if scores[best] < 4:
        return "done" if "done" in actions else best
    return best


def _influence(sight: Sight, actions: list[str], real: list[str], rng: Rng) -> str:
    """A flame in front of the curse where it leads or can catch up."""
    curses = [a for a in real if a.startswith("curse")]
    if not curses:
        return actions[0]
    me = sight.me

    def margin(a: str) -> int:
        flames = sight.curse_flames(int(a.split()[1]) - 1)
        mine = flames.get(me, 0)
        best_other = max((v for h, v in flames.items() if h != me), default=0)
        return -abs(mine + 1 - best_other)

    return max(curses, key=margin)


def _haunt(sight: Sight, actions: list[str], real: list[str], rng: Rng) -> str:
    return max(real, key=lambda a: (_haunt_score(sight, a), -rng.below(1000)))


def _take(sight: Sight, actions: list[str], real: list[str], rng: Rng) -> str:
    return max(real, key=lambda a: _card_worth(a.split()[1]))


def _mine(sight: Sight, actions: list[str], real: list[str], rng: Rng) -> str:
    return max(real, key=lambda a: (sum(int(x) for x in a.split()[2::2]), a))


def _forge(sight: Sight, actions: list[str], real: list[str], rng: Rng) -> str:
    temples = [a for a in real if a.startswith("temple W")]
    return temples[0] if temples else real[0]


def _curse_at(sight: Sight, actions: list[str], real: list[str], rng: Rng) -> str:
    """The curse on the territory where its power is greatest."""
    power = sight.region_power(sight.me)
    return max(real, key=lambda a: power.get(sight.spot(a.split()[1])[0], 0))


def _secret(sight: Sight, actions: list[str], real: list[str], rng: Rng) -> str:
    return max(real, key=_play_worth)


def _aim_at_leader(sight: Sight, actions: list[str], real: list[str], rng: Rng) -> str:
    leader = sight.leader()
    aimed = [a for a in real if leader and a.split()[1].startswith(leader)]
    return (aimed or real)[0]


def _ignite(sight: Sight, actions: list[str], real: list[str], rng: Rng) -> str:
    candles = [a for a in real if a.split()[1] in ("E", "P", "W")]
    return (candles or real)[0]


_BY_DECISION: dict[str, _Choice] = {
    "turn": _turn,
    "move": _move,
    "influence": _influence,
    "flame": _influence,
    "haunt": _haunt,
    "take": _take,
    "mine": _mine,
    "forge": _forge,
    "gift": _forge,
    "curse-at": _curse_at,
    "secret": _secret,
    "cancel": lambda sight, actions, real, rng: _cancel(sight, actions),
    "extinguish-at": _aim_at_leader,
    "steal": _aim_at_leader,
    "ignite": _ignite,
}


def _cancel(sight: Sight, actions: list[str]) -> str:
    best, gain = "pass", 0
    mine_played = sight.played(sight.me)
    for a in actions:
        if a == "pass":
            continue
        _, mine, house, theirs = a.split()
        my_card = mine_played[int(mine) - 1]
        their_card = sight.played(house)[int(theirs) - 1]
        value = _card_worth(their_card) - _card_worth(my_card) + 1
        if value > gain:
            best, gain = a, value
    return best
