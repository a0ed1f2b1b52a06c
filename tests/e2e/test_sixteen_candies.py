"""16 Candies in a real browser: pick up and turn the cards, draw, discard, call, to the end of the
game, by clicking on the table; the rivals' hands stay card backs until the reveal."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.conftest import Pages, create_game, open_seat, shot
from tests.e2e.test_candle_quest import (
    create_from_lobby,
    is_over,
    move_number,
    play_until_over,
    wait_ready,
)


@pytest.mark.browser_games  # a whole game (CI's second step)
def test_play_sixteen_candies_against_bots_to_the_end(pages: Pages) -> None:
    page = pages.new()
    create_from_lobby(
        page, ["you", "bot", "bot"], max_turns=60, title="16 Candies", options={"rounds": 1}
    )
    page.wait_for_selector(".sc-board")
    wait_ready(page)
    shot(page, "sc-start")
    # turning a card changes which halves are on top before the choice is sent
    turn = page.locator(".sc-turn")
    if turn.count():
        before = page.locator(".sc-hand .sc-half.top").first.get_attribute("aria-label")
        turn.first.click()
        assert page.locator(".sc-hand .sc-half.top").first.get_attribute("aria-label") != before
    # rivals' hands are backs while the round is played
    assert page.locator(".sc-rival .sc-card.back").count() >= 4
    clicks = play_until_over(page, shots_at=(5, 12), prefix="sc")
    assert is_over(page), f"not over after {clicks} clicks"
    shot(page, "sc-over")
    assert "Game over" in page.locator("#banner").inner_text()
    assert page.locator(".sc-rival .sc-card.back").count() == 0  # hands revealed at the end


def hand_tops(page: Any) -> dict[str, str]:
    """Each card in your hand (its code) and the half the page shows on top."""
    return dict(
        page.eval_on_selector_all(
            ".sc-hand .sc-card",
            "cards => cards.map(c => [c.dataset.code, c.querySelector('.sc-half.top').getAttribute('aria-label')])",
        )
    )


def test_the_hand_shows_the_orientation_the_server_holds(pages: Pages, server: Any) -> None:
    """Turning K5-C2 and keeping it shows 2 Chocolate on top afterwards, as the game holds it (the
    page once applied the local turn again on top of the server's new orientation)."""
    deck = ["K5-C2", "G5-K2", "G6-C1", "C6-G1", "H6-K1", "H5-C2", "K4-G3", "G4-C3", "H4-K3"]
    created = create_game(
        server.base, "sixteen-candies", 2, options={"deck": deck, "first_player": 0}
    )
    page = pages.new()
    page.goto("/")
    open_seat(page, created)
    page.get_by_role("button", name="Pick up this way").wait_for()
    assert hand_tops(page)["K5-C2"] == "5 Candy Corn"
    page.get_by_role("button", name="Turn 5 Candy Corn / 2 Chocolate around").click()
    assert hand_tops(page)["K5-C2"] == "2 Chocolate"
    before = move_number(page)
    page.get_by_role("button", name="Pick up this way").click()
    page.wait_for_function(f"Number(document.body.dataset.move) > {before}")
    page.locator(".sc-draw.clickable").wait_for()
    assert hand_tops(page)["K5-C2"] == "2 Chocolate"
    # draw, discard the card drawn, then turn K5-C2 back and keep it that way
    page.locator(".sc-draw.clickable").click()
    page.locator('#board [data-action="discard G4-C3"]').click()
    page.get_by_role("button", name="Keep this way").wait_for()
    page.get_by_role("button", name="Turn 5 Candy Corn / 2 Chocolate around").click()
    before = move_number(page)
    page.get_by_role("button", name="Keep this way").click()
    page.wait_for_function(f"Number(document.body.dataset.move) > {before}")
    page.get_by_role("button", name="Keep this way").wait_for(state="detached")
    tops = hand_tops(page)
    assert tops["K5-C2"] == "5 Candy Corn"
    assert "penalty if lowest: 3" in page.locator(".sc-score").inner_text()


def test_cards_in_sentences_show_candies_not_letters(pages: Pages, server: Any) -> None:
    """Issue 36: the log's and the banner's chips said "H5 C2", letters only a tooltip explained.
    Each half is now its candy's shape in its colour and the count; the chip names the candies."""
    created = create_game(server.base, "sixteen-candies", 2, options={"first_player": 1})
    page = pages.new()
    page.goto("/")
    open_seat(page, created)
    page.locator("#log .sc-chip").first.wait_for()
    chips = page.locator(".sc-chip")
    for i in range(chips.count()):
        chip = chips.nth(i)
        text = chip.inner_text()
        assert not re.search(r"[GCKH]\d", text), text
        named = chip.get_attribute("aria-label") or ""
        assert re.search(r"Gummy Bears|Chocolate|Candy Corn|Heart Candies|Wild", named), named
        if "Wild" not in text:
            assert chip.locator("svg.sc-icon").count() >= 1
    page.locator("#log").scroll_into_view_if_needed()
    shot(page, "sixteen-candies-log-chips")
