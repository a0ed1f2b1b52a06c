"""While a bot decides, the game page shows a spinner with the bot's name, level and time budget
(from the server's frame), and takes it away once the decision is the player's (issue 16)."""

from __future__ import annotations

import httpx

from tests.e2e.conftest import Pages, open_seat, shot


def test_a_thinking_bot_shows_a_spinner_with_its_budget(pages: Pages, server: object) -> None:
    body = {
        "game": "candle-quest",
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "level": "medium"}],
        "you": 0,
        "bot_delay": 8,  # the bot waits this long before each move: time to look
        "options": {"first_player": 1},
        "practice": True,
        "public": False,
    }
    response = httpx.post(f"{server.base}/api/games", json=body, timeout=30)  # type: ignore[attr-defined]
    response.raise_for_status()
    created = response.json()
    page = pages.new()
    page.goto("/")
    open_seat(page, created)
    note = page.locator("#banner .thinking")
    note.wait_for()
    text = note.inner_text()
    assert "Medium bot" in text and "thinking" in text and "up to 8 s" in text
    assert page.locator("#banner .thinking .spinner").is_visible()
    shot(page, "bot-thinking")
    # once the decision is the player's, the spinner is gone
    page.wait_for_selector("#banner.turn", timeout=30_000)
    assert note.count() == 0
