"""Candle Quest's re-trial by a new player (issue 36): what the banner names is on the table, and why
a missing button is missing; the notices' strip keeps the board still; resign from the game page."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import Pages, api, create_game, open_seat, shot
from tests.e2e.test_a11y import serious

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


def test_resign_from_the_game_page(sized: Any, server: Any) -> None:
    """A seated player resigns from the game page (issue 36's re-trial: only the lobby offered it):
    the Players panel asks again, by keyboard too (Escape takes the question back), with no serious
    axe violation; a yes ends the game and shows the end screen."""
    created = create_game(server.base, "candle-quest", 2, options={"first_player": 0})
    page = sized("large")
    open_seat(page, created)
    resign = page.locator("#players [data-leave='resign']")
    resign.focus()
    page.keyboard.press("Enter")
    yes = page.locator("#players [data-confirm='resign']")
    yes.wait_for()
    page.wait_for_function("() => document.activeElement?.dataset.confirm === 'resign'")
    assert "ends now with you last" in page.inner_text("#players .resign-ask")
    assert serious(page) == []
    shot(page, "cq-trial-resign-ask")
    page.keyboard.press("Escape")
    page.wait_for_function("() => document.activeElement?.dataset.leave === 'resign'")
    assert yes.count() == 0
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.activeElement?.dataset.confirm === 'resign'")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.body.dataset.over === 'true'")
    page.wait_for_selector("#endscreen")
    assert page.locator("#players [data-leave='resign']").count() == 0
    shot(page, "cq-trial-resigned")
    state = api.get(f"{server.base}/api/games/{created['id']}/state").json()
    assert state["over"]


def test_the_lobbys_resign_question_leaves_the_games_details_readable(
    sized: Any, server: Any
) -> None:
    """Asked in "Your games", the question sat beside the game's details and squeezed them into a
    column a word wide (issue 36's re-trial): it goes under them, the details keeping the card's width."""
    created = create_game(server.base, "candle-quest", 2)
    page = sized("large")
    seats = {created["id"]: {"seat": created["seat"], "token": created["token"]}}
    page.evaluate("seats => localStorage.setItem('candlebox.seats', JSON.stringify(seats))", seats)
    page.reload()
    page.locator("#mine [data-leave='resign']").click()
    page.wait_for_selector("#mine [data-confirm='resign']")
    card = page.locator("#mine .game-card").first
    widths = card.evaluate(
        "c => [c.getBoundingClientRect().width, c.querySelector('.gc-title').getBoundingClientRect().width,"
        " c.querySelector('.gc-confirm').getBoundingClientRect().top,"
        " c.querySelector('.gc-title').getBoundingClientRect().bottom]"
    )
    shot(page, "cq-trial-lobby-resign")
    card_width, title_width, question_top, title_bottom = widths
    assert title_width > card_width / 2, f"the title {title_width:.0f} px wide in {card_width:.0f}"
    assert question_top >= title_bottom  # under the details, not beside them


def test_the_turn_panel_does_not_repeat_the_banner(sized: Any, server: Any) -> None:
    """At a laptop's size the "Your turn" panel repeated the banner's sentence word for word (issue
    36's re-trial): the banner says it once, the panel holds the choices."""
    created = create_game(server.base, "candle-quest", 2, options={"first_player": 0})
    page = sized("laptop")
    open_seat(page, created)
    page.wait_for_selector('#board [data-action="flip"].can-move')
    prompt = page.inner_text("#banner").splitlines()[0].strip()
    assert prompt.startswith("It is your turn")
    assert prompt not in page.inner_text("#board .cq-decision")


def test_the_end_screen_ends_the_move_notices_and_the_decision_panel(
    sized: Any, server: Any
) -> None:
    """Once the end screen shows, bots' moves are no longer narrated under it and no empty decision
    panel stays on the table (issue 36's re-trial: "Taper auctions…" after the end, a white box)."""
    created = create_game(server.base, "candle-quest", 2, options={"first_player": 0})
    page = sized("laptop")
    open_seat(page, created)
    page.wait_for_selector('#board [data-action="flip"].can-move')
    for n in range(4):  # a queue of bot moves' notices, two on show and two waiting
        page.evaluate(NOTICE, f"Wick flips Red candle (value {n + 5})")
    page.wait_for_selector("#notices .notice.move")
    bearer = {"Authorization": f"Bearer {created['token']}"}
    resigned = api.post(f"{server.base}/api/games/{created['id']}/resign", headers=bearer)
    assert resigned.status_code == 200, resigned.text
    page.wait_for_selector("#endscreen")
    # those shown fade at once (0.6 s), those waiting never come
    page.wait_for_function("() => !document.querySelector('#notices .notice.move')", timeout=2_000)
    page.evaluate(NOTICE, "Wick buys Red candle (value 5) for 5")
    assert page.locator("#notices .notice.move").count() == 0
    assert not page.evaluate(
        "() => [...document.querySelectorAll('#board .cq-decision')].some((el) => el.checkVisibility())"
    )
    shot(page, "cq-trial-ended")


def test_silver_looks_unlike_unlit(sized: Any, server: Any) -> None:
    """The Silver candle was grey like an Unlit one (issue 36's re-trial): its band is a metallic
    sheen and its colours differ from the Unlit's."""
    created = create_game(server.base, "candle-quest", 2, options={"first_player": 0})
    page = sized("laptop")
    open_seat(page, created)
    looks = page.evaluate(
        """() => Object.fromEntries(['k-silver', 'k-unlit'].map((kind) => {
          const card = document.createElement('div');
          card.className = `cq-card md ${kind}`;
          document.querySelector('#board').append(card);
          const band = getComputedStyle(card, '::before').backgroundImage;
          const face = getComputedStyle(card).backgroundImage;
          const colour = getComputedStyle(card).getPropertyValue('--c').trim();
          card.remove();
          return [kind, { band, face, colour }];
        }))"""
    )
    silver, unlit = looks["k-silver"], looks["k-unlit"]
    assert silver["band"].count("rgb") >= 4, silver  # a sheen: light and dark across the band
    assert silver["face"] != unlit["face"] and silver["colour"] != unlit["colour"]


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_a_loot_badge_leaves_the_sell_value_readable(sized: Any, server: Any, size: str) -> None:
    """A pile's top marked "loot 12" still shows its small sell value: the badge hung over the card's
    foot and hid it (issue 36's re-trial). Each card size, in your area and a rival's."""
    created = create_game(server.base, "candle-quest", 2, options={"first_player": 0})
    page = sized(size)
    open_seat(page, created)
    hidden = page.evaluate(
        """() => {
          const hidden = [];
          for (const where of ['.cq-you', '.cq-rival']) {
            const area = document.querySelector(`#board ${where}`) || document.querySelector('#board');
            for (const cls of ['sm', 'md', 'lg']) {
              const card = document.createElement('div');
              card.className = `cq-card ${cls} k-red`;
              card.innerHTML = '<span class="face">5</span><span class="sell">◦12</span><span class="badge">loot 12</span>';
              area.append(card);
              const sell = card.querySelector('.sell').getBoundingClientRect();
              const badge = card.querySelector('.badge').getBoundingClientRect();
              const overlap = !(sell.right <= badge.left || badge.right <= sell.left
                || sell.bottom <= badge.top || badge.bottom <= sell.top);
              if (overlap) hidden.push(`${where} ${cls}`);
              card.remove();
            }
          }
          return hidden;
        }"""
    )
    assert hidden == [], f"the badge covers the sell value on: {hidden}"


@pytest.mark.parametrize("size", ["phone", "laptop", "large"])
def test_the_gold_badge_marks_the_seat_to_act(sized: Any, server: Any, size: str) -> None:
    """Bidding in a rival's auction, a newcomer saw the gold "turn" badge on the rival and read the
    move as the rival's (issue 36's re-trial): gold goes to the seat the game waits on, saying what it
    does; the auctioneer keeps a plain "turn"."""
    body = {
        "game": "candle-quest",
        "options": {"first_player": 1, "deck": ["Y2"]},
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bea"}],
        "you": 0,
        "practice": True,
    }
    created = api.post(f"{server.base}/api/games", json=body, timeout=30).json()
    claimed = api.post(
        f"{server.base}/api/games/{created['id']}/seats/1/claim",
        json={"name": "Bea", "invite": created["invites"]["1"]},
        timeout=30,
    ).json()
    page = sized(size)
    open_seat(page, created)
    badges = "(s) => [...document.querySelectorAll(s)].map((b) => [b.textContent, b.className])"
    page.wait_for_selector("#board .cq-rival .cq-turnmark")
    assert page.evaluate(badges, "#board .cq-rival .cq-turnmark") == [["turn", "cq-turnmark"]]
    assert page.evaluate(badges, "#board .cq-you .cq-turnmark") == []
    for move, action in enumerate(["flip", "auction 2"]):  # Bea auctions the Yellow 2: your bid
        api.post(
            f"{server.base}/api/games/{created['id']}/moves",
            json={"action": action, "expect": move},
            headers={"Authorization": f"Bearer {claimed['token']}"},
            timeout=30,
        ).raise_for_status()
    page.wait_for_selector('#board button[data-action="pass"].can-move')
    shot(page, f"cq-badge-bid-{size}")
    assert page.evaluate(badges, "#board .cq-you .cq-turnmark") == [["your bid", "cq-turnmark"]]
    rival = page.evaluate(badges, "#board .cq-rival .cq-turnmark")
    assert rival == [["turn", "cq-turnmark waiting"]], rival
    plain, gold = page.evaluate(
        """() => ['.cq-rival', '.cq-you'].map((s) => getComputedStyle(
             document.querySelector(`#board ${s} .cq-turnmark`)).backgroundColor)"""
    )
    assert plain != gold
