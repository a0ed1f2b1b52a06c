"""Fit and feel in a real browser: every game at its smallest and largest player count, on a phone
(390×844), a laptop (1280×800) and a large screen (1920×1080). The page never scrolls sideways, your
own hand or screen and the decision are in view on the laptop without scrolling, and every element
that takes a click on the board is at least 24×24 px with its centre on itself, and axe-core finds no
serious or critical accessibility violation. Screenshots go to
/tmp/h9-shots/ (CANDLEBOX_LAYOUT_SHOTS to change)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import SIZES, create_game, open_seat, sized_context, watch
from tests.server.live import ServerProcess

try:  # the accessibility scan runs where axe-playwright-python is installed (the e2e extra)
    from axe_playwright_python.sync_playwright import Axe
except ImportError:  # pragma: no cover - depends on the machine
    Axe = None

SHOTS = Path(os.environ.get("CANDLEBOX_LAYOUT_SHOTS", "/tmp/h9-shots"))
# (game, variant, players): each game's smallest and largest table
TABLES = [
    ("candle-quest", "basic", 2),
    ("candle-quest", "basic", 5),
    ("sixteen-candies", "standard", 2),
    ("sixteen-candies", "standard", 4),
    ("candelabria", "two-player", 2),
    ("candelabria", "standard", 5),
]
# what is "your own" part of each board, and where its decision is shown
YOURS = {
    "candle-quest": [".cq-you", ".cq-decision"],
    "sixteen-candies": [".sc-you-wrap"],
    "candelabria": [".cb-house.you", ".cb-decision"],
}

# Each clickable thing on the board: big enough, and its centre lands on itself (scrolled into
# view first, as a person would). Returns the ones that fail, described. A target found covered is
# looked at again two frames later, as a person's click would come after the page settled (a board
# redrawn by a bot's move, or a card still sliding into place, is not a covered target): it waits
# for running transitions to end first.
CHECK_TARGETS = """
async () => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const look = (el) => {
    el.scrollIntoView({block: 'center', inline: 'center'});
    const r = el.getBoundingClientRect();
    const what = (el.dataset.action || el.dataset.choices) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height);
    if (r.width < 23.5 || r.height < 23.5) return 'small: ' + what;
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (!hit || !(hit === el || el.contains(hit))) return 'covered: ' + what + ' by ' + (hit ? hit.outerHTML.slice(0, 60) : 'nothing');
    return null;
  };
  const bad = [];
  for (const el of document.querySelectorAll('#board [data-action], #board [data-choices]')) {
    const r = el.getBoundingClientRect();
    if (!r.width && !r.height) continue;
    let problem = look(el);
    if (problem && problem.startsWith('covered')) {
      // let running transitions end (cards sliding into place, motion.js), at most a second
      const moving = document.getAnimations().map((a) => a.finished.catch(() => null));
      await Promise.race([Promise.all(moving), new Promise((done) => setTimeout(done, 1000))]);
      await frame();
      if (!el.isConnected) continue; // redrawn meanwhile: its successor is checked next time
      problem = look(el);
    }
    if (problem) bad.push(problem);
  }
  return bad;
}
"""

# panels that must not sit under your sticky hand or screen when the page opens at a decision
UNCOVERED = {"sixteen-candies": [".sc-info"]}
UNDER_HAND = """
(selector) => {
  const panel = document.querySelector(selector);
  const hand = document.querySelector('.sc-you-wrap, .cq-you');
  if (!panel || !hand) return false;
  const a = panel.getBoundingClientRect(), b = hand.getBoundingClientRect();
  return a.bottom > b.top + 1 && a.top < b.bottom - 1;
}
"""

# the board's parts that stay pinned in view while the rest scrolls under them, with their heights
# and whether the decision's buttons are in them: on a phone a pinned part must leave most of the
# screen to the table and the buttons, unless it holds them (16 Candies' hand, where you decide)
PINNED = """
() => [...document.querySelectorAll('#board *')]
  .filter((el) => ['sticky', 'fixed'].includes(getComputedStyle(el).position))
  .map((el) => [el.className, Math.round(el.getBoundingClientRect().height),
                !!el.querySelector('button')])
"""

OVERFLOW = """
() => {
  const out = [];
  const d = document.documentElement;
  if (d.scrollWidth > d.clientWidth) out.push('page ' + d.scrollWidth + ' > ' + d.clientWidth);
  for (const sel of ['.table-area', '#board', '.sidebar', '.topbar']) {
    const el = document.querySelector(sel);
    if (el && el.scrollWidth > el.clientWidth + 1) out.push(sel + ' ' + el.scrollWidth + ' > ' + el.clientWidth);
  }
  if (out.length) {  // name the innermost elements that reach past the screen's right edge
    const right = (el) => el.getBoundingClientRect().right;
    for (const el of document.querySelectorAll('body *')) {
      if (right(el) <= d.clientWidth + 0.5 || !el.getBoundingClientRect().width) continue;
      if ([...el.children].some((kid) => right(kid) > d.clientWidth + 0.5)) continue;
      const name = el.tagName.toLowerCase() + (el.className && el.className.baseVal === undefined
        ? '.' + String(el.className).trim().split(/ +/).join('.') : '');
      out.push('wide: ' + name + ' to ' + Math.round(right(el)) + ' "' + (el.textContent || '').trim().slice(0, 40) + '"');
    }
  }
  return out;
}
"""


@pytest.fixture(scope="module")
def games(server: ServerProcess) -> dict[tuple[str, int], dict[str, Any]]:
    """One game per table, made once for the module (the session's server and browser are shared);
    the bots play until it is your turn."""
    return {
        (game, players): create_game(server.base, game, players, variant, options={"max_turns": 40})
        for game, variant, players in TABLES
    }


@contextmanager
def own_page(browser: Any, server: ServerProcess, size: str) -> Iterator[Any]:
    """A page in a browser context of its own (its own storage, routes and screen size)."""
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height}, base_url=server.base, bypass_csp=True
    )
    try:
        yield context.new_page()
    finally:
        context.close()


def settled_overflow(page: Any) -> list[str]:
    """What is wider than the screen once the cards that moved have slid to their places (a card
    mid-slide from where it was is not the layout)."""
    page.wait_for_function("!document.querySelector('.sliding')", timeout=5_000)
    return list(page.evaluate(OVERFLOW))


def shoot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def wait_for_decision(page: Any) -> None:
    page.wait_for_function(
        "document.body.dataset.over === 'true' || "
        "document.querySelector('#board [data-action], #board [data-choices]')",
        timeout=20_000,
    )


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(("game", "variant", "players"), TABLES)
def test_the_board_fits_the_screen(
    browser: Any,
    server: ServerProcess,
    games: dict[tuple[str, int], dict[str, Any]],
    game: str,
    variant: str,
    players: int,
    size: str,
) -> None:
    height = SIZES[size][1]
    context = sized_context(browser, server.base, size, timeout=30_000)  # Playwright's default
    errors: list[str] = []
    try:
        page = context.new_page()
        watch(page, errors)
        page.goto("/")
        try:
            open_seat(page, games[(game, players)])
            wait_for_decision(page)
        except Exception as exc:  # a board never drawn: say what the page met on the way
            raise AssertionError(f"{exc}\nthe page's errors: {errors}") from exc
        page.wait_for_timeout(150)  # the bots' last moves settle
        shoot(page, f"{game}-{players}-{size}-decision")
        assert settled_overflow(page) == [], "the page scrolls sideways"
        if size == "laptop":
            for selector in YOURS[game]:
                box = page.evaluate(
                    "s => { const e = document.querySelector(s);"
                    " if (!e) return null; const r = e.getBoundingClientRect();"
                    " return [r.top, r.bottom]; }",
                    selector,
                )
                if box is not None:
                    assert box[0] >= 0 and box[1] <= height + 1, f"{selector} not in view: {box}"
        if size == "phone":  # what stays pinned over the table leaves room for the decision
            pinned = page.evaluate(PINNED)
            assert all(tall <= height / 4 or holds for _, tall, holds in pinned), pinned
        for panel in UNCOVERED.get(game, []):  # as the page opens (the targets' check scrolls)
            assert page.evaluate(UNDER_HAND, panel) is False, f"{panel} is under your hand"
        assert page.evaluate(CHECK_TARGETS) == []
        assert serious_violations(page) == [], "accessibility"
    finally:
        context.close()
    assert not errors


def serious_violations(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page (none checked without axe)."""
    if Axe is None:
        return []
    found = []
    for violation in Axe().run(page).response["violations"]:
        if violation["impact"] in ("serious", "critical"):
            targets = [" ".join(map(str, n["target"])) for n in violation["nodes"][:3]]
            found.append(f"{violation['id']} ({violation['impact']}): {targets}")
    return found


def test_the_board_is_drawn_with_its_stylesheet(
    browser: Any, server: ServerProcess, games: dict[tuple[str, int], dict[str, Any]]
) -> None:
    """A slow stylesheet never leaves the board drawn bare (its targets a line of text tall): the
    page waits for the game's stylesheet before it draws the board."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, base_url=server.base)
    try:
        page = context.new_page()

        def slowly(route: Any) -> None:
            page.wait_for_timeout(1500)
            route.continue_()

        page.route("**/css/games/*.css", slowly)
        page.goto("/")
        open_seat(page, games[("candelabria", 5)])
        styled = page.evaluate(
            "() => [...document.querySelectorAll('link[data-game]')].every(l => l.sheet)"
        )
        assert styled, "the board was drawn before its stylesheet arrived"
        page.unroute_all(behavior="ignoreErrors")
    finally:
        context.close()


def test_a_board_that_cannot_load_says_so(
    browser: Any, server: ServerProcess, games: dict[tuple[str, int], dict[str, Any]]
) -> None:
    """A board module refused on the way (a rate limit, a dropped connection) leaves no blank
    table without a word: the page says the table could not be drawn, with a Reload button."""
    with own_page(browser, server, "laptop") as page:
        page.route("**/js/games/*.js", lambda route: route.fulfill(status=429, body="slow down"))
        page.goto("/")
        open_seat(page, games[("candle-quest", 2)], drawn=False)
        page.get_by_text("The table could not be drawn: the connection dropped").wait_for()
        page.unroute("**/js/games/*.js")
        page.get_by_role("button", name="Reload").click()  # and a reload draws it
        page.wait_for_selector("#board [data-action], #board [data-choices]")
        page.unroute_all(behavior="ignoreErrors")


def test_a_toast_covers_nothing(
    browser: Any, server: ServerProcess, games: dict[tuple[str, int], dict[str, Any]]
) -> None:
    """A toast (on a phone it used to sit over the hand for seconds) goes in the notices' region in
    the table's flow (issue 36): it lies over no card, button or words of the table."""
    with own_page(browser, server, "phone") as page:
        page.goto("/")
        refused = {**games[("candle-quest", 2)], "token": "not-a-credential"}
        open_seat(page, refused)  # the credential refused: a toast, and the table as a spectator
        page.wait_for_selector("#notices .toast")
        covered = page.evaluate(
            "() => { const a = document.querySelector('.toast').getBoundingClientRect();"
            " return [...document.querySelectorAll('#banner, #board *, #title')].filter((el) => {"
            "  const b = el.getBoundingClientRect();"
            "  return b.width && a.left < b.right && b.left < a.right && a.top < b.bottom"
            "   && b.top < a.bottom; }).map((el) => el.className); }"
        )
        assert covered == [], "the toast lies over the table"


def test_a_map_wider_than_the_phone_says_it_pans(pages: Any, server: ServerProcess) -> None:
    """Candelabria's map keeps a finger's size on a phone and pans inside its frame; a line above it
    says so there, and only there (a playtester never found the regions past the right edge)."""
    created = create_game(server.base, "candelabria", 3, "standard", options={"max_turns": 6})
    page = pages.new()
    for size, shown in (("phone", True), ("laptop", False)):
        page.set_viewport_size(dict(zip(("width", "height"), SIZES[size], strict=True)))
        page.goto("/")
        open_seat(page, created)
        page.wait_for_selector(".cb-map")
        page.wait_for_function("document.querySelector('.cb-map-pan') !== null")
        # the line is set in an animation frame after the board is drawn: wait for that frame (a
        # redraw by a bot's move meanwhile sets it again a frame later), never for 200 ms
        if shown:
            page.locator(".cb-map-pan").wait_for(state="visible")
        else:
            page.evaluate(
                "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
            )
        assert page.locator(".cb-map-pan").is_visible() == shown, size
        if shown:
            box = page.locator(".cb-map-box")
            assert box.evaluate("b => b.scrollWidth > b.clientWidth")
            shoot(page, "candelabria-map-pans-phone")
