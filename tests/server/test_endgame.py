"""The end screen's data (issue 14): standings in every frame where they may be shown, and rematches."""

from __future__ import annotations

import random

from fastapi.testclient import TestClient

from tests.server.conftest import all_human, auth, create, play_random, state


def rows_ok(standings: dict) -> None:  # type: ignore[type-arg]
    ranks = [row["rank"] for row in standings["rows"]]
    assert ranks == sorted(ranks) and ranks[0] == 1
    for row in standings["rows"]:
        assert sum(part["points"] for part in row["parts"]) == row["score"]


def test_standings_are_sent_at_the_end_and_midgame_only_when_public(client: TestClient) -> None:
    game_id, tokens = all_human(client, 2, game="sixteen-candies", options={"rounds": 1})
    frame = state(client, game_id, tokens[0])
    assert frame["standings"] is not None and not frame["standings"]["final"], "pools are public"
    play_random(client, game_id, tokens, random.Random(3), 500)
    frame = state(client, game_id, tokens[1])
    assert frame["over"]
    standings = frame["standings"]
    assert standings["final"] and standings["summary"]
    rows_ok(standings)
    by_seat = {row["seat"]: row["score"] for row in standings["rows"]}
    assert [by_seat[seat] for seat in range(2)] == frame["result"]["scores"]
    assert {row["seat"] for row in standings["rows"] if row["rank"] == 1} == set(
        frame["result"]["winners"]
    )
    assert frame["rematch"] is None


def test_candle_quest_keeps_its_standings_secret_until_the_end(client: TestClient) -> None:
    game_id, tokens = all_human(client, 2, variant="advanced")
    assert state(client, game_id, tokens[0])["standings"] is None, "candles behind screens"


def test_a_rematch_seats_the_same_table_and_is_offered_to_the_others(client: TestClient) -> None:
    created = create(
        client,
        [
            {"kind": "human", "name": "Ann"},
            {"kind": "human", "name": "Bob"},
            {"kind": "bot", "bot": "random"},
        ],
        game="sixteen-candies",
        you=0,
        options={"rounds": 1, "pool": 5},
    )
    game_id = created["id"]
    claimed = client.post(
        f"/api/games/{game_id}/seats/1/claim",
        json={"name": "Bob", "invite": created["invites"]["1"]},
    )
    tokens = [created["token"], claimed.json()["token"]]
    early = client.post(f"/api/games/{game_id}/rematch", headers=auth(tokens[0]))
    assert early.status_code == 409 and "over" in early.json()["message"]
    play_random_with_bot(client, game_id, tokens)

    spectator = client.post(f"/api/games/{game_id}/rematch")
    assert spectator.status_code == 403
    asked = client.post(f"/api/games/{game_id}/rematch", headers=auth(tokens[1]))
    assert asked.status_code == 200, asked.text
    answer = asked.json()
    new_id = answer["id"]
    assert answer["seat"] == 1 and answer["token"] and new_id != game_id

    fresh = state(client, new_id, answer["token"])
    old = state(client, game_id)
    assert fresh["game"]["game"] == "sixteen-candies" and fresh["you"] == 1
    assert fresh["game"]["options"] == old["game"]["options"]
    assert [(s["kind"], s["name"], s["bot"]) for s in fresh["seats"]] == [
        (s["kind"], s["name"], s["bot"]) for s in old["seats"]
    ]
    assert fresh["move"] == 0

    offer = state(client, game_id, tokens[0])["rematch"]
    assert offer["id"] == new_id and offer["by"] == "Bob" and offer["invite"]
    assert state(client, game_id)["rematch"]["invite"] is None, "a spectator gets no invite"
    again = client.post(f"/api/games/{game_id}/rematch", headers=auth(tokens[0])).json()
    assert again == {"id": new_id, "seat": 0, "invite": offer["invite"]}
    joined = client.post(
        f"/api/games/{new_id}/seats/0/claim", json={"name": "Ann", "invite": again["invite"]}
    )
    assert joined.status_code == 200, joined.text


def play_random_with_bot(client: TestClient, game_id: str, tokens: list[str]) -> None:
    """Random moves for the human seats; the bot (no delay) answers on its own."""
    rng = random.Random(5)
    for _ in range(2000):
        frame = state(client, game_id)
        if frame["over"]:
            return
        seat = frame["view"]["pending"]["seats"][0]
        if seat >= len(tokens):
            continue  # the bot's turn: it moves by itself
        mine = state(client, game_id, tokens[seat])
        if mine["legal"]:
            client.post(
                f"/api/games/{game_id}/moves",
                json={"action": rng.choice(mine["legal"]), "expect": mine["move"]},
                headers=auth(tokens[seat]),
            )
    raise AssertionError("the game did not end")
