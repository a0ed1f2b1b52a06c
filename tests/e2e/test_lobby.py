"""The lobby pages through its lists: a server with two games per page, five open games, and the
"More" button showing the next page until there is none."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.e2e.conftest import Pages, api, create_game, shot
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


def _public_game(base: str) -> dict[str, object]:
    body = {
        "game": "candle-quest",
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}],
        "you": 0,
        "public": True,
    }
    response = api.post(f"{base}/api/games", json=body, timeout=30)
    response.raise_for_status()
    made: dict[str, object] = response.json()
    return made


def test_your_games_resign_and_abandon(pages: Pages, server: object) -> None:
    """ "Your games" shows each game's state, date and players; Resign asks again and ends the game
    with you last (it leaves "Being played" for "Finished"); Abandon closes a game nobody else
    joined; a game another person joined offers no Abandon."""
    base = server.base  # type: ignore[attr-defined]
    resigned = _public_game(base)
    abandoned = create_game(base, "sixteen-candies", 2)
    friend = api.post(
        f"{base}/api/games",
        json={"game": "candle-quest", "seats": [{"name": "Ada"}, {}], "you": 0, "public": False},
        timeout=30,
    ).json()
    claim = api.post(
        f"{base}/api/games/{friend['id']}/seats/1/claim",
        json={"name": "Bo", "invite": friend["invites"]["1"]},
        timeout=30,
    )
    assert claim.status_code == 200
    page = pages.new()
    page.goto("/")
    seats = {
        str(made["id"]): {"seat": made["seat"], "token": made["token"], "created": 1.7e12}
        for made in (resigned, abandoned, friend)
    }
    page.evaluate("seats => localStorage.setItem('candlebox.seats', JSON.stringify(seats))", seats)
    page.reload()
    card = page.locator(f"#mine .game-card[data-game='{resigned['id']}']")
    card.locator("[data-leave='resign']").wait_for()
    # your own public game is under "Your games" only, not offered again to watch
    assert page.locator(f"#playing .game-card[data-game='{resigned['id']}']").count() == 0
    assert page.locator("#playing .game-card, #playing .empty").count() >= 1  # the list is drawn
    text = card.inner_text()
    assert "in play" in text and "Ada" in text and "2023" in text  # state, players, date
    joined = page.locator(f"#mine .game-card[data-game='{friend['id']}']")
    joined.locator("[data-leave='resign']").wait_for()
    assert joined.locator("[data-leave='abandon']").count() == 0  # Bo has joined
    shot(page, "lobby-your-games")

    card.locator("[data-leave='resign']").click()
    card.locator("[data-confirm='resign']").wait_for()
    assert "ends now with you last" in card.inner_text()
    card.locator("[data-confirm='resign']").click()
    card = page.locator(f"#mine .game-card[data-game='{resigned['id']}'][data-state='over']")
    card.wait_for()
    assert "you resigned" in card.inner_text()
    assert card.get_by_role("link", name="Replay").count() == 1
    page.locator(f"#finished .game-card[data-game='{resigned['id']}']").wait_for()
    assert page.locator(f"#playing .game-card[data-game='{resigned['id']}']").count() == 0

    other = page.locator(f"#mine .game-card[data-game='{abandoned['id']}']")
    other.locator("[data-leave='abandon']").click()
    # the focus moves to the question's "Yes" (a keyboard player keeps their place)
    page.wait_for_function("document.activeElement.dataset.confirm === 'abandon'")
    other.locator("[data-confirm='abandon']").click()
    page.locator(
        f"#mine .game-card[data-game='{abandoned['id']}'][data-state='abandoned']"
    ).wait_for()
    ended = page.locator(f"#mine .game-card[data-game='{abandoned['id']}']")
    assert "abandoned" in ended.inner_text() and "16 Candies" in ended.inner_text()
    assert ended.get_by_role("link").count() == 0  # nothing left to open
    shot(page, "lobby-your-games-ended")
    gone = api.get(f"{base}/api/games/{abandoned['id']}/state", timeout=30)
    assert gone.status_code == 410
