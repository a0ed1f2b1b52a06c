"""16 Candies after a new player's re-trial (issue 36): the decision's buttons in a phone's first
screen at four players, the penalty number on each half, badges inside their seat's panel, the final
turns said with the current one, and a drawn card marked "new" like a taken one."""

from __future__ import annotations

import random
import re
from typing import Any

from tests.e2e.conftest import Pages, api, create_game, open_options, open_seat, shot
from tests.e2e.test_candle_quest import move_number
from tests.e2e.test_cover import move, wait_for_decision
from tests.server.live import ServerProcess

# Every target of the decision on the board (what makes a move, the turn arrows that prepare one) and
# where it lies once the page is scrolled to its top: its box and the screen's height.
OUTSIDE_FIRST_SCREEN = """
() => {
  scrollTo(0, 0);
  for (const s of document.querySelectorAll('.table-area')) s.scrollTop = 0;
  const targets = [...document.querySelectorAll(
    '#board [data-action]:not(:disabled), #board .clickable, #board button:not(:disabled)')];
  return targets.filter((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && (r.top < 0 || r.bottom > innerHeight);
  }).map((el) => (el.dataset.action || el.textContent.trim()).slice(0, 40)
    + ' at ' + Math.round(el.getBoundingClientRect().top) + '-'
    + Math.round(el.getBoundingClientRect().bottom));
}
"""


def test_a_phones_first_screen_holds_every_decisions_targets_at_four_players(
    sized: Any, server: ServerProcess
) -> None:
    """Issue 36: at 390×844 with four players "Pick up this way", "Keep this way" and "I've got
    candy!" sat at y=870-950, below the first screen; scrolled to them, the banner was gone."""
    page = sized("phone")
    created = create_game(server.base, "sixteen-candies", 4, "standard")
    open_seat(page, created)
    rng = random.Random(36)
    problems: list[str] = []
    made = 0
    while made < 14 and wait_for_decision(page):
        found = page.evaluate(OUTSIDE_FIRST_SCREEN)
        if found and not problems:
            shot(page, "sc-phone-first-screen")
        problems += [f"decision {made}: {p}" for p in found]
        move(page, rng)
        made += 1
    assert not problems, problems
    assert made >= 6, f"only {made} decisions"


# Each badge of a seat (bot, first player, called!, out) that leaves its panel or wraps onto a second
# line: its text and why.
BADGES_OUT_OF_PLACE = """
() => [...document.querySelectorAll('.sc-rival .sc-badge')].flatMap((badge) => {
  const panel = badge.closest('.sc-rival').getBoundingClientRect();
  const r = badge.getBoundingClientRect();
  const lines = Math.round(r.height / parseFloat(getComputedStyle(badge).lineHeight || '16'));
  const out = [];
  if (r.left < panel.left || r.right > panel.right || r.top < panel.top || r.bottom > panel.bottom)
    out.push(badge.textContent + ' leaves its panel');
  if (badge.getClientRects().length > 1 || r.height > 1.6 * parseFloat(getComputedStyle(badge).fontSize) + 6)
    out.push(badge.textContent + ' wraps (' + Math.round(r.height) + ' px high, ' + lines + ' lines)');
  return out;
})
"""


def test_a_seats_badges_stay_inside_its_panel_on_one_line_on_a_phone(
    sized: Any, server: ServerProcess
) -> None:
    """Issue 36: at 390×844 with four players "called!" spilled into the next player's panel, under
    the "T" of "Taper", and "first player" wrapped onto two lines."""
    page = sized("phone")
    created = create_game(
        server.base, "sixteen-candies", 4, "standard", options={"first_player": 1}
    )
    open_seat(page, created)
    rng = random.Random(7)
    problems: list[str] = []
    seen: set[str] = set()
    for made in range(30):
        if not wait_for_decision(page):
            break
        seen |= set(
            page.eval_on_selector_all(".sc-rival .sc-badge", "bs => bs.map(b => b.textContent)")
        )
        found = page.evaluate(BADGES_OUT_OF_PLACE)
        if found and not problems:
            shot(page, "sc-phone-badges")
        problems += [f"decision {made}: {p}" for p in found]
        if "called!" in seen:
            break
        move(page, rng)
    assert "first player" in seen
    assert not problems, problems


def test_the_final_turns_include_the_one_being_taken(pages: Pages, server: ServerProcess) -> None:
    """Issue 36: after a bot called, "Final turns: Wick" showed while the player took their own final
    turn. The final turns left are said with the current one first: "you (now), then Wick"."""
    page = pages.new()
    page.goto("/")
    created = create_game(server.base, "sixteen-candies", 4, "standard")
    open_seat(page, created)
    rng = random.Random(5)
    for _ in range(80):
        if not wait_for_decision(page):
            break
        if page.evaluate("document.querySelector('.sc-callout') !== null"):
            break
        # never call: a rival's call is the state looked for
        actions: list[str] = page.evaluate(
            "() => [...document.querySelectorAll('#actions button[data-action]')]"
            ".map((b) => b.dataset.action).filter((a) => a !== 'call')"
        )
        before = page.evaluate("document.body.dataset.move")
        page.locator(f'#actions button[data-action="{rng.choice(actions)}"]').dispatch_event(
            "click"
        )
        page.wait_for_function("m => document.body.dataset.move !== m", arg=before)
    final = page.locator(".sc-info p", has_text="Final turns").inner_text()
    shot(page, "sc-final-turns")
    assert final.startswith("Final turns: You (now)"), final


def test_each_half_shows_its_penalty_and_its_count_with_names(
    pages: Pages, server: ServerProcess
) -> None:
    """Issue 36: the rules page said each half shows "a penalty number" (the rulebook prints it in
    the top-left corner), but the corner's number was the candy count and the penalty showed only in
    tooltips. Each half shows both, named: "−1" for 6 Gummy Bears, "−3" for 1 Chocolate."""
    deck = ["G6-C1", "G5-K2", "K5-C2", "C6-G1", "H6-K1", "H5-C2", "K4-G3"]
    created = create_game(
        server.base, "sixteen-candies", 2, options={"deck": deck, "first_player": 0}
    )
    page = pages.new()
    page.goto("/")
    open_seat(page, created)
    card = page.locator('.sc-hand .sc-card[data-code="G6-C1"]')
    top, bottom = card.locator(".sc-half.top"), card.locator(".sc-half.bottom")
    assert top.get_by_role("img", name="6 candies").inner_text() == "6"
    assert top.get_by_role("img", name=re.compile(r"^penalty 1\b")).inner_text() == "−1"
    assert bottom.get_by_role("img", name="1 candies").inner_text() == "1"
    assert bottom.get_by_role("img", name=re.compile(r"^penalty 3\b")).inner_text() == "−3"
    # the penalty in the half's top-left corner, the count in its top-right one
    pen = top.locator(".sc-pen").bounding_box()
    count = top.locator(".sc-count").bounding_box()
    half = top.bounding_box()
    assert pen and count and half
    assert pen["x"] < half["x"] + half["width"] / 3 < count["x"]
    assert pen["y"] < half["y"] + half["height"] / 3
    # the rules page says where it is
    rules = api.get(f"{server.base}/rules/sixteen-candies").text
    assert "top-left corner" in rules


def test_a_card_drawn_from_either_pile_is_marked_new(pages: Pages, server: ServerProcess) -> None:
    """Issue 36: a card taken from the discard pile got a "new" badge, one drawn from the draw pile
    none. Both are marked alike while the player chooses what to discard."""
    created = create_game(server.base, "sixteen-candies", 2, options={"first_player": 0})
    page = pages.new()
    page.goto("/")
    open_seat(page, created)
    before = move_number(page)
    page.get_by_role("button", name="Pick up this way").click()
    page.wait_for_function(f"Number(document.body.dataset.move) > {before}")
    page.locator(".sc-draw.clickable").click()
    page.locator('#board [data-action^="discard "]').first.wait_for()
    slots = page.locator(".sc-hand .sc-slot")
    assert slots.count() == 4
    assert page.locator(".sc-hand .sc-new").count() == 1
    assert slots.nth(3).locator(".sc-new").inner_text() == "new"
    shot(page, "sc-drawn-new")


def test_learn_mode_explains_the_next_deal_only_once_the_result_is_dismissed(
    pages: Pages, server: ServerProcess
) -> None:
    """Issue 36: learn mode listed the next deal's options ("Pick up …") while the round's result
    was still on screen; they show once "Next deal" is clicked."""
    created = create_game(server.base, "sixteen-candies", 2, options={"first_player": 0})
    page = pages.new()
    page.goto("/")
    seats = {created["id"]: {"seat": created["seat"], "token": created["token"]}}
    page.evaluate("s => localStorage.setItem('candlebox.seats', JSON.stringify(s))", seats)
    page.goto(f"/g/{created['id']}?learn=1")
    page.wait_for_selector(".learn-option", state="attached")
    for _ in range(30):  # call as soon as the rules allow: the round ends after the bot's turn
        if page.locator(".sc-round").count():
            break
        wait_for_decision(page)
        if page.locator(".sc-round").count():
            break
        actions: list[str] = page.evaluate(
            "() => [...document.querySelectorAll('#actions button[data-action]')]"
            ".map((b) => b.dataset.action)"
        )
        chosen = "call" if "call" in actions else actions[0]
        before = page.evaluate("document.body.dataset.move")
        page.locator(f'#actions button[data-action="{chosen}"]').dispatch_event("click")
        page.wait_for_function("m => document.body.dataset.move !== m", arg=before)
    page.locator(".sc-round").wait_for()
    page.wait_for_function("document.querySelector('.learn-options .note') !== null")
    assert page.locator(".learn-option").count() == 0, "the next deal's options over the result"
    shot(page, "sc-learn-round-result")
    page.get_by_role("button", name="Next deal").click()
    page.locator(".learn-option").first.wait_for(state="attached")


def test_the_new_game_form_says_16_candies_options_in_words(
    pages: Pages, server: ServerProcess
) -> None:
    """Issue 36: the new-game form showed options by their raw names ("rediscard", "all tied:
    caller-loses"); each option and each of its values is said in words (the game's own labels)."""
    page = pages.new()
    page.goto("/")
    page.locator('button[data-game="sixteen-candies"]').click()
    open_options(page)
    labels = page.locator(".option label").all_inner_texts()
    values = page.locator(".option select option").all_inner_texts()
    shown = " | ".join(labels + values)
    for raw in ("rediscard", "all tied", "caller-loses", "caller-wins", "pool cap", "instant"):
        assert raw not in shown, shown
    assert "When every hand is equal" in labels
    assert "the caller pays as the lowest" in values
