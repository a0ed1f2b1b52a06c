"""The how-to-play pages, the rule link in every frame, the learn endpoint and refusals in the engine's
words (issue 14)."""

from __future__ import annotations

from typing import Any

import candlebox
from candlebox.engine.howto import how_to_play
from tests.server.conftest import all_human, auth, move, state


def test_each_game_has_a_rules_page_with_its_sections_and_rulings(client: Any) -> None:
    for game in candlebox.game_ids():
        response = client.get(f"/rules/{game}")
        assert response.status_code == 200
        html = response.text
        for section in how_to_play(game).sections.values():
            assert f'id="{section.anchor}"' in html
        assert 'id="rulings"' in html and 'class="ruling"' in html


def test_the_rulings_follow_the_variant_and_options(client: Any) -> None:
    basic = client.get("/rules/candle-quest?variant=basic").text
    junior = client.get("/rules/candle-quest?variant=junior").text
    assert 'id="ruling-CQ-15"' in junior and 'id="ruling-CQ-15"' not in basic
    chosen = client.get('/rules/candle-quest?options={"bank":40}').text
    assert "<code>bank</code> = 40" in chosen
    two = client.get("/rules/candelabria?variant=two-player").text
    assert 'id="ruling-CA-2P1"' in two and 'id="ruling-CA-M1"' not in two
    missions = client.get('/rules/candelabria?variant=two-player&options={"missions":true}').text
    assert 'id="ruling-CA-M1"' in missions


def test_bad_rules_requests_are_refused_in_words(client: Any) -> None:
    for url, status, words in (
        ("/rules/chess", 404, "There is no game"),
        ("/rules/candle-quest?variant=nope", 400, "nope"),
        ("/rules/candle-quest?options=[1]", 400, "JSON object"),
        ('/rules/candle-quest?options={"bank":"lots"}', 400, "bank"),
        ("/rules/candle-quest?options=" + "x" * 3000, 400, "at most"),
    ):
        response = client.get(url)
        assert response.status_code == status, url
        assert words in response.text and "Traceback" not in response.text


def test_no_raw_html_from_the_data(client: Any) -> None:
    html = client.get("/rules/sixteen-candies").text
    assert "<script" not in html.lower()
    # a quote in the data (I've got candy!) arrives escaped, as text
    assert "I&#x27;ve got candy" in html or "I've got candy" in html


def test_frames_carry_the_rule_of_the_pending_decision(client: Any) -> None:
    game_id, tokens = all_human(client, 2, game="candle-quest")
    frame = state(client, game_id, tokens[0])
    seat = frame["view"]["pending"]["seats"][0]
    assert frame["rule"] == {"anchor": "play", "title": "Play"}
    mine = state(client, game_id, tokens[seat])
    assert move(client, game_id, tokens[seat], "flip", mine["move"]).status_code == 200
    after = state(client, game_id, tokens[seat])
    if after["view"]["pending"]["decision"] == "buy-sell-auction":
        assert after["rule"]["anchor"] == "buy-sell-or-auction-a-new-candle"


def test_the_learn_endpoint_explains_the_callers_options(client: Any) -> None:
    game_id, tokens = all_human(client, 2, game="sixteen-candies")
    frame = state(client, game_id)
    seat = frame["view"]["pending"]["seats"][0]
    response = client.get(f"/api/games/{game_id}/learn", headers=auth(tokens[seat]))
    assert response.status_code == 200
    data = response.json()
    mine = state(client, game_id, tokens[seat])
    assert [o["action"] for o in data["options"]] == mine["legal"]
    assert all(o["does"] and o["anchor"] and o["label"] for o in data["options"])
    refused = client.get(f"/api/games/{game_id}/learn")
    assert refused.status_code == 403 and "credential" in refused.json()["message"]
    rules = client.get("/api/rules/sixteen-candies").json()
    assert rules["learn"]["players"] == 2 and rules["explain"]["call"]


def test_a_refused_move_gets_the_engines_explanation(client: Any) -> None:
    game_id, tokens = all_human(client, 2, game="candle-quest")
    frame = state(client, game_id)
    seat = frame["view"]["pending"]["seats"][0]
    response = move(client, game_id, tokens[seat], "buy", frame["move"])
    assert response.status_code == 422
    # the engine's own words: what was refused, whose decision it is, what is legal instead
    assert response.json()["message"] == (
        f"'buy' is not legal now (seat {seat} is to take a turn). Legal: flip"
    )
