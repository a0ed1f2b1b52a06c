"""Candle Quest's page where a newcomer was caught out: a loot dearer than their shekels, chosen with
one click, left them paying with candles with no way back (the rulebook has none: only a take-back
undid it); and at a game's end at a laptop's size the results pushed their own screen below the
fold. Screenshots go to /tmp/candlebox-e2e/ (cqflow-*.png)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.conftest import SIZES, create_game, open_seat, shot
from tests.e2e.test_clickable import Frame, play_until
from tests.server.live import ServerProcess


def short_loot(frame: Frame) -> str | None:
    """A loot the turn offers whose price (its label's "paying N") is more than the seat's shekels."""
    shekels = frame["view"]["seats"][frame["you"]]["shekels"]
    for action, label in zip(frame["legal"], frame["labels"], strict=True):
        paying = re.search(r"paying (\d+)", label)
        if action.startswith("loot ") and paying and int(paying.group(1)) > shekels:
            return str(action)
    return None


def moved(page: Any) -> int:
    return int(page.evaluate("Number(document.body.dataset.move)"))


@pytest.mark.parametrize("size", sorted(SIZES))
def test_a_loot_paid_in_candles_asks_first_and_can_be_declined(
    sized: Any, server: ServerProcess, size: str
) -> None:
    """At a turn offering a loot dearer than the seat's shekels, its button says the candles will pay
    too, and a click on its pile top asks first: "Don't loot" leaves the turn as it was (no move
    made, the loot still offered), "Loot it" loots and the payment in candles follows."""
    created = create_game(server.base, "candle-quest", 2, options={"max_turns": 200})
    frame = play_until(server.base, created, lambda f: short_loot(f) is not None)
    loot = short_loot(frame)
    assert loot is not None
    shekels = frame["view"]["seats"][frame["you"]]["shekels"]
    page = sized(size)
    open_seat(page, created)
    # whatever the loot's button and pile top carry (a move, or a menu asking first: js/moves.js)
    makes = f":is([data-action='{loot}'], [data-choices='{loot}'])"
    button = page.locator(f".cq-decision button{makes}")
    button.wait_for()
    assert f"you have {shekels} shekel" in button.inner_text(), button.inner_text()
    before = moved(page)
    top = page.locator(f".cq-pile[data-seat='{loot[5:]}'] .cq-card{makes}")
    top.scroll_into_view_if_needed()
    top.click()
    question = page.locator(".cq-decision .cq-ask")
    question.wait_for()
    question.scroll_into_view_if_needed()
    why = page.locator(".cq-decision .cq-ask-why").inner_text()
    assert f"you have {shekels} shekel" in why and "cannot call it off" in why, why
    shot(page, f"cqflow-loot-ask-{size}")
    assert moved(page) == before, "asking sent a move"
    page.get_by_role("button", name="Don't loot").click()
    button.wait_for()  # the turn's own choices again, the loot among them
    assert question.count() == 0 and moved(page) == before
    button.click()
    question.wait_for()
    question.locator(f"button[data-action='{loot}']").click()
    page.wait_for_function(f"Number(document.body.dataset.move) > {before}")
    page.locator(".cq-decision [data-action^='discard ']").first.wait_for()
    shot(page, f"cqflow-loot-paying-{size}")
