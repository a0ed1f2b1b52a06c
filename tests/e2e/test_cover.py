"""Nothing covers a target (issue 36): whole games of each kind against bots at a phone's (390×844),
a laptop's (1280×800) and a large screen's (1920×1080) size, and at every decision each element that
makes a move (and the replay's controls and the end screen's buttons once the game is over) is
scrolled into view as a player would scroll it (the least scrolling that shows it, then at the top and
at the bottom of the screen) and ``document.elementFromPoint`` at its centre (and, a box, at its
quarters' centres) must land on it or inside it: no sticky panel, banner, badge or notice lies over it. Notices (toasts, bot moves) must never overlap a target,
the decision's banner or the game's title: they take no taps, so elementFromPoint looks through them
and their boxes are compared instead.

The whole games are marked ``browser_games`` (CI's second step: ``-m browser_games``), and so is
every test here (tests/e2e/conftest.py's DEFAULT_RUN)."""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import SIZES, api, create_game, open_seat
from tests.server.live import ServerProcess

SHOTS = Path(os.environ.get("CANDLEBOX_SCREENSHOTS", "/tmp/candlebox-e2e")) / "cover"
# (game, variant, players, options): 16 Candies at four players, where the hand covered the piles
GAMES = [
    ("candle-quest", "basic", 3, {"max_turns": 30}),
    ("sixteen-candies", "standard", 4, {}),
    ("candelabria", "standard", 3, {"max_turns": 12}),
]
IDS = [game for game, *_ in GAMES]

# The targets of the moment: what makes a move on the board or in the banner, and once the game is
# over the replay's controls and the end screen's buttons. For each, the problems found (none when
# every target is on top at every scroll position). The targets are looked at once no card slides
# into place and none fades in (a state: no ``.sliding`` and no animation with an end running; the
# glow of what can be clicked runs for ever), and a target found covered is looked at again once
# that holds again.
CHECK = """
async () => {
  const frame = () => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const moving = () => document.querySelector('.sliding') !== null || document.getAnimations().some(
    (a) => a.playState === 'running' && Number.isFinite(a.effect && a.effect.getComputedTiming().endTime));
  const settled = async () => { for (let i = 0; i < 300 && moving(); i++) await frame(); };
  await settled();
  const TARGETS = '#board [data-action]:not(:disabled), #board [data-choices], #board .clickable, .can-move,'
    + ' #board button:not(:disabled), #banner button, .endscreen button, #replay button, #replay input';
  const READ = '#banner, #title, .endscreen h2';
  const FANNED = '#board [data-action], #board [data-choices], #board .clickable';
  const NOTES = '.toast, .move-notice, .notice';
  const shown = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0; };
  const name = (el) => {
    const text = (el.dataset.action || el.dataset.choices || el.getAttribute('aria-label')
      || el.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40);
    const cls = typeof el.className === 'string' ? el.className : '';
    return el.tagName.toLowerCase() + (cls ? '.' + cls.trim().split(/ +/).join('.') : '') + ' "' + text + '"';
  };
  const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  const look = (el, block) => {
    el.scrollIntoView({block, inline: 'nearest'});
    const r = el.getBoundingClientRect();
    // its centre, and (a box, not a drawn shape) the centres of its four quarters: a pile whose
    // lower half is under a panel is covered, though its centre shows
    const at = [[0.5, 0.5]];
    if (!(el instanceof SVGElement)) at.push([0.25, 0.25], [0.75, 0.25], [0.25, 0.75], [0.75, 0.75]);
    for (const [fx, fy] of at) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy;
      if (x < 0 || y < 0 || x > innerWidth || y > innerHeight) continue; // a panning frame's far side
      const hit = document.elementFromPoint(x, y);
      if (hit && (hit === el || el.contains(hit))) continue;
      // a fanned stack's cards each show their middle, the next card over their lower part
      if (fx !== 0.5 && hit && hit.closest(FANNED)) continue;
      return 'covered (' + block + ' ' + fx + ',' + fy + '): ' + name(el) + ' by ' + (hit ? name(hit) : 'nothing');
    }
    return null;
  };
  const notes = () => {
    const out = [];
    const boxes = [...document.querySelectorAll(NOTES)].filter(shown);
    if (!boxes.length) return out;
    const things = [...document.querySelectorAll(TARGETS + ', ' + READ)].filter(shown);
    for (const note of boxes) for (const el of things) {
      if (note.contains(el) || el.contains(note)) continue;
      if (overlap(note.getBoundingClientRect(), el.getBoundingClientRect()))
        out.push('under a notice: ' + name(el) + ' under ' + name(note));
    }
    return out;
  };
  const bad = [];
  // a clickable group whose spot to press is marked inside it (a territory of Candelabria's map,
  // not convex) is checked at that spot
  const targets = [...document.querySelectorAll(TARGETS)].filter(shown)
    .filter((el) => !el.querySelector('[data-action], [data-choices]'));
  for (const el of targets) {
    for (const block of ['nearest', 'start', 'end']) {
      if (!el.isConnected) break; // redrawn meanwhile: its successor is checked next time
      let problem = look(el, block);
      if (problem) {
        await settled();
        await frame();
        if (!el.isConnected) break;
        problem = look(el, block);
      }
      if (problem) { bad.push(problem); break; }
    }
    bad.push(...notes());
  }
  // and as the page is left for the player: scrolled back to the top
  scrollTo(0, 0);
  for (const s of document.querySelectorAll('.table-area')) s.scrollTop = 0;
  bad.push(...notes());
  return [...new Set(bad)];
}
"""

DECIDING = (
    "() => document.body.dataset.over === 'true' || ("
    " document.querySelector('#actions button[data-action]') !== null"
    " && !document.querySelector('.sliding'))"
)


def wait_for_decision(page: Any) -> bool:
    """Wait until you decide or the game is over; True while the game goes on. The wait lasts as
    long as the game moves on: a seat that is out (a 16 Candies pool spent) watches the bots play
    to the end, which can take minutes on a loaded machine; only 30 s without a move fails."""
    while True:
        seen = page.evaluate("document.body.dataset.move")
        page.wait_for_function(
            f"m => ({DECIDING})() || document.body.dataset.move !== m", arg=seen, timeout=30_000
        )
        if page.evaluate(f"({DECIDING})()"):
            return bool(page.evaluate("document.body.dataset.over !== 'true'"))


def move(page: Any, rng: random.Random) -> None:
    """Make one of the legal moves (from the list of all legal actions) and wait until the page has
    the frame after it."""
    actions: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('#actions button[data-action]')]"
        ".map((b) => b.dataset.action)"
    )
    before = page.evaluate("document.body.dataset.move")
    chosen = rng.choice(actions)
    page.evaluate(
        "a => [...document.querySelectorAll('#actions button[data-action]')]"
        ".find((b) => b.dataset.action === a).click()",
        chosen,
    )
    page.wait_for_function(
        "m => document.body.dataset.move !== m || document.body.dataset.over === 'true'",
        arg=before,
        timeout=30_000,
    )


def play(page: Any, label: str, decisions: int | None, seed: int = 36) -> list[str]:
    """Play (up to ``decisions`` decisions, or to the game's end) and return every covered target
    found, with the decision it was found at; the first problem's screen is saved."""
    rng = random.Random(seed)
    problems: list[str] = []
    made = 0
    while wait_for_decision(page) and (decisions is None or made < decisions):
        found = page.evaluate(CHECK)
        if found and not problems:
            shot(page, f"{label}-covered")
        problems += [f"decision {made}: {p}" for p in found]
        move(page, rng)
        made += 1
    if decisions is None:  # the game is over: its end screen and replay
        page.wait_for_selector("#replay:not([hidden])")
        found = page.evaluate(CHECK)
        shot(page, f"{label}-over")
        problems += [f"game over: {p}" for p in found]
    return problems


def shot(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def open_game(
    server: ServerProcess, page: Any, game: str, variant: str, players: int, options: dict[str, Any]
) -> None:
    created = create_game(server.base, game, players, variant, options=options)
    open_seat(page, created)


@pytest.mark.parametrize(("game", "variant", "players", "options"), GAMES, ids=IDS)
def test_a_few_decisions_on_a_phone_leave_every_target_on_top(
    sized: Any,
    server: ServerProcess,
    game: str,
    variant: str,
    players: int,
    options: dict[str, Any],
) -> None:
    page = sized("phone")
    open_game(server, page, game, variant, players, options)
    assert play(page, f"{game}-phone-short", decisions=4) == []


@pytest.mark.browser_games
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(("game", "variant", "players", "options"), GAMES, ids=IDS)
def test_a_whole_game_leaves_every_target_on_top(
    sized: Any,
    server: ServerProcess,
    game: str,
    variant: str,
    players: int,
    options: dict[str, Any],
    size: str,
) -> None:
    page = sized(size)
    open_game(server, page, game, variant, players, options)
    assert play(page, f"{game}-{size}", decisions=None) == []


# Each badge on a Candelabria tactic tile (⊘: it cannot be cancelled; ×2: how many are left) and
# the tile's words it lies over.
BADGES_OVER_WORDS = """
() => {
  const out = [];
  let badges = 0;
  for (const badge of document.querySelectorAll('#board .cb-tactic .cb-nocancel, #board .cb-tactic .cb-count')) {
    badges += 1;
    const a = badge.getBoundingClientRect();
    for (const words of badge.closest('.cb-tactic').querySelectorAll('.cb-eff')) {
      const b = words.getBoundingClientRect();
      if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5)
        out.push(badge.textContent + ' over "' + words.textContent + '"');
    }
  }
  return {badges, out};
}
"""


@pytest.mark.parametrize("size", ["phone", "laptop"])
def test_a_badge_never_covers_a_tactic_tiles_words(
    sized: Any, server: ServerProcess, size: str
) -> None:
    """Item 8 of issue 36: the red ⊘ of a tactic tile that cannot be cancelled lay over its words
    ("2 Ignite"). The decisions are played until tiles with badges are on the table."""
    page = sized(size)
    # a practice deal (seed 0) whose first view holds tiles that cannot be cancelled: a deal left
    # to chance may show none in a dozen decisions
    seats = [{"kind": "human", "name": "Ada"}] + [{"kind": "bot", "bot": "random"}] * 2
    body = {
        "game": "candelabria",
        "variant": "standard",
        "options": {"max_turns": 12},
        "seats": seats,
        "you": 0,
        "bot_delay": 0,
        "public": False,
        "practice": True,
        "seed": 0,
    }
    response = api.post(f"{server.base}/api/games", json=body, timeout=30)
    response.raise_for_status()
    open_seat(page, response.json())
    rng = random.Random(8)
    seen = 0
    for _ in range(12):
        if not wait_for_decision(page):
            break
        found = page.evaluate(BADGES_OVER_WORDS)
        assert found["out"] == [], found["out"]
        seen += found["badges"]
        if seen >= 3:
            break
        move(page, rng)
    assert seen, "no tactic tile with a badge was drawn"
