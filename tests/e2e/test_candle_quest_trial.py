"""Candle Quest's re-trial by a new player (issue 36): what the banner names is on the table, and why
a missing button is missing; the notices' strip keeps the board still; resign from the game page."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import Pages, create_game, open_seat, shot

# the player's turns (the bot in seat 1 flips the Yellow 2 between them)
DECK = ["P8", "Y2", "R8"]


def test_the_banner_names_only_the_buttons_there_are(pages: Pages, server: Any) -> None:
    """With a Red 8 flipped and 4 shekels, Buy is not offered: the banner said "Click Buy or Sell"
    all the same. It names what is there and says why Buy is not."""
    created = create_game(
        server.base, "candle-quest", 2, options={"first_player": 0, "deck": DECK}, bot="heuristic"
    )
    page = pages.new()
    page.goto("/")
    open_seat(page, created)
    page.locator('#board [data-action="flip"]').first.click()
    page.locator('#board button[data-action="buy"]').click()  # the Purple 8: 4 shekels left
    for _ in range(10):  # the bot's turn: an auction of its candle is passed
        page.wait_for_function(
            "() => document.querySelector('#board button[data-action=\"flip\"].can-move')"
            " || document.querySelector('#board button[data-action=\"pass\"].can-move')"
        )
        if page.locator('#board button[data-action="flip"].can-move').count():
            break
        page.locator('#board button[data-action="pass"]').click()
    page.locator('#board button[data-action="flip"]').click()
    page.wait_for_selector('#board button[data-action="sell"]')
    assert page.locator('#board [data-action="buy"]').count() == 0
    banner = page.inner_text("#banner")
    shot(page, "cq-trial-no-buy")
    assert "Buy" not in banner and "buy it," not in banner, banner
    assert "Click Sell or Auction" in banner and "(you cannot pay 8 to buy it)" in banner, banner


# A notice of one line, then one of two (a bot's move at a phone's width), through the page's own
# notices (js/ui.js, the same module instance as the page's)
NOTICE = "text => import('/static/js/ui.js').then((ui) => ui.toast(text, 'move', 1500))"
BOARD_TOP = "() => document.querySelector('#board').getBoundingClientRect().top"
SHORT = "Wick flips Red candle (value 7)"
LONG = "Wick wins the auction for Dancing candle (value 10), paying 15 to Ada, who auctioned it"


def test_notices_coming_and_going_never_move_the_board(sized: Any, server: Any) -> None:
    """At 390x844 a bot's notice of two lines grew the strip above the table and the page jumped
    ~20 px (issue 36's re-trial): the strip keeps one height, empty or holding one or two lines."""
    created = create_game(server.base, "candle-quest", 2, options={"first_player": 0})
    page = sized("phone")
    open_seat(page, created)
    page.wait_for_selector('#board [data-action="flip"].can-move')
    page.wait_for_function("() => !document.querySelector('#notices .notice')")
    empty = page.evaluate(BOARD_TOP)
    heights = {}
    for text in (SHORT, LONG):
        page.evaluate(NOTICE, text)
        note = page.locator("#notices .notice").filter(has_text=text[:20])
        note.wait_for()
        heights[text] = note.evaluate("el => el.getBoundingClientRect().height")
        assert page.evaluate(BOARD_TOP) == empty, f"the board moved for {text!r}"
        assert note.get_attribute("title") == text
        shot(page, f"cq-trial-notice-{len(heights)}")
        page.wait_for_function("() => !document.querySelector('#notices .notice')")
        assert page.evaluate(BOARD_TOP) == empty
    assert heights[LONG] > heights[SHORT]  # the long one did take two lines
