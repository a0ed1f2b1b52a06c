"""Nothing stays on the page once it is done with (issue 36, kinds 4 and 5): a card's words (the
tooltip) after the click or tap that played it, and the mark of what can be clicked after the game's
end. A new player saw a card's words left over "Pay 10 to loot…" (1920×1080) and over a name of
16 Candies' round result (a phone), and the discard pile still outlined once the game was over.
Screenshots go to /tmp/candlebox-e2e/ (linger-*.png)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import api, create_game, open_seat, shot
from tests.e2e.test_words import until

FLIP = "#board .cq-stack[data-action='flip']"
# Two animation frames: whatever the frame that just landed asked for (a redraw, the tooltip's
# refresh after it) has run.
FRAMES = "() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"


def your_flip(sized: Any, server: Any, size: str) -> Any:
    """A Candle Quest table at ``size`` with its words loaded, at your turn to flip."""
    page = sized(size)
    open_seat(page, create_game(server.base, "candle-quest", 2))
    page.wait_for_selector("body[data-words='ready']")
    until(page, f"body:has(.banner.turn) {FLIP}")
    return page


def played(page: Any, move: str) -> None:
    """Wait until the page shows the game past ``move``, and the work that frame asked for is done."""
    page.wait_for_function(
        "m => document.body.dataset.move !== m || document.body.dataset.over === 'true'", arg=move
    )
    page.evaluate(FRAMES)


@pytest.mark.parametrize("size", ["large", "phone"])
def test_a_clicked_cards_words_are_gone_once_its_move_lands(
    sized: Any, server: Any, size: str
) -> None:
    """Hover the draw stack (its words show), click it: once the flip's frame has landed and the
    board is redrawn under the resting mouse, no words are left over what the flip opened."""
    page = your_flip(sized, server, size)
    tip = page.locator("#tooltip")
    stack = page.locator(FLIP)
    stack.hover()
    tip.wait_for(state="visible")
    move = page.get_attribute("body", "data-move")
    stack.click()
    played(page, move)
    shot(page, f"linger-click-{size}")
    assert page.evaluate("document.querySelector('#tooltip').hidden"), tip.inner_text()
    assert page.locator("[aria-describedby=tooltip]").count() == 0
    # the mouse moving on shows the words of what it reaches again
    box = page.locator("#board [data-code]").first.bounding_box()
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tip.wait_for(state="visible")


def test_a_tap_that_plays_leaves_no_words(sized: Any, server: Any) -> None:
    """A phone: a tap on the draw stack flips (it plays, so it shows no words), and none are left
    once the frame has landed."""
    page = your_flip(sized, server, "phone")
    move = page.get_attribute("body", "data-move")
    page.locator(FLIP).tap()
    played(page, move)
    assert page.evaluate(
        "document.querySelector('#tooltip') === null || document.querySelector('#tooltip').hidden"
    )


# What on the board still offers itself to a click, and the last move's outline (a dashed ring a
# newcomer read as "click here"): one line each.
STILL_MARKED = """() => {
  const out = [];
  for (const el of document.querySelectorAll('#board *')) {
    const why = ['can-move', 'clickable', 'last-move'].filter((c) => el.classList.contains(c));
    if (el.getAttribute('role') === 'button') why.push('role=button');
    if (el.matches('[data-action], [data-choices]') && el.tabIndex >= 0) why.push('a tab stop');
    if (why.length) out.push(`${el.dataset.code || el.dataset.action || el.className}: ${why.join(', ')}`);
  }
  return out;
}"""

# short games: each to its end through the API while the page watches
ENDS = [
    ("sixteen-candies", {}),
    ("candle-quest", {"max_turns": 10}),
    ("candelabria", {"max_turns": 6}),
]


def hand_to_a_bot(base: str, created: dict[str, Any]) -> None:
    """The page's seat played by a bot ("Let a bot play for me"): the game runs to its end."""
    url = f"{base}/api/games/{created['id']}/seats/{created['seat']}/bot"
    headers = {"Authorization": f"Bearer {created['token']}"}
    body = {"bot": "random"}
    api.post(url, json=body, headers=headers, timeout=30).raise_for_status()


@pytest.mark.parametrize(("game", "options"), ENDS, ids=[game for game, _ in ENDS])
def test_nothing_is_marked_clickable_once_the_game_is_over(
    sized: Any, server: Any, game: str, options: dict[str, Any]
) -> None:
    page = sized("laptop")
    created = create_game(server.base, game, 2, options=options)
    open_seat(page, created)
    hand_to_a_bot(server.base, created)
    page.wait_for_selector("body[data-over='true'] #replay:not([hidden])", timeout=120_000)
    # 16 Candies shows the last round's hands first: "See the board" goes on to the table
    for dismiss in page.locator("#board button[data-dismiss]").all():
        dismiss.click()
    page.evaluate(FRAMES)
    shot(page, f"linger-over-{game}")
    assert page.evaluate(STILL_MARKED) == []
