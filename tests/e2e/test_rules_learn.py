"""The rules page's "Learn to play" starts the learn game (issue 36: it led back to the lobby, where
the player had to find the game's Learn button again)."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import shot


def test_learn_to_play_on_the_rules_page_starts_the_learn_game(pages: Any) -> None:
    page = pages.new()
    page.goto("/rules/candelabria")
    page.locator(".rules-learn a", has_text="Learn to play").click()
    page.wait_for_url("**/g/*?learn=1", timeout=15_000)
    page.wait_for_selector("#learn-panel", state="attached")
    assert "The Curse of Candelabria" in page.locator("h1, #title").first.inner_text()
    # one game made, not one per visit of the lobby afterwards
    page.goto("/")
    page.wait_for_selector("#learn button[data-learn='candelabria']")
    assert "/g/" not in page.url
    shot(page, "rules-learn-back-to-lobby")
