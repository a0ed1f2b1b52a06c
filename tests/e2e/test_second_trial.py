"""What a new player's second trial of the three games found (issue 36, what was left), each held by a
test in a real browser at the screen sizes where it was seen: a tooltip lying over a control, a rival's
panel clipping its words on a phone, a round's result outlining every revealed card as the last move,
codes instead of words in the log, a name cut short once a bot plays the seat, and cards sliding into
place that took the taps meant for what lay under them."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from tests.e2e.conftest import api, create_game, open_seat
from tests.e2e.test_cover import move, open_game, shot, wait_for_decision
from tests.server.live import ServerProcess

GAMES = [
    ("candle-quest", "basic", 3, {"max_turns": 30}),
    ("sixteen-candies", "standard", 4, {}),
    ("candelabria", "standard", 3, {"max_turns": 12}),
]
IDS = [game for game, *_ in GAMES]

# The things with words on the board (tooltips.js SOURCE: a card, a pile, a chip; the map's
# drawing aside), nearest to a control first: where words shown above them lay over a button.
SOURCES = """
() => {
  const CONTROLS = 'button, [data-action], [data-choices], .clickable';
  const controls = [...document.querySelectorAll(CONTROLS)].map((c) => c.getBoundingClientRect())
    .filter((r) => r.width && r.height);
  const gap = (a, b) => Math.max(0, a.left - b.right, b.left - a.right, a.top - b.bottom, b.top - a.bottom);
  return [...document.querySelectorAll('#board [data-code], #board [data-tip]')]
    .filter((el) => !el.closest('svg'))
    .map((el) => [el, el.getBoundingClientRect()])
    .filter(([, r]) => r.width > 4 && r.height > 4)
    .map(([el, r], i) => {
      el.dataset.probe = String(i);
      const near = Math.min(...controls.map((c) => (c.width === r.width && c.left === r.left && c.top === r.top) ? 1e9 : gap(r, c)));
      return [String(i), near];
    })
    .sort((a, b) => a[1] - b[1])
    .map(([probe]) => probe);
}
"""

# The tooltip on show and the controls it lies over (but the element it describes, what holds that
# element and what it holds).
TIP_OVER_CONTROLS = """
(probe) => {
  const el = document.querySelector(`[data-probe="${probe}"]`);
  const tip = document.getElementById('tooltip');
  if (!el || !tip || tip.hidden || el.getAttribute('aria-describedby') !== 'tooltip') return null;
  const t = tip.getBoundingClientRect();
  const CONTROLS = 'button, summary, a[href], input, select, textarea, [role=button], .clickable,'
    + ' [data-action], [data-choices]';
  const out = [];
  for (const c of document.querySelectorAll(CONTROLS)) {
    if (c === el || c.contains(el) || el.contains(c)) continue;
    const r = c.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    if (t.left < r.right - 1 && r.left < t.right - 1 && t.top < r.bottom - 1 && r.top < t.bottom - 1) {
      const text = (c.getAttribute('aria-label') || c.textContent || '').trim().replace(/\\s+/g, ' ');
      out.push(c.tagName.toLowerCase() + ' "' + text.slice(0, 30) + '"');
    }
  }
  return out;
}
"""


# Scroll the probed element into view and return its box (None when it has been redrawn away).
SCROLL_TO = """
(probe) => {
  const el = document.querySelector(`[data-probe="${probe}"]`);
  if (!el) return null;
  el.scrollIntoView({block: 'nearest', inline: 'nearest'});
  const r = el.getBoundingClientRect();
  return r.width && r.height ? {x: r.left, y: r.top, width: r.width, height: r.height} : null;
}
"""


def hover_problems(page: Any, limit: int = 12) -> list[str]:
    """Hover (a real mouse) each thing with words on the board and return each control its tooltip
    lay over."""
    problems: list[str] = []
    for probe in page.evaluate(SOURCES)[:limit]:
        # One step in the page, so that a redraw (a frame arriving) between finding the element and
        # scrolling to it cannot leave the test waiting for an element that is gone.
        box = page.evaluate(SCROLL_TO, probe)
        if box is None:
            continue  # redrawn meanwhile, or not shown
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        try:
            page.wait_for_function(
                "p => { const el = document.querySelector(`[data-probe='${p}']`);"
                " return !el || el.getAttribute('aria-describedby') === 'tooltip'; }",
                arg=probe,
                timeout=1_000,
            )
        except Exception:
            continue  # the mouse reached a card lying over it (a fanned pile): that card's words show
        over = page.evaluate(TIP_OVER_CONTROLS, probe)
        if over:
            problems.append(f"the tooltip of probe {probe} lies over {', '.join(over)}")
    page.mouse.move(1, 1)
    return problems


@pytest.mark.parametrize(("game", "variant", "players", "options"), GAMES, ids=IDS)
def test_a_tooltip_never_lies_over_a_control(
    sized: Any,
    server: ServerProcess,
    game: str,
    variant: str,
    players: int,
    options: dict[str, Any],
) -> None:
    """Item 1: at a laptop's size a card's tooltip lay over the button the mouse was heading for. At
    a few decisions of each game every card's words are shown by hovering it and must lie over no
    control."""
    page = sized("laptop")
    open_game(server, page, game, variant, players, options)
    rng = random.Random(1)
    problems: list[str] = []
    for decision in range(3):
        if not wait_for_decision(page):
            break
        found = hover_problems(page)
        if found and not problems:
            shot(page, f"tooltip-{game}-over-a-control")
        problems += [f"decision {decision}: {p}" for p in found]
        move(page, rng)
    assert problems == []


# Each time a round's result is drawn: how many of its cards and rows are marked as the last move.
WATCH_ROUND = """
() => {
  window.roundMarks = [];
  new MutationObserver(() => {
    const panel = document.querySelector('#board .sc-round');
    if (!panel || panel.dataset.seen) return;
    panel.dataset.seen = '1';
    window.roundMarks.push({
      cards: panel.querySelectorAll('.sc-card').length,
      marked: panel.querySelectorAll('.last-move, .last-mover').length,
    });
  }).observe(document.getElementById('board'), {childList: true, subtree: true});
}
"""


def test_a_round_result_marks_no_revealed_card_as_the_last_move(
    sized: Any, server: ServerProcess
) -> None:
    """Item 3: 16 Candies' round result outlined every revealed card as "the last move": the reveal
    and the scoring that follow the turn's end are the round's doing, not the move's. The result is
    watched as it is drawn (a MutationObserver), before anything else can happen."""
    page = sized("laptop")
    open_game(server, page, "sixteen-candies", "standard", 3, {"rounds": 1})
    page.evaluate(WATCH_ROUND)
    rng = random.Random(3)
    while wait_for_decision(page) and not page.evaluate("window.roundMarks.length"):
        move(page, rng)
    page.wait_for_function("window.roundMarks.length > 0")
    shot(page, "sixteen-candies-round-result")
    marks = page.evaluate("window.roundMarks")
    assert marks[0]["cards"] >= 9, marks  # every hand revealed
    assert marks[0]["marked"] == 0, marks


# The log's words: each chip's text and its code, and the text outside the chips.
LOG_WORDS = """
() => {
  const chips = [...document.querySelectorAll('#log [data-code]')]
    .map((el) => ({code: el.dataset.code, text: el.textContent.trim()}));
  const walker = document.createTreeWalker(document.getElementById('log'), NodeFilter.SHOW_TEXT);
  const bare = [];
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.parentElement.closest('[data-code]')) bare.push(node.data);
  }
  return {chips, bare: bare.join(' ')};
}
"""


@pytest.mark.parametrize("game", ["candelabria", "candle-quest"])
def test_the_log_names_every_component_in_words(
    sized: Any, server: ServerProcess, game: str
) -> None:
    """Item 4: Candelabria's log showed tactic cards by their codes ("takes 1I1X"), their names only
    on hover. Every component the log names shows its name, and no code is left in its text."""
    page = sized("laptop")
    variant, players, options = {
        "candelabria": ("standard", 3, {"max_turns": 12}),
        "candle-quest": ("basic", 3, {"max_turns": 30}),
    }[game]
    created = create_game(server.base, game, players, variant, options=options)
    open_seat(page, created)
    page.wait_for_function("document.body.dataset.words === 'ready'")
    table = api.get(f"{server.base}/api/games/{created['id']}/components", timeout=30).json()
    codes = sorted((c for c in table if ":" not in c), key=len, reverse=True)
    token = re.compile(
        r"(?<![A-Za-z0-9!-])(" + "|".join(map(re.escape, codes)) + r")(?![A-Za-z0-9!-])"
    )
    rng = random.Random(4)
    for _ in range(6):
        if page.locator("#log [data-code]").count() >= 3 or not wait_for_decision(page):
            break
        move(page, rng)
    found = page.evaluate(LOG_WORDS)
    assert found["chips"], "the log names no component"
    shown = [c for c in found["chips"] if c["text"] != table[c["code"]]["name"]]
    assert shown == [], shown
    assert token.findall(found["bare"]) == [], found["bare"]


# Each card that starts sliding into place: whether it takes the pointer meanwhile (its computed
# pointer-events as the slide begins).
WATCH_SLIDES = """
() => {
  window.slides = [];
  new MutationObserver((records) => {
    for (const r of records) {
      const el = r.target;
      if (el.classList && el.classList.contains('sliding') && !el.dataset.slideSeen) {
        el.dataset.slideSeen = '1';
        window.slides.push({code: el.dataset.code || '', pointer: getComputedStyle(el).pointerEvents});
      }
    }
  }).observe(document.getElementById('board'), {attributes: true, attributeFilter: ['class'], subtree: true});
}
"""


def test_a_sliding_card_takes_no_tap(sized: Any, server: ServerProcess) -> None:
    """Item 7: a card sliding into place (a third of a second) passed over targets already clickable
    and took the tap meant for them. A sliding card takes no pointer: a tap reaches what lies under
    it. 16 Candies' hand slides at every draw and discard."""
    page = sized("laptop")
    open_game(server, page, "sixteen-candies", "standard", 3, {})
    page.evaluate(WATCH_SLIDES)
    rng = random.Random(7)
    for _ in range(12):
        if page.evaluate("window.slides.length >= 3") or not wait_for_decision(page):
            break
        move(page, rng)
    slides = page.evaluate("window.slides")
    assert slides, "no card slid in twelve decisions"
    assert [s for s in slides if s["pointer"] != "none"] == [], slides


# The elements under `root` (a selector) with words of their own that do not show whole: cut by
# their own box (an ellipsis, hidden overflow), running out of it (over its border, under what lies
# beside it), or cut by a box around them that hides what overflows it.
CLIPPED = """
(root, clear = 0) => {
  const out = [];
  const boxes = [...document.querySelectorAll(root)];
  for (const box of boxes) for (const el of [box, ...box.querySelectorAll('*')]) {
    if (el.closest('svg') || el.closest('[hidden]')) continue;
    const own = [...el.childNodes].some((n) => n.nodeType === 3 && n.data.trim());
    if (!own) continue;
    const r = el.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    const text = el.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40);
    if (el.scrollWidth > el.clientWidth + 1 && getComputedStyle(el).overflowX !== 'visible') {
      out.push('cut short: "' + text + '"');
      continue;
    }
    const range = document.createRange();
    range.selectNodeContents(el);
    const t = range.getBoundingClientRect();
    // its words inside its box, and inside a border `clear` px from it (words touching a border
    // read as cut off)
    const bordered = el.clientLeft > 0 && getComputedStyle(el).display !== 'inline';
    const inside = bordered
      ? {left: r.left + el.clientLeft + clear, right: r.left + el.clientLeft + el.clientWidth - clear}
      : {left: r.left, right: r.right};
    if (t.left < inside.left - 0.5 || t.right > inside.right + 0.5) {
      out.push('runs out of its box: "' + text + '"');
      continue;
    }
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      if (style.overflowX === 'auto' || style.overflowX === 'scroll') break; // scrolls into view
      const u = up.getBoundingClientRect();
      if (r.left < u.left - 1 || r.right > u.right + 1 || r.top < u.top - 1 || r.bottom > u.bottom + 1) {
        out.push('clipped by ' + up.tagName.toLowerCase() + '.' + [...up.classList].join('.') + ': "' + text + '"');
        break;
      }
    }
  }
  return out;
}
"""


def test_a_candle_quest_rivals_words_show_whole_on_a_phone(
    sized: Any, server: ServerProcess
) -> None:
    """Item 2: on a phone a Candle Quest rival's panel cut its words off: "empty pile" filled its
    34-px slot to the dashed border at the panel's edge. At a few decisions every word of every
    rival's panel shows whole, 2 px clear of any border around it."""
    page = sized("phone")
    open_game(server, page, "candle-quest", "basic", 4, {"max_turns": 30})
    rng = random.Random(2)
    problems: list[str] = []
    for decision in range(5):
        if not wait_for_decision(page):
            break
        found = page.evaluate("([f, root]) => eval(f)(root, 2)", [CLIPPED, "#board .cq-rival"])
        if found and not problems:
            shot(page, "candle-quest-rival-clipped")
        problems += [f"decision {decision}: {p}" for p in found]
        move(page, rng)
    assert problems == []


NAME = "Philippa Newcomer"


@pytest.mark.parametrize("size", ["phone", "laptop", "large"])
def test_a_name_shows_whole_once_a_bot_plays_the_seat(
    sized: Any, server: ServerProcess, size: str
) -> None:
    """Item 6: after "Let a bot play for me" the player's name was cut short in the players' panel
    (the bot's tag and "to play" beside it). Every word of the header and the players' panel shows
    whole, the name among them."""
    page = sized(size)
    seats = [{"kind": "human", "name": NAME}] + [{"kind": "bot", "bot": "random"}] * 2
    body = {
        "game": "candle-quest",
        "variant": "basic",
        "options": {"max_turns": 30},
        "seats": seats,
        "you": 0,
        "bot_delay": 1,  # the bot now in your seat does not play the game to its end at once
        "public": False,
    }
    response = api.post(f"{server.base}/api/games", json=body, timeout=30)
    response.raise_for_status()
    open_seat(page, response.json())
    wait_for_decision(page)
    page.get_by_role("button", name="Let a bot play for me").click()
    page.locator("#players").get_by_role("button", name="Take my seat back").wait_for()
    assert NAME in page.locator("#players").inner_text()
    found = page.evaluate(CLIPPED, ".topbar, #players")
    if found:
        shot(page, f"name-after-bot-{size}")
    assert found == []
