"""The installed plug-in game in the browser at three screen sizes: listed in the lobby, a whole game
played on the generic board, its rules page; no serious accessibility violation (axe)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.plugins.conftest import GAME, Installed, installed  # noqa: F401  (the fixture)

pytestmark = pytest.mark.plugins
pytest.importorskip("playwright.sync_api", reason="the e2e extra is not installed")

from tests.e2e.conftest import Pages, create_game, open_seat, shot  # noqa: E402
from tests.e2e.test_a11y import serious  # noqa: E402
from tests.e2e.test_candle_quest import is_over, play_until_over  # noqa: E402
from tests.e2e.test_layout import SIZES  # noqa: E402
from tests.server.live import ServerProcess  # noqa: E402


@pytest.fixture(scope="module")
def plugin_server(installed: Installed, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:  # noqa: F811
    root = tmp_path_factory.mktemp("plugin-server")
    process = ServerProcess(
        f"sqlite:///{root / 'db.sqlite3'}",
        root / "server.log",
        bot_delay=0,
        env={"PYTHONPATH": installed.env["PYTHONPATH"]},  # the server finds the installed game
    )
    process.start()
    try:
        yield process
    finally:
        process.stop()


@pytest.mark.parametrize("size", list(SIZES))
def test_the_new_game_in_the_browser(browser: Any, plugin_server: Any, size: str) -> None:
    pages = Pages(browser, plugin_server.base)
    try:
        page = pages.new()
        page.set_viewport_size({"width": SIZES[size][0], "height": SIZES[size][1]})
        page.goto("/")
        page.wait_for_selector("text=Lantern Duel")
        assert serious(page) == []
        created = create_game(plugin_server.base, GAME, 3, bot="heuristic")
        open_seat(page, created)
        assert serious(page) == []
        shot(page, f"plugin-{size}")
        clicks = play_until_over(page, limit=20, prefix=f"plugin-{size}")
        assert is_over(page), f"not over after {clicks} clicks"
        # Every seat bid once a round for five rounds (a click on a board being redrawn may miss).
        assert plugin_server.get(f"/api/games/{created['id']}/state").json()["move"] == 3 * 5
        assert "Game over" in page.locator("#banner").inner_text()
        shot(page, f"plugin-over-{size}")
        page.goto(f"/rules/{GAME}")
        page.wait_for_selector("#setting-up")
        assert serious(page) == []
    finally:
        pages.close()
    assert not pages.errors, pages.errors
