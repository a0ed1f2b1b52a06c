"""While a bot decides, the game page shows a spinner with the bot's name, level and time budget
(from the server's frame), and takes it away once the decision is the player's (issue 16)."""

from __future__ import annotations

from tests.e2e.conftest import Pages, api, open_seat, shot


def test_a_thinking_bot_shows_a_spinner_with_its_budget(pages: Pages, server: object) -> None:
    body = {
        "game": "candle-quest",
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "level": "medium"}],
        "you": 0,
        "bot_delay": 8,  # the bot waits this long before each move: time to look
        "options": {"first_player": 1},
        "practice": True,
        # a deal where the bot flips, then decides what to do with the candle: two decisions
        "seed": 0,
        "public": False,
    }
    response = api.post(f"{server.base}/api/games", json=body, timeout=30)  # type: ignore[attr-defined]
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
    # once the decision is the player's, the spinner is gone. The bot may decide several times
    # first (an Unlit candle flipped: it pays, then flips again and decides: four decisions, 32 s):
    # each decision is waited for within its budget, never the whole within a fixed time (with a
    # deal left to chance, 30 s for the whole failed one run in ten on an idle machine).
    for _ in range(12):  # a turn of a bot's is a few decisions
        if page.locator("#banner.turn").count():
            break
        move = page.evaluate("document.body.dataset.move")
        page.wait_for_function(
            "m => document.body.dataset.move !== m || document.querySelector('#banner.turn')",
            arg=move,
            timeout=30_000,  # 8 s, and a generous margin for a loaded machine
        )
    assert page.locator("#banner.turn").count(), "the bot never handed the decision to the player"
    assert note.count() == 0
