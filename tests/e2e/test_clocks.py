"""Clocks on the game page (issue 35): each seat's clock shown to every seat, counting down between
frames; a seat out of time offers the other players, by keyboard too, to hand it to its bot; the strip
at a phone's, a laptop's and a desktop's size, axe clean (screenshots in /tmp/candlebox-e2e)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.conftest import SIZES, Pages, api, open_seat, shot
from tests.e2e.test_a11y import serious

TWO = [{"kind": "human", "name": "Ada"}, {"kind": "human", "name": "Grace"}]


def table(base: str, clock: dict[str, Any]) -> tuple[str, list[str], int]:
    """A practice table of two people with ``clock``: (id, credentials, the seat to act)."""
    made = api.post(
        f"{base}/api/games",
        json={"game": "candle-quest", "seats": TWO, "you": 0, "practice": True, "clock": clock},
        timeout=30,
    )
    assert made.status_code == 201, made.text
    created = made.json()
    claimed = api.post(
        f"{base}/api/games/{created['id']}/seats/1/claim",
        json={"invite": created["invites"]["1"]},
        timeout=30,
    )
    assert claimed.status_code == 200, claimed.text
    frame = api.get(f"{base}/api/games/{created['id']}/state", timeout=30).json()
    seat = frame["view"]["pending"]["seats"][0]
    return created["id"], [created["token"], claimed.json()["token"]], seat


def as_seat(game_id: str, tokens: list[str], seat: int) -> dict[str, Any]:
    return {"id": game_id, "seat": seat, "token": tokens[seat]}


def test_a_seat_out_of_time_is_handed_to_its_bot_from_the_page(pages: Pages, server: Any) -> None:
    game_id, tokens, late = table(server.base, {"mode": "realtime", "initial": 2})
    page = pages.new()
    page.goto("/")
    open_seat(page, as_seat(game_id, tokens, 1 - late))
    page.wait_for_selector(f".clock.out[data-seat='{late}'] button")
    assert page.locator(f".clock[data-seat='{late}'] .clock-time").inner_text() == "out of time"
    assert serious(page) == []
    shot(page, "clocks-out-of-time")
    page.locator(f".clock[data-seat='{late}'] button").focus()
    page.keyboard.press("Enter")
    page.wait_for_function(f"!document.querySelector(\".clock.out[data-seat='{late}']\")")
    frame = api.get(f"{server.base}/api/games/{game_id}/state", timeout=30).json()
    assert frame["seats"][late]["kind"] == "bot"


def test_the_out_of_time_seat_itself_and_spectators_get_no_button(
    pages: Pages, server: Any
) -> None:
    game_id, tokens, late = table(server.base, {"mode": "realtime", "initial": 1})
    mine, watching = pages.new(), pages.new()
    mine.goto("/")
    open_seat(mine, as_seat(game_id, tokens, late))
    watching.goto(f"/g/{game_id}")
    for page in (mine, watching):
        page.wait_for_selector(f".clock.out[data-seat='{late}']")
        assert page.locator(".clock button").count() == 0


@pytest.mark.parametrize("size", list(SIZES))
def test_clocks_at_every_size(pages: Pages, server: Any, size: str) -> None:
    """A turn-based table (days and hours) and a realtime one (minutes and seconds, counting down)."""
    turn_based, tokens, seat = table(server.base, {"mode": "turn-based", "per_move": 86400 * 3})
    realtime, rt_tokens, rt_seat = table(
        server.base, {"mode": "realtime", "initial": 300, "increment": 5}
    )
    page = pages.new()
    page.set_viewport_size({"width": SIZES[size][0], "height": SIZES[size][1]})
    page.goto("/")
    open_seat(page, as_seat(turn_based, tokens, seat))
    page.wait_for_selector(f".clock.running[data-seat='{seat}']")
    assert page.locator(f".clock[data-seat='{seat}'] .clock-time").inner_text() in (
        "2 d 23 h left",
        "3 d left",
    )
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, "the clocks make the page scroll sideways"
    strip = page.locator("#clocks").bounding_box()
    assert strip is not None and strip["y"] + strip["height"] <= SIZES[size][1]
    assert serious(page) == []
    shot(page, f"clocks-turn-based-{size}")
    open_seat(page, as_seat(realtime, rt_tokens, rt_seat))
    time_shown = page.locator(f".clock[data-seat='{rt_seat}'] .clock-time")
    page.wait_for_function(
        "s => /^[0-9]:[0-9]{2}$/.test(document.querySelector(s)?.textContent || '')"
        " && document.querySelector(s).textContent < '5:00'",
        arg=f".clock[data-seat='{rt_seat}'] .clock-time",
    )  # counting down on the page between frames
    assert time_shown.inner_text().startswith("4:")
    shot(page, f"clocks-realtime-{size}")


def test_the_lobby_offers_a_clock(pages: Pages, server: Any) -> None:
    """None by default; a preset chosen in the form is the table's clock."""
    page = pages.new()
    page.set_viewport_size({"width": SIZES["phone"][0], "height": SIZES["phone"][1]})
    page.goto("/")
    page.wait_for_selector("#create")
    assert page.locator("#clock").input_value() == ""
    page.locator("#clock").scroll_into_view_if_needed()
    wide = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
    assert wide <= 0, "the clock's choice makes the lobby scroll sideways on a phone"
    shot(page, "clocks-lobby-phone")
    page.locator("#clock").select_option("tb-24")
    page.locator("#create").click()
    page.wait_for_url("**/g/*")
    game_id = page.url.rstrip("/").split("/")[-1]
    frame = api.get(f"{server.base}/api/games/{game_id}", timeout=30).json()
    assert frame["game"]["clock"] == {"mode": "turn-based", "per_move": 86400}
    page.wait_for_selector(".clock.running")
