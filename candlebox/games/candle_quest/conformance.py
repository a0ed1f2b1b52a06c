"""What Candle Quest adds to the conformance kit (``candlebox.testing``): its invariants, the story
its events tell, the codes it shows and what its seats may not see, and its test data.

The checks are written independently of the game's own modules: they read the saved form
(``to_json``) and the content file directly, so a bug in the game's bookkeeping cannot hide itself.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from candlebox.engine import State
from candlebox.engine.plugin import Conformance
from candlebox.games.candle_quest.candles import TYPE_OF
from candlebox.games.candle_quest.notation import malformed
from candlebox.games.candle_quest.state import CandleQuestState

CONTENT = Path(__file__).with_name("content")


def _full_set() -> Counter:
    data = json.loads((CONTENT / "candles.json").read_text())
    codes: list[str] = []
    for colour in data["colours"]:
        codes += [f"{colour['code']}{c['face']}" for c in colour["candles"]]
    codes += [f"D{c['face']}" for c in data["dancing"]]
    codes += [f"U{c['face']}" for c in data["unlit"]]
    return Counter(codes)


CQ_FULL = _full_set()


def invariant(state: State) -> None:
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


def _events(state: State) -> list[list[Any]]:
    """The state's events as JSON would have them (a saved game keeps none: loading replays them)."""
    return json.loads(json.dumps(state.events))


def story(state: State) -> None:
    """Nothing hidden is named in the log (every candle's whereabouts is public); what everyone knows
    of the stack is the candles the option ``deck`` put on top, until drawn or shuffled: they are
    there, in order."""
    invariant(state)
    saved = state.to_json()
    known = list(saved["options"].get("deck") or [])
    for event in _events(state):
        if event[0] in ("mix-back", "rebuild"):
            known = []
        elif event[0] in ("flip", "set-aside") and known:
            assert event[2] == known.pop(0), f"{event}: the deck option put another candle on top"
    stack = saved["state"]["stack"]
    if known:
        top = stack[: len(known)]  # the saved stack is top first
        assert top == known[: len(top)], f"the stack's top {top} is not the known {known}"


def _candle(code: Any, found: set[str], codes: Mapping[str, int] = TYPE_OF) -> None:
    assert code in codes, f"{code!r} is not a candle code"
    found.add(code)


def shown_codes(state: State) -> set[str]:
    """The candle codes and table words in every seat's legal actions, views and logs (and a
    spectator's), read through the notation: only ``discard`` and ``give`` take a candle."""
    found: set[str] = set()
    assert isinstance(state, CandleQuestState)
    codes = state.content.type_of  # the game's candles: the printed ones or a pack's
    for seat in range(state.num_players):
        for action in state.legal_actions(seat):
            assert malformed(action, codes) is None
            verb, _, arg = action.partition(" ")
            if verb in ("discard", "give"):
                _candle(arg, found)
    for seat in [*range(state.num_players), None]:
        view = state.view(seat)
        if view["table"] is not None:
            _candle(view["table"], found)
        for code in view["set_aside"] + view["removed"]:
            _candle(code, found)
        for player in view["seats"]:
            for code in player["discard_pile"] + player.get("candles", []):
                _candle(code, found)
        for event in state.log(seat):
            if "candle" in event:
                _candle(event["candle"], found)
            if event["event"] == "discard":
                found.add(f"term:{event['to']}")  # "pile" or "removed"
            if event["event"] == "auction-won" and event["paid_to"] == "bank":
                found.add("term:bank")
            if event["event"] == "bonus-turn":
                found.add("term:bonus-turn")
            if event["event"] == "set-aside":
                found.add("term:set-aside")
    return found


def seen(view: dict[str, Any], log: list[dict[str, Any]], seat: int | None) -> None:
    if view["over"]:
        return
    for player in view["seats"]:
        if player["seat"] == seat:
            assert "candles" in player and "shekels" in player
            continue
        hidden = {"candles", "shekels", "colours", "candle_value"} & set(player)
        assert not hidden, f"seat {seat} sees seat {player['seat']}'s {hidden}"
    for entry in log:  # every Candle Quest event is public; nothing else rides along
        assert set(entry) <= {
            "event",
            "seat",
            "candle",
            "price",
            "received",
            "bid",
            "amount",
            "paid_to",
            "from",
            "cost",
            "to",
            "count",
            "target",
            "turn",
            "reason",
            "winners",
        }, entry


CONFORMANCE = Conformance(
    invariant=invariant,
    story=story,
    shown_codes=shown_codes,
    seen=seen,
    # The Dancing candles of the Advanced game are shown only with this option.
    word_options={"advanced": ({"dancing": "all"},)},
    scoring_options=(("advanced", 3, {"tiebreak": "shekels"}),),
    perft_counts=CONTENT / "perft.json",
)
