"""Table chat (issue 35; docs/server.md, "Table chat"): the players' channel and the spectators' own,
through the API and the websocket's frames; text only, 1 to 500 characters; the rate limit, the cap
and the tables without chat; reports, hides and bans through ``candlebox moderation``; muting on the
account; a finished game's replay; several processes on PostgreSQL."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from sqlalchemy import inspect
from typer.testing import CliRunner

from candlebox.cli.app import app as cli_app
from candlebox.server.storage import chat_messages
from tests.server.conftest import all_human, auth, create, make_client, state, wait_for
from tests.server.test_accounts import HERE, PASSWORD, as_guest, rows, sign_up
from tests.server.upgrading import assert_at_head, revision, revision_before, schema_at

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url, chat_fresh=0.0) as test_client:
        test_client.headers.update(HERE)
        yield test_client


def say(client: TestClient, game_id: str, text: Any, token: str | None = None) -> Any:
    return client.post(f"/api/games/{game_id}/chat", json={"text": text}, headers=auth(token))


def chat_of(client: TestClient, game_id: str, token: str | None = None) -> list[tuple[Any, ...]]:
    return [(m["seat"], m["name"], m["text"]) for m in state(client, game_id, token)["chat"]]


def next_chat(ws: Any) -> dict[str, Any]:
    """The next chat frame on a websocket (snapshots and seat changes come and go before it)."""
    while True:
        frame: dict[str, Any] = ws.receive_json()
        if frame["type"] == "chat":
            return frame


def texts(frame: dict[str, Any]) -> list[str]:
    return [m["text"] for m in frame["chat"]]


# ----------------------------------------------------------------------------- the two channels
def test_players_chat_reaches_every_viewer_and_spectators_chat_only_spectators(
    client: TestClient,
) -> None:
    game, tokens = all_human(client, 2)
    with (
        client.websocket_connect(f"/ws/games/{game}") as player,
        client.websocket_connect(f"/ws/games/{game}") as watcher,
    ):
        player.send_json({"type": "hello", "token": tokens[1]})
        assert player.receive_json()["type"] == "snapshot"
        watcher.send_json({"type": "hello"})
        snapshot = watcher.receive_json()
        assert snapshot["type"] == "snapshot" and snapshot["chat"] == []

        sent = say(client, game, "good luck", tokens[0])
        assert sent.status_code == 201, sent.text
        message = sent.json()["message"]
        assert (message["seat"], message["name"], message["text"]) == (0, "Player 1", "good luck")
        assert texts(next_chat(player)) == ["good luck"]
        assert texts(next_chat(watcher)) == ["good luck"]

        assert say(client, game, "P1 is bluffing").status_code == 201  # a spectator
        assert texts(next_chat(watcher)) == ["P1 is bluffing"]
        assert say(client, game, "thanks", tokens[1]).status_code == 201
        # the player's next chat frame is the player's message: the spectator's never came
        assert texts(next_chat(player)) == ["thanks"]
        assert texts(next_chat(watcher)) == ["thanks"]

    assert chat_of(client, game, tokens[1]) == [(0, "Player 1", "good luck"), (1, "P1", "thanks")]
    assert chat_of(client, game) == [
        (0, "Player 1", "good luck"),
        (None, "spectator", "P1 is bluffing"),
        (1, "P1", "thanks"),
    ]


def test_a_wrong_credential_is_refused_not_taken_for_a_spectator(client: TestClient) -> None:
    game, _ = all_human(client, 2)
    answer = say(client, game, "hello", "not-a-real-credential-at-all")
    assert answer.status_code == 403 and answer.json()["error"] == "credential"
    assert chat_of(client, game) == []


def test_a_signed_in_spectator_writes_under_the_accounts_name(client: TestClient) -> None:
    with as_guest(client):
        game, _ = all_human(client, 2)
    assert sign_up(client, "Wickham").status_code == 201
    answer = say(client, game, "nice move")
    assert answer.status_code == 201, answer.text
    message = answer.json()["message"]
    assert (message["seat"], message["name"], message["author"]) == (
        None,
        "Wickham",
        "account:Wickham",
    )


# ----------------------------------------------------------------------------- text only
@pytest.mark.parametrize(
    ("text", "why"),
    [
        ("", "empty"),
        ("   \n\t ", "empty"),
        ("\x00\x07\u200b", "empty"),
        ("x" * 501, "at most 500"),
        (" " + "é" * 501, "at most 500"),
    ],
    ids=["empty", "spaces", "controls", "501", "501-accented"],
)
def test_a_message_is_1_to_500_characters_once_trimmed(
    client: TestClient, text: str, why: str
) -> None:
    game, tokens = all_human(client, 2)
    answer = say(client, game, text, tokens[0])
    assert answer.status_code == 400
    assert answer.json()["error"] == "bad-text"
    assert "text" in answer.json()["message"] and why in answer.json()["message"]
    assert chat_of(client, game) == []


@pytest.mark.parametrize("body", [{}, {"text": 5}, {"text": ["hi"]}, {"text": "hi", "html": 1}])
def test_a_body_that_is_no_text_is_refused_naming_text(
    client: TestClient, body: dict[str, Any]
) -> None:
    game, tokens = all_human(client, 2)
    answer = client.post(f"/api/games/{game}/chat", json=body, headers=auth(tokens[0]))
    assert answer.status_code == 400, answer.text
    assert "text" in answer.json()["message"] or "html" in answer.json()["message"]
    assert chat_of(client, game) == []


def test_control_characters_are_stripped_and_markup_is_kept_as_text(client: TestClient) -> None:
    game, tokens = all_human(client, 2)
    markup = '<img src=x onerror="alert(1)">'
    assert say(client, game, f"  two\nlines\x00\u202e{markup}  ", tokens[0]).status_code == 201
    assert say(client, game, "y" * 500, tokens[0]).status_code == 201
    assert [text for _, _, text in chat_of(client, game)] == [f"two lines{markup}", "y" * 500]


# ----------------------------------------------------------------------------- limits
def test_a_seat_sending_too_fast_gets_429_with_retry_after(sqlite_url: str) -> None:
    with make_client(sqlite_url, chat_burst=2, chat_rate=0.01) as client:
        client.headers.update(HERE)
        game, tokens = all_human(client, 2)
        assert say(client, game, "one", tokens[0]).status_code == 201
        assert say(client, game, "two", tokens[0]).status_code == 201
        third = say(client, game, "three", tokens[0])
        assert third.status_code == 429 and third.json()["error"] == "slow-down"
        assert int(third.headers["Retry-After"]) >= 1
        assert say(client, game, "mine", tokens[1]).status_code == 201  # another seat's own
        assert [text for _, _, text in chat_of(client, game)] == ["one", "two", "mine"]


def test_a_game_keeps_at_most_chat_max_messages(sqlite_url: str) -> None:
    with make_client(sqlite_url, chat_max_messages=2) as client:
        client.headers.update(HERE)
        game, tokens = all_human(client, 2)
        assert say(client, game, "one", tokens[0]).status_code == 201
        assert say(client, game, "two", tokens[1]).status_code == 201
        full = say(client, game, "three", tokens[0])
        assert full.status_code == 409 and full.json()["error"] == "chat-full"
        assert "2 messages" in full.json()["message"]
        assert len(rows(sqlite_url, chat_messages)) == 2


def test_learn_and_bot_only_tables_have_no_chat(client: TestClient, sqlite_url: str) -> None:
    learn = create(client, [{"kind": "human"}, {"kind": "bot", "level": "easy"}], you=0)
    answer = say(client, learn["id"], "hello bot", learn["token"])
    assert answer.status_code == 409 and answer.json()["error"] == "no-chat"
    assert "learn table" in answer.json()["message"]
    bots = create(client, [{"kind": "bot"}, {"kind": "bot"}])
    answer = say(client, bots["id"], "go bots")
    assert answer.status_code == 409 and "bot-only" in answer.json()["message"]
    assert rows(sqlite_url, chat_messages) == []


def test_a_state_changing_chat_request_from_another_site_is_refused(client: TestClient) -> None:
    game, tokens = all_human(client, 2)
    answer = client.post(
        f"/api/games/{game}/chat",
        json={"text": "hi"},
        headers={**auth(tokens[0]), "Origin": "https://evil.example"},
    )
    assert answer.status_code == 403 and answer.json()["error"] == "cross-origin"
    assert sign_up(client).status_code == 201
    client.headers.pop("origin")  # a signed-in browser's cookie without Origin: never a guess
    answer = say(client, game, "hi")
    assert answer.status_code == 403 and answer.json()["error"] == "cross-origin"
    client.headers.update(HERE)
    assert chat_of(client, game) == []


# ----------------------------------------------------------------------------- moderation
def moderate(url: str, *args: str) -> Any:
    result = CliRunner().invoke(cli_app, ["moderation", *args, "--db", url])
    return result


def test_a_report_is_listed_hidden_and_its_author_banned_with_the_cli(
    client: TestClient, sqlite_url: str
) -> None:
    with as_guest(client):
        client.headers.update(HERE)
        game, tokens = all_human(client, 2)
        rude = say(client, game, "you are all terrible", tokens[1]).json()["message"]
        kind = say(client, game, "well played", tokens[0]).json()["message"]
        report = f"/api/games/{game}/chat/{rude['id']}/report"
        first = client.post(report, json={"reason": "insults"}, headers=auth(tokens[0]))
        assert first.status_code == 201, first.text
        assert client.post(report, json={}, headers=auth(tokens[0])).status_code == 200
        assert client.post(f"/api/games/{game}/chat/999/report", json={}).status_code == 404

    listed = moderate(sqlite_url, "reports")
    assert listed.exit_code == 0, listed.output
    assert "you are all terrible" in listed.output and "insults" in listed.output
    assert "well played" not in listed.output
    assert f"{rude['id']}" in listed.output.split()[0]

    hidden = moderate(sqlite_url, "hide", str(rude["id"]))
    assert hidden.exit_code == 0, hidden.output
    assert [m["id"] for m in state(client, game)["chat"]] == [kind["id"]]
    assert moderate(sqlite_url, "reports").output.strip() == "no reported messages"
    assert moderate(sqlite_url, "hide", "12345").exit_code == 2

    assert moderate(sqlite_url, "ban", "client", "testclient", "--reason", "insults").exit_code == 0
    refused = say(client, game, "and again", tokens[1])
    assert refused.status_code == 403 and refused.json()["error"] == "chat-banned"
    assert "banned" in refused.json()["message"]
    bans = moderate(sqlite_url, "bans")
    assert "client testclient" in bans.output and "insults" in bans.output
    assert moderate(sqlite_url, "unban", "client", "testclient").exit_code == 0
    assert say(client, game, "sorry", tokens[1]).status_code == 201


def test_a_banned_account_cannot_chat_at_its_seat(client: TestClient, sqlite_url: str) -> None:
    assert sign_up(client, "Wickham").status_code == 201
    made = create(client, [{"kind": "human"}, {"kind": "human"}], you=0)
    with as_guest(client):
        client.headers.update(HERE)
        claim = client.post(
            f"/api/games/{made['id']}/seats/1/claim", json={"invite": made["invites"]["1"]}
        )
        assert claim.status_code == 200
    assert moderate(sqlite_url, "ban", "account", "nobody").exit_code == 2
    assert moderate(sqlite_url, "ban", "account", "wickham").exit_code == 0
    answer = say(client, made["id"], "hello")  # the session stands for the seat
    assert answer.status_code == 403 and answer.json()["error"] == "chat-banned"
    with as_guest(client):
        client.headers.update(HERE)
        assert say(client, made["id"], "hello", claim.json()["token"]).status_code == 201


# ----------------------------------------------------------------------------- muting
def test_a_signed_in_player_keeps_their_mutes_on_the_account(client: TestClient) -> None:
    with as_guest(client):
        assert client.get("/api/me/mutes").status_code == 401
    assert sign_up(client).status_code == 201
    assert client.get("/api/me/mutes").json() == {"mutes": []}
    muted = client.post("/api/me/mutes", json={"author": "seat:abc123:1", "muted": True})
    assert muted.status_code == 200 and muted.json() == {"mutes": ["seat:abc123:1"]}
    client.post("/api/me/mutes", json={"author": "account:Bea", "muted": True})
    assert client.get("/api/me/mutes").json() == {"mutes": ["seat:abc123:1", "account:Bea"]}
    unmuted = client.post("/api/me/mutes", json={"author": "seat:abc123:1", "muted": False})
    assert unmuted.json() == {"mutes": ["account:Bea"]}
    bad = client.post("/api/me/mutes", json={"author": "<script>", "muted": True})
    assert bad.status_code == 400 and bad.json()["error"] == "bad-author"
    assert client.get("/api/me/mutes").json() == {"mutes": ["account:Bea"]}
    # the account's deletion takes its mutes along
    gone = client.request("DELETE", "/api/me", json={"password": PASSWORD})
    assert gone.status_code == 200, gone.text


# ----------------------------------------------------------------------------- replays
def test_a_finished_games_replay_shows_the_players_chat_to_the_seats(client: TestClient) -> None:
    game, tokens = all_human(client, 2)
    assert say(client, game, "good game", tokens[0]).status_code == 201
    assert say(client, game, "spectating", None).status_code == 201
    early = client.get(f"/api/games/{game}/replay", headers=auth(tokens[0]))
    assert early.status_code == 409  # not over yet
    resign = client.post(f"/api/games/{game}/resign", headers=auth(tokens[1]))
    assert resign.status_code == 200, resign.text
    replay = client.get(f"/api/games/{game}/replay?at=0", headers=auth(tokens[1])).json()
    assert [(m["seat"], m["text"]) for m in replay["chat"]] == [(0, "good game")]
    assert [m["text"] for m in state(client, game, tokens[0])["chat"]] == ["good game"]
    assert say(client, game, "gg", tokens[1]).status_code == 201  # chat after the end


# ----------------------------------------------------------------------------- several processes
def test_a_message_reaches_the_watchers_of_another_process(postgres_url: str) -> None:
    with make_client(postgres_url) as one, make_client(postgres_url) as other:
        for web in (one, other):
            web.headers.update(HERE)
        services = [web.app.state.service for web in (one, other)]  # type: ignore[attr-defined]
        wait_for(
            lambda: all(s.listener is not None and s.listener.ready.is_set() for s in services)
        )
        game, tokens = all_human(one, 2)
        # the socket closes before the pool is waited for: a frame that never comes fails the
        # test after 30 seconds instead of holding it for ever
        with (
            ThreadPoolExecutor(1) as pool,
            other.websocket_connect(f"/ws/games/{game}") as watcher,
        ):
            watcher.send_json({"type": "hello"})
            assert watcher.receive_json()["type"] == "snapshot"
            assert say(one, game, "across processes", tokens[0]).status_code == 201
            heard = pool.submit(next_chat, watcher).result(timeout=30)
            assert texts(heard) == ["across processes"]
        assert [m["text"] for m in state(other, game)["chat"]] == ["across processes"]


# ----------------------------------------------------------------------------- the migration
def test_a_database_from_before_chat_upgrades_and_keeps_every_game(empty_url: str) -> None:
    """Migration 0010 (chat) on a database as the code before it left it: its games are kept, with
    no chat, and they take messages once the server has upgraded it."""
    before = revision_before("0010")
    with make_client(empty_url) as client:
        client.headers.update(HERE)
        game, tokens = all_human(client, 2)
        view = state(client, game, tokens[0])["view"]
    with schema_at(empty_url, before) as conn:  # the schema the code before chat wrote
        assert "chat_messages" not in inspect(conn).get_table_names()
    assert revision(empty_url) == before
    with make_client(empty_url) as client:
        client.headers.update(HERE)
        seen = state(client, game, tokens[0])
        assert seen["view"] == view and seen["chat"] == []
        assert say(client, game, "still here", tokens[1]).status_code == 201
    assert_at_head(empty_url)
