"""Verifiable shuffles in the browser: the commitment is on the page from the start, and a finished
game's page checks the revealed seed and nonce against it with Web Crypto; a practice game says so
on the page and in the lobby."""

from __future__ import annotations

import time

from tests.e2e.conftest import Pages, shot
from tests.server.live import ServerProcess

BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


def test_a_finished_game_checks_its_shuffle_in_the_browser(
    pages: Pages, server: ServerProcess
) -> None:
    body = {"game": "candle-quest", "seats": BOTS, "bot_delay": 0, "options": {"max_turns": 3}}
    game_id = server.post("/api/games", body).json()["id"]
    deadline = time.monotonic() + 30
    while not (frame := server.get(f"/api/games/{game_id}/state").json())["over"]:
        assert time.monotonic() < deadline, "the bots did not finish"
        time.sleep(0.1)
    commitment = frame["game"]["fairness"]["commitment"]
    page = pages.new()
    page.goto(f"/g/{game_id}")
    page.wait_for_selector("#fair-check")
    assert page.locator("#commitment").inner_text() == commitment
    assert page.locator("#practice").is_hidden()
    page.click("#fair-check")
    page.wait_for_selector("#fair-result.ok")
    assert page.locator("#fair-result").inner_text().startswith("Yes")
    shot(page, "fair-checked")


def test_a_practice_game_is_marked_on_its_page_and_in_the_lobby(
    pages: Pages, server: ServerProcess
) -> None:
    body = {
        "game": "candle-quest",
        "seats": [{"kind": "human"}, {"kind": "human"}],
        "seed": 5,
        "practice": True,
    }
    game_id = server.post("/api/games", body).json()["id"]
    page = pages.new()
    page.goto(f"/g/{game_id}")
    page.wait_for_selector("#practice:not([hidden])")
    assert "seed (5)" in page.locator("#practice").inner_text()
    assert page.locator("#commitment").inner_text()  # shown from the start
    assert page.locator("#fair-check").count() == 0  # nothing revealed before the end
    page.goto("/")
    page.wait_for_selector(f'[data-game="{game_id}"] .gc-practice')
    shot(page, "fair-practice-lobby")
