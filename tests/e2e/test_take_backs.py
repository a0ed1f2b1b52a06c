"""Take-backs on the game page (static/js/undo.js; docs/server.md, "Take-backs"): against a bot the
"Take back" button, pressed from the keyboard, takes the moves back at once; against a person the
request shows to the other player with Accept and Refuse, and a refusal leaves the game as it was.
At the phone, laptop and desktop sizes, with no serious axe violation."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest

from tests.e2e.conftest import SIZES, Pages, api, open_seat, shot, sized_context, watch

axe_module = pytest.importorskip(
    "axe_playwright_python.sync_playwright",
    reason="axe-playwright-python is not installed: pip install -e '.[e2e]'",
)

GAME = "candle-quest"


def serious(page: Any) -> list[str]:
    results = axe_module.Axe().run(page)
    return [
        f"{v['id']} ({v['impact']})"
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]


def frame_of(base: str, game_id: str, token: str | None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = api.get(f"{base}/api/games/{game_id}/state", headers=headers, timeout=30)
    answer.raise_for_status()
    found: dict[str, Any] = answer.json()
    return found


def moved(base: str, game_id: str, token: str, frame: dict[str, Any], rng: random.Random) -> None:
    body = {"action": rng.choice(frame["legal"]), "expect": frame["move"]}
    headers = {"Authorization": f"Bearer {token}"}
    answer = api.post(f"{base}/api/games/{game_id}/moves", json=body, headers=headers, timeout=30)
    answer.raise_for_status()


def my_turn(base: str, game_id: str, token: str) -> dict[str, Any]:
    """The seat's frame once the bot has answered: polled until it is the seat's turn."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        frame = frame_of(base, game_id, token)
        if frame["legal"]:
            return frame
    raise AssertionError("the bot never handed the turn back")


def make(base: str, seats: list[dict[str, Any]], seed: int) -> dict[str, Any]:
    body = {"game": GAME, "seats": seats, "you": 0, "bot_delay": 0, "public": False}
    answer = api.post(
        f"{base}/api/games", json={**body, "practice": True, "seed": seed}, timeout=30
    )
    answer.raise_for_status()
    created: dict[str, Any] = answer.json()
    return created


def said(count: int, own: int) -> str:
    """The button's words: the player's own moves, then the bots' replies after them (issue 36:
    "Take back 4 moves" after one move of the player's counted the bots' three)."""
    assert 1 <= own <= count
    yours = "your last move" if own == 1 else f"your last {own} moves"
    replies = count - own
    if not replies:
        return f"Take back {yours}"
    moves = "1 bot move" if replies == 1 else f"{replies} bot moves"
    return f"Take back {yours} (and {moves} after {'it' if own == 1 else 'them'})"


def test_take_back_against_a_bot_from_the_keyboard(pages: Pages, server: Any) -> None:
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "bot", "bot": "random"}]
    created = make(server.base, seats, seed=4)
    game_id, token = created["id"], created["token"]
    rng = random.Random(4)
    for _ in range(100):  # moves through the API until Ada may take something back
        frame = my_turn(server.base, game_id, token)
        if frame["undoable"]:
            break
        moved(server.base, game_id, token, frame, rng)
    else:
        raise AssertionError("nothing to take back")
    now, count = frame["move"], frame["undoable"]
    for size in SIZES:  # what the player sees, at each size
        context = sized_context(pages.browser, server.base, size)
        pages.contexts.append(context)
        page = context.new_page()
        watch(page, pages.errors)
        page.goto("/")
        open_seat(page, created)
        button = page.locator("#take-back button")
        button.wait_for()
        assert button.inner_text() == said(count, frame["undoable_own"])
        assert serious(page) == []
        shot(page, f"take-back-{size}")
    button.focus()  # the keyboard: the button takes the focus and Enter presses it
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.body.dataset.move === '{now - count}'")
    page.locator("#take-back").wait_for(state="hidden")
    assert frame_of(server.base, game_id, token)["move"] == now - count


def test_a_request_shows_to_the_other_player_who_refuses(pages: Pages, server: Any) -> None:
    seats = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Bea"}]
    created = make(server.base, seats, seed=6)
    game_id = created["id"]
    claim = api.post(
        f"{server.base}/api/games/{game_id}/seats/1/claim",
        json={"name": "Bea", "invite": created["invites"]["1"]},
        timeout=30,
    )
    claim.raise_for_status()
    tokens = [created["token"], claim.json()["token"]]
    rng = random.Random(6)
    for _ in range(100):
        spectator = frame_of(server.base, game_id, None)
        seat = spectator["view"]["pending"]["seats"][0]
        moved(server.base, game_id, tokens[seat], frame_of(server.base, game_id, tokens[seat]), rng)
        if frame_of(server.base, game_id, tokens[seat])["undoable"]:
            break
    else:
        raise AssertionError("nothing to take back")
    other = 1 - seat
    mine = frame_of(server.base, game_id, tokens[seat])
    asked = api.post(
        f"{server.base}/api/games/{game_id}/undo",
        json={"expect": mine["move"]},
        headers={"Authorization": f"Bearer {tokens[seat]}"},
        timeout=30,
    )
    asked.raise_for_status()
    before = frame_of(server.base, game_id, tokens[other])
    for size in SIZES:
        context = sized_context(pages.browser, server.base, size)
        pages.contexts.append(context)
        page = context.new_page()
        watch(page, pages.errors)
        page.goto("/")
        open_seat(page, {"id": game_id, "seat": other, "token": tokens[other]})
        request = page.locator("#take-back")
        request.wait_for()
        name = ("Ada", "Bea")[seat]
        assert f"{name} asks to take back" in request.inner_text()
        assert serious(page) == []
        shot(page, f"take-back-request-{size}")
    page.get_by_role("button", name="Refuse").click()
    request.wait_for(state="hidden")
    after = frame_of(server.base, game_id, tokens[other])
    assert after["move"] == before["move"] and after["view"] == before["view"]
    assert after["take_back"] is None
