"""A table of bots only, made in the lobby's form (issue 33): the page keeps the owner token the
server gives, "Your games" lists the table with a Stop button (no Resign: you hold no seat), and
stopping it ends the game, which the card and the game page then say."""

from __future__ import annotations

import json

from tests.e2e.conftest import Pages, api, shot


def test_a_bot_only_table_made_in_the_lobby_can_be_stopped(pages: Pages, server: object) -> None:
    base = server.base  # type: ignore[attr-defined]
    page = pages.new()
    page.goto("/")
    page.wait_for_selector("#create")
    page.locator('[aria-label="Seat 1"] button', has_text="Bot").click()
    page.locator('select[aria-label="Seat 1 opponent"]').wait_for()
    page.get_by_role("group", name="Bot speed").get_by_role("button", name="Slow").click()
    page.click("#create")
    page.wait_for_url("**/g/*")
    game_id = page.url.rsplit("/", 1)[-1]
    kept = json.loads(page.evaluate("localStorage.getItem('candlebox.seats')"))[game_id]
    assert kept["owner"] and not kept.get("token")

    page.goto("/")
    card = page.locator(f"#mine .game-card[data-game='{game_id}']")
    card.locator("[data-leave='stop']").wait_for()
    assert card.locator("[data-leave='resign']").count() == 0
    assert card.get_by_role("link", name="Watch").count() == 1
    card.locator("[data-leave='stop']").click()
    card.locator("[data-confirm='stop']").wait_for()
    assert "nobody wins" in card.inner_text()
    shot(page, "lobby-stop-bot-table")
    card.locator("[data-confirm='stop']").click()
    ended = page.locator(f"#mine .game-card[data-game='{game_id}'][data-state='over']")
    ended.wait_for()
    assert "stopped" in ended.inner_text()

    frame = api.get(f"{base}/api/games/{game_id}/state", timeout=30).json()
    assert frame["over"] and frame["result"]["stopped"] == "creator"
    page.goto(f"/g/{game_id}")
    page.wait_for_function(
        "document.querySelector('#banner')?.textContent.includes('creator stopped')"
    )
