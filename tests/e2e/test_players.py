"""The profile (/u/NAME) and leaderboard (/leaderboard/GAME) pages in Chromium, at a phone's, a
laptop's and a large screen's size: what they show, no serious axe violation, usable from the
keyboard alone (a screenshot of each is kept to be looked at)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from typing import Any

import pytest

from candlebox.server import ratings as ratinglib
from tests.e2e.conftest import SHOTS, Pages, httpx, shot
from tests.e2e.test_a11y import serious
from tests.e2e.test_layout import SIZES
from tests.server.seeding import RatedPlayer, seed_ratings
from tests.server.test_accounts import PASSWORD, signed_up

BOARD_GAME = "candle-quest"  # the leaderboard seeded with players, two pages of them
SETTLED = ratinglib.PAGE_SIZE + 5


def rated_game(web: Any, sessions: list[str]) -> str:
    """A rated game of Sixteen Candies the second player resigns."""
    web.cookies.set("candlebox_session", sessions[0])
    seats = [{"kind": "human"}, {"kind": "human"}]
    made = web.post(
        "/api/games", json={"game": "sixteen-candies", "seats": seats, "you": 0, "rated": True}
    ).json()
    web.cookies.clear()
    web.cookies.set("candlebox_session", sessions[1])
    claim = web.post(
        f"/api/games/{made['id']}/seats/1/claim", json={"invite": made["invites"]["1"]}
    ).json()
    web.cookies.clear()
    resign = web.post(
        f"/api/games/{made['id']}/resign", headers={"Authorization": f"Bearer {claim['token']}"}
    )
    assert resign.status_code == 200, resign.text
    return str(made["id"])


def seed_board(url: str, prefix: str) -> None:
    """Established players of ``BOARD_GAME``, written to the server's database directly."""
    seed_ratings(
        url,
        BOARD_GAME,
        (
            RatedPlayer(f"{prefix}{n:02d}", mu=30.0 + n * 0.25, sigma=1.5, rated=20 + n, won=10 + n)
            for n in range(SETTLED)
        ),
    )


@pytest.fixture(scope="module")
def people(server: Any) -> Iterator[dict[str, Any]]:
    tag = uuid.uuid4().hex[:6]
    names = [f"Ada{tag}", f"Bea{tag}"]
    headers = {"Origin": server.base}
    with httpx.Client(base_url=server.base, headers=headers, timeout=30) as web:
        sessions = [signed_up(web, name) for name in names]
        game = rated_game(web, sessions)
    prefix = f"B{tag}"
    seed_board(server.db, prefix)
    yield {"names": names, "game": game, "prefix": prefix}


def sized(pages: Pages, size: str) -> Any:
    page = pages.new()
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    return page


def tab_to(page: Any, selector: str, limit: int = 30) -> None:
    """Press Tab until ``selector`` has the focus (a keyboard user's way there)."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        if page.evaluate("s => document.activeElement?.matches(s) ?? false", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


@pytest.mark.parametrize("size", list(SIZES))
def test_the_profile_page(pages: Pages, people: dict[str, Any], size: str) -> None:
    ada, bea = people["names"]
    page = sized(pages, size)
    page.goto(f"/u/{ada}")
    page.wait_for_selector("#profile[aria-busy='false'] table.ratings")
    assert page.locator("#who").inner_text() == ada
    row = page.locator("tr[data-game='sixteen-candies']")
    cells = row.locator("td").all_inner_texts()
    assert cells[0].startswith(str(ratinglib.shown(*winner_after_one_game()))) and "?" in cells[0]
    assert cells[1:] == ["1", "1", "1"]  # rated games, played, won
    recent = page.locator(f"li.game-card[data-game='{people['game']}']")
    assert "rated" in recent.inner_text() and bea in recent.inner_text()
    assert serious(page) == []
    shot(page, f"profile-{size}")
    page.screenshot(path=str(SHOTS / f"profile-{size}-full.png"), full_page=True)
    # from the keyboard: the opponent's name, then their profile
    tab_to(page, f"li.game-card a[href='/u/{bea}']")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/u/{bea}")
    page.wait_for_selector("#profile[aria-busy='false'] table.ratings")
    assert "resigned" in page.locator("li.game-card").first.inner_text()


def winner_after_one_game() -> tuple[float, float]:
    """A new player's rating after beating another new player (OpenSkill's own numbers)."""
    model = ratinglib.MODEL
    new = model.rate([[model.rating()], [model.rating()]], ranks=[1.0, 2.0])
    return new[0][0].mu, new[0][0].sigma


@pytest.mark.parametrize("size", list(SIZES))
def test_the_leaderboard_page(pages: Pages, people: dict[str, Any], size: str) -> None:
    page = sized(pages, size)
    page.goto("/")
    page.wait_for_selector(f"#boards a[href='/leaderboard/{BOARD_GAME}']")
    tab_to(page, f"#boards a[href='/leaderboard/{BOARD_GAME}']")
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/leaderboard/{BOARD_GAME}")
    page.wait_for_selector("#board[aria-busy='false'] table.board")
    first = page.locator("table.board tbody tr").first.inner_text()
    assert f"{people['prefix']}{SETTLED - 1:02d}" in first  # the best first
    assert page.locator("table.board tbody tr").count() == ratinglib.PAGE_SIZE
    levels = page.locator("table.levels tbody tr")
    assert levels.count() == len(ratinglib.reference_levels(BOARD_GAME)) > 0
    assert serious(page) == []
    shot(page, f"leaderboard-{size}")
    page.screenshot(path=str(SHOTS / f"leaderboard-{size}-full.png"), full_page=True)
    tab_to(page, "nav.pager a[rel='next']")
    page.keyboard.press("Enter")
    page.wait_for_url("**?page=2")
    page.wait_for_selector("#board[aria-busy='false'] table.board")
    assert page.locator("table.board tbody tr").first.locator("td").first.inner_text() == str(
        ratinglib.PAGE_SIZE + 1
    )
    assert serious(page) == []


def test_a_bad_page_number_is_said_on_the_page(pages: Pages, people: dict[str, Any]) -> None:
    page = pages.new()
    page.goto(f"/leaderboard/{BOARD_GAME}?page=-3")
    page.wait_for_selector("#board[aria-busy='false'] [role='alert']")
    assert "page is a whole number" in page.locator("[role='alert']").inner_text()


def test_a_signed_in_player_follows_another_from_the_profile(
    pages: Pages, people: dict[str, Any], server: Any
) -> None:
    ada, bea = people["names"]
    page = pages.new()
    signed = page.request.post(
        f"{server.base}/api/session",
        data={"name": ada, "password": PASSWORD},  # signed_up's
        headers={"Origin": server.base},
    )
    assert signed.status == 200, signed.text()
    page.goto(f"/u/{ada}")  # one's own profile: nothing to follow
    page.wait_for_selector("#profile[aria-busy='false']")
    assert page.locator("#who-box .who-name").inner_text() == ada
    assert page.locator("#follow-button").count() == 0
    page.goto(f"/u/{bea}")
    button = page.locator("#follow-button")
    button.wait_for()
    assert (button.inner_text(), button.get_attribute("aria-pressed")) == ("Follow", "false")
    button.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#follow-button[aria-pressed='true']")
    follows = page.request.get(f"{server.base}/api/me/follows").json()["follows"]
    assert [f["name"] for f in follows] == [bea]
    assert serious(page) == []
    button.click()  # and unfollow
    page.wait_for_selector("#follow-button[aria-pressed='false']")
    assert page.request.get(f"{server.base}/api/me/follows").json()["follows"] == []
