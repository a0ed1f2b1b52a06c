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
from tests.e2e.test_endscreen import play_seat
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


# Where each part lies in the first screen of the table (the table scrolls inside its frame at a
# laptop's size: its scrollTop is 0 here, as the page opens): each part's [top, bottom] in px.
PARTS = """() => {
  const at = (s) => { const r = document.querySelector(s).getBoundingClientRect(); return [r.top, r.bottom]; };
  return { card: at('#endscreen'), buttons: at('#endscreen .end-buttons'), you: at('.cq-you'),
           table: document.querySelector('.table-area').scrollTop, height: innerHeight };
}"""


@pytest.mark.parametrize("players", [2, 3])
def test_the_end_card_leaves_your_screen_in_view_on_a_laptop(
    sized: Any, server: ServerProcess, players: int
) -> None:
    """At 1280×800, a short game over (bots, a turn limit): the results (their heading, standings and
    buttons) and your whole screen (.cq-you: your Menorah, candles and shekels) are both in the first
    screen, with nothing scrolled; your screen was below the fold under the results. With four or
    five players the rivals fill the row and the middle of the table takes a row of its own."""
    created = create_game(server.base, "candle-quest", players, options={"max_turns": 3})
    play_seat(server.base, created, seed=players)
    page = sized("laptop")
    open_seat(page, created)
    page.locator("#endscreen .standing").first.wait_for()
    page.locator(".cq-you").wait_for()
    seen = page.evaluate(PARTS)
    shot(page, f"cqflow-end-{players}-laptop")
    assert seen["table"] == 0
    for part in ("card", "buttons", "you"):
        top, bottom = seen[part]
        assert top >= 0 and bottom <= seen["height"], f"{part} at {top:.0f}-{bottom:.0f}: {seen}"
    assert seen["card"][1] <= seen["you"][0], f"the results cover your screen: {seen}"
    for size in ("phone", "large"):  # the other sizes, to be looked at
        width, height = SIZES[size]
        page.set_viewport_size({"width": width, "height": height})
        page.locator(".cq-you").wait_for()
        shot(page, f"cqflow-end-{players}-{size}")
