"""End-to-end fixtures: a real ``candlebox serve`` on a private loopback port and Debian's Chromium
driven by Playwright for Python (never ``playwright install``: the browser is /usr/bin/chromium).

Screenshots go to /tmp/candlebox-e2e/ (override with CANDLEBOX_SCREENSHOTS) to be looked at.

The README's test command runs only the browser tests in :data:`DEFAULT_RUN`; every other test here is
marked ``browser_games`` as it is collected, and CI's second step runs it (.ci/run).
"""

from __future__ import annotations

import os
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

httpx = pytest.importorskip(
    "httpx", reason="the e2e extra is not installed: pip install -e '.[e2e]'"
)
pytest.importorskip(
    "fastapi", reason="the server extra is not installed: pip install -e '.[server]'"
)
sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed: pip install -e '.[e2e]'"
)

from tests.server.live import ServerProcess  # noqa: E402

CHROMIUM = os.environ.get("CANDLEBOX_CHROMIUM", "/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = Path(os.environ.get("CANDLEBOX_SCREENSHOTS", "/tmp/candlebox-e2e"))
VIEWPORT = {"width": 1440, "height": 900}  # a laptop screen
# The screen sizes every page is looked at in (a phone is also touch)
SIZES = {"phone": (390, 844), "laptop": (1280, 800), "large": (1920, 1080)}


# The browser tests the README's test command runs (a second or two each, on one server and browser
# per worker): one short test per game and a few guards of what every page must do. The rest, whole
# games and every screen size, are marked ``browser_games`` by the hook below: CI's second step.
DEFAULT_RUN = {
    # each game's page draws a decision with no serious axe violation (one short test per game)
    "test_a11y.py::test_a_game_page_has_no_serious_violation",
    # the lobby with its options open and a game listed: axe-clean on a phone
    "test_a11y.py::test_the_lobby_has_no_serious_violation[phone]",
    # keyboard use: the lobby's groups one Tab stop each; after a move the focus is on the next one
    "test_keyboard.py::test_the_lobby_groups_are_one_tab_stop_each",
    "test_keyboard.py::test_after_a_move_the_focus_is_on_the_next_decision",
    # a board that cannot load says so instead of leaving a blank table
    "test_layout.py::test_a_board_that_cannot_load_says_so",
    # bad input is refused beside the field it names
    "test_accounts_pages.py::test_sign_up_shows_each_refusal_beside_its_field",
}


def in_default_run(item: pytest.Item) -> bool:
    name = f"{item.path.name}::{item.name}"
    return name in DEFAULT_RUN or name.split("[")[0] in DEFAULT_RUN


@pytest.hookimpl(tryfirst=True)  # before pytest's own hook deselects by marker
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # a conftest's collection hook sees the whole session's items: only this folder's are marked
    here = Path(__file__).parent
    for item in items:
        if item.path.parent == here and not in_default_run(item):
            item.add_marker(pytest.mark.browser_games)


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    root = tmp_path_factory.mktemp("e2e-server")
    process = ServerProcess(f"sqlite:///{root / 'e2e.sqlite3'}", root / "server.log", bot_delay=0)
    process.start()
    try:
        yield process
    finally:
        process.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists() and not shutil.which("chromium"):
        pytest.skip(
            f"Chromium is not installed at {CHROMIUM} (Debian: apt-get install -y chromium)"
        )
    with sync_api.sync_playwright() as playwright:
        try:
            launched = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        except Exception as exc:  # pragma: no cover - depends on the machine
            pytest.skip(f"Chromium did not start: {exc}")
        try:
            yield launched
        finally:
            launched.close()


class Harness:
    """The tests' own API calls (a page's are its own): like any well-behaved client they honour the
    server's rate limit, which they share with the pages of this worker's tests (one address): a
    429 is waited out as its Retry-After says and asked again. Refused before it is read, a move
    sent again is sent once."""

    def get(self, url: str, **kwargs: Any) -> Any:
        return self.send("GET", url, **kwargs)

    def post(self, url: str, **kwargs: Any) -> Any:
        return self.send("POST", url, **kwargs)

    def send(self, method: str, url: str, **kwargs: Any) -> Any:
        for _ in range(60):
            response = httpx.request(method, url, **kwargs)
            if response.status_code != 429:
                break
            time.sleep(float(response.headers.get("Retry-After") or 1))
        return response


api = Harness()


def watch(page: Any, errors: list[str]) -> None:
    """Collect the page's uncaught errors, and the answers that break a page without one: a file
    refused for the rate (a module that never loads leaves the board blank, with no JavaScript
    error) or a server error. A hint asked too soon is answered 429 on purpose (the page retries), as
    is a sign-in while too many have failed (the page says when to try again)."""
    page.on("pageerror", lambda exc: errors.append(str(exc)))

    def answered(response: Any) -> None:
        meant = "/hint" in response.url or response.url.endswith("/api/session")
        refused = response.status == 429 and not meant
        if refused or response.status >= 500:
            errors.append(f"{response.status} for {response.request.method} {response.url}")

    page.on("response", answered)


def sized_context(browser: Any, base: str, size: str, timeout: int = 15_000) -> Any:
    """A browser context at one of :data:`SIZES` (a phone taps: touch on); the caller closes it.
    The harness evaluates its own JavaScript, which the pages' CSP would refuse."""
    width, height = SIZES[size]
    context = browser.new_context(
        viewport={"width": width, "height": height},
        base_url=base,
        bypass_csp=True,
        has_touch=size == "phone",
    )
    context.set_default_timeout(timeout)
    return context


@pytest.fixture
def sized(browser: Any, server: ServerProcess) -> Iterator[Any]:
    """A page maker for one of :data:`SIZES`: ``sized(size, script=None)`` opens the lobby in a
    context of its own (``script`` run before each page's own); every page's JavaScript errors fail
    the test."""
    contexts: list[Any] = []
    errors: list[str] = []

    def new(size: str, script: str | None = None) -> Any:
        context = sized_context(browser, server.base, size)
        if script:
            context.add_init_script(script)
        contexts.append(context)
        page = context.new_page()
        watch(page, errors)
        page.goto("/")
        return page

    try:
        yield new
    finally:
        for context in contexts:
            context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


class Pages:
    """New browser contexts (separate players: separate localStorage), closed at the end."""

    def __init__(self, browser: Any, base: str) -> None:
        self.browser = browser
        self.base = base
        self.contexts: list[Any] = []
        self.errors: list[str] = []

    def new(self) -> Any:
        # the test harness evaluates its own JavaScript, which the pages' CSP would refuse
        context = self.browser.new_context(viewport=VIEWPORT, base_url=self.base, bypass_csp=True)
        context.set_default_timeout(10_000)
        self.contexts.append(context)
        page = context.new_page()
        watch(page, self.errors)
        return page

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser: Any, server: ServerProcess) -> Iterator[Pages]:
    made = Pages(browser, server.base)
    try:
        yield made
    finally:
        made.close()
    assert not made.errors, f"JavaScript errors on the page: {made.errors}"


def shot(page: Any, name: str) -> Path:
    SHOTS.mkdir(parents=True, exist_ok=True)
    path = SHOTS / f"{name}.png"
    page.screenshot(path=str(path))
    return path


def create_game(
    base: str,
    game: str,
    players: int,
    variant: str | None = None,
    options: dict[str, Any] | None = None,
    bot: str = "random",
) -> dict[str, Any]:
    """A game made through the API (faster than the lobby form): you in seat 0, bots elsewhere."""
    seats = [{"kind": "human", "name": "Ada"}] + [{"kind": "bot", "bot": bot}] * (players - 1)
    body: dict[str, Any] = {
        "game": game,
        "options": options or {},
        "seats": seats,
        "you": 0,
        "bot_delay": 0,
        "public": False,
    }
    if variant:
        body["variant"] = variant
    if any(name in (options or {}) for name in ("deck", "decks", "content")):
        body["practice"] = True  # fixed cards are for practice games only
    response = api.post(f"{base}/api/games", json=body, timeout=30)
    response.raise_for_status()
    created: dict[str, Any] = response.json()
    return created


def open_seat(page: Any, created: dict[str, Any], drawn: bool = True) -> None:
    """Give this browser the seat's credential (as the lobby does) and open the game page; with
    ``drawn``, wait until its board is drawn."""
    seats = {created["id"]: {"seat": created["seat"], "token": created["token"]}}
    page.evaluate("seats => localStorage.setItem('candlebox.seats', JSON.stringify(seats))", seats)
    page.goto(f"/g/{created['id']}")
    if not drawn:
        return
    try:
        page.wait_for_selector("#board > *")
    except Exception as exc:  # say how far the page got: its socket's state and what it shows
        seen = page.evaluate(
            "() => [document.querySelector('#link')?.textContent,"
            " document.body.innerText.slice(0, 300)]"
        )
        raise AssertionError(f"no board drawn: link {seen[0]!r}, page text {seen[1]!r}") from exc


def move_and_watch(
    page: Any, url: str, headers: dict[str, str], frame: dict[str, Any], action: str
) -> None:
    """Play ``action`` for the seat of ``frame`` through the API (``url``: the game's), then wait
    until the open page shows a later move, or the end."""
    body = {"action": action, "expect": frame["move"]}
    api.post(f"{url}/moves", json=body, headers=headers, timeout=30)
    page.wait_for_function(
        "m => Number(document.body.dataset.move) > m || document.body.dataset.over === 'true'",
        arg=frame["move"],
    )


def open_options(page: Any) -> None:
    """Open the lobby's rules options and its "Advanced: practice game" knobs (max_turns lives there)."""
    for summary in page.locator(".options summary").all():
        summary.click()
