"""16 Candies in a real browser: pick up and turn the cards, draw, discard, call, to the end of the
game, by clicking on the table; the rivals' hands stay card backs until the reveal."""

from __future__ import annotations

from tests.e2e.conftest import Pages, shot
from tests.e2e.test_candle_quest import create_from_lobby, is_over, play_until_over, wait_ready


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
        before = page.locator(".sc-hand .sc-half.top").first.get_attribute("title")
        turn.first.click()
        assert page.locator(".sc-hand .sc-half.top").first.get_attribute("title") != before
    # rivals' hands are backs while the round is played
    assert page.locator(".sc-rival .sc-card.back").count() >= 4
    clicks = play_until_over(page, shots_at=(5, 12), prefix="sc")
    assert is_over(page), f"not over after {clicks} clicks"
    shot(page, "sc-over")
    assert "Game over" in page.locator("#banner").inner_text()
    assert page.locator(".sc-rival .sc-card.back").count() == 0  # hands revealed at the end
