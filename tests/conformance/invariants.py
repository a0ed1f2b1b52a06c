"""Per-game invariants the conformance suite checks at every step, written independently of the games.

Each checker gets a state and raises AssertionError when something is off. They read the saved form
(``to_json``) and the content files directly, so a bug in a game's own bookkeeping cannot hide itself.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
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


INVARIANTS: dict[str, Callable[[Any], None]] = {"candle-quest": candle_quest}
