"""Keyboard alone: a game of each kind played to the end with Tab, the arrow keys and Enter (bots in
the other seats, a short game), with the focus on the next decision after every move; the lobby's
groups of choices (the lobby's, and a decision's options on the board) are one tab stop each. Each at
390×844, 1280×800 and 1920×1080 (the whole games at the two larger sizes behind the ``browser_games``
marker, CI's second step). Screenshots of the end go to /tmp/h9-shots/."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.e2e.conftest import Pages, create_game, open_seat
from tests.e2e.test_layout import CHECK_TARGETS, SIZES, settled_overflow, shoot

# what a keyboard player presses Enter on: something on the board or in a chooser that makes a move
ACTIONABLE = """
() => {
  const el = document.activeElement;
  if (!el || !el.closest('#board')) return false;
  return Boolean(el.dataset.action || el.dataset.choices || el.getAttribute('role') === 'menuitem');
}
"""

GAMES = [
    ("candle-quest", None, 3, {"max_turns": 12}),
    ("sixteen-candies", None, 3, {"max_turns": 12, "rounds": 1}),
    ("candelabria", "standard", 3, {"max_turns": 6}),
]


def play_by_keyboard(page: Any, limit_seconds: float = 150) -> tuple[int, list[str], list[int]]:
    """Tab to the next thing that makes a move and press Enter, until the game is over. Returns the
    number of moves made, any clickable target found too small or covered on the way, and the Tabs
    each move needed before the focus was on a move."""
    moves = 0
    problems: list[str] = []
    tabs: list[int] = []
    deadline = time.monotonic() + limit_seconds
    while page.evaluate("document.body.dataset.over") != "true":
        assert time.monotonic() < deadline, f"not over after {moves} keyboard moves"
        page.wait_for_function(
            "document.body.dataset.over === 'true' || "
            "(document.querySelector('#board [data-action], #board [data-choices]') && "
            "!document.querySelector('#board.busy')) || document.querySelector('#board [data-dismiss]')",
            timeout=30_000,
        )
        if page.evaluate("document.body.dataset.over") == "true":
            break
        dismiss = page.locator("#board [data-dismiss]")  # a round's result before the next deal
        if dismiss.count():
            dismiss.first.focus()
            page.keyboard.press("Enter")
            continue
        if moves % 5 == 0:
            problems += page.evaluate(CHECK_TARGETS)
        # every position, not only the last, fits the screen (16 Candies' hand of four cards did not)
        problems += [f"move {moves}: {wide}" for wide in settled_overflow(page)]
        before = int(page.evaluate("document.body.dataset.move"))
        for pressed in range(40):  # Tab until a move is focused (usually it is on one already)
            if page.evaluate(ACTIONABLE):
                tabs.append(pressed)
                break
            page.keyboard.press("Tab")
        else:
            pytest.fail("no move reachable with Tab")
        page.keyboard.press("Enter")
        if page.locator(".cb-menu").count():  # a chooser: its first item has the focus
            page.keyboard.press("Enter")
        try:
            page.wait_for_function(
                f"Number(document.body.dataset.move) > {before} || "
                "document.body.dataset.over === 'true'",
                timeout=3_000,
            )
            moves += 1
        except Exception:  # a local choice (turning a card, a tactic on a slot): carry on
            page.keyboard.press("Tab")
    return moves, problems, tabs


@pytest.mark.parametrize(
    "size",  # every size with -m browser_games (tests/e2e/conftest.py's DEFAULT_RUN)
    [
        size if size == "phone" else pytest.param(size, marks=pytest.mark.browser_games)
        for size in SIZES
    ],
)
@pytest.mark.parametrize(("game", "variant", "players", "options"), GAMES)
def test_a_game_played_to_the_end_by_keyboard(
    pages: Pages,
    server: Any,
    game: str,
    variant: str | None,
    players: int,
    options: dict[str, Any],
    size: str,
) -> None:
    """At each size: the whole game by keyboard, the focus on the next decision after a move (Tab is
    rarely needed: only after a local choice or a chooser), the targets big and uncovered, and
    nothing wider than the screen."""
    created = create_game(server.base, game, players, variant, options=options)
    page = pages.new()
    width, height = SIZES[size]
    page.set_viewport_size({"width": width, "height": height})
    page.goto("/")
    open_seat(page, created)
    moves, problems, tabs = play_by_keyboard(page)
    assert moves >= 1
    assert "Game over" in page.locator("#banner").inner_text()
    # after every move the focus was already on the next decision: no Tab needed
    assert tabs == [0] * len(tabs), f"Tabs needed before each move: {tabs}"
    shoot(page, f"{game}-{players}-{size}-keyboard-end")
    assert settled_overflow(page) == [], size
    assert problems == [], problems
    if game == "candle-quest" and size == "laptop":
        replay_at_the_laptop_size(page)


def replay_at_the_laptop_size(page: Any) -> None:
    """At 1280×800 the replay bar is not covered by your screen, and a replayed move reads as a replay:
    "replay" in the top bar, no "your turn" badge, no "You's turn"."""
    page.set_viewport_size({"width": SIZES["laptop"][0], "height": SIZES["laptop"][1]})
    page.get_by_role("button", name="Start").click()  # a covered button would time out here
    page.wait_for_function("document.querySelector('#banner').innerText.includes('move 0 of')")
    page.get_by_role("button", name="Next move").click()
    page.get_by_role("button", name="Next move").click()
    page.wait_for_function("document.querySelector('#banner').innerText.includes('move 2 of')")
    # two clicks faster than the page loads a move: two moves on, not the same one twice
    page.evaluate(
        "() => { const next = document.querySelector('#replay button[aria-label=\"Next move\"]');"
        " next.click(); next.click(); }"
    )
    page.wait_for_function("document.querySelector('#banner').innerText.includes('move 4 of')")
    assert page.locator("#link").inner_text() == "replay"
    assert page.locator(".cq-turnmark").count() == 0
    assert "You's" not in page.locator("#board").inner_text()
    shoot(page, "candle-quest-replay-laptop")


def test_after_a_move_the_focus_is_on_the_next_decision(pages: Pages, server: Any) -> None:
    created = create_game(server.base, "candle-quest", 2, options={"first_player": 0})
    page = pages.new()
    page.goto("/")
    open_seat(page, created)
    page.wait_for_selector('#board [data-action="flip"]')
    # the page opens with the focus on the decision: Enter flips
    page.wait_for_function("document.activeElement.dataset.action === 'flip'")
    page.keyboard.press("Enter")
    page.wait_for_function("Number(document.body.dataset.move) >= 1")
    page.wait_for_function(
        "document.activeElement && document.activeElement.closest('#board') &&"
        " Boolean(document.activeElement.dataset.action)"
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_a_decisions_options_are_one_tab_stop(pages: Pages, server: Any, size: str) -> None:
    """Buy / Sell is one Tab stop: the arrow keys move between them, Tab leaves the group (and the
    bid stepper beside it is the next stop)."""
    options = {"first_player": 0, "deck": ["R7", "B8", "Y2"]}
    created = create_game(server.base, "candle-quest", 2, options=options)
    page = pages.new()
    page.set_viewport_size({"width": SIZES[size][0], "height": SIZES[size][1]})
    page.goto("/")
    open_seat(page, created)
    page.wait_for_function("document.activeElement.dataset.action === 'flip'")
    page.keyboard.press("Enter")
    page.wait_for_function("document.activeElement.dataset.action === 'buy'")
    group = page.locator(".cq-buttons")
    assert group.get_attribute("role") == "group"
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.action") == "sell"
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.action") == "buy"
    page.keyboard.press("Tab")  # out of the group: not onto Sell
    assert page.evaluate("document.activeElement.dataset.action") != "sell"
    assert page.evaluate("Boolean(document.activeElement.closest('.cq-stepper'))")


def test_the_lobby_groups_are_one_tab_stop_each(pages: Pages) -> None:
    page = pages.new()
    page.goto("/")
    page.wait_for_selector("#create")
    presses = 0
    while presses < 40:
        page.keyboard.press("Tab")
        presses += 1
        if page.evaluate("document.activeElement.id") == "create":
            break
    # the header's links come first (the account link, a leaderboard per game): one stop each
    header = page.evaluate("document.querySelectorAll('#who a, #boards a').length")
    assert header >= 4
    # 17: the form's groups and fields, the clock's choice among them (issue 35)
    assert presses <= 17 + header, f"{presses} Tabs to reach Start the game"
    # the arrow keys move inside a group: the players' count
    group = page.get_by_role("group", name="Players")
    group.get_by_role("button", name="2").focus()
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.textContent") == "3"
