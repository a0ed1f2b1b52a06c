"""The end screen and 16 Candies' round result in a real browser (issue 14): for each game a game
played to the end shows the standings in rank order, each breakdown adding up to the shown score, the
winner and why; Rematch makes a new game at the same table, Replay starts the replay, Lobby goes back.
Screenshots at a phone's, a laptop's and a desktop's size go to /work/shots/s3-end/ (CANDLEBOX_SHOTS_S3)."""

from __future__ import annotations

import os
import random
import time
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.conftest import Pages, api, create_game, open_seat

SHOTS = Path(os.environ.get("CANDLEBOX_SHOTS_S3", "/work/shots/s3-end"))
SIZES = {"phone": (390, 844), "laptop": (1280, 800), "desktop": (1920, 1080)}


def shots(page: Any, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for label, (width, height) in SIZES.items():
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(150)
        page.screenshot(path=str(SHOTS / f"{name}-{label}.png"), full_page=True)
    page.set_viewport_size({"width": 1440, "height": 900})


def frame(base: str, game_id: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = api.get(f"{base}/api/games/{game_id}/state", headers=headers, timeout=30)
    answer.raise_for_status()
    data: dict[str, Any] = answer.json()
    return data


def play_seat(base: str, created: dict[str, Any], seed: int, until: Any = None) -> dict[str, Any]:
    """Random legal moves for the human seat through the API (the bots answer by themselves) until
    the game is over or ``until(frame)`` holds; returns the last frame."""
    rng = random.Random(seed)
    # The bound is on the game's progress, not on the whole game: a game of a few hundred moves
    # takes minutes on a loaded machine (it once ran past 240 s for the whole); a game that makes
    # no move for 60 s has stalled.
    moved_at, last = time.monotonic(), -1
    while time.monotonic() - moved_at < 60:
        now = frame(base, created["id"], created["token"])
        if now["move"] != last:
            moved_at, last = time.monotonic(), now["move"]
        if now["over"] or (until is not None and until(now)):
            return now
        if not now["legal"]:
            time.sleep(0.02)
            continue
        api.post(
            f"{base}/api/games/{created['id']}/moves",
            json={"action": rng.choice(now["legal"]), "expect": now["move"]},
            headers={"Authorization": f"Bearer {created['token']}"},
            timeout=30,
        )
    raise AssertionError(f"the game made no move for 60 s, at move {last}")


def a11y_problems(page: Any) -> list[str]:
    """Serious or critical axe-core violations (none checked when axe is not installed)."""
    try:  # an optional dependency: tests/e2e/test_a11y.py skips without it
        from tests.e2e.test_a11y import serious
    except pytest.skip.Exception:
        return []
    return serious(page)


def standings_shown(page: Any) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = page.eval_on_selector_all(
        "#endscreen .standing",
        """rows => rows.map(r => ({
            seat: Number(r.dataset.seat), rank: Number(r.dataset.rank), score: Number(r.dataset.score),
            shown: r.querySelector('.score').textContent,
            points: [...r.querySelectorAll('.part')].map(p => Number(p.dataset.points)),
            winner: r.classList.contains('winner')}))""",
    )
    return rows


GAMES = [
    ("candle-quest", 3, "advanced", {"max_turns": 24}),
    ("sixteen-candies", 3, None, {"rounds": 2}),
    ("candelabria", 3, None, {}),
]


@pytest.mark.browser_games  # a whole game each, to its end screen (CI's second step)
@pytest.mark.parametrize(
    ("game", "players", "variant", "options"), GAMES, ids=[g[0] for g in GAMES]
)
def test_the_end_screen_explains_the_score(
    pages: Pages, server: Any, game: str, players: int, variant: str | None, options: dict[str, Any]
) -> None:
    base = server.base
    created = create_game(base, game, players, variant, options, bot="heuristic")
    final = play_seat(base, created, seed=players)
    page = pages.new()
    page.goto("/")
    open_seat(page, created)
    page.wait_for_selector("#endscreen .standing")
    page.evaluate(
        "sessionStorage.setItem('candlebox.sc-round.' + location.pathname.split('/').pop(), '99')"
    )

    assert "null" not in page.locator("#endscreen").inner_text()
    rows = standings_shown(page)
    assert [row["rank"] for row in rows] == sorted(row["rank"] for row in rows), "rank order"
    scores, winners = final["result"]["scores"], final["result"]["winners"]
    for row in rows:
        assert sum(row["points"]) == row["score"] == scores[row["seat"]], row
        assert float(row["shown"].replace("−", "-")) == row["score"]
    assert {row["seat"] for row in rows if row["rank"] == 1} == set(winners)
    assert {row["seat"] for row in rows if row["winner"]} == set(winners)
    best = [row["score"] for row in rows]
    assert best == sorted(best, reverse=True)
    summary = page.locator("#endscreen .end-summary").inner_text()
    names = [seat["name"] for seat in final["seats"]]
    assert all(names[seat] in summary for seat in winners), summary
    shots(page, f"end-{game}")
    assert a11y_problems(page) == []

    # Replay from the start: the end screen gives way to the replay at move 0, and comes back at the end.
    page.get_by_role("button", name="Watch the replay").click()
    page.wait_for_function("document.querySelector('#banner').textContent.includes('move 0 of')")
    assert page.locator("#endscreen").is_hidden()
    page.get_by_role("button", name="End", exact=True).click()
    page.wait_for_selector("#endscreen .standing")

    # Rematch: a new game at the same table, this browser in the same seat.
    page.get_by_role("button", name="Rematch").click()
    page.wait_for_url(lambda url: created["id"] not in url)
    page.wait_for_selector("#board > *")
    new_id = page.url.rstrip("/").split("/")[-1].split("?")[0]
    fresh = frame(base, new_id)
    assert fresh["game"]["game"] == game and fresh["game"]["variant"] == final["game"]["variant"]
    assert fresh["game"]["options"] == final["game"]["options"]
    assert [(s["kind"], s["bot"]) for s in fresh["seats"]] == [
        (s["kind"], s["bot"]) for s in final["seats"]
    ]
    assert page.evaluate("JSON.parse(localStorage.getItem('candlebox.seats'))")[new_id]["seat"] == 0

    # The finished game now offers the rematch; Lobby goes back to the lobby.
    page.goto(f"/g/{created['id']}")
    page.wait_for_selector("#endscreen .standing")
    assert page.get_by_role("button", name="Go to the rematch").is_visible()
    page.get_by_role("link", name="Lobby").click()
    page.wait_for_url(lambda url: url.rstrip("/") == base.rstrip("/"))


def test_a_race_shows_how_far_each_got_not_a_score(pages: Pages, server: Any) -> None:
    """Candle Quest's basic game is a race to eight colours: its scores only say who won (1 or 0), so
    the end screen shows how far each seat got and how the winner won, without a number or "No points
    scored" (a new player read "1 / 0 / 0" as the result)."""
    base = server.base
    created = create_game(base, "candle-quest", 3, "basic", {"max_turns": 24}, bot="heuristic")
    play_seat(base, created, seed=4)
    page = pages.new()
    page.goto("/")
    open_seat(page, created)
    page.wait_for_selector("#endscreen .standing")
    rows = page.locator("#endscreen .standing")
    assert rows.count() == 3
    assert page.locator("#endscreen .standing .score").count() == 0
    text = page.locator("#endscreen .standings").inner_text()
    assert "No points scored" not in text and text.count("of 8 Menorah colours filled") == 3, text
    winner = page.locator("#endscreen .standing.winner .part-source").all_inner_texts()
    assert winner and all(w.strip() for w in winner), winner
    shots(page, "end-candle-quest-basic")


def test_the_round_result_shows_what_a_short_pool_really_paid(pages: Pages, server: Any) -> None:
    """A pool pays what it has (rulings SC-17): with 2 candies each, the lowest hand of the first round
    owes at least 3 and pays 2. The round result shows the 2 paid, "of" what was due, as the end
    screen's totals count it (it showed the amount due alone: "−6 → 0 in the pool" after paying 3)."""
    base = server.base
    created = create_game(base, "sixteen-candies", 2, options={"pool": 2}, bot="heuristic")
    end = play_seat(base, created, seed=5)
    assert end["over"], "a 2-candy pool empties in the first round"
    page = pages.new()
    page.goto("/")
    open_seat(page, created)
    page.locator(".sc-round").wait_for()
    rows = page.eval_on_selector_all(
        ".sc-round-row",
        "rows => rows.map(r => [Number(r.dataset.due), Number(r.dataset.paid), Number(r.dataset.pool),"
        " r.querySelector('.sc-round-due').innerText])",
    )
    short = [row for row in rows if row[0] < -2]
    assert short, rows
    for due, paid, pool, text in short:
        assert pool == 0 and paid == -2 and text == f"−2 of {-due}", (due, paid, pool, text)
    shots(page, "sc-round-short-pool")


def test_sixteen_candies_shows_the_round_result_before_the_next_deal(
    pages: Pages, server: Any
) -> None:
    base = server.base
    rounds = 4
    created = create_game(base, "sixteen-candies", 3, options={"rounds": rounds}, bot="heuristic")
    # At a call, the decision says what calling risks, in the game's own words. Not in the last
    # round: its result is the game's end, shown as such (the server deals from a seed of its own,
    # and once the first call this seat could make came in the last round).
    at_call = play_seat(
        base, created, seed=11, until=lambda f: "call" in f["legal"] and f["view"]["round"] < rounds
    )
    assert "call" in at_call["legal"], "the game ended before this seat could call"
    page = pages.new()
    page.goto("/")
    open_seat(page, created)
    banner = page.locator("#banner").inner_text()
    if "is over" in banner:
        # The server deals from a seed of its own, so the first call may come at a round's first
        # decision, while the round before it still shows its result until "Next deal".
        page.get_by_role("button", name="Next deal").click()
        page.wait_for_selector(".sc-rivals")
        banner = page.locator("#banner").inner_text()
    assert "lowest hand" in banner and "penalty" in banner, banner
    shots(page, "sc-call")
    # The round ends: its result shows before the next deal.
    called_in = at_call["view"]["round"]
    after = play_seat(base, created, seed=12, until=lambda f: f["view"]["round"] > called_in)
    open_seat(page, created)
    panel = page.locator(".sc-round")
    panel.wait_for()
    assert panel.get_attribute("data-round") == str(called_in)
    rows = page.locator(".sc-round-row")
    assert rows.count() == 3
    assert page.locator(".sc-round-row .sc-round-hand .sc-card").count() == 9, "every hand revealed"
    pools = [seat["pool"] for seat in frame(base, created["id"])["view"]["seats"]]
    dues = page.eval_on_selector_all(
        ".sc-round-row",
        "rows => rows.map(r => [Number(r.dataset.seat), Number(r.dataset.due), Number(r.dataset.pool)])",
    )
    if not after["over"]:
        assert all(pools[seat] == pool for seat, _, pool in dues), "the running totals"
    assert any(due < 0 for _, due, _ in dues), "someone pays a penalty every round"
    assert page.locator(".sc-round-row .sc-round-due").first.inner_text()
    assert page.locator(".sc-rivals").count() == 0, "the next deal waits"
    # the banner speaks of the result on show, not of the next deal's decision
    held = page.locator("#banner").inner_text()
    assert f"Round {called_in} is over" in held and "Next deal" in held, held
    shots(page, "sc-round")
    assert a11y_problems(page) == []
    page.get_by_role("button", name="Next deal").click()
    page.wait_for_selector(".sc-rivals")
    assert page.locator(".sc-round").count() == 0
    assert "is over" not in page.locator("#banner").inner_text()


def test_sixteen_candies_end_screen_says_why_places_are_shared(pages: Pages, server: Any) -> None:
    """Issue 36: four players, three of them "2nd" with 0 candy and no word of why. The summary says
    who ran out of candy when and that they share the last place; the one who lasted longest is
    listed first."""
    created = create_game(server.base, "sixteen-candies", 4, bot="heuristic")
    final = play_seat(server.base, created, seed=4)
    page = pages.new()
    page.goto("/")
    open_seat(page, created)
    page.wait_for_selector("#endscreen .standing")
    rows = standings_shown(page)
    summary = page.locator("#endscreen .end-summary").inner_text()
    names = [seat["name"] for seat in final["seats"]]
    out = [row for row in rows if row["score"] == 0]
    assert len(out) == 3 and {row["rank"] for row in out} == {2}, rows
    assert "ran out of candy: they share 2nd place" in summary, summary
    assert "players out of candy share the last place" in summary, summary
    for row in out:
        assert names[row["seat"]] in summary.split("ran out")[0], summary
    notes = page.locator('#endscreen .standing[data-rank="2"] .note').all_inner_texts()
    rounds = [int(note.rsplit(" ", 1)[1]) for note in notes]
    assert rounds == sorted(rounds, reverse=True), notes  # who lasted longest first
    shots(page, "end-sixteen-candies-4")
