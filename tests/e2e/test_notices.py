"""Notices in Chromium (issue 35; js/bell.js, js/noticeprefs.js; docs/server.md, "Turn-based games and
notices"): a signed-in player whose game waits for them sees the bell's count and "(1) Your turn" in
the title, on every page; the bell opens with the keyboard, lists the game as a link, closes with
Escape; the title follows the game when the page is shown again; the account page's choices are
saved. Each is checked with axe and photographed with the bell open at phone, laptop and desktop
sizes (/tmp/candlebox-e2e/notices-*.png)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.e2e.conftest import Pages, api, shot
from tests.e2e.test_a11y import serious
from tests.e2e.test_accounts_pages import PASSWORD, new_name, sign_in
from tests.e2e.test_layout import SIZES


class Table:
    """A game of ``name``'s (seat 0) against a guest (seat 1), played through the API."""

    def __init__(self, base: str, name: str) -> None:
        self.base = base
        made = api.post(f"{base}/api/accounts", json={"name": name, "password": PASSWORD})
        assert made.status_code == 201, made.text
        session = made.cookies["candlebox_session"]
        self.signed_in = {"Origin": base, "Cookie": f"candlebox_session={session}"}
        seats = [{"kind": "human"}, {"kind": "human"}]
        created = api.post(
            f"{base}/api/games",
            json={"game": "sixteen-candies", "seats": seats, "you": 0, "public": False},
            headers=self.signed_in,
        )
        assert created.status_code == 201, created.text
        self.id = created.json()["id"]
        claimed = api.post(
            f"{base}/api/games/{self.id}/seats/1/claim",
            json={"name": "Guest", "invite": created.json()["invites"]["1"]},
        )
        assert claimed.status_code == 200, claimed.text
        self.tokens = [created.json()["token"], claimed.json()["token"]]
        self.rng = random.Random(3)

    def waiting(self) -> list[int]:
        frame = api.get(f"{self.base}/api/games/{self.id}/state").json()
        return list(frame["view"]["pending"]["seats"])

    def play(self, seat: int) -> None:
        bearer = {"Authorization": f"Bearer {self.tokens[seat]}"}
        mine = api.get(f"{self.base}/api/games/{self.id}/state", headers=bearer).json()
        body = {"action": self.rng.choice(mine["legal"]), "expect": mine["move"]}
        answer = api.post(f"{self.base}/api/games/{self.id}/moves", json=body, headers=bearer)
        assert answer.status_code == 200, answer.text

    def players_turn(self) -> None:
        """Play until a move of the guest makes the game wait for seat 0."""
        for _ in range(100):
            waiting = self.waiting()
            if 0 in waiting:
                self.play(0)
                continue
            self.play(waiting[0])
            if 0 in self.waiting():
                return
        raise AssertionError("the game never waited for seat 0")

    def not_players_turn(self) -> None:
        while 0 in self.waiting():
            self.play(0)


def bell_count(page: Any) -> str:
    return str(page.get_attribute(".bell", "data-unread"))


@pytest.mark.parametrize("size", list(SIZES))
def test_the_bell_counts_your_turns_and_the_title_says_so(
    pages: Pages, server: Any, size: str
) -> None:
    name = new_name("N")
    table = Table(server.base, name)
    table.players_turn()
    page = pages.new()
    page.set_viewport_size({"width": SIZES[size][0], "height": SIZES[size][1]})
    sign_in(page, name)
    page.goto("/")
    page.wait_for_selector(".bell[data-unread='1']")
    page.wait_for_function("document.title.startsWith('(1) Your turn · ')")
    assert page.inner_text(".bell-count") == "1"
    assert page.get_attribute(".bell", "aria-label") == "Notices, 1 unread"
    # the keyboard: the bell is a button; Enter opens the list, Escape closes it and returns
    page.focus(".bell")
    page.keyboard.press("Enter")
    page.wait_for_selector("#bell-panel:not([hidden]) li.unread a")
    assert page.get_attribute(".bell", "aria-expanded") == "true"
    link = page.locator("#bell-panel li.unread a")
    assert link.get_attribute("href") == f"/g/{table.id}"
    assert "Your turn in 16 Candies" in link.inner_text()
    assert serious(page) == []
    shot(page, f"notices-bell-{size}")
    page.keyboard.press("Escape")
    page.wait_for_selector("#bell-panel", state="hidden")
    assert page.evaluate("document.activeElement.classList.contains('bell')")
    # the game page keeps its own title after the prefix
    page.click(".bell")
    page.click("#bell-panel li.unread a")
    page.wait_for_url(f"**/g/{table.id}")
    page.wait_for_function("document.title.startsWith('(1) Your turn · 16 Candies')")
    page.wait_for_selector(".bell[data-unread='0']")  # opened: read
    assert page.is_hidden(".bell-count")
    page.wait_for_selector("#board > *")
    page.click(".bell")
    page.wait_for_selector("#bell-panel li.read a")
    assert serious(page) == []
    shot(page, f"notices-game-{size}")
    page.keyboard.press("Escape")
    # the game moves on elsewhere: shown again, the page asks and the title follows
    table.not_players_turn()
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")
    page.wait_for_function("!document.title.startsWith('(')")


def test_mark_all_read_and_the_account_pages_choices(pages: Pages, server: Any) -> None:
    name = new_name("M")
    table = Table(server.base, name)
    table.players_turn()
    page = pages.new()
    sign_in(page, name)
    page.goto("/account")
    page.wait_for_selector(".bell[data-unread='1']")
    page.click(".bell")
    page.click("[data-action=mark-read]")
    page.wait_for_selector(".bell[data-unread='0']")
    assert page.evaluate("document.activeElement.classList.contains('bell')")
    page.keyboard.press("Escape")
    # the choices: this server sends no mail, so the two mail boxes cannot be ticked
    page.wait_for_selector("#pref-push:not([disabled])")
    assert page.is_disabled("#pref-turn_mail") and page.is_disabled("#pref-digest")
    assert page.is_checked("#pref-push")
    page.click("#pref-push")
    page.wait_for_selector("[data-panel=notices] [role=status]:has-text('Saved')")
    chosen = api.get(f"{server.base}/api/me/notices/preferences", headers=table.signed_in).json()
    assert chosen["push"] is False
    assert serious(page) == []
    shot(page, "notices-account")
