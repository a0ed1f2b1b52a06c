"""engine/wiring.py: the rules a game's leaf state module dispatches to, wired in once."""

from __future__ import annotations

from typing import Any

import pytest

from candlebox.engine import State
from candlebox.engine.wiring import PhaseRules, StackRules, StackWiring, Wiring


def _rules(tag: str) -> PhaseRules[State, str, Any, str]:
    return PhaseRules(
        do={"turn": lambda st, seat, action: None},
        legal={"turn": lambda st, seat: [f"{tag} {seat}"]},
        view=lambda st, seat: tag,
        event_view=lambda event, seat: None,
        describe=lambda st: tag,
        resample=lambda st, seat, seed: st,
        snapshot=lambda st: {},
    )


def test_wire_fills_the_dicts_a_state_module_bound_in_place() -> None:
    wiring: Wiring[State, str, Any, str] = Wiring()
    legal = wiring.legal  # what a state module binds to a global before its __init__ wires it
    with pytest.raises(AttributeError):
        wiring.rules  # noqa: B018 - unwired: nothing to call yet
    wiring.wire(_rules("first"))
    assert legal["turn"](None, 1) == ["first 1"]  # type: ignore[arg-type]
    wiring.wire(_rules("again"))  # wiring twice replaces, never merges
    assert legal["turn"](None, 1) == ["again 1"]  # type: ignore[arg-type]
    assert wiring.rules.describe(None) == "again"  # type: ignore[arg-type]
    assert list(wiring.do) == ["turn"]


def _stack_rules(tag: str) -> StackRules[State, str]:
    return StackRules(
        do=lambda st, seat, action: None,
        legal=lambda st, frame: [f"{tag} {frame}"],
        waiting=lambda st: (0,),
        secret_actions=lambda st, seat: [],
        view=lambda st, seat: tag,
        event_view=lambda event, seat: None,
        pending=lambda st, seat: None,
        describe=lambda st: tag,
        resample=lambda st, seat, seed: st,
        snapshot=lambda st: {},
        saved_snapshot=lambda saved: saved,
        steps={"next": lambda st: None},
    )


def test_a_stack_wiring_is_unset_until_wired_and_wiring_again_replaces() -> None:
    wiring: StackWiring[StackRules[State, str]] = StackWiring()
    with pytest.raises(AttributeError):
        wiring.rules  # noqa: B018 - unwired: nothing to call yet
    wiring.wire(_stack_rules("first"))
    wiring.wire(_stack_rules("again"))
    assert wiring.rules.legal(None, [1, 0]) == ["again [1, 0]"]  # type: ignore[arg-type]
    assert list(wiring.rules.steps) == ["next"]
