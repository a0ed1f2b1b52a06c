"""The account pages in Chromium (issue 34; docs/server.md, "Accounts and ratings"): signing up and in
with each refusal beside its field, a throttled sign-in's "try again in N s", a new password from the
operator's link, the account page (friends, export, signing out everywhere, deleting), "Your games"
from the server with a guest's games claimed at sign-up and played on another browser with the
session alone, a rematch pressed on another browser (the new seat the account's), and a friend
invited by name into a seat from the game page. Each page is checked with axe and photographed at
phone, laptop and desktop sizes (/tmp/candlebox-e2e/accounts-*.png)."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from typer.testing import CliRunner

from candlebox.cli.app import app as cli_app
from tests.e2e.conftest import Pages, api, shot
from tests.e2e.test_a11y import serious
from tests.e2e.test_layout import SIZES

PASSWORD = "correct horse battery"


def new_name(prefix: str = "P") -> str:
    return f"{prefix}{secrets.token_hex(4)}"  # 9 characters, unique across the session's server


def register(server: Any, name: str) -> None:
    """An account made through the API (another person's, or one a test signs in to)."""
    answer = api.post(f"{server.base}/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text


def fill(page: Any, values: dict[str, str]) -> None:
    for selector, value in values.items():
        page.fill(selector, value)


def sign_up(page: Any, name: str, next_path: str = "") -> None:
    page.goto(f"/signup{next_path}")
    fill(page, {"#name": name, "#new-password": PASSWORD})
    page.click("button[type=submit]")
    page.wait_for_selector(f"#who[data-state=signed-in] >> text={name}")


def sign_in(page: Any, name: str, password: str = PASSWORD) -> None:
    page.goto("/signin")
    fill(page, {"#name": name, "#password": password})
    page.click("button[type=submit]")
    page.wait_for_selector(f"#who[data-state=signed-in] >> text={name}")


def refusal(page: Any, field: str) -> str:
    """The message shown beside a field (waited for), once the field is marked invalid."""
    line = page.locator(f"#{field}-error")
    line.wait_for(state="visible")
    assert page.get_attribute(f"#{field}", "aria-invalid") == "true"
    assert page.get_attribute(f"#{field}", "aria-describedby") == f"{field}-error"
    return str(line.inner_text())


def submit_until(page: Any, field: str, expected: str) -> str:
    """Submit the form and wait for the field's refusal to say ``expected``."""
    page.click("button[type=submit]")
    page.wait_for_selector(f"#{field}-error:has-text('{expected}')")
    return refusal(page, field)


# ----------------------------------------------------------------------------- signing up and in
def test_sign_up_shows_each_refusal_beside_its_field(pages: Pages, server: Any) -> None:
    taken = new_name("T")
    register(server, taken)
    page = pages.new()
    page.goto("/signup")
    page.wait_for_selector("#who[data-state=guest] >> text=Sign in")
    fill(page, {"#name": "ab", "#new-password": PASSWORD})
    assert "at least 3 characters" in submit_until(page, "name", "at least 3")
    page.fill("#name", "Admin")
    assert "reserved" in submit_until(page, "name", "reserved")
    page.fill("#name", taken.upper())
    assert "taken" in submit_until(page, "name", "taken")
    mine = new_name()
    fill(page, {"#name": mine, "#new-password": "short"})
    assert "at least 8 characters" in submit_until(page, "new-password", "at least 8")
    assert page.locator("#name-error").is_hidden()  # the earlier refusal is gone
    page.fill("#new-password", PASSWORD)
    page.click("button[type=submit]")
    page.wait_for_url("**/")
    page.wait_for_selector(f"#who[data-state=signed-in] >> text={mine}")
    page.click("#who a")
    page.wait_for_selector(f"h1:has-text('{mine}')")
    assert "Member since" in page.inner_text("#account-main")


def test_signing_up_and_in_by_keyboard_alone(pages: Pages, server: Any) -> None:
    """The name field has the focus, Tab reaches the password, Enter sends; a refusal takes the
    focus to its field; in the lobby, Tab from the top reaches the account link first."""
    page = pages.new()
    page.goto("/signup")
    page.wait_for_selector("#name:focus")
    name = new_name()
    page.keyboard.type("x")
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_selector("#name-error:has-text('at least 3')")
    page.wait_for_selector("#name:focus")  # back to the field to mend
    page.keyboard.press("Backspace")
    page.keyboard.type(name)
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#who[data-state=signed-in] >> text={name}")
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#who') !== null")
    page.keyboard.press("Enter")
    page.wait_for_selector(f"h1:has-text('{name}')")
    page.click("[data-action=sign-out]")
    page.wait_for_selector("#who[data-state=guest]")
    page.goto("/signin")
    page.wait_for_selector("#name:focus")
    page.keyboard.type(name)
    page.keyboard.press("Tab")
    page.keyboard.type(PASSWORD)
    page.keyboard.press("Enter")
    page.wait_for_selector(f"#who[data-state=signed-in] >> text={name}")


def test_sign_in_refuses_and_says_when_to_try_again(pages: Pages, server: Any) -> None:
    name = new_name()
    register(server, name)
    page = pages.new()
    page.goto("/signin")
    fill(page, {"#name": name, "#password": "not the password"})
    assert "wrong name or password" in submit_until(page, "password", "wrong name")
    for _ in range(9):  # the tenth failure for this name within the window
        wrong = {"name": name, "password": "still not it"}
        assert api.post(f"{server.base}/api/session", json=wrong).status_code == 401
    page.fill("#password", PASSWORD)  # even the right password waits now
    page.click("button[type=submit]")
    general = page.locator(".form-error")
    general.wait_for(state="visible")
    assert "too many failed sign-ins; try again in" in general.inner_text()
    assert general.inner_text().endswith(" s")
    assert page.locator("#who[data-state=guest]").count() == 1


def test_a_reset_link_sets_a_new_password(pages: Pages, server: Any) -> None:
    name = new_name()
    register(server, name)
    result = CliRunner().invoke(
        cli_app, ["accounts", "reset", name, "--db", server.db, "--url", server.base]
    )
    assert result.exit_code == 0, result.output
    link = result.output.split()[0]
    page = pages.new()
    page.goto(link)
    page.wait_for_selector("#new-password")
    assert page.url.endswith("/reset")  # the token is out of the address bar
    page.fill("#new-password", "short")
    assert "at least 8" in submit_until(page, "new-password", "at least 8")
    page.fill("#new-password", "a brand new password")
    page.click("button[type=submit]")
    page.wait_for_selector(f"text={name}, your new password is set.")
    sign_in(page, name, "a brand new password")


# ----------------------------------------------------------------------------- your games
def guest_game(server: Any, page: Any) -> dict[str, Any]:
    """A private game against a bot made as a guest, its seat kept in this browser (as the lobby
    keeps it)."""
    body = {
        "game": "candle-quest",
        "seats": [{"kind": "human", "name": "Guest"}, {"kind": "bot", "bot": "random"}],
        "you": 0,
        "bot_delay": 0,
        "public": False,
    }
    created: dict[str, Any] = api.post(f"{server.base}/api/games", json=body, timeout=30).json()
    page.goto("/")
    seats = {created["id"]: {"seat": 0, "token": created["token"], "title": "Candle Quest"}}
    page.evaluate("seats => localStorage.setItem('candlebox.seats', JSON.stringify(seats))", seats)
    return created


def test_a_guest_game_is_claimed_and_played_on_another_browser(pages: Pages, server: Any) -> None:
    laptop = pages.new()
    created = guest_game(server, laptop)
    name = new_name()
    sign_up(laptop, name)  # the guest game becomes the account's
    card = f"#mine[data-source=account] [data-game='{created['id']}']"
    laptop.wait_for_selector(card)
    phone = pages.new()  # another browser: no seat link, only the account
    sign_in(phone, name)
    phone.wait_for_selector(f"{card} >> text=Resume")
    phone.click(f"{card} >> text=Resume")
    phone.wait_for_selector("#board > *")
    phone.wait_for_selector("#players .player.you")
    phone.evaluate("document.getElementById('all-actions').open = true")
    phone.wait_for_selector("#actions button.action")
    before = int(phone.evaluate("Number(document.body.dataset.move)"))
    phone.click("#actions button.action >> nth=0")
    phone.wait_for_function(f"Number(document.body.dataset.move) > {before}")
    kept = phone.evaluate("localStorage.getItem('candlebox.seats') || '{}'")
    assert created["token"] not in kept  # no seat link was handed to the phone
    laptop.goto(f"/g/{created['id']}")  # the first browser's link still plays
    laptop.wait_for_selector("#players .player.you")
    assert laptop.locator("#link.live").count() == 1


def test_a_rematch_pressed_on_another_browser_is_the_accounts_seat(
    pages: Pages, server: Any
) -> None:
    """The seat was taken in the laptop's browser (its link kept there); the game ends; the phone,
    signed in to the same account with no link, presses Rematch on the results and plays the new
    seat, which is the account's: the laptop finds it in "Your games"."""
    name = new_name()
    laptop = pages.new()
    sign_up(laptop, name)
    body = {
        "game": "candle-quest",
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
        "you": 0,
        "bot_delay": 0,
        "public": False,
    }
    made = laptop.evaluate(
        """body => fetch('/api/games', {method: 'POST', headers: {'Content-Type':
        'application/json'}, body: JSON.stringify(body)}).then(r => r.json())""",
        body,
    )
    seats = {made["id"]: {"seat": 0, "token": made["token"], "title": "Candle Quest"}}
    laptop.evaluate(
        "seats => localStorage.setItem('candlebox.seats', JSON.stringify(seats))", seats
    )
    resigned = api.post(
        f"{server.base}/api/games/{made['id']}/resign",
        headers={"Authorization": f"Bearer {made['token']}"},
    )
    assert resigned.status_code == 200, resigned.text
    phone = pages.new()
    sign_in(phone, name)
    phone.goto(f"/g/{made['id']}")
    phone.click("#endscreen button.rematch")
    phone.wait_for_url(lambda url: "/g/" in url and made["id"] not in url)
    phone.wait_for_selector("#players .player.you")
    rematch = phone.url.rsplit("/g/", 1)[1]
    laptop.goto("/")
    laptop.wait_for_selector(f"#mine[data-source=account] [data-game='{rematch}']")


def test_a_friend_is_invited_by_name_and_takes_the_seat(pages: Pages, server: Any) -> None:
    host_name, friend_name = new_name("H"), new_name("F")
    register(server, friend_name)
    host = pages.new()
    sign_up(host, host_name)
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}]
    body = {"game": "candle-quest", "seats": seats, "you": 0, "public": False}
    made = host.evaluate(
        """body => fetch('/api/games', {method: 'POST', headers: {'Content-Type':
        'application/json'}, body: JSON.stringify(body)}).then(r => r.json())""",
        body,
    )
    host.goto(f"/g/{made['id']}")  # no seat link kept: the session is the host's credential
    form = host.locator(".invite-friend[data-seat='1']")
    form.wait_for()
    host.fill("#invite-name-1", "Nobody_here")
    host.click(".invite-friend[data-seat='1'] button")
    host.wait_for_selector("#invite-name-1-error:has-text('no player is named')")
    host.fill("#invite-name-1", friend_name.lower())
    host.click(".invite-friend[data-seat='1'] button")
    host.wait_for_selector(f"text={friend_name} is invited to seat 2.")
    friend = pages.new()
    sign_in(friend, friend_name)
    invite = friend.locator(f"#mine [data-game='{made['id']}'].invite")
    invite.wait_for()
    assert host_name in invite.inner_text()
    invite.locator("text=Take the seat").click()
    friend.wait_for_url(f"**/g/{made['id']}")
    friend.wait_for_selector("#players .player.you")
    assert friend_name in friend.inner_text("#players .player.you")


# ----------------------------------------------------------------------------- the account page
def test_the_account_page_follows_exports_signs_out_and_deletes(pages: Pages, server: Any) -> None:
    name, friend_name = new_name(), new_name("F")
    register(server, friend_name)
    page = pages.new()
    sign_up(page, name)
    other = pages.new()
    sign_in(other, name)  # a second browser of the same account
    page.goto("/account")
    page.wait_for_selector("#follow-name")
    page.fill("#follow-name", "Nobody_here")
    page.click("#friends-title ~ form button[type=submit]")
    page.wait_for_selector("#follow-name-error:has-text('no player is named')")
    page.fill("#follow-name", name)
    page.click("#friends-title ~ form button[type=submit]")
    page.wait_for_selector("#follow-name-error:has-text('yourself')")
    page.fill("#follow-name", friend_name.upper())
    page.click("#friends-title ~ form button[type=submit]")
    page.wait_for_selector(f"[data-follows='{friend_name}']")
    exported = page.request.get(f"{server.base}/api/me/export").json()
    assert exported["account"]["name"] == name
    assert page.get_attribute("text=Export my data", "href") == "/api/me/export"
    page.click("[data-action=sign-out-everywhere]")
    page.wait_for_url("**/")
    page.wait_for_selector("#who[data-state=guest]")
    other.reload()
    other.wait_for_selector("#who[data-state=guest]")  # signed out there too
    sign_in(page, name)
    page.goto("/account")
    page.wait_for_selector("#delete-password")
    page.fill("#delete-password", "not my password")
    page.click("#delete-title ~ form button[type=submit]")
    page.wait_for_selector("#delete-password-error:has-text('wrong password')")
    page.fill("#delete-password", PASSWORD)
    page.click("#delete-title ~ form button[type=submit]")
    page.wait_for_url("**/")
    page.wait_for_selector("#who[data-state=guest]")
    gone = {"name": name, "password": PASSWORD}
    assert api.post(f"{server.base}/api/session", json=gone).status_code == 401


# ----------------------------------------------------------------------------- every size
@pytest.mark.parametrize("size", list(SIZES))
def test_the_account_pages_at_every_size(pages: Pages, server: Any, size: str) -> None:
    """Sign up (a refusal shown), sign in, the account page with a friend followed, the lobby with
    "Your games" and an invitation, and a game's header signed in: no serious axe violation, and
    a screenshot of each to look at."""
    width, height = SIZES[size]
    page = pages.new()
    page.set_viewport_size({"width": width, "height": height})
    page.goto("/signup")
    fill(page, {"#name": "ab", "#new-password": "short"})
    submit_until(page, "name", "at least 3")
    assert serious(page) == []
    shot(page, f"accounts-signup-{size}")
    page.goto("/signin")
    page.wait_for_selector("#password")
    assert serious(page) == []
    shot(page, f"accounts-signin-{size}")
    host, name = new_name("H"), new_name()
    register(server, host)
    sign_up(page, name)
    page.goto("/account")
    page.fill("#follow-name", host)
    page.click("#friends-title ~ form button[type=submit]")
    page.wait_for_selector(f"[data-follows='{host}']")
    assert serious(page) == []
    shot(page, f"accounts-account-{size}")
    # the host invites this player; this player's own game waits for them
    guest = page.evaluate(
        """() => fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({game: 'candle-quest', seats: [{kind: 'human'}, {kind: 'bot',
        bot: 'random'}], you: 0, bot_delay: 0})}).then(r => r.json())"""
    )
    inviter = pages.new()
    sign_in(inviter, host)
    made = inviter.evaluate(
        """() => fetch('/api/games', {method: 'POST', headers: {'Content-Type': 'application/json'},
        body: JSON.stringify({game: 'sixteen-candies', seats: [{kind: 'human'}, {kind: 'human'}],
        you: 0})}).then(r => r.json())"""
    )
    sent = inviter.evaluate(
        """([id, name]) => fetch(`/api/games/${id}/seats/1/invite`, {method: 'POST', headers:
        {'Content-Type': 'application/json'}, body: JSON.stringify({name})}).then(r => r.status)""",
        [made["id"], name],
    )
    assert sent == 201
    page.goto("/")
    page.wait_for_selector(f"#mine [data-game='{made['id']}'].invite")
    page.wait_for_selector(f"#mine [data-game='{guest['id']}']")
    if size == "phone":  # a game waits for this player: "Your games" comes first on a phone
        page.wait_for_selector("body[data-waiting]")
        mine, new = (
            page.locator(".mine-panel").bounding_box(),
            page.locator("#new-game").bounding_box(),
        )
        assert mine is not None and new is not None and mine["y"] < new["y"]
    assert serious(page) == []
    shot(page, f"accounts-lobby-{size}")
    page.goto(f"/g/{guest['id']}")
    page.wait_for_selector("#board > *")
    page.wait_for_selector(f"#who >> text={name}")
    shot(page, f"accounts-game-{size}")
    inviter.set_viewport_size({"width": width, "height": height})
    inviter.goto(f"/g/{made['id']}")
    inviter.wait_for_selector(".invite-friend[data-seat='1']")
    assert serious(inviter) == []
    shot(inviter, f"accounts-invite-{size}")
