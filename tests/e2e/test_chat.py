"""The table chat's panel in Chromium (issue 35; docs/server.md, "Table chat"): a message is text and
never HTML (markup shows as its characters and runs nothing), Enter sends, a folded panel counts
what came meanwhile, and at a phone's, a laptop's and a large screen's size the panel covers no
target (tests/e2e/test_cover.py's check) and axe finds no serious violation. A whole game between
two browsers with the chat open is marked ``browser_games`` (CI's second step)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.e2e.conftest import SIZES, api, shot
from tests.e2e.test_a11y import serious
from tests.e2e.test_cover import CHECK, move, wait_for_decision
from tests.server.live import ServerProcess

# what a message that were HTML would run: it marks the page
TRAP = '<img src=x onerror="document.body.dataset.pwned = 1">'


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def two_players(base: str, game: str = "candle-quest", **options: Any) -> dict[str, Any]:
    """A table of two people made through the API: its id and each seat's credential."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bea"}]
    body = {"game": game, "seats": seats, "you": 0, "public": False, "options": options}
    made = api.post(f"{base}/api/games", json=body, timeout=30)
    made.raise_for_status()
    table = made.json()
    claim = api.post(
        f"{base}/api/games/{table['id']}/seats/1/claim",
        json={"invite": table["invites"]["1"]},
        timeout=30,
    )
    claim.raise_for_status()
    return {"id": table["id"], "tokens": [table["token"], claim.json()["token"]]}


def sit(page: Any, table: dict[str, Any], seat: int | None) -> None:
    """Open the table in this browser at ``seat`` (None: as a spectator) and wait for its board."""
    if seat is not None:
        seats = {table["id"]: {"seat": seat, "token": table["tokens"][seat]}}
        page.evaluate("s => localStorage.setItem('candlebox.seats', JSON.stringify(s))", seats)
    page.goto(f"/g/{table['id']}")
    page.wait_for_selector("#board > *")
    page.wait_for_selector("#chat-panel:not([hidden])")


def is_open(page: Any) -> bool:
    return bool(page.evaluate("document.getElementById('chat-toggle').ariaExpanded === 'true'"))


def open_chat(page: Any) -> None:
    if not is_open(page):
        page.locator("#chat-toggle").click()


def send(page: Any, text: str) -> None:
    """Type a message and press Enter, as a player does."""
    open_chat(page)
    page.locator("#chat-text").fill(text)
    page.locator("#chat-text").press("Enter")
    page.wait_for_function("() => document.getElementById('chat-text').value === ''")


def shown(page: Any) -> list[str]:
    return list(
        page.evaluate("[...document.querySelectorAll('.chat-text')].map(e => e.textContent)")
    )


def wait_for_text(page: Any, text: str) -> None:
    page.wait_for_function(
        "t => [...document.querySelectorAll('.chat-text')].some(e => e.textContent === t)", arg=text
    )


def test_a_message_is_shown_as_text_and_runs_nothing(sized: Any, server: ServerProcess) -> None:
    table = two_players(server.base)
    ada, bea, watcher = sized("laptop"), sized("laptop"), sized("laptop")
    sit(ada, table, 0)
    sit(bea, table, 1)
    sit(watcher, table, None)
    send(ada, TRAP)
    for page in (ada, bea, watcher):
        wait_for_text(page, TRAP)
        assert page.evaluate("document.querySelectorAll('#chat-panel img').length") == 0
        assert page.evaluate("document.body.dataset.pwned") is None
    send(watcher, "<b>spectators only</b>")
    wait_for_text(watcher, "<b>spectators only</b>")
    assert watcher.evaluate("document.querySelectorAll('#chat-panel b').length") == 0
    send(bea, "the players' own")
    wait_for_text(ada, "the players' own")
    assert shown(ada) == [TRAP, "the players' own"]  # the spectators' message never came
    assert ada.evaluate("document.body.dataset.pwned") is None


@pytest.mark.parametrize("size", list(SIZES))
def test_the_chat_panel_covers_nothing_and_is_accessible(
    sized: Any, server: ServerProcess, size: str
) -> None:
    table = two_players(server.base)
    ada, bea = sized(size), sized("laptop")
    sit(ada, table, 0)
    sit(bea, table, 1)
    folded = size == "phone"  # below the table on a phone, folded at first
    assert is_open(ada) is not folded
    if folded:
        send(bea, "your move, Ada")
        ada.wait_for_function(
            "() => document.querySelector('.chat-unread').textContent === '1 new'"
        )
        shot(ada, f"chat-{size}-folded")
        # by keyboard: the panel's heading button opens it, the text field takes the message
        ada.locator("#chat-toggle").focus()
        ada.keyboard.press("Enter")
        ada.wait_for_function("() => document.querySelector('.chat-unread').hidden")
    else:
        send(bea, "your move, Ada")
        wait_for_text(ada, "your move, Ada")
    ada.locator("#chat-text").focus()
    ada.keyboard.type("thinking about it " * 3)
    ada.keyboard.press("Enter")
    wait_for_text(bea, ("thinking about it " * 3).strip())
    send(bea, "a long word: " + "candle" * 30)  # wraps inside the panel, never widens it
    wait_for_text(ada, "a long word: " + "candle" * 30)
    wide = ada.evaluate("document.documentElement.scrollWidth > innerWidth + 1")
    assert not wide, "the chat made the page wider than the screen"
    shot(ada, f"chat-{size}")
    if not folded:  # beside the table, the open chat leaves the game log on the screen
        log = ada.evaluate(
            "(() => { const r = document.querySelector('.log-panel').getBoundingClientRect();"
            " return [r.top, Math.min(r.bottom, innerHeight) - r.top]; })()"
        )
        assert log[1] >= 100, f"the game log shows {log[1]:.0f} pixels from {log[0]:.0f}"
    ada.locator(".chat-message:not(.mine) .chat-menu summary").first.click()  # mute, report
    shot(ada, f"chat-{size}-menu")
    assert ada.evaluate(CHECK) == []
    assert serious(ada) == []


def test_a_guests_mute_is_kept_in_the_browser(sized: Any, server: ServerProcess) -> None:
    table = two_players(server.base)
    ada, bea = sized("laptop"), sized("laptop")
    sit(ada, table, 0)
    sit(bea, table, 1)
    send(bea, "spam spam")
    wait_for_text(ada, "spam spam")
    ada.locator(".chat-message .chat-menu summary").first.click()
    ada.get_by_role("button", name="Mute Bea").click()
    ada.wait_for_selector(".chat-muted")
    assert shown(ada) == []
    ada.reload()
    ada.wait_for_selector(".chat-muted")
    assert shown(ada) == []
    ada.get_by_role("button", name="Unmute").click()
    wait_for_text(ada, "spam spam")


@pytest.mark.browser_games
@pytest.mark.parametrize("size", list(SIZES))
def test_a_whole_game_with_the_chat_open_leaves_every_target_on_top(
    sized: Any, server: ServerProcess, size: str
) -> None:
    """Two browsers play a game to its end, saying something now and then: at every decision of
    the player at ``size`` nothing covers a target."""
    table = two_players(server.base, max_turns=20)
    pages = [sized(size), sized("laptop")]
    for seat, page in enumerate(pages):
        sit(page, table, seat)
    open_chat(pages[0])
    rng = random.Random(35)
    problems: list[str] = []
    decisions = 0
    while True:
        frames = [
            api.get(f"{server.base}/api/games/{table['id']}/state", headers=auth(token)).json()
            for token in table["tokens"]
        ]
        if frames[0]["over"]:
            break
        seat = next(n for n, frame in enumerate(frames) if frame["legal"])
        page = pages[seat]
        wait_for_decision(page)
        if seat == 0:
            if decisions % 5 == 0:
                send(pages[1], f"move {decisions} coming")
                wait_for_text(pages[0], f"move {decisions} coming")
            problems += [f"decision {decisions}: {p}" for p in pages[0].evaluate(CHECK)]
            decisions += 1
        move(page, rng)
    pages[0].wait_for_selector("#replay:not([hidden])")
    shot(pages[0], f"chat-game-{size}-over")
    problems += [f"game over: {p}" for p in pages[0].evaluate(CHECK)]
    assert decisions > 0
    assert problems == []
