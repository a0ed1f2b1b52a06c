"""Quick play in Chromium (candlebox/server/static/js/quickplay.js): two players in two browsers — a
guest and a signed-in player — choose the same game and count in the lobby's Quick play panel, the
first waits (its waiting time and rating window shown, keyboard and axe clean, at a phone's, a
laptop's and a desktop's size), and both are taken to the same table in seats of their own."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import Pages, api, shot
from tests.e2e.test_game_limit import refused
from tests.e2e.test_layout import SIZES

axe_module = pytest.importorskip(
    "axe_playwright_python.sync_playwright",
    reason="axe-playwright-python is not installed: pip install -e '.[e2e]'",
)

GAME = "16 Candies"  # a queue no other browser test waits in


def serious(page: Any) -> list[str]:
    results = axe_module.Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {[' '.join(map(str, n['target'])) for n in v['nodes'][:3]]}"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def choose(page: Any, players: int) -> None:
    """Choose the game and the count in the Quick play panel, by keyboard where it is a button."""
    panel = page.locator("#quick-play")
    panel.get_by_role("button", name=GAME).click()
    panel.get_by_role("button", name=str(players), exact=True).focus()
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#quick-play button[aria-pressed='true']:text-is('{players}')")


def seat_of(page: Any, game: str) -> dict[str, Any]:
    seat: dict[str, Any] = page.evaluate(
        "id => JSON.parse(localStorage.getItem('candlebox.seats') || '{}')[id]", game
    )
    return seat


def test_two_browsers_are_matched_through_quick_play(pages: Pages, server: Any) -> None:
    guest = pages.new()
    guest.goto("/")
    guest.wait_for_selector("#qp-start")
    # a guest may not ask for a rated table, and is told why
    assert guest.locator("#qp-rated").is_disabled()
    assert "signed-in" in guest.locator("#qp-rated-why").inner_text()
    assert serious(guest) == []

    member = pages.new()
    signed = member.request.post(
        f"{server.base}/api/accounts", data={"name": "Quickly", "password": "correct horse 9"}
    )
    assert signed.status == 201, signed.text()
    member.goto("/")
    member.wait_for_selector("#qp-start")
    assert member.locator("#qp-rated").is_enabled()

    choose(guest, 2)
    guest.locator("#qp-start").focus()
    guest.keyboard.press("Enter")
    guest.wait_for_selector("#qp-window")
    # the window starts at ±80 points and widens while the guest waits (how long: the machine's)
    window = guest.locator("#qp-window").inner_text()
    assert window.startswith("±") and window.endswith(" rating points"), window
    assert 80 <= int(window[1:].split()[0]) <= 1000, window
    assert "16 Candies, 2 players" in guest.locator("#qp-status").inner_text()
    assert guest.locator("#qp-cancel").is_visible()
    assert serious(guest) == []
    for size, (width, height) in SIZES.items():
        guest.set_viewport_size({"width": width, "height": height})
        guest.locator("#quick-play").scroll_into_view_if_needed()
        shot(guest, f"quickplay-waiting-{size}")
    for size, (width, height) in SIZES.items():
        member.set_viewport_size({"width": width, "height": height})
        member.locator("#quick-play").scroll_into_view_if_needed()
        shot(member, f"quickplay-choosing-{size}")

    choose(member, 2)
    member.locator("#qp-start").click()
    member.wait_for_url("**/g/**")
    guest.wait_for_url("**/g/**")
    assert guest.url == member.url
    game = guest.url.rsplit("/g/", 1)[1]
    mine, theirs = seat_of(guest, game), seat_of(member, game)
    assert {mine["seat"], theirs["seat"]} == {0, 1}
    assert mine["token"] and theirs["token"] and mine["token"] != theirs["token"]
    for page in (guest, member):
        page.wait_for_selector("#board > *")
    shot(member, "quickplay-seated-laptop")


def test_a_player_leaves_the_queue_with_cancel(pages: Pages, server: Any) -> None:
    page = pages.new()
    page.goto("/")
    page.wait_for_selector("#qp-start")
    choose(page, 4)
    page.locator("#qp-start").click()
    page.wait_for_selector("#qp-cancel")
    page.locator("#qp-cancel").focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("#qp-start")
    assert page.evaluate("sessionStorage.getItem('candlebox.ticket')") is None


def test_a_refused_quick_play_is_said_under_its_button(pages: Pages, server: Any) -> None:
    """Issue 36: a refused "Find opponents" (here: this address already waits in that queue) came as
    a notice in a corner; it is said under the button, read out, as the new-game form's."""
    page = pages.new()
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/")
    page.wait_for_selector("#qp-start")
    panel = page.locator("#quick-play")
    panel.get_by_role("button", name="The Curse of Candelabria").click()  # a queue no test waits in
    panel.get_by_role("button", name="3", exact=True).click()
    page.wait_for_selector("#quick-play button[aria-pressed='true']:text-is('3')")
    held = api.post(
        f"{server.base}/api/queue", json={"game": "candelabria", "players": 3}, timeout=30
    )
    assert held.status_code == 201, held.text
    try:
        said, place = refused(
            page, "#qp-start", "#quick-form .request-error:not([hidden])", "quickplay-refused"
        )
    finally:
        api.send("DELETE", f"{server.base}/api/queue/{held.json()['ticket']}", timeout=30)
    assert said.startswith("You are already waiting in this queue"), said
    assert 0 <= place["gap"] <= 24, f"the refusal is {place['gap']} px from its button"
    assert place["inView"], "the refusal is out of view"
    assert place["role"] == "alert" and place["describes"], place
    assert not any("queue" in notice for notice in place["notices"]), place["notices"]
