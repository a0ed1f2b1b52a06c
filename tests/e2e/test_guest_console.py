"""A guest (no session) is a normal visitor, not an error: the lobby and a game page log nothing in
the browser's console. Asking ``GET /api/me`` without a session logged "Failed to load resource: 401"
on every page a guest opened (docs/server.md: the route answers a guest 401)."""

from __future__ import annotations

from typing import Any

from tests.e2e.conftest import Pages, create_game, open_seat


def console_errors(page: Any) -> list[str]:
    """The page's console errors and uncaught exceptions, collected as they come."""
    seen: list[str] = []
    page.on(
        "console", lambda msg: msg.type == "error" and seen.append(f"{msg.text} {msg.location}")
    )
    page.on("pageerror", lambda exc: seen.append(str(exc)))
    return seen


def test_a_guest_opens_the_lobby_and_a_game_without_a_console_error(
    pages: Pages, server: Any
) -> None:
    page = pages.new()
    errors = console_errors(page)
    page.goto("/")
    page.wait_for_selector("#who[data-state=guest]")
    page.wait_for_selector("#create-form .game-choice")
    created = create_game(server.base, "candle-quest", 2)
    open_seat(page, created)
    page.wait_for_selector("#who[data-state=guest]")
    # every request the page made so far has been answered (and would have been logged)
    page.wait_for_load_state("networkidle")
    assert errors == []
