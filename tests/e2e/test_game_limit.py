"""The limit of games in play from one address, said where it was hit (issue 36): a new player saw
"you already have 10 games in play" as a notice far below "Start the game", over "Your games", which
listed two. The refusal shows under the button that asked (the form's own line, read out), says what
the server counts (unfinished games started from the network address, from any browser) and what to
do. Screenshots at the three sizes: /tmp/candlebox-e2e/limit-*.png."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import SIZES, api, create_game, open_seat, shot, sized_context
from tests.server.live import ServerProcess

LIMIT = 2


@pytest.fixture
def capped(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server allowing LIMIT live games per address (the shared one has no cap)."""
    process = ServerProcess(
        f"sqlite:///{tmp_path / 'capped.sqlite3'}",
        tmp_path / "server.log",
        env={"CANDLEBOX_MAX_OPEN_GAMES": str(LIMIT)},
    )
    process.start()
    try:
        yield process
    finally:
        process.stop()


# where the refusal is and what surrounds it, as the player sees it
PLACE = """([button, line]) => {
  const b = document.querySelector(button).getBoundingClientRect();
  const el = document.querySelector(line);
  const l = el.getBoundingClientRect();
  return {
    gap: l.top - b.bottom,
    inView: l.top >= 0 && l.bottom <= innerHeight,
    role: el.getAttribute("role"),
    describes: document.querySelector(button).getAttribute("aria-describedby") === el.id,
    notices: [...document.querySelectorAll(".toasts .notice, #notices .notice")].map((n) => n.textContent),
  };
}"""


def refused(page: Any, button: str, line: str, name: str) -> tuple[str, Any]:
    """Click ``button`` and wait for its refusal ``line``: the line's words and where it lies against
    the button (PLACE), with a screenshot of it at every size (``name``-SIZE)."""
    page.locator(button).click()
    shown = page.locator(line)
    shown.wait_for()
    said = shown.inner_text()
    place = page.evaluate(PLACE, [button, line])
    for size, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        shown.scroll_into_view_if_needed()
        shot(page, f"{name}-{size}")
    return said, place


def test_the_game_limit_is_said_under_the_button_that_asked(
    browser: Any, capped: ServerProcess
) -> None:
    for _ in range(LIMIT):  # from this address: the browser's games count with these
        create_game(capped.base, "candle-quest", 2)
    context = sized_context(browser, capped.base, "phone")
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto("/")
        said, place = refused(page, "#create", "#create-form .request-error", "limit-start")
        page.set_viewport_size({"width": SIZES["phone"][0], "height": SIZES["phone"][1]})
        learn = page.locator("[data-learn]").first
        learn.click()
        learned = page.locator(".learn-lobby .request-error:not([hidden])")
        learned.wait_for()
        learn_said = learned.inner_text()
        learn_place = page.evaluate(
            PLACE, ["[data-learn]", ".learn-lobby .request-error:not([hidden])"]
        )
        shot(page, "limit-learn-phone")
    finally:
        context.close()
    assert not errors, errors
    for words, where in ((said, place), (learn_said, learn_place)):
        assert f"already has {LIMIT} unfinished games" in words, words
        assert "network address" in words and "every browser" in words, words  # what is counted
        assert "Finish or resign one of your games" in words, words  # what to do
        assert 0 <= where["gap"] <= 24, f"the refusal is {where['gap']} px from its button"
        assert where["inView"], "the refusal is out of view"
        assert where["role"] == "alert" and where["describes"], where
        assert not any("games" in notice for notice in where["notices"]), where["notices"]


def test_a_refused_rematch_is_said_under_its_button(browser: Any, capped: ServerProcess) -> None:
    """Issue 36: the end screen's Rematch, refused for the limit of games in play, came as a notice
    in a corner; it is said under the end screen's buttons, read out, with what to do."""
    ended = create_game(capped.base, "candle-quest", 2)
    headers = {"Authorization": f"Bearer {ended['token']}"}
    resigned = api.post(
        f"{capped.base}/api/games/{ended['id']}/resign", headers=headers, timeout=30
    )
    assert resigned.status_code == 200, resigned.text
    for _ in range(LIMIT):  # the address's live games at the limit: a rematch would be one more
        create_game(capped.base, "candle-quest", 2)
    context = sized_context(browser, capped.base, "phone")
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto("/")
        open_seat(page, ended)
        said, place = refused(
            page, "#endscreen .rematch", "#endscreen .request-error:not([hidden])", "limit-rematch"
        )
    finally:
        context.close()
    assert not errors, errors
    assert f"already has {LIMIT} unfinished games" in said, said
    assert "Finish or resign one of your games" in said, said
    assert 0 <= place["gap"] <= 60, f"the refusal is {place['gap']} px from its button"
    assert place["inView"], "the refusal is out of view"
    assert place["role"] == "alert" and place["describes"], place
    assert not any("games" in notice for notice in place["notices"]), place["notices"]
