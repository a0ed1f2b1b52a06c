"""The last move's mark cannot be taken for "click here" (issue 36): a blue dashed ring around a card
that could not be clicked read as clickable to a newcomer, the gold glow being the mark of what can
be. In each game, once the board names a last move on something that makes no move now, that thing
wears no ring, outline, glow or pulse, but a blue bar under it (a map's territory: a blue tint), and
screen readers hear "last move". Looked at at the three sizes (screenshots: last-move-*.png)."""

from __future__ import annotations

import colorsys
import random
import re
from typing import Any

import pytest

from tests.e2e.conftest import api, create_game, move_and_watch, open_seat, shot, watch
from tests.server.live import ServerProcess

SIZES = {
    "phone": {"width": 390, "height": 844},
    "laptop": {"width": 1280, "height": 800},
    "desktop": {"width": 1920, "height": 1080},
}
GAMES = {  # game: players, variant, options
    "candle-quest": (3, None, {"max_turns": 60}),
    "sixteen-candies": (3, None, {}),
    "candelabria": (3, "standard", {"max_turns": 12}),
}

# The last move's marks on what makes no move now (a target wears the one mark of what can be
# clicked, and no other), each with how it looks: its outline, filter, shadow (the bar under an HTML
# element is a shadow) and animation, and what a screen reader hears of it.
LAST = """() => [...document.querySelectorAll('#board .last-move')]
  .filter((el) => !el.closest('.can-move') && !el.querySelector('.can-move'))
  .filter((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; })
  .map((el) => {
    const s = getComputedStyle(el);
    const described = (el.getAttribute('aria-describedby') || '').split(' ').filter(Boolean)
      .map((id) => document.getElementById(id)?.textContent || '').join(' ');
    return {
      what: el.outerHTML.slice(0, 100),
      outline: s.outlineStyle,
      filter: s.filter,
      shadow: s.boxShadow,
      // a pulse repeats; a card's one fade-in as it arrives (words.css .arrive) is none
      animation: s.animationIterationCount === 'infinite' ? s.animationName : 'none',
      svg: el instanceof SVGElement,
      described,
    };
  })"""
# The seat who made the last move, as it is marked (its outline and shadow); the seat to act now, if
# it is that one, wears the mark of whose turn it is instead
MOVER = """() => [...document.querySelectorAll('#board .last-mover')]
  .filter((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; })
  .map((el) => {
    const s = getComputedStyle(el);
    return { what: el.outerHTML.slice(0, 100), acting: el.classList.contains('acting'),
      outline: `${s.outlineStyle} ${s.outlineColor}`, shadow: s.boxShadow };
  })"""
RING = "rgb(255, 210, 63)"  # the clickable ring's gold (base.css --move-ring)
BLUE = "rgb(47, 134, 214)"  # the last move's bar (words.css --last-move)


def golden(style: str) -> list[str]:
    """The colours in a computed style that read as the clickable gold (base.css --move-ring and
    --move-glow, and any yellow to amber near them): a hue of 30-60 degrees, saturated and light."""
    found = []
    for match in re.finditer(r"rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)", style):
        red, green, blue = (int(match.group(i)) / 255 for i in (1, 2, 3))
        alpha = float(match.group(4) or 1)
        hue, lightness, saturation = colorsys.rgb_to_hls(red, green, blue)
        if alpha > 0.1 and 30 <= hue * 360 <= 60 and saturation > 0.5 and lightness > 0.35:
            found.append(match.group(0))
    return found


def mark_shown(page: Any, base: str, created: dict[str, Any]) -> list[dict[str, Any]]:
    """Random moves for our seat through the API (bots answer) until the open page marks a last
    move on something that makes no move now, and the seat who made it; its marks."""
    headers = {"Authorization": f"Bearer {created['token']}"}
    url = f"{base}/api/games/{created['id']}"
    pick = random.Random(11)
    for _ in range(300):
        frame = api.get(f"{url}/state", headers=headers, timeout=30).json()
        assert not frame["over"], "the game ended before a last move was marked"
        page.wait_for_function(
            "m => Number(document.body.dataset.move) >= m && !document.querySelector('#board.busy')",
            arg=frame["move"],
        )
        marks: list[dict[str, Any]] = page.evaluate(LAST)
        # and the seat who made it marked (a move of a seat with no panel of its own marks none)
        if marks and frame["legal"] and page.evaluate(MOVER):
            return marks
        if frame["legal"]:
            move_and_watch(page, url, headers, frame, pick.choice(frame["legal"]))
    raise AssertionError("no last move was marked on the board")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_last_move_looks_unlike_what_can_be_clicked(
    browser: Any, server: ServerProcess, game: str
) -> None:
    players, variant, options = GAMES[game]
    created = create_game(server.base, game, players, variant=variant, options=options)
    errors: list[str] = []
    context = browser.new_context(viewport=SIZES["laptop"], base_url=server.base, bypass_csp=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    watch(page, errors)
    try:
        page.goto("/")
        open_seat(page, created)
        page.wait_for_function("document.body.dataset.words")
        mark_shown(page, server.base, created)
        seen = {}
        movers = {}
        for size, box in SIZES.items():  # the mark as each screen shows it
            page.set_viewport_size(box)
            seen[size] = page.evaluate(LAST)
            movers[size] = page.evaluate(MOVER)
            first = page.locator("#board .last-move:not(.can-move)").first
            if first.count():
                first.scroll_into_view_if_needed()
            shot(page, f"last-move-{game}-{size}")
    finally:
        context.close()
    assert not errors, errors
    for size, marks in seen.items():
        for mark in marks:
            where = f"{size}: {mark['what']}"
            # nothing of the clickable mark: no ring or outline around it, no glow, no pulse
            assert mark["outline"] == "none", f"{where}: outlined ({mark['outline']})"
            assert mark["filter"] == "none", f"{where}: a glow ({mark['filter']})"
            assert RING not in mark["shadow"], f"{where}: the clickable ring ({mark['shadow']})"
            assert mark["animation"] == "none", f"{where}: it pulses ({mark['animation']})"
            # its own mark: a blue bar under an HTML element, and words for screen readers
            if not mark["svg"]:
                assert BLUE in mark["shadow"], f"{where}: no blue bar under it ({mark['shadow']})"
            assert mark["described"] == "last move", f"{where}: described as {mark['described']!r}"
    # the seat who made it: marked, in the last move's blue, and in nothing of the clickable gold
    # (issue 36: an inset gold outline around a rival's panel read as "click it")
    for size, marked in movers.items():
        assert marked, f"{size}: the seat who made the last move is not marked"
        for mover in (m for m in marked if not m["acting"]):
            where = f"{size}: {mover['what']}"
            gold = golden(mover["shadow"]) + golden(mover["outline"])
            assert not gold, f"{where}: the clickable gold ({gold})"
            assert BLUE in mover["shadow"], (
                f"{where}: not in the last move's blue ({mover['shadow']})"
            )


# Whose turn it is, as a seat's panel shows it: a tint and a bar, never a ring around the panel, which
# reads as the clickable mark (issue 36's re-trial: Candelabria's gold ring around the acting house)
TURN = """() => [...document.querySelectorAll('#board .acting')]
  .filter((el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; })
  .map((el) => ({ what: el.outerHTML.slice(0, 100), shadow: getComputedStyle(el).boxShadow,
    outline: getComputedStyle(el).outlineStyle }))"""


def rings(shadow: str) -> list[str]:
    """The outer shadows of a computed box-shadow that draw a ring: no offset, no blur, a spread."""
    found = []
    for part in re.split(r",\s*(?![^()]*\))", shadow):
        lengths = [float(n) for n in re.findall(r"(-?[\d.]+)px", part)]
        if (
            "inset" not in part
            and len(lengths) == 4
            and lengths[:3] == [0, 0, 0]
            and lengths[3] > 0
        ):
            found.append(part.strip())
    return found


def test_whose_turn_is_marked_unlike_what_can_be_clicked(
    browser: Any, server: ServerProcess
) -> None:
    """Candelabria marks your own house too while you act (Candle Quest and 16 Candies tint a
    rival's panel only, with no ring: its turn passes too fast for a test to catch it)."""
    game = "candelabria"
    players, variant, options = GAMES[game]
    created = create_game(server.base, game, players, variant=variant, options=options)
    context = browser.new_context(viewport=SIZES["laptop"], base_url=server.base, bypass_csp=True)
    context.set_default_timeout(15_000)
    page = context.new_page()
    try:
        page.goto("/")
        open_seat(page, created)
        page.wait_for_selector("#board .acting")
        marks = page.evaluate(TURN)
    finally:
        context.close()
    assert marks, "no seat is marked as the one to act"
    for mark in marks:
        assert not rings(mark["shadow"]), f"{mark['what']}: a ring ({mark['shadow']})"
        assert mark["outline"] == "none", f"{mark['what']}: outlined"
