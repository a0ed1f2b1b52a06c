"""Candelabria's heuristic as it was before the typed view and the Glance (frozen copy, a test oracle):
it read the plain view dict. The heuristic must choose exactly as it did."""

from __future__ import annotations

from typing import Any

from candlebox.engine import Rng

ICON_WORTH = {"curse": 3.0, "mine": 2.5, "forge": 2.0, "barracks": 1.5, "inn": 1.0, "portal": 0.5}
DECLINE = ("skip", "done", "stay", "spare", "pass", "supply")


def _card_worth(code: str | None) -> int:
    """The icon units of a tactic card code like 'N-3I1X!' (3 + 1)."""
    if not code or code == "-":
        return 0
    body = code.split("-")[-1].rstrip("!")
    return sum(int(ch) for ch in body if ch.isdigit())


def _leader(view: dict[str, Any]) -> str | None:
    me = view["seat"]
    others = [s for s in view["seats"] if s["seat"] != me]
    return max(others, key=lambda s: s["vp"])["house"] if others else None


def _terr(view: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {t["territory"]: t for t in view["territories"]}


def _corrupted(view: dict[str, Any]) -> set[int]:
    return {r["region"] for r in view["regions"] if r["corrupted"]}


def _region_power(view: dict[str, Any], house: str) -> dict[int, int]:
    power: dict[int, int] = {}
    for t in view["territories"]:
        r = t["region"]
        p = int(house in t["land_flames"])
        if t.get("castle") == house:
            p += 4
        for c in t.get("candles", []):
            if c["candle"].startswith(house + "-"):
                p += c["flames"]
        power[r] = power.get(r, 0) + p
    return power


def _haunted(view: dict[str, Any], moved: tuple[int, str] | None = None) -> set[int]:
    """2-player: the regions holding a curse standee (with curse ``moved[0]`` moved to ``moved[1]``)."""
    terr = _terr(view)
    found: set[int] = set()
    for m in view["curse_models"]:
        where = moved[1] if moved and m["curse"] == moved[0] else m["territory"]
        found.add(terr[where]["region"])
    return found


def _haunt_score(view: dict[str, Any], action: str) -> float:
    """2-player: how many of the regions at war it leads (minus those it trails) after the move."""
    _, curse, where = action.split()
    me = view["seats"][view["seat"]]["house"]
    mine = _region_power(view, me)
    other = [s["house"] for s in view["seats"] if s["house"] != me]
    theirs = _region_power(view, other[0]) if other else {}
    score = 0.0
    for r in _haunted(view, (int(curse), where)):
        a, b = mine.get(r, 0), theirs.get(r, 0)
        score += (a > b) - (b > a) + 0.1 * (a - b)
    return score


def _move_score(view: dict[str, Any], target: str) -> float:
    me = view["seats"][view["seat"]]
    t = _terr(view)[target]
    score = 0.0
    if me["house"] not in t["land_flames"]:
        score += 5 + ICON_WORTH[t["icon"]]
    if view["variant"] == "two-player":
        score += 1.5 * (t["region"] in _haunted(view))
    elif t["region"] not in _corrupted(view):
        score += 1
    score -= 0.5 * len(t["land_flames"])
    return score


def policy(view: dict[str, Any], actions: list[str], rng: Rng) -> str:
    decision = view["pending"]["decision"]
    me = view["seats"][view["seat"]]
    real = [a for a in actions if a not in DECLINE] or actions
    if decision == "turn":
        deploys = [a for a in real if a.startswith("deploy")]
        if deploys:
            return max(deploys, key=lambda a: ("EPW".index(a[-1]), -len(a), a))
        return real[rng.below(len(real))]
    if decision == "move":
        moves = [a for a in real if a.startswith(("move", "extra"))]
        if not moves:
            return actions[-1]
        best = max(moves, key=lambda a: _move_score(view, a.split()[-1]))
        if _move_score(view, best.split()[-1]) < 4:
            return "done" if "done" in actions else best
        return best
    if decision in ("influence", "flame"):
        curses = [a for a in real if a.startswith("curse")]
        if not curses:
            return actions[0]

        def margin(a: str) -> int:
            flames = view["curses"][int(a.split()[1]) - 1]["flames"]
            mine = flames.get(me["house"], 0)
            best_other = max((v for h, v in flames.items() if h != me["house"]), default=0)
            return -abs(mine + 1 - best_other)

        return max(curses, key=margin)
    if decision == "haunt":
        return max(real, key=lambda a: (_haunt_score(view, a), -rng.below(1000)))
    if decision == "take":
        return max(real, key=lambda a: _card_worth(a.split()[1]))
    if decision == "mine":
        return max(real, key=lambda a: (sum(int(x) for x in a.split()[2::2]), a))
    if decision in ("forge", "gift"):
        temples = [a for a in real if a.startswith("temple W")]
        return temples[0] if temples else real[0]
    if decision == "curse-at":
        power = _region_power(view, me["house"])
        terr = _terr(view)
        return max(real, key=lambda a: power.get(terr[a.split()[1]]["region"], 0))
    if decision == "secret":
        return max(real, key=lambda a: sum(_card_worth(c) for c in a.split()[1:]))
    if decision == "cancel":
        return _cancel(view, actions)
    if decision in ("extinguish-at", "steal"):
        leader = _leader(view)
        aimed = [a for a in real if leader and a.split()[1].startswith(leader)]
        return (aimed or real)[0]
    if decision == "ignite":
        candles = [a for a in real if a.split()[1] in ("E", "P", "W")]
        return (candles or real)[0]
    return real[rng.below(len(real))]


def _cancel(view: dict[str, Any], actions: list[str]) -> str:
    seats = {s["house"]: s for s in view["seats"]}
    me = view["seats"][view["seat"]]
    best, gain = "pass", 0
    for a in actions:
        if a == "pass":
            continue
        _, mine, house, theirs = a.split()
        my_card = me.get("played", [None, None])[int(mine) - 1]
        their_card = seats[house].get("played", [None, None])[int(theirs) - 1]
        value = _card_worth(their_card) - _card_worth(my_card) + 1
        if value > gain:
            best, gain = a, value
    return best
