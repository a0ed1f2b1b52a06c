"""An accessibility scan with axe-core (axe-playwright-python) of the lobby and of each game's page at
a decision, on a laptop and a phone: no serious or critical violation."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import Pages, create_game, open_seat, shot
from tests.e2e.test_layout import SIZES

axe_module = pytest.importorskip(
    "axe_playwright_python.sync_playwright",
    reason="axe-playwright-python is not installed: pip install -e '.[e2e]'",
)

TABLES = [("candle-quest", None, 3), ("sixteen-candies", None, 4), ("candelabria", "standard", 5)]


def serious(page: Any) -> list[str]:
    """The serious and critical violations on the page, each with the first elements it names."""
    results = axe_module.Axe().run(page)
    found = []
    for violation in results.response["violations"]:
        if violation["impact"] in ("serious", "critical"):
            targets = [" ".join(map(str, n["target"])) for n in violation["nodes"][:3]]
            found.append(f"{violation['id']} ({violation['impact']}): {targets}")
    return found


@pytest.mark.parametrize("size", list(SIZES))
def test_the_lobby_has_no_serious_violation(pages: Pages, server: Any, size: str) -> None:
    """With its options open and a game of yours listed (Resume, Resign, Abandon), and with the
    Resign question asked."""
    created = create_game(server.base, "candle-quest", 2)
    page = pages.new()
    page.set_viewport_size({"width": SIZES[size][0], "height": SIZES[size][1]})
    page.goto("/")
    seats = {created["id"]: {"seat": created["seat"], "token": created["token"]}}
    page.evaluate("seats => localStorage.setItem('candlebox.seats', JSON.stringify(seats))", seats)
    page.reload()
    page.wait_for_selector("#create")
    page.wait_for_selector("#mine [data-leave='resign']")
    for summary in page.locator(".options summary").all():
        summary.click()
    assert serious(page) == []
    small = page.evaluate(
        "() => [...document.querySelectorAll('#mine .gc-actions > *')]"
        ".map(e => e.getBoundingClientRect()).filter(r => r.width < 24 || r.height < 24).length"
    )
    assert small == 0, "a button of Your games is smaller than 24x24"
    shot(page, f"lobby-{size}")
    page.locator("#mine [data-leave='resign']").click()
    page.wait_for_selector("#mine [data-confirm='resign']")
    assert serious(page) == []


@pytest.mark.parametrize(("game", "variant", "players"), TABLES)
def test_a_game_page_has_no_serious_violation(
    pages: Pages, server: Any, game: str, variant: str | None, players: int
) -> None:
    created = create_game(server.base, game, players, variant, options={"max_turns": 40})
    page = pages.new()
    page.goto("/")
    open_seat(page, created)
    page.wait_for_function(
        "document.querySelector('#board [data-action], #board [data-choices]')", timeout=20_000
    )
    page.locator("#all-actions summary").click()  # the list of actions is scanned too
    assert serious(page) == []
