"""Refusals said beside the control that asked (js/refusals.js): the server's 4xx answer to a click
shows in words right under the button or field used, in the same component everywhere (a
``.request-error`` line), not as a notice far from it. Each case makes the server refuse for real:
another page (or the API, standing for another player) acts on the same thing first, a seat's
invitation code is wrong, a message is over the limit, a player's share of reviews is taken. A page shown acting late keeps the view it
had, as a page on a slow connection does: its game frames are held back (:class:`Held`), or the
lobby's poll is still (:data:`STILL`). Screenshots at three sizes: /tmp/candlebox-e2e/refuse-*.png."""

from __future__ import annotations

import random
import re
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import SIZES, Pages, api, create_game, httpx, open_seat, shot
from tests.e2e.test_chat import sit, two_players
from tests.e2e.test_take_backs import frame_of, make, moved, my_turn
from tests.server.live import ServerProcess
from tests.server.test_accounts import signed_up

# the lobby's 5-second poll would redraw "Your games" between the other player's act and this
# page's click; held still, the page shows what it had, as between two polls
STILL = "window.setInterval = () => 0;"

# where the refusal is: inside its container, visible, right under ``near`` (the control, or in a
# card, the rows above the line: its buttons and its words)
PLACE = """([line, near]) => {
  const el = document.querySelector(line);
  const l = el.getBoundingClientRect();
  const rows = [...document.querySelectorAll(near)].map((n) => n.getBoundingClientRect());
  const bottom = Math.max(...rows.map((n) => n.bottom));
  return {
    shown: !el.hidden && l.height > 0,
    gap: l.top - bottom,
    overlap: Math.max(...rows.map((n) => Math.min(l.right, n.right) - Math.max(l.left, n.left))),
    errors: [...document.querySelectorAll(".toasts .notice.error")].map((e) => e.textContent),
  };
}"""


# nothing covers the line or clips it (a panel of fixed height): its first and last rows are on top
ON_TOP = """(line) => {
  const el = document.querySelector(line);
  const l = el.getBoundingClientRect();
  return [l.top + 3, l.bottom - 3].every((y) => el.contains(document.elementFromPoint(l.left + 4, y)));
}"""


class Held:
    """The game page's socket, with the server's frames held back once :meth:`hold` is called."""

    def __init__(self, page: Any) -> None:
        self.holding = False
        page.route_web_socket(re.compile(r"/ws/games/"), self.route)

    def route(self, ws: Any) -> None:
        server = ws.connect_to_server()
        server.on_message(lambda message: None if self.holding else ws.send(message))

    def hold(self) -> None:
        self.holding = True


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# ----------------------------------------------------------------------------- the cases
# Each makes the server refuse one control's request and returns (the control's refusal line, the
# element the line must sit right under, words of the refusal).
Case = Callable[[Any, ServerProcess], tuple[str, str, str]]


def take_seat(page: Any, server: ServerProcess) -> tuple[str, str, str]:
    """A private game's join link with a wrong code: "Take this seat" is refused."""
    friend = api.post(
        f"{server.base}/api/games",
        json={"game": "candle-quest", "seats": [{"name": "Ada"}, {}], "you": 0, "public": False},
        timeout=30,
    ).json()
    page.goto(f"/g/{friend['id']}?seat=1#invite=not-the-code")
    page.locator("#invite .join button").click()
    return "#invite .join .request-error", "#invite .join button", "use the join link"


def slow_table(base: str) -> dict[str, Any]:
    """A game against a bot that waits 5 s a move: with the seat handed to a bot too, the game is
    still on when the page asks (two instant bots could end it first, a refusal of another kind)."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}]
    body = {"game": "candle-quest", "seats": seats, "you": 0, "bot_delay": 5, "public": False}
    made: dict[str, Any] = api.post(f"{base}/api/games", json=body, timeout=30).json()
    return made


def bot_for_me(page: Any, server: ServerProcess) -> tuple[str, str, str]:
    """The seat handed to a bot elsewhere (another tab) first: this page's toggle is refused."""
    made = slow_table(server.base)
    held = Held(page)
    open_seat(page, made)
    button = page.get_by_role("button", name="Let a bot play for me")
    button.wait_for()
    held.hold()
    url = f"{server.base}/api/games/{made['id']}/seats/0/bot"
    api.post(url, json={"bot": "heuristic"}, headers=bearer(made["token"]), timeout=30)
    button.click()
    return (
        ".player-tools .request-error:not([hidden])",
        ".player-tools > button:first-child",
        "a bot already plays this seat",
    )


def seat_back(page: Any, server: ServerProcess) -> tuple[str, str, str]:
    """The seat taken back from its bot elsewhere first: this page's "Take my seat back" is refused."""
    made = slow_table(server.base)
    url = f"{server.base}/api/games/{made['id']}/seats/0"
    api.post(f"{url}/bot", json={"bot": "random"}, headers=bearer(made["token"]), timeout=30)
    held = Held(page)
    open_seat(page, made)
    button = page.locator(".player-tools > button", has_text="Take my seat back")
    button.wait_for()
    held.hold()
    api.post(f"{url}/human", headers=bearer(made["token"]), timeout=30)
    button.click()
    return ".player-tools .request-error", ".player-tools > button:first-child", "only a seat"


def resign_here(page: Any, server: ServerProcess) -> tuple[str, str, str]:
    """The game page's Resign, its Yes pressed after the game ended elsewhere (another tab)."""
    made = create_game(server.base, "candle-quest", 2)
    held = Held(page)
    open_seat(page, made)
    page.locator(".player-tools [data-leave='resign']").click()
    page.locator(".player-tools [data-confirm='resign']").wait_for()
    held.hold()
    url = f"{server.base}/api/games/{made['id']}/resign"
    assert api.post(url, headers=bearer(made["token"]), timeout=30).status_code == 200
    page.locator(".player-tools [data-confirm='resign']").click()
    resign = ".player-tools [data-leave='resign']"
    return f"{resign} + .request-error", resign, "over"


def take_back(page: Any, server: ServerProcess) -> tuple[str, str, str]:
    """The moves taken back elsewhere first: this page's "Take back" is refused (the game moved)."""
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}]
    made = make(server.base, seats, seed=5)
    base, game, token = server.base, made["id"], made["token"]
    rng = random.Random(5)
    frame = my_turn(base, game, token)
    for _ in range(100):  # moves through the API until there is something to take back
        if frame["undoable"]:
            break
        moved(base, game, token, frame, rng)
        frame = my_turn(base, game, token)
    held = Held(page)
    open_seat(page, made)
    page.locator(".take-back-button").wait_for()
    held.hold()
    url = f"{base}/api/games/{game}/undo"
    api.post(url, json={"expect": frame["move"]}, headers=bearer(token), timeout=30)
    assert frame_of(base, game, token)["move"] < frame["move"]  # taken back elsewhere
    page.locator(".take-back-button").click()
    return "#take-back .request-error", ".take-back-button", "game"


def chat_send(page: Any, server: ServerProcess) -> tuple[str, str, str]:
    """A message over the limit (the field's own limit lifted, as an old page's would be)."""
    table = two_players(server.base)
    sit(page, table, 0)
    if page.evaluate("document.getElementById('chat-toggle').ariaExpanded") != "true":
        page.locator("#chat-toggle").click()
    page.evaluate("document.getElementById('chat-text').removeAttribute('maxlength')")
    page.locator("#chat-text").fill("x" * 501)
    page.locator(".chat-form button[type=submit]").click()
    return ".chat-form .request-error", ".chat-form button[type=submit]", "at most 500 characters"


def your_games(how: str) -> Case:
    """In "Your games": Resign, Abandon or Stop asked, then the game ended elsewhere before the Yes."""

    def case(page: Any, server: ServerProcess) -> tuple[str, str, str]:
        if how == "stop":
            bots = [{"kind": "bot", "bot": "random"}] * 2
            body = {"game": "candle-quest", "seats": bots, "bot_delay": 5, "public": False}
            made = api.post(f"{server.base}/api/games", json=body, timeout=30).json()
            kept = {"owner": made["owner_token"], "title": "Candle Quest"}
            token = made["owner_token"]
        else:
            made = create_game(server.base, "candle-quest", 2)
            kept = {"seat": made["seat"], "token": made["token"]}
            token = made["token"]
        page.evaluate(
            "s => localStorage.setItem('candlebox.seats', JSON.stringify(s))", {made["id"]: kept}
        )
        page.reload()
        card = f"#mine .game-card[data-game='{made['id']}']"
        page.locator(f"{card} [data-leave='{how}']").click()
        page.locator(f"{card} [data-confirm='{how}']").wait_for()
        ended = api.post(
            f"{server.base}/api/games/{made['id']}/{'stop' if how == 'stop' else 'resign'}",
            headers=bearer(token),
            timeout=30,
        )
        assert ended.status_code == 200, ended.text
        page.locator(f"{card} [data-confirm='{how}']").click()
        return f"{card} > .request-error", f"{card} > :not(.request-error)", "over"

    return case


def invitation(button: str, words: str) -> Case:
    """An invitation by name into a seat, answered elsewhere first (taken, or declined)."""

    def case(page: Any, server: ServerProcess) -> tuple[str, str, str]:
        tag = uuid.uuid4().hex[:6]
        origin = {"Origin": server.base}
        with httpx.Client(base_url=server.base, headers=origin, timeout=30) as web:
            host, guest = signed_up(web, f"Host{tag}"), signed_up(web, f"Guest{tag}")
            web.cookies.set("candlebox_session", host)
            body = {"game": "candle-quest", "seats": [{}, {}], "you": 0, "public": False}
            made = web.post("/api/games", json=body).json()
            invited = web.post(
                f"/api/games/{made['id']}/seats/1/invite", json={"name": f"Guest{tag}"}
            )
            assert invited.status_code == 201, invited.text
        page.context.add_cookies(
            [{"name": "candlebox_session", "value": guest, "url": server.base}]
        )
        page.reload()
        card = f"#mine .game-card.invite[data-game='{made['id']}']"
        page.locator(f"{card} button").first.wait_for()
        invite = page.locator(card).get_attribute("data-invite")
        if button == "Decline":  # declined in another tab first
            url = f"{server.base}/api/me/invites/{invite}"
            cookie = {"candlebox_session": guest}
            done = api.send("DELETE", url, cookies=cookie, headers=origin, timeout=30)
        else:  # the seat taken through its join link
            url = f"{server.base}/api/games/{made['id']}/seats/1/claim"
            done = api.post(url, json={"invite": made["invites"]["1"], "name": "Cy"}, timeout=30)
        assert done.status_code in (200, 204), done.text
        page.locator(f"{card} button", has_text=button).click()
        return f"{card} > .request-error", f"{card} > :not(.request-error)", words

    return case


LOBBY = {
    "resign": your_games("resign"),
    "abandon": your_games("abandon"),
    "stop": your_games("stop"),
    "accept": invitation("Take the seat", "someone else took this seat"),
    "decline": invitation("Decline", "no such invitation"),
}
GAME = {
    "take-seat": take_seat,
    "bot-for-me": bot_for_me,
    "seat-back": seat_back,
    "resign-here": resign_here,
    "take-back": take_back,
    "chat": chat_send,
}
SHOOT = {"accept", "take-seat", "chat"}  # looked at, at every size


@pytest.mark.parametrize("name", [*LOBBY, *GAME])
def test_a_refusal_is_said_beside_its_control(
    pages: Pages, server: ServerProcess, name: str
) -> None:
    page = pages.new()
    if name in LOBBY:
        page.add_init_script(STILL)
    page.goto("/")
    line, near, words = {**LOBBY, **GAME}[name](page, server)
    shown = page.locator(line)
    shown.wait_for()
    said = shown.inner_text()
    assert said and (words.lower() in said.lower()), said
    place = page.evaluate(PLACE, [line, near])
    assert place["shown"], place
    assert -2 <= place["gap"] <= 24 and place["overlap"] > 0, place  # right under what was pressed
    assert not any(said in e for e in place["errors"]), place  # no notice far from it
    if name in SHOOT:
        for size, (width, height) in SIZES.items():
            page.set_viewport_size({"width": width, "height": height})
            shown.scroll_into_view_if_needed()
            shot(page, f"refuse-{name}-{size}")
            assert page.evaluate(ON_TOP, line), f"the refusal is covered or clipped at {size}"


# ----------------------------------------------------------------------------- the review
@pytest.fixture
def slow_reviews(tmp_path: Path) -> Iterator[ServerProcess]:
    """A server whose reviews search long enough (about 18 s a review) to be under way when the
    page asks for one more than a player's share."""
    db = f"sqlite:///{tmp_path / 'reviews.sqlite3'}"
    env = {"CANDLEBOX_REVIEW_SECONDS": "30"}
    process = ServerProcess(db, tmp_path / "server.log", env=env).start()
    yield process  # pytest runs the rest after the test, passed or failed
    process.stop()


def resigned_after_moves(base: str, seed: int) -> dict[str, Any]:
    """A game against a bot whose player made a few moves, then resigned: some to review."""
    made = make(base, [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}], seed)
    game, token = made["id"], made["token"]
    rng = random.Random(seed)
    for _ in range(4):
        moved(base, game, token, my_turn(base, game, token), rng)
    ended = api.post(f"{base}/api/games/{game}/resign", headers=bearer(token), timeout=30)
    assert ended.status_code == 200, ended.text
    return made


def test_a_refused_review_is_said_under_its_button(
    browser: Any, slow_reviews: ServerProcess
) -> None:
    """Two reviews under way from this player's address (other tabs): a third is refused, said
    under "Review my game"."""
    base = slow_reviews.base
    games = [resigned_after_moves(base, seed) for seed in (1, 2, 3)]
    for game in games[:2]:
        url = f"{base}/api/games/{game['id']}/review"
        started = api.post(url, json={"seat": 0}, headers=bearer(game["token"]), timeout=30)
        assert started.status_code == 202, started.text
    opened = Pages(browser, base)
    try:
        page = opened.new()
        page.goto("/")
        open_seat(page, games[2])
        page.locator(".coach-review").click()
        line = ".coach-head + .request-error"
        page.locator(line).wait_for()
        said = page.locator(line).inner_text()
        assert "2 reviews waiting or under way" in said, said
        place = page.evaluate(PLACE, [line, ".coach-head"])
        assert place["shown"] and -2 <= place["gap"] <= 24 and place["overlap"] > 0, place
        assert not any(said in e for e in place["errors"]), place
    finally:
        opened.close()
    # the page's refused review is this test's own 429 (the watch counts any 429 as a page's error)
    others = [
        e for e in opened.errors if not (e.startswith("429 for POST") and e.endswith("/review"))
    ]
    assert not others, others
