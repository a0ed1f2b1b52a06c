"""One vocabulary: the snapshot's keys are the state's slot names; a snapshot saved with the old keys
(before the slots were renamed) is still checked on load, through save.OLD_KEYS."""

from __future__ import annotations

import json
from typing import Any

import pytest

import candlebox
from candlebox.games.candelabria.save import OLD_KEYS, OLD_PART_KEYS
from candlebox.games.candelabria.state import CandelabriaState


def _played(**options: Any) -> candlebox.State:
    state = candlebox.new_game("candelabria", players=4, seed=3, **options)
    for _ in range(60):
        seat = state.to_act[0]
        state.apply(seat, state.legal_actions(seat)[-1])
    return state


def _old(saved: dict[str, Any]) -> dict[str, Any]:
    """The save as it was written before the rename."""
    new_to_old = {new: old for old, new in OLD_KEYS.items()}
    parts = {part: {new: old for old, new in keys.items()} for part, keys in OLD_PART_KEYS.items()}
    snap: dict[str, Any] = {}
    for key, value in saved["state"].items():
        if key in parts and isinstance(value, dict):
            value = {parts[key].get(k, k): v for k, v in value.items()}
        snap[new_to_old.get(key, key)] = value
    return {**saved, "state": snap}


def test_the_snapshot_keys_are_slot_names() -> None:
    snap = _played(missions=True, decay=True).to_json()["state"]
    slots = set(CandelabriaState.__slots__)
    assert not set(snap) & set(OLD_KEYS), "no old key in a new save"
    assert set(OLD_KEYS.values()) <= slots
    for part, keys in OLD_PART_KEYS.items():
        assert set(snap[part]) == set(keys.values()) <= slots


@pytest.mark.parametrize("options", [{}, {"missions": True, "decay": True}])
def test_a_save_with_the_old_keys_loads_and_is_still_checked(options: dict[str, Any]) -> None:
    state = _played(**options)
    old = json.loads(json.dumps(_old(state.to_json())))
    assert "deployed" in old["state"] and "seal_cards" not in old["state"]
    assert candlebox.load(old) == state
    old["state"]["deployed"][0][0] = "A01"  # a wrong old-key value is still caught
    with pytest.raises(ValueError, match=r"state\.seal_cards"):
        candlebox.load(old)
