"""Rules inside the app in a real browser (issue 14): learn mode plays a whole first game of each
game (the first option each time, bots at full speed, fewer turns), the how-to-play pages render with their
rulings, and a refused move shows the engine's explanation under the banner."""

from __future__ import annotations

import re
from typing import Any

import pytest

import candlebox
from candlebox.engine.howto import how_to_play
from tests.e2e.conftest import api, shot

OPTIONS_NOW = (
    "() => document.body.dataset.over === 'true' || !!document.querySelector("
    '`.learn-options[data-move="${document.body.dataset.move}"] li button`)'
)


# Shorter games than the lobby's, to their end all the same (the test's time is the browser's clicks)
SHORTER = {"candle-quest": {"max_turns": 16}, "candelabria": {"max_turns": 10}}


def learn_game(base: str, game: str) -> dict[str, Any]:
    """The game the lobby's "Learn to play" makes, but with bots at full speed and fewer turns."""
    learn = how_to_play(game).learn
    body = {
        "game": game,
        "variant": learn.variant,
        "options": SHORTER.get(game, {}),
        "seats": [
            {"kind": "human", "name": "Ada"},
            {"kind": "bot", "bot": "heuristic", "level": "easy"},
        ],
        "you": 0,
        "bot_delay": 0,
        "public": False,
    }
    response = api.post(f"{base}/api/games", json=body, timeout=30)
    response.raise_for_status()
    created: dict[str, Any] = response.json()
    return created


def open_learning(page: Any, created: dict[str, Any]) -> None:
    seats = {created["id"]: {"seat": created["seat"], "token": created["token"]}}
    page.goto("/")
    page.evaluate("seats => localStorage.setItem('candlebox.seats', JSON.stringify(seats))", seats)
    page.goto(f"/g/{created['id']}?learn=1")
    page.wait_for_selector("#learn-panel")


@pytest.mark.browser_games  # a whole game each (CI's second step)
@pytest.mark.parametrize("game", ["sixteen-candies", "candelabria", "candle-quest"])
def test_learn_mode_plays_a_whole_game(pages: Any, server: Any, game: str) -> None:
    page = pages.new()
    created = learn_game(server.base, game)
    open_learning(page, created)
    seen_why = False
    grouped = False
    for _ in range(1500):
        page.wait_for_function(OPTIONS_NOW, timeout=20_000)
        if page.get_attribute("body", "data-over") == "true":
            break
        move = page.get_attribute("body", "data-move")
        first = page.locator(f'.learn-options[data-move="{move}"] li').first
        # every option shows its label, what it does and its rule (options alike, as an auction's
        # opening bids, share one entry: their words once, a button each)
        assert first.locator("button").first.inner_text().strip()
        if page.locator(".learn-amounts").count():
            shot(page, f"learn-grouped-{game}")
        assert first.locator(".does").inner_text().strip()
        assert first.locator("a.rule").get_attribute("href").startswith(f"/rules/{game}?")
        assert page.locator("#rule-bar .rule a").count() == 1
        entries = page.locator(f'.learn-options[data-move="{move}"] li')
        buttons = page.locator(f'.learn-options[data-move="{move}"] li button')
        legal = page.inner_text("#action-count").strip("()")  # "(14)": the legal actions
        if legal:  # every legal action is still offered, each once
            assert buttons.count() == int(legal)
        if buttons.count() >= 6:
            grouped = grouped or entries.count() < buttons.count()
        seen_why = seen_why or page.locator("#log .why").count() > 0
        first.locator("button").first.click()
        page.wait_for_function(
            "m => document.body.dataset.move !== m || document.body.dataset.over === 'true'",
            arg=move,
            timeout=20_000,
        )
    assert page.get_attribute("body", "data-over") == "true"
    if game == "candle-quest":  # a flipped candle's opening bids were one entry
        assert grouped
    assert seen_why or page.locator("#log .why").count() > 0  # the bot's moves were explained
    assert page.locator("#rule-bar .refusal").count() == 0


@pytest.mark.parametrize("game", candlebox.game_ids())
def test_how_to_play_pages_render_with_their_rulings(pages: Any, game: str) -> None:
    page = pages.new()
    page.goto(f"/rules/{game}")
    howto = how_to_play(game)
    for section in howto.sections.values():
        assert page.locator(f'[id="{section.anchor}"]').count() == 1
    assert page.locator(".ruling").count() == len(
        howto.rulings_for(
            howto.learn.variant if game != "candelabria" else "standard",
            candlebox.new_game(
                game, players=candlebox.game_info(game).variants[0].min_players
            ).options,
        )
    )
    assert page.locator(".rules-toc ol a").count() == len(howto.sections) + 1


def test_a_refused_move_shows_the_engines_explanation(pages: Any, server: Any) -> None:
    page = pages.new()
    created = learn_game(server.base, "candle-quest")
    open_learning(page, created)
    # Flip until a candle waits to be bought, sold or auctioned, then type an amount past what the
    # player owns (submitted as a browser without number checks would): the server refuses it and
    # the page shows the engine's reason under the banner. The look for the amount box and the
    # submit are one step: the page may redraw the actions between two of the test's calls.
    submit_99 = """() => {
        const input = document.querySelector('#actions input[aria-label="auction amount"]');
        if (!input) return false;
        input.value = '99';
        input.form.dispatchEvent(new Event('submit', { cancelable: true }));
        return true;
    }"""
    for _ in range(40):
        page.wait_for_function(OPTIONS_NOW)
        if page.evaluate(submit_99):
            break
        move = page.get_attribute("body", "data-move")
        page.locator(f'.learn-options[data-move="{move}"] li button').first.click()
        page.wait_for_function("m => document.body.dataset.move !== m", arg=move)
    else:
        pytest.fail("no auction decision came in 40 moves")
    refused = page.locator("#rule-bar .refusal")
    refused.wait_for()
    text = refused.inner_text()
    assert text.startswith("Not allowed:") and "'auction 99'" in text and "Legal:" in text
    shot(page, "learn-refused")


def test_the_lobby_starts_a_learn_game(pages: Any) -> None:
    page = pages.new()
    page.goto("/")
    page.locator('#learn button[data-learn="sixteen-candies"]').click()
    page.wait_for_url("**/g/*?learn=1")
    page.wait_for_selector(".learn-intro")  # folded under one line, opened by a click
    page.locator(".learn-intro summary").click()
    assert "16 candies" in page.locator(".learn-intro").inner_text()
    assert page.locator("#players").inner_text().count("Easy bot") == 1  # the game's Easy level
    href = page.locator("#rule-bar a.howto").get_attribute("href")
    assert href.startswith("/rules/sixteen-candies?variant=standard")
    page.goto(href)
    assert page.locator("h1").inner_text() == "How to play 16 Candies"


# The board's top within the first screen in learn mode, with room to see it (a third of the screen
# at least): at most this share of the screen's height above it (the banner, the rule bar and the
# bounded explanations; a phone's banner alone can be six lines for 16 Candies' call).
BOARD_BY = 2 / 3
DECISIONS_LOOKED_AT = 8  # a game's first decisions, among them long lists (houses, bids, layouts)


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["laptop", "phone"])
@pytest.mark.parametrize("game", ["sixteen-candies", "candelabria", "candle-quest"])
def test_learn_mode_keeps_the_board_in_the_first_screen(
    pages: Any, server: Any, game: str, size: tuple[int, int]
) -> None:
    width, height = size
    page = pages.new()
    page.set_viewport_size({"width": width, "height": height})
    open_learning(page, learn_game(server.base, game))
    board_top = "() => document.querySelector('#board').getBoundingClientRect().top"
    for _ in range(DECISIONS_LOOKED_AT):
        page.wait_for_function(OPTIONS_NOW, timeout=20_000)
        if page.get_attribute("body", "data-over") == "true":
            break
        page.evaluate("() => window.scrollTo(0, 0)")
        top = page.evaluate(board_top)
        move = page.get_attribute("body", "data-move")
        if top > BOARD_BY * height:
            shot(page, f"learn-board-low-{game}-{width}")
        assert top <= BOARD_BY * height, f"move {move}: the board starts at {top:.0f} of {height}"
        # the prompt is the banner's: the explanations do not say it a second time
        banner = page.inner_text("#banner").strip()
        assert banner not in page.inner_text("#learn-panel")
        # what an option's pieces are, each by name ("Cinis Clan and 3 more" named one of four)
        for about in page.locator(".learn-options .about summary").all_text_contents():
            assert about.startswith("What ") and not re.search(r"and \d+ more", about), about
        page.locator(f'.learn-options[data-move="{move}"] li button').first.click()
        page.wait_for_function(
            "m => document.body.dataset.move !== m || document.body.dataset.over === 'true'",
            arg=move,
            timeout=20_000,
        )
    shot(page, f"learn-board-{game}-{width}")


def test_the_explanations_fold_away_and_reopen(pages: Any, server: Any) -> None:
    page = pages.new()
    page.set_viewport_size({"width": 390, "height": 844})
    open_learning(page, learn_game(server.base, "candelabria"))
    page.wait_for_function(OPTIONS_NOW, timeout=20_000)
    board_top = "() => document.querySelector('#board').getBoundingClientRect().top"
    unfolded = page.evaluate(board_top)
    toggle = page.locator("#learn-panel .learn-toggle")
    assert toggle.get_attribute("aria-expanded") == "true"
    toggle.click()
    page.wait_for_function("() => !document.querySelector('.learn-options').checkVisibility()")
    assert toggle.get_attribute("aria-expanded") == "false"
    assert page.evaluate(board_top) < unfolded
    shot(page, "learn-folded-phone")
    page.reload()  # folded stays folded, in this browser
    page.wait_for_selector("#learn-panel .learn-toggle[aria-expanded='false']")
    page.locator("#learn-panel .learn-toggle").click()
    page.wait_for_function(OPTIONS_NOW, timeout=20_000)
    assert page.locator(".learn-options li button").first.is_visible()
