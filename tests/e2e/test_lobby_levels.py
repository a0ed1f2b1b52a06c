"""The lobby's create form (issue 16): each game's own opponent levels, with a line on how each plays
(and "How strong are the bots?" for all of them), and "Allow hints for everyone", which the new table carries (``hints``) and its game page shows.
Screenshots of the form at a phone's, a laptop's and a large screen's size."""

from __future__ import annotations

from typing import Any

import candlebox
from tests.e2e.conftest import SIZES, Pages, api, shot


def test_the_opponents_are_the_games_levels_and_hints_can_be_allowed(
    pages: Pages, server: Any
) -> None:
    page = pages.new()
    page.goto("/")
    page.wait_for_selector("#create")
    game = candlebox.game_info(candlebox.game_ids()[0])
    select = page.locator('select[aria-label="Seat 2 opponent"]')
    assert select.locator("option").all_inner_texts() == [
        f"{level.name.capitalize()} bot" for level in game.levels
    ]
    select.select_option("hard")
    hard = next(level for level in game.levels if level.name == "hard")
    assert page.inner_text(".level-doc") == hard.doc
    page.locator('[aria-label="Players"] button', has_text="3").click()
    page.click(".level-help summary")  # "How strong are the bots?": every level, how it plays
    helped = page.inner_text(".level-help")
    assert all(level.doc in helped for level in game.levels)
    words = {2: "two-player test games", 4: "test games at tables of four"}
    for below, level in zip(game.levels, game.levels[1:], strict=False):
        record = level.ahead  # its measured record against the level below, and at what table
        if record is not None:
            assert (
                f"In our {words[record.players]} it finished ahead of the "
                f"{below.name.capitalize()} bot {int(record.ahead + 0.5)} times in {record.games}."
            ) in helped
    page.locator('[aria-label="Players"] button', has_text="2").click()  # a redraw keeps it open
    assert page.locator(".level-help").get_attribute("open") is not None
    page.locator('[aria-label="Players"] button', has_text="3").click()
    page.locator('[aria-label="Seat 3"] button', has_text="Friend").click()
    hints = page.locator("#allow-hints")
    assert not hints.is_checked()
    hints.check()
    for name, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.locator("#allow-hints").scroll_into_view_if_needed()
        shot(page, f"lobby-levels-hints-{name}")
    page.click("#create")
    page.wait_for_url("**/g/*")
    game_id = page.url.rsplit("/", 1)[-1].split("?")[0]
    frame = api.get(f"{server.base}/api/games/{game_id}/state", timeout=30).json()
    assert frame["game"]["hints"] is True
    assert [(s["kind"], s["level"]) for s in frame["seats"]] == [
        ("human", None),
        ("bot", "hard"),
        ("human", None),
    ]
    page.wait_for_selector(".coach-panel:not([hidden])")
    assert "Hints are allowed for every player at this table." in page.inner_text(".coach-panel")


def test_a_name_typed_before_the_other_choices_is_kept(pages: Pages, server: Any) -> None:
    """A newcomer fills the form from the top: the name typed first must survive the choices below
    and above it (each redraws the form) and be the seat's name at the table."""
    page = pages.new()
    page.goto("/")
    page.wait_for_selector("#create")
    page.fill("#your-name", "Alice")  # typed, not yet saved anywhere
    page.locator('[aria-label="Players"] button', has_text="3").click()
    page.get_by_role("group", name="Bot speed").get_by_role("button", name="Fast").click()
    page.locator('select[aria-label="Seat 2 opponent"]').select_option("easy")
    titles = [candlebox.game_info(game).title for game in candlebox.game_ids()]
    for title in [*titles[1:], titles[0]]:  # every game, back to the first
        page.locator("#create-form").get_by_role("button", name=title).click()
    assert page.input_value("#your-name") == "Alice"
    page.click("#create")
    page.wait_for_url("**/g/*")
    game_id = page.url.rsplit("/", 1)[-1].split("?")[0]
    frame = api.get(f"{server.base}/api/games/{game_id}/state", timeout=30).json()
    assert frame["seats"][0]["name"] == "Alice"


def test_the_form_says_what_the_chosen_game_is_about(pages: Pages, server: Any) -> None:
    """A first-time visitor reads, under the games, what the chosen one is about (its rules page's
    opening lines), with the way to its rules."""
    from candlebox.engine.howto import how_to_play

    page = pages.new()
    page.goto("/")
    page.wait_for_selector("#create")
    for game in candlebox.game_ids():
        title = candlebox.game_info(game).title
        page.locator("#create-form").get_by_role("button", name=title).click()
        summary = page.locator(".game-summary")
        text = summary.inner_text()
        assert how_to_play(game).summary in text and len(text) > 80
        assert summary.locator("a").get_attribute("href") == f"/rules/{game}"
