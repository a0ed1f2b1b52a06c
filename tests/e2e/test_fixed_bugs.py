"""Bugs from issue 15 that were fixed (87d41e6, c54cf70) and had no test of their own, each in a real
browser, so that a change bringing one back fails here:

- a host whose friend's seat is still empty reads "Waiting for <friend> to join" (not "<friend> is
  taking a turn…"); "Copy join link" says on the button that it copied, or shows the link to copy by
  hand; the friend who opens the link sees an invitation card (game, seat, host) with the seat to
  take, above the table, not a spectator's page;
- picking The Curse of Candelabria while 2 players is chosen says, in words, that the two-player
  variant is the one used;
- at 5 players the last house's panel is whole on a laptop (1280×800) and a phone (390×844), and on a
  large screen (1920×1080) your own house is in view as the page opens.

Screenshots go to /tmp/candlebox-e2e/ (CANDLEBOX_SCREENSHOTS to change)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest

from tests.e2e.conftest import (
    SIZES,
    Pages,
    api,
    create_game,
    open_seat,
    shot,
    sized_context,
    sync_api,
)
from tests.server.live import ServerProcess

expect = sync_api.expect


# ----------------------------------------------------------------------------- inviting a friend


def _invite_game(base: str) -> dict[str, Any]:
    """Candle Quest for two, Ada hosting, Bea's seat empty and first to play (so the host waits on
    a seat nobody has taken yet)."""
    body = {
        "game": "candle-quest",
        "options": {"first_player": 1},
        "seats": [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bea"}],
        "you": 0,
        "bot_delay": 0,
        "public": False,
    }
    response = api.post(f"{base}/api/games", json=body, timeout=30)
    response.raise_for_status()
    created: dict[str, Any] = response.json()
    return created


def _open_as_host(page: Any, created: dict[str, Any]) -> None:
    """This browser is the host, as after "Start the game": its seat and the friends' invites."""
    page.goto("/")
    seats = {
        created["id"]: {
            "seat": created["seat"],
            "token": created["token"],
            "invites": created["invites"],
            "title": "Candle Quest",
        }
    }
    page.evaluate("seats => localStorage.setItem('candlebox.seats', JSON.stringify(seats))", seats)
    page.goto(f"/g/{created['id']}")
    page.wait_for_selector("#board > *")


def _join_link(base: str, created: dict[str, Any], seat: int) -> str:
    invite = created["invites"][str(seat)]
    return f"{base}/g/{created['id']}?seat={seat}#invite={quote(invite)}"


def _in_view(page: Any, selector: str) -> bool:
    return bool(
        page.evaluate(
            """s => { const r = document.querySelector(s).getBoundingClientRect();
                return r.width > 0 && r.top >= 0 && r.left >= 0
                  && r.bottom <= innerHeight && r.right <= innerWidth; }""",
            selector,
        )
    )


def test_the_host_waits_for_the_friend_copies_the_link_and_the_friend_sees_a_join_card(
    pages: Pages, server: ServerProcess
) -> None:
    created = _invite_game(server.base)
    link = _join_link(server.base, created, 1)
    host = pages.new()
    host.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server.base)
    _open_as_host(host, created)

    # the empty seat is named as the one not there yet, not as one taking a turn
    banner = host.locator("#banner")
    expect(banner).to_contain_text("Waiting for Bea to join")
    assert "taking a turn" not in banner.inner_text()
    shot(host, "fixed-host-waits")

    # "Copy join link" answers on the button itself, and the clipboard holds the friend's link
    host.get_by_role("button", name="Copy join link").click()
    expect(
        host.locator("#players").get_by_role("button", name=re.compile("Copied"))
    ).to_be_visible()
    assert host.evaluate("navigator.clipboard.readText()") == link

    # the friend's page opens on an invitation: which game, which seat, whose table; the seat is
    # taken from the card, in view without scrolling (not from the sidebar of a spectator's page)
    friend = pages.new()
    friend.goto(link)
    card = friend.locator("#invite")
    expect(card).to_be_visible()
    text = card.inner_text()
    assert "Candle Quest" in text, text
    assert "seat 2" in text, text
    assert "Ada" in text, text
    take = card.get_by_role("button", name="Take this seat")
    expect(take).to_be_visible()
    assert _in_view(friend, "#invite"), "the invitation is below the fold"
    assert "You are watching" not in friend.locator("#players").inner_text()
    shot(friend, "fixed-friend-join-card")

    card.locator(".name-input").fill("Bea")
    take.click()
    expect(friend.locator("#subtitle")).to_contain_text("you are Bea")
    expect(friend.locator("#invite")).to_have_count(0)
    # the host's banner stops waiting for a join once the seat is taken
    expect(banner).not_to_contain_text("to join")


def test_without_a_clipboard_the_join_link_is_shown_to_copy(
    pages: Pages, server: ServerProcess
) -> None:
    """A browser that refuses the clipboard: the button becomes the link, selected, in a box."""
    created = _invite_game(server.base)
    host = pages.new()
    host.context.add_init_script(
        "navigator.clipboard.writeText = () => Promise.reject(new Error('no clipboard here'));"
    )
    _open_as_host(host, created)
    host.get_by_role("button", name="Copy join link").click()
    field = host.get_by_role("textbox", name="Join link")
    expect(field).to_be_visible()
    expect(field).to_have_value(_join_link(server.base, created, 1))
    expect(field).to_be_focused()
    shot(host, "fixed-host-copy-by-hand")


# ----------------------------------------------------------------------------- the lobby's variant


def test_candelabria_for_two_says_it_is_the_two_player_variant(pages: Pages) -> None:
    page = pages.new()
    page.goto("/")
    players = page.get_by_role("group", name="Players")
    players.get_by_role("button", name="2", exact=True).click()
    expect(players.get_by_role("button", name="2", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    form = page.locator("#create-form")
    assert form.locator(".switched").count() == 0  # Candle Quest for two: nothing switched

    page.locator("#create-form [data-game='candelabria']").click()
    variant = page.get_by_role("group", name="Variant")
    expect(variant.get_by_role("button", name="two-player")).to_have_attribute(
        "aria-pressed", "true"
    )
    # said in words, where the form is, not only shown by which button is pressed
    note = form.get_by_role("status").filter(has_text="two-player")
    expect(note).to_be_visible()
    text = note.inner_text()
    assert re.search(r"\b2 players\b", text), text
    shot(page, "fixed-lobby-two-player-note")


# ----------------------------------------------------------------------------- Candelabria at 5


HOUSES = 5

# An element is whole on the screen: inside the viewport and the page's width, not clipped by a
# scrolling or clipping ancestor, its own content not cut, and what is at its corners and centre is
# itself (nothing laid over it). Returns what is wrong, described.
WHOLE = """
(el) => {
  const bad = [];
  const r = el.getBoundingClientRect();
  const d = document.documentElement;
  const box = `${Math.round(r.left)},${Math.round(r.top)} ${Math.round(r.width)}x${Math.round(r.height)}`;
  if (r.width < 1 || r.height < 1) return [`not drawn (${box})`];
  if (r.left < -0.5 || r.right > d.clientWidth + 0.5) bad.push(`outside the page's width ${d.clientWidth}: ${box}`);
  if (r.top < -0.5 || r.bottom > innerHeight + 0.5) bad.push(`outside the viewport ${innerWidth}x${innerHeight}: ${box}`);
  for (let a = el.parentElement; a && a !== d; a = a.parentElement) {
    const style = getComputedStyle(a);
    if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
    const c = a.getBoundingClientRect();
    const left = c.left + a.clientLeft, top = c.top + a.clientTop;
    if (r.left < left - 0.5 || r.right > left + a.clientWidth + 0.5
        || r.top < top - 0.5 || r.bottom > top + a.clientHeight + 0.5) {
      bad.push(`clipped by ${a.tagName.toLowerCase()}.${[...a.classList].join('.')}: ${box}`);
    }
  }
  if (el.scrollWidth > el.clientWidth + 1) bad.push(`its content is wider: ${el.scrollWidth} > ${el.clientWidth}`);
  if (el.scrollHeight > el.clientHeight + 1) bad.push(`its content is taller: ${el.scrollHeight} > ${el.clientHeight}`);
  // the middle of each edge (3 px in) and each corner past its rounding (12 px in), and the centre
  const x = r.left + r.width / 2, y = r.top + r.height / 2, e = 3, k = 12;
  const points = [
    [x, r.top + e], [x, r.bottom - e], [r.left + e, y], [r.right - e, y], [x, y],
    [r.left + k, r.top + k], [r.right - k, r.top + k], [r.left + k, r.bottom - k], [r.right - k, r.bottom - k],
  ];
  for (const [px, py] of points) {
    const hit = document.elementFromPoint(px, py);
    if (!hit || !el.contains(hit)) {
      bad.push(`at ${Math.round(px)},${Math.round(py)}: ${hit ? hit.outerHTML.slice(0, 70) : 'nothing'}`);
    }
  }
  return bad;
}
"""

SCROLL_TO = """
async (el) => {
  el.scrollIntoView({block: 'center', inline: 'center'});
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
}
"""


@pytest.fixture(scope="module")
def five_houses(server: ServerProcess) -> dict[str, Any]:
    """One standard Candelabria game for five (you and four bots), played by the bots to your turn."""
    return create_game(server.base, "candelabria", HOUSES, "standard", options={"max_turns": 40})


@pytest.fixture
def screen(browser: Any, server: ServerProcess, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A page at the size the test's ``size`` parameter names (a phone takes touch)."""
    size = request.node.callspec.params["size"]
    context = sized_context(browser, server.base, size)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        yield page
    finally:
        context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def _open_five(page: Any, created: dict[str, Any]) -> None:
    page.goto("/")
    open_seat(page, created)
    # the map drawn (it changes the layout once loaded), every house's panel there, a decision up
    page.wait_for_selector(".cb-map-box svg.cb-map")
    page.wait_for_function(
        f"document.querySelectorAll('.cb-house').length === {HOUSES}"
        " && (document.body.dataset.over === 'true'"
        " || !!document.querySelector('#board [data-action], #board [data-choices]'))"
    )
    page.wait_for_timeout(150)  # the bots' last moves settle


@pytest.mark.parametrize("size", ["laptop", "phone"])
def test_candelabria_the_last_house_is_not_cut_off(
    screen: Any, five_houses: dict[str, Any], size: str
) -> None:
    _open_five(screen, five_houses)
    last = screen.locator(".cb-house").last
    assert last.get_attribute("data-seat") != str(five_houses["seat"])  # a rival's, not yours
    handle = last.element_handle()
    screen.evaluate(SCROLL_TO, handle)
    shot(screen, f"fixed-cb5-last-house-{size}")
    assert screen.evaluate(WHOLE, handle) == [], "the last house's panel is cut off"
    width = screen.evaluate("document.documentElement.scrollWidth")
    assert width <= SIZES[size][0], f"the page scrolls sideways ({width} px wide)"


@pytest.mark.parametrize("size", ["large"])
def test_candelabria_your_house_is_in_view_on_a_large_screen(
    screen: Any, five_houses: dict[str, Any], size: str
) -> None:
    _open_five(screen, five_houses)
    shot(screen, f"fixed-cb5-your-house-{size}")
    yours = screen.locator(".cb-house.you")
    expect(yours).to_have_count(1)
    assert screen.evaluate(WHOLE, yours.element_handle()) == [], "your house is not in view"
