"""Hints and reviews at the server (candlebox/server/coaching.py)."""

from __future__ import annotations

import random
import time
from typing import Any

from sqlalchemy import inspect, text

from candlebox import analysis
from candlebox.server import coaching
from candlebox.server.storage import Storage, make_engine
from tests.server.conftest import (
    all_human,
    as_before_migrations,
    auth,
    create,
    make_client,
    play_random,
    state,
    wait_for,
)


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
        worst = seen[-1]["worst"]
        assert answer == {"status": "done", "review": review, "worst": worst, "few_tries": 10}


def test_databases_made_before_coaching_gain_its_tables(sqlite_url: str) -> None:
    Storage(sqlite_url).close()
    as_before_migrations(sqlite_url)
    engine = make_engine(sqlite_url)  # not Storage: that would bring it to the newest schema
    with engine.begin() as conn:
        conn.execute(text("DROP TABLE reviews"))
        conn.execute(text("DROP TABLE coaching"))
        conn.execute(text("DROP TABLE stand_ins"))
    engine.dispose()
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


# ----------------------------------------------------------------------------- issue 33
def _bots_play_out(client: Any, seats: list[dict[str, Any]], **spec: Any) -> str:
    """A game whose bots play it to its end (the test plays no seat)."""
    created = create(client, seats, bot_delay=0, **spec)
    wait_for(lambda: state(client, created["id"])["over"], timeout=60)
    return str(created["id"])


def test_a_review_is_of_a_seat_a_person_played(sqlite_url: str) -> None:
    """A bot-only game of 2,633 moves was reviewed twice and held the coach for minutes: a review is
    of a person's decisions, so a bot-only game, a bot's seat and a seat whose every decision a bot
    made for its player are refused, saying why (and nothing is queued)."""
    with make_client(sqlite_url, review_seconds=0.02) as client:
        coach = client.app.state.service.coach
        bots = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
        bot_only = _bots_play_out(client, bots, options={"max_turns": 3})
        refused = client.post(f"/api/games/{bot_only}/review", json={"seat": 0})
        assert refused.status_code == 409, refused.text
        assert refused.json()["error"] == "bot-only"
        assert "every seat" in refused.json()["message"]

        seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"}]
        created = create(client, seats, you=0, options={"max_turns": 4})
        game_id, token = created["id"], created["token"]
        _seat_plays_on(client, game_id, token, random.Random(3))
        bot_seat = client.post(f"/api/games/{game_id}/review", json={"seat": 1})
        assert bot_seat.status_code == 409 and bot_seat.json()["error"] == "bot-seat"
        assert "seat 1" in bot_seat.json()["message"]

        # the player let a bot play for them before their first decision: nothing of theirs
        handed, tokens = all_human(client, 2, options={"max_turns": 4})
        url = f"/api/games/{handed}/seats/0/bot"
        assert client.post(url, json={"bot": "random"}, headers=auth(tokens[0])).is_success
        _seat_plays_on(client, handed, tokens[1], random.Random(4))
        stood_in = client.post(f"/api/games/{handed}/review", json={"seat": 0})
        assert stood_in.status_code == 409 and stood_in.json()["error"] == "stood-in"
        assert coach.reviews == {}
        # the person's own seat is reviewed
        mine = client.post(f"/api/games/{game_id}/review", json={"seat": 0})
        assert mine.status_code == 202, mine.text


def test_a_seat_that_made_no_decision_has_nothing_to_review(sqlite_url: str) -> None:
    """Issue 36: "Review my game" was offered for a game its player left before their first move,
    and the review was of nothing. Asked for, it is refused saying why; its GET says the same (where
    a seat with decisions hears that no review was asked for), so a page offers none; nothing is
    queued."""
    with make_client(sqlite_url, review_seconds=0.02) as client:
        coach = client.app.state.service.coach
        game_id, tokens = all_human(client, 2)
        resigned = client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[0]))
        assert resigned.status_code == 200, resigned.text
        assert state(client, game_id)["over"]
        asked = client.post(f"/api/games/{game_id}/review", json={"seat": 0})
        assert asked.status_code == 409, asked.text
        assert asked.json()["error"] == "no-decisions"
        assert "seat 0 made no decision" in asked.json()["message"]
        looked = client.get(f"/api/games/{game_id}/review?seat=0")
        assert looked.status_code == 409 and looked.json() == asked.json()
        assert coach.reviews == {}
        # a seat that made its decisions: no review asked for yet, then one is taken
        played, tokens = all_human(client, 2, options={"max_turns": 4})
        play_random(client, played, tokens, random.Random(2), 500)
        assert state(client, played)["over"]
        not_yet = client.get(f"/api/games/{played}/review?seat=0")
        assert not_yet.status_code == 404 and not_yet.json()["error"] == "no-review"
        taken = client.post(f"/api/games/{played}/review", json={"seat": 0})
        assert taken.status_code == 202, taken.text


def test_a_review_seat_out_of_range_is_a_400_naming_the_field(client: Any) -> None:
    game_id, _ = all_human(client, 2)
    for seat in ("9223372036854775808", "-1", "2"):
        answer = client.get(f"/api/games/{game_id}/review?seat={seat}")
        assert answer.status_code == 400, (seat, answer.text)
        assert answer.json()["error"] == "bad-seat" and "seat" in answer.json()["message"]


def test_a_reviews_search_is_bounded_whatever_the_games_length() -> None:
    """A new player waited 88 s for the review of a short game: the whole review's search is bounded
    (REVIEW_SEARCH_SECONDS), each decision's share of it at most the ``review_seconds`` setting."""
    for total in (1, 10, 60, 61, 844, 5000):
        each = coaching.decision_seconds(total, 0.5)
        assert 0 < each <= 0.5
        assert each * total <= coaching.REVIEW_SEARCH_SECONDS + 1e-9
    assert coaching.decision_seconds(60, 0.5) * 60 <= 20  # a 60-decision game's search


def _finished_human_games(client: Any, count: int) -> list[str]:
    games = []
    for n in range(count):
        game_id, tokens = all_human(client, 2, options={"max_turns": 4})
        play_random(client, game_id, tokens, random.Random(n), 500)
        games.append(game_id)
    return games


def _review(client: Any, game_id: str, seat: int, who: dict[str, str], method: str = "GET") -> Any:
    url = f"/api/games/{game_id}/review"
    if method == "POST":
        return client.post(url, json={"seat": seat}, headers=who)
    return client.request(method, f"{url}?seat={seat}", headers=who)


def test_one_client_holds_its_share_of_reviews_sees_its_place_and_can_cancel(
    sqlite_url: str,
) -> None:
    """Two review requests of one client held both of the coach's slots and everyone else got 429
    for 12 minutes: one client runs one review at a time and queues a few (its share), another
    client's review starts meanwhile, a waiting review says its place in the queue, and whoever
    asked for a review may cancel it."""
    with make_client(sqlite_url, review_seconds=5.0, trusted_proxies=("testclient",)) as client:
        coach = client.app.state.service.coach
        games = _finished_human_games(client, 3)
        a = {"X-Forwarded-For": "10.0.0.1"}
        b = {"X-Forwarded-For": "10.0.0.2"}
        first = _review(client, games[0], 0, a, "POST")
        assert first.status_code == 202, first.text
        assert first.json()["status"] == "running" and first.json()["position"] == 0
        second = _review(client, games[0], 1, a, "POST")
        assert second.status_code == 202, second.text
        # a slot is free, but not for the same client: it waits, and says where
        assert second.json()["queued"] is True and second.json()["position"] == 1
        third = _review(client, games[1], 0, a, "POST")
        assert third.status_code == 429 and third.json()["error"] == "review-share"
        assert "2 reviews" in third.json()["message"]
        other = _review(client, games[2], 0, b, "POST")  # another client is served at once
        assert other.status_code == 202, other.text
        assert other.json()["queued"] is False and other.json()["position"] == 0
        watched = _review(client, games[0], 0, b)  # anyone can watch a review's progress
        assert {"done", "total", "position"} <= set(watched.json())
        # only whoever asked may cancel it
        assert _review(client, games[0], 1, b, "DELETE").status_code == 403
        cancelled = _review(client, games[0], 1, a, "DELETE")
        assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
        assert _review(client, games[0], 1, a).status_code == 404
        assert _review(client, games[0], 0, a, "DELETE").status_code == 200  # under way
        assert _review(client, games[2], 0, b, "DELETE").status_code == 200
        wait_for(lambda: not coach.reviews, timeout=30)
        # its share is free again
        assert _review(client, games[1], 0, a, "POST").status_code == 202
        assert _review(client, games[1], 0, a, "DELETE").status_code == 200


def test_one_client_cannot_take_every_hint_slot(sqlite_url: str) -> None:
    """One client's many games asked for hints at once and another client's hint got 503
    coach-busy: a client may have at most half of the hint searches under way."""
    with make_client(sqlite_url, trusted_proxies=("testclient",)) as client:
        coach = client.app.state.service.coach
        assert 1 <= coach.hints_per_client <= coach.max_hints // 2
        games = []
        for _ in range(2):
            made = create(client, [{"kind": "human"}, {"kind": "bot"}], you=0)
            _my_turn(client, made["id"], made["token"])
            games.append(made)
        a = {"X-Forwarded-For": "10.0.0.1"}
        b = {"X-Forwarded-For": "10.0.0.2"}
        coach.hinting["10.0.0.1"] = coach.hints_per_client  # as if its searches were under way
        url = f"/api/games/{games[0]['id']}/hint"
        refused = client.post(url, headers={**a, **auth(games[0]["token"])})
        assert refused.status_code == 429 and refused.json()["error"] == "coach-share"
        url = f"/api/games/{games[1]['id']}/hint"
        served = client.post(url, headers={**b, **auth(games[1]["token"])})
        assert served.status_code == 200, served.text
        assert coach.hinting.get("10.0.0.2", 0) == 0  # counted while it searched only


def test_a_seat_handed_to_a_bot_does_not_open_hints_between_people(client: Any) -> None:
    """In a game of two people, one handed their seat to a bot, the other asked for a hint (every
    other seat a bot now), and the seat was taken back: hints between people need the table's
    permission, whoever plays the seats now."""
    game_id, tokens = all_human(client, 2, options={"max_turns": 8})
    url = f"/api/games/{game_id}/seats/0"
    assert client.post(f"{url}/bot", json={"bot": "random"}, headers=auth(tokens[0])).is_success
    _my_turn(client, game_id, tokens[1])
    refused = client.post(f"/api/games/{game_id}/hint", headers=auth(tokens[1]))
    assert refused.status_code == 403 and refused.json()["error"] == "hints-off"
    assert client.post(f"{url}/human", headers=auth(tokens[0])).is_success


def test_every_hint_is_shown_to_the_table_and_kept_in_the_record(client: Any) -> None:
    game_id, tokens = all_human(client, 2, options={"max_turns": 5}, hints=True)
    seat = state(client, game_id)["view"]["pending"]["seats"][0]
    asked = client.post(f"/api/games/{game_id}/hint", headers=auth(tokens[seat]))
    assert asked.status_code == 200, asked.text
    again = client.post(f"/api/games/{game_id}/hint", headers=auth(tokens[seat]))
    assert again.status_code == 200  # the same hint again: not a second one
    seen = state(client, game_id, tokens[1 - seat])["seats"]  # the other player sees it
    assert [s["hints"] for s in seen] == [1 if s["seat"] == seat else 0 for s in seen]
    play_random(client, game_id, tokens, random.Random(2), 500)
    saved = client.get(f"/api/games/{game_id}/saved").json()
    assert saved["hints_given"] == [[seat, asked.json()["move"]]]


def _seat_plays_on(client: Any, game_id: str, token: str, rng: random.Random) -> None:
    """The seat of ``token`` plays random moves, bots the others, to the end."""
    for _ in range(4000):
        frame = state(client, game_id, token)
        if frame["over"]:
            return
        if frame["legal"]:
            body = {"action": rng.choice(frame["legal"]), "expect": frame["move"]}
            client.post(f"/api/games/{game_id}/moves", json=body, headers=auth(token))
        else:
            time.sleep(0.01)
    raise AssertionError("the game did not end")
