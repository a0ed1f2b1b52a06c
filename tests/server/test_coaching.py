"""Hints and reviews at the server (candlebox/server/coaching.py)."""

from __future__ import annotations

import random
import time
from typing import Any

from sqlalchemy import inspect, text

from candlebox import analysis
from candlebox.server import coaching
from candlebox.server.storage import Storage
from tests.server.conftest import all_human, auth, create, make_client, play_random, state


def _my_turn(client: Any, game_id: str, token: str, after: int = -1) -> dict[str, Any]:
    for _ in range(200):
        frame = state(client, game_id, token)
        if frame["legal"] and frame["move"] > after:
            return frame
        time.sleep(0.02)
    raise AssertionError("the bots never gave the seat a turn")


def test_hints_against_bots_ranked_and_rate_limited(client: Any) -> None:
    created = create(client, [{"kind": "human"}, {"kind": "bot"}], you=0)
    game_id, token = created["id"], created["token"]
    frame = _my_turn(client, game_id, token)
    response = client.post(f"/api/games/{game_id}/hint", headers=auth(token))
    assert response.status_code == 200, response.text
    tip = response.json()
    assert tip["seat"] == 0 and tip["move"] == frame["move"]
    assert sorted(o["action"] for o in tip["options"]) == sorted(frame["legal"])
    assert tip["options"][0]["action"] == tip["best"]
    assert all(0 <= o["win"] <= 1 and o["label"] for o in tip["options"])
    # the same decision asked about again: the same hint, without a new search
    coach = client.app.state.service.coach
    searched = coach.last_hint[(game_id, 0)]
    again = client.post(f"/api/games/{game_id}/hint", headers=auth(token))
    assert again.status_code == 200 and again.json() == tip
    assert coach.last_hint[(game_id, 0)] == searched
    # a new decision may be hinted a moment after the last search (HINT_EVERY), not sooner
    frame = _my_turn(client, game_id, token)
    body = {"action": frame["legal"][0], "expect": frame["move"]}
    assert (
        client.post(f"/api/games/{game_id}/moves", json=body, headers=auth(token)).status_code
        == 200
    )
    frame = _my_turn(client, game_id, token, after=frame["move"])
    coach.last_hint[(game_id, 0)] = time.monotonic()  # as if a search had just ended
    soon = client.post(f"/api/games/{game_id}/hint", headers=auth(token))
    assert soon.status_code == 429 and soon.json()["error"] == "too-many-hints"
    coach.last_hint[(game_id, 0)] -= coaching.HINT_EVERY
    later = client.post(f"/api/games/{game_id}/hint", headers=auth(token))
    assert later.status_code == 200 and later.json()["move"] == frame["move"]
    # No credential, no hint.
    assert client.post(f"/api/games/{game_id}/hint").status_code == 403
    # the times kept to limit hints stay bounded: a time that limits nothing any more is forgotten
    # once more than KEPT_HINTS seats are remembered (a recent one is kept)
    now = time.monotonic()
    for n in range(coaching.KEPT_HINTS):
        coach.last_hint[(f"old-{n}", 0)] = now - coaching.HINT_EVERY
    coach.remember_asked(("recent", 1), now)
    assert set(coach.last_hint) == {("recent", 1), (game_id, 0)}


def test_hints_refused_between_humans_unless_the_table_allowed_them(client: Any) -> None:
    game_id, tokens = all_human(client, 2, options={"max_turns": 5})
    assert client.get(f"/api/games/{game_id}").json()["game"]["hints"] is False
    seat = state(client, game_id)["view"]["pending"]["seats"][0]
    response = client.post(f"/api/games/{game_id}/hint", headers=auth(tokens[seat]))
    assert response.status_code == 403
    assert response.json()["error"] == "hints-off"
    assert "unless the table allowed them" in response.json()["message"]

    allowed, tokens = all_human(client, 2, options={"max_turns": 5}, hints=True)
    assert client.get(f"/api/games/{allowed}").json()["game"]["hints"] is True  # shown to all
    seat = state(client, allowed)["view"]["pending"]["seats"][0]
    response = client.post(f"/api/games/{allowed}/hint", headers=auth(tokens[seat]))
    assert response.status_code == 200, response.text
    other = 1 - seat  # not its turn: nothing to hint
    refused = client.post(f"/api/games/{allowed}/hint", headers=auth(tokens[other]))
    assert refused.status_code == 409


def test_review_runs_in_a_worker_reports_progress_and_is_stored(sqlite_url: str) -> None:
    with make_client(sqlite_url, review_seconds=0.02) as client:
        game_id, tokens = all_human(client, 2, options={"max_turns": 4})
        early = client.post(f"/api/games/{game_id}/review", json={"seat": 0})
        assert early.status_code == 409  # not over yet
        play_random(client, game_id, tokens, random.Random(1), 500)
        assert state(client, game_id)["over"]
        missing = client.get(f"/api/games/{game_id}/review?seat=0")
        assert missing.status_code == 404 and missing.json()["error"] == "no-review"
        started = client.post(f"/api/games/{game_id}/review", json={"seat": 0})
        assert started.status_code == 202, started.text
        seen = [started.json()]
        for _ in range(600):
            answer = client.get(f"/api/games/{game_id}/review?seat=0").json()
            seen.append(answer)
            if answer["status"] == "done":
                break
            time.sleep(0.05)
        assert seen[-1]["status"] == "done", seen[-1]
        assert seen[0]["status"] in ("running", "done")
        review = seen[-1]["review"]
        assert review["seat"] == 0 and review["decisions"]
        assert all(
            {"move", "chosen", "best", "before", "after", "mark"} <= set(d)
            for d in review["decisions"]
        )
        # the decisions to show first, chosen by the server as analysis.worst chooses them
        chosen = analysis.worst(analysis.Review.from_json(review), 5)
        assert seen[-1]["worst"] == [d.move for d in chosen]
        losses = {d["move"]: d["loss"] for d in review["decisions"]}
        assert all(losses[move] > 0 for move in seen[-1]["worst"])
        bad = client.post(f"/api/games/{game_id}/review", json={"seat": 9})
        assert bad.status_code == 400
    # Stored with the game: a restarted server serves it without computing again.
    with make_client(sqlite_url) as client:
        answer = client.get(f"/api/games/{game_id}/review?seat=0").json()
        assert answer == {"status": "done", "review": review, "worst": seen[-1]["worst"]}


def test_databases_made_before_coaching_gain_its_tables(sqlite_url: str) -> None:
    storage = Storage(sqlite_url)
    with storage.engine.begin() as conn:
        conn.execute(text("DROP TABLE reviews"))
        conn.execute(text("DROP TABLE coaching"))
        conn.execute(text("DROP TABLE stand_ins"))
    storage.close()
    storage = Storage(sqlite_url)
    names = set(inspect(storage.engine).get_table_names())
    storage.close()
    assert {"coaching", "reviews", "stand_ins"} <= names


def _seat_one_plays_on(
    client: Any, game_id: str, token: str, rng: random.Random, until: int | None = None
) -> None:
    """Seat 1 plays random moves while a bot plays seat 0: to the end, or to move ``until``."""
    for _ in range(4000):
        frame = state(client, game_id, token)
        if frame["over"] or (until is not None and frame["move"] >= until):
            return
        if frame["legal"]:
            body = {"action": rng.choice(frame["legal"]), "expect": frame["move"]}
            client.post(f"/api/games/{game_id}/moves", json=body, headers=auth(token))
        else:
            time.sleep(0.01)


def _review_of_seat_0(client: Any, game_id: str) -> tuple[list[int], dict[str, Any]]:
    """Every decision of seat 0 with a choice (its move numbers), and its finished review."""
    every = analysis.decisions_of(client.get(f"/api/games/{game_id}/saved").json(), 0)
    assert client.post(f"/api/games/{game_id}/review", json={"seat": 0}).status_code == 202
    answer: dict[str, Any] = {}
    for _ in range(600):
        answer = client.get(f"/api/games/{game_id}/review?seat=0").json()
        if answer["status"] == "done":
            break
        time.sleep(0.05)
    return every, answer["review"]


def test_a_review_leaves_out_the_decisions_a_bot_made_for_the_player(sqlite_url: str) -> None:
    """A playtester let a bot finish the game for them, and the review blamed them for its moves:
    the decisions made while a bot stood in for the seat are left out, and counted."""
    with make_client(sqlite_url, review_seconds=0.02) as client:
        game_id, tokens = all_human(client, 2, options={"max_turns": 6})
        rng = random.Random(5)
        handed_at = play_random(client, game_id, tokens, rng, 8)
        assert not state(client, game_id)["over"]
        own = client.post(
            f"/api/games/{game_id}/seats/0/bot", json={"bot": "random"}, headers=auth(tokens[0])
        )
        assert own.status_code == 200, own.text
        _seat_one_plays_on(client, game_id, tokens[1], rng)
        assert state(client, game_id)["over"]
        every, review = _review_of_seat_0(client, game_id)
        assert any(m - 1 >= handed_at for m in every)  # the bot had decisions with a choice
        moves = [d["move"] for d in review["decisions"]]
        assert moves == [m for m in every if m - 1 < handed_at]
        assert review["stood_in"] == len(every) - len(moves) > 0
        # the download records it, so a review of the file at the terminal leaves the same out
        saved = client.get(f"/api/games/{game_id}/saved").json()
        assert saved["stand_ins"] == [[0, handed_at, None]]
        at_home = analysis.review(saved, 0, None, iterations=3)
        assert [d.move for d in at_home.decisions] == moves
        assert at_home.stood_in == review["stood_in"]


def test_a_seat_taken_back_from_its_bot_is_reviewed_again_from_then(sqlite_url: str) -> None:
    with make_client(sqlite_url, review_seconds=0.02) as client:
        game_id, tokens = all_human(client, 2, options={"max_turns": 12})
        rng = random.Random(7)
        handed_at = play_random(client, game_id, tokens, rng, 4)
        url = f"/api/games/{game_id}/seats/0"
        assert client.post(f"{url}/bot", json={"bot": "random"}, headers=auth(tokens[0])).is_success
        _seat_one_plays_on(client, game_id, tokens[1], rng, until=handed_at + 16)
        assert not state(client, game_id)["over"]
        assert client.post(f"{url}/human", headers=auth(tokens[0])).is_success
        taken_back_at = state(client, game_id)["move"]
        play_random(client, game_id, tokens, rng, 500)
        every, review = _review_of_seat_0(client, game_id)
        assert any(handed_at <= m - 1 < taken_back_at for m in every)  # the bot's, with a choice
        moves = [d["move"] for d in review["decisions"]]
        assert moves == [m for m in every if not handed_at <= m - 1 < taken_back_at]
        assert any(m - 1 >= taken_back_at for m in moves)  # its player's own again
