"""The lobby pages through its lists: a server with two games per page, five open games, and the
"More" button showing the next page until there is none."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import Pages, create_game, shot
from tests.server.live import ServerProcess


@pytest.fixture
def small_pages(tmp_path: Path) -> Iterator[ServerProcess]:
    process = ServerProcess(
        f"sqlite:///{tmp_path / 'lobby.sqlite3'}",
        tmp_path / "server.log",
        env={"CANDLEBOX_LOBBY_PAGE": "2"},
    )
    process.start()
    try:
        yield process
    finally:
        process.stop()


def test_the_lobby_pages_through_open_games(browser: object, small_pages: ServerProcess) -> None:
    made = []
    for _ in range(5):
        response = small_pages.post(
            "/api/games", {"game": "candle-quest", "seats": [{}, {}], "you": 0}
        )
        assert response.status_code == 201, response.text
        made.append(response.json()["id"])
    newest_first = made[::-1]
    pages = Pages(browser, small_pages.base)
    try:
        page = pages.new()
        page.goto("/")
        cards = page.locator("#open .game-card")
        more = page.locator("#open button.more")

        def shown() -> list[str]:
            return [card.get_attribute("data-game") for card in cards.all()]

        page.wait_for_function("document.querySelectorAll('#open .game-card').length === 2")
        assert shown() == newest_first[:2]
        more.click()
        page.wait_for_function("document.querySelectorAll('#open .game-card').length === 4")
        assert shown() == newest_first[:4]
        more.click()
        page.wait_for_function("document.querySelectorAll('#open .game-card').length === 5")
        assert shown() == newest_first and more.count() == 0
        shot(page, "lobby-pages")
        # the next poll keeps the pages asked for
        page.wait_for_timeout(5500)
        assert shown() == newest_first
    finally:
        pages.close()
    assert not pages.errors, pages.errors


def test_your_private_game_is_listed_with_its_players(pages: Pages, server: object) -> None:
    """A private game is on no lobby list, so "Your games" asks for it by id; the answer's seats come
    beside the game, and the card shows its players without a script error (the pages fixture fails
    the test on any)."""
    created = create_game(server.base, "candle-quest", 2)  # type: ignore[attr-defined]
    page = pages.new()
    page.goto("/")
    seats = {created["id"]: {"seat": created["seat"], "token": created["token"]}}
    page.evaluate("seats => localStorage.setItem('candlebox.seats', JSON.stringify(seats))", seats)
    page.reload()
    card = page.locator(f"#mine .game-card[data-game='{created['id']}']")
    card.wait_for()
    assert "Ada" in card.inner_text()
    assert "in play" in card.inner_text()
