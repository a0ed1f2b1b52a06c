"""Page fixes of issues 35 and 36, each in a real browser: a bot playing your seat is said in the
banner and leaves nothing to click; the table chat and the game log both show in the sidebar of a
finished game with a long chat; the account page's header reads light on dark; the results panels are
styled from their first paint; a resignation puts the seat that resigned last, in words.

Screenshots at a phone's (390×844), a laptop's (1280×800) and a large screen's (1920×1080) size go to
/tmp/candlebox-e2e/ui/ (CANDLEBOX_SCREENSHOTS), to be looked at."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import SIZES, api, create_game, open_seat
from tests.e2e.test_accounts_pages import new_name, sign_up
from tests.e2e.test_endscreen import a11y_problems, play_seat
from tests.server.live import ServerProcess

SHOTS = Path(os.environ.get("CANDLEBOX_SCREENSHOTS", "/tmp/candlebox-e2e")) / "ui"


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def shots(page: Any, name: str) -> None:
    """The page at each of the three sizes (the layout settled: two frames after each resize)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.evaluate(
            "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
        )
        page.screenshot(path=str(SHOTS / f"{name}-{size}.png"))


# ----------------------------------------------------------------------------- a bot plays your seat
def test_a_bot_playing_your_seat_is_said_and_leaves_nothing_to_click(
    sized: Any, server: ServerProcess
) -> None:
    """Handed to a bot ("Let a bot play for me"), the seat's decision is the bot's: the banner said
    "Click a …" to the player all the same and the board glowed. The bots wait 10 s before each move,
    so the seat's turn lasts while the page is looked at."""
    body = {
        "game": "candle-quest",
        "variant": "basic",
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}],
        "you": 0,
        "bot_delay": 10,
        "public": False,
    }
    made = api.post(f"{server.base}/api/games", json=body, timeout=30)
    made.raise_for_status()
    page = sized("laptop")
    open_seat(page, made.json())
    page.wait_for_selector("#board .can-move", timeout=30_000)  # the bot may start: 10 s
    page.get_by_role("button", name="Let a bot play for me").click()
    page.wait_for_function(
        "() => document.querySelector('#banner').textContent.includes('is playing for you')"
    )
    banner = page.locator("#banner").inner_text()
    assert "click" not in banner.lower().replace("take my seat back", ""), banner
    assert page.locator(".can-move").count() == 0, "a target glows while the bot plays"
    assert "You's" not in page.locator("#board").inner_text()  # "Your bot's turn"
    assert page.locator("#actions [data-action]").count() == 0
    shots(page, "bot-plays-your-seat")
    page.set_viewport_size({"width": 1280, "height": 800})
    # the banner says how to play again, and does it
    page.locator("#banner").get_by_role("button", name="Take my seat back").click()
    page.wait_for_selector("#board .can-move", timeout=30_000)
    assert "is playing for you" not in page.locator("#banner").inner_text()


# ----------------------------------------------------------------------------- chat and log
def two_players(base: str) -> dict[str, Any]:
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bea"}]
    body = {
        "game": "candle-quest",
        "variant": "basic",
        "seats": seats,
        "you": 0,
        "public": False,
        "options": {"max_turns": 6},
    }
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


def play_out(base: str, table: dict[str, Any]) -> None:
    """Both seats make random legal moves through the API until the game is over."""
    rng = random.Random(35)
    for _ in range(2000):
        frames = [
            api.get(f"{base}/api/games/{table['id']}/state", headers=auth(t)).json()
            for t in table["tokens"]
        ]
        if frames[0]["over"]:
            return
        seat = next(n for n, frame in enumerate(frames) if frame["legal"])
        answer = api.post(
            f"{base}/api/games/{table['id']}/moves",
            json={"action": rng.choice(frames[seat]["legal"]), "expect": frames[seat]["move"]},
            headers=auth(table["tokens"][seat]),
        )
        answer.raise_for_status()
    raise AssertionError("the game did not end")


# Each panel's list: how much of it shows on the screen inside the sidebar, and whether the middle of
# that part is the list itself (nothing lies over it, nothing clips it away)
SHOWN = """
(selector) => {
  const el = document.querySelector(selector);
  const side = document.querySelector('.sidebar').getBoundingClientRect();
  const r = el.getBoundingClientRect();
  const top = Math.max(r.top, side.top, 0), bottom = Math.min(r.bottom, side.bottom, innerHeight);
  const shown = Math.max(0, bottom - top);
  const hit = shown > 0 ? document.elementFromPoint(r.left + r.width / 2, (top + bottom) / 2) : null;
  return {shown, onTop: Boolean(hit && (hit === el || el.contains(hit)))};
}
"""


@pytest.mark.parametrize("size", list(SIZES))
def test_the_chat_and_the_game_log_both_show_at_the_end_of_a_game(
    sized: Any, server: ServerProcess, size: str
) -> None:
    """At the end of a game (its review, its revealed shuffle) with a long chat open, the chat
    pushed the game log out of the laptop's sidebar. Both keep a part of the sidebar on the screen
    (on a phone, where the page scrolls, each is brought into view)."""
    table = two_players(server.base)
    for n in range(10):  # as long as a chat gets: each seat's burst of five long messages
        text = f"message {n}: " + "a rather long thought about the candles " * 8
        sent = api.post(
            f"{server.base}/api/games/{table['id']}/chat",
            json={"text": text},
            headers=auth(table["tokens"][n % 2]),
        )
        assert sent.status_code == 201, sent.text
    play_out(server.base, table)
    page = sized(size)
    seats = {table["id"]: {"seat": 0, "token": table["tokens"][0]}}
    page.evaluate("s => localStorage.setItem('candlebox.seats', JSON.stringify(s))", seats)
    page.evaluate("localStorage.setItem('candlebox.chatOpen', '1')")
    page.goto(f"/g/{table['id']}")
    page.wait_for_selector("#endscreen .standing")
    page.wait_for_selector("#fair-check")
    page.wait_for_function("document.querySelectorAll('.chat-text').length === 10")
    phone = size == "phone"
    problems = []
    # at least three lines of the chat, and a few moves of the log
    for selector, least in ((".chat-list", 45), ("#log", 90)):
        if phone:
            page.locator(selector).scroll_into_view_if_needed()
        seen = page.evaluate(SHOWN, selector)
        if seen["shown"] < least or not seen["onTop"]:
            problems.append(f"{selector}: {seen}")
    if not phone:  # beside the table: both in the first screen, with no scrolling of the page
        assert page.evaluate("scrollY") == 0
    page.evaluate("scrollTo(0, 0)")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"chat-and-log-over-{size}.png"))
    assert problems == []


# ----------------------------------------------------------------------------- the account header
# The lowest contrast of each header text against every colour under it (the header is a gradient:
# each of its stops), as WCAG counts it.
HEADER_CONTRAST = """
() => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const c = [r, g, b].map((v) => v / 255).map((v) => v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const under = (el) => {
    for (let e = el; e; e = e.parentElement) {
      const cs = getComputedStyle(e);
      const stops = [...cs.backgroundImage.matchAll(/rgba?\\([^)]*\\)/g)].map((m) => rgb(m[0]));
      if (stops.length) return stops;
      const bg = rgb(cs.backgroundColor);
      if (bg.length === 3 || (bg.length === 4 && bg[3] > 0)) return [bg];
    }
    return [[255, 255, 255]];
  };
  const out = [];
  for (const el of document.querySelectorAll('header *')) {
    const text = [...el.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join('').trim();
    if (!text || !el.getClientRects().length) continue;
    const worst = Math.min(...under(el).map((bg) => ratio(rgb(getComputedStyle(el).color), bg)));
    out.push([text, Math.round(worst * 100) / 100]);
  }
  return out;
}
"""


@pytest.mark.parametrize("signed_in", [True, False], ids=["account", "signin"])
def test_the_account_pages_header_reads_light_on_dark(
    sized: Any, server: ServerProcess, signed_in: bool
) -> None:
    """The brand ("Candlebox") and the name's link were the page's dark wood colour on the header's
    dark wood: axe cannot judge a gradient background, so each text is checked against its stops."""
    page = sized("laptop")
    name = new_name("U")
    if signed_in:
        sign_up(page, name)
        page.goto("/account")
    else:
        page.goto("/signin")
    page.wait_for_selector("#account-main .account-panel")
    page.wait_for_selector("#who a")
    seen = page.evaluate(HEADER_CONTRAST)
    assert any(text == "Candlebox" for text, _ in seen), seen
    assert not signed_in or any(text == name for text, _ in seen), seen
    assert [(text, worst) for text, worst in seen if worst < 4.5] == []
    assert a11y_problems(page) == []
    shots(page, f"account-header-{'account' if signed_in else 'signin'}")


# ----------------------------------------------------------------------------- results at first paint
# From the first frame the page draws: the computed style of each results panel in the first frame it
# shows in (what the player sees first), kept to compare with its style once everything loaded.
FIRST_PAINT = """
(() => {
  const PANELS = {end: '#endscreen:not([hidden])', round: '.sc-round'};
  window.firstPaint = {};
  const style = (el) => { const cs = getComputedStyle(el);
    return [cs.paddingTop, cs.backgroundColor, cs.borderTopStyle, cs.borderTopWidth].join(' '); };
  window.paintedStyle = (key) => style(document.querySelector(PANELS[key]));
  const look = () => {
    for (const [key, selector] of Object.entries(PANELS)) {
      const el = document.querySelector(selector);
      if (!(key in window.firstPaint) && el && el.getBoundingClientRect().height > 0) window.firstPaint[key] = style(el);
    }
    requestAnimationFrame(look);
  };
  requestAnimationFrame(look);
})();
"""


def test_the_results_panels_are_styled_from_their_first_paint(
    sized: Any, server: ServerProcess
) -> None:
    """On a phone the end screen and 16 Candies' round result showed bare (no padding, no border)
    at first: their stylesheets were added once they were drawn, and came after the first paint."""
    created = create_game(server.base, "sixteen-candies", 2, None, {"rounds": 1}, "heuristic")
    play_seat(server.base, created, seed=4)
    page = sized("phone", FIRST_PAINT)
    open_seat(page, created, drawn=False)
    page.wait_for_selector("#endscreen .standing")
    page.wait_for_selector(".sc-round")
    page.wait_for_function("() => 'end' in window.firstPaint && 'round' in window.firstPaint")
    for key in ("end", "round"):
        first = page.evaluate("k => window.firstPaint[k]", key)
        settled = page.evaluate("k => window.paintedStyle(k)", key)
        assert first == settled, f"{key}: first painted as {first!r}, then {settled!r}"
    shots(page, "results-first-paint")


# ----------------------------------------------------------------------------- resigning
GAMES = [("candle-quest", "basic"), ("sixteen-candies", "standard"), ("candelabria", None)]


@pytest.mark.parametrize(("game", "variant"), GAMES, ids=[g for g, _ in GAMES])
def test_a_resignation_at_the_start_ranks_that_seat_last_and_says_so(
    sized: Any, server: ServerProcess, game: str, variant: str | None
) -> None:
    """Resigned before any move (or after the bots' first), every seat had the same points: the end
    screen ranked both players "1st" and never said that anyone resigned."""
    created = create_game(server.base, game, 2, variant)
    resigned = api.post(
        f"{server.base}/api/games/{created['id']}/resign", headers=auth(created["token"])
    )
    assert resigned.status_code == 200, resigned.text
    moves = api.get(f"{server.base}/api/games/{created['id']}/state").json()["move"]
    page = sized("laptop")
    open_seat(page, created)
    page.wait_for_selector("#endscreen .standing")
    ranks = page.eval_on_selector_all(
        "#endscreen .standing", "rows => rows.map(r => [Number(r.dataset.seat), r.dataset.rank])"
    )
    assert ranks == [[1, "1"], [0, "2"]], ranks
    assert page.locator("#endscreen .standing.you .place").inner_text() == "2nd"
    said = f"resigned at move {moves}"
    assert said in page.locator("#endscreen .standing.you").inner_text()
    assert f"Ada {said}" in page.locator("#endscreen .end-summary").inner_text()
    assert page.locator("#banner").inner_text().startswith("Game over: You resigned")
    # and nobody is still to play: the decision left pending in the state is nobody's turn now
    board = page.locator("#board").inner_text()
    assert "'s turn" not in board and "Your turn" not in board, board
    shots(page, f"resigned-{game}")


# Where the log's newest entry is, against the log's frame; its scroll; how many entries
LOG_FOOT = """() => {
  const list = document.querySelector('#log');
  const frame = list.getBoundingClientRect();
  const last = list.lastElementChild ? list.lastElementChild.getBoundingClientRect() : frame;
  return {seen: last.bottom <= frame.bottom + 2 && last.top >= frame.top - 2,
          top: list.scrollTop, entries: list.children.length};
}"""


@pytest.mark.parametrize("size", ["laptop", "large"])
def test_the_log_follows_its_newest_entry_unless_scrolled_up(
    sized: Any, server: ServerProcess, size: str
) -> None:
    """At 1920x1080 the log stopped following at turn 4 of a game that went on to turn 8: the panels
    a game adds beside it made it shorter, and its foot was then measured as left by the player. It
    follows to the end; scrolled up, it stays where the player put it; scrolled back down, it
    follows again."""
    seats = [{"kind": "bot", "bot": "random"}] * 3
    body = {"game": "candle-quest", "seats": seats, "bot_delay": 0.3, "options": {"max_turns": 8}}
    game_id = server.post("/api/games", body).json()["id"]
    page = sized(size)
    page.goto(f"/g/{game_id}")
    # a log that scrolls, beyond the 40 px that still count as its foot
    page.wait_for_function("document.querySelector('#log').scrollTop > 60")
    page.evaluate("() => (document.querySelector('#log').scrollTop = 0)")  # the player reads back
    read = page.evaluate(LOG_FOOT)["entries"]
    page.wait_for_function(
        f"document.querySelector('#log').children.length > {read} + 2"
        " || document.body.dataset.over === 'true'",
        timeout=60_000,
    )
    assert page.evaluate(LOG_FOOT)["top"] == 0  # left where the player put it
    page.evaluate(
        "() => { const l = document.querySelector('#log'); l.scrollTop = l.scrollHeight; }"
    )
    page.wait_for_function("document.body.dataset.over === 'true'", timeout=120_000)
    page.wait_for_function(f"({LOG_FOOT})().seen")
    assert page.evaluate(LOG_FOOT)["seen"]
    if size == "large":
        shots(page, "log-follows-at-the-end")  # and at each size the foot stays in view
        assert page.evaluate(LOG_FOOT)["seen"]
