"""Accounts on any device and with friends (issue 34; docs/server.md, "Accounts and ratings"): a
signed-in player's session stands for the seats their account holds — HTTP moves, the state, a
resignation and the websocket's hello — without the seat link's token, which the first device keeps;
never for another account's seat. Guest seats kept by a browser are claimed by the account with their
tokens (POST /api/me/claim); a wrong token changes nothing. Following players by name, and inviting
one by name into an open seat: the invitation waits in their GET /api/me until they take the seat
(bound to them) or decline it."""

from __future__ import annotations

import contextlib
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select
from starlette.websockets import WebSocketDisconnect

from candlebox.server.storage import Storage, follows, seat_invites, seats
from tests.server.conftest import auth, create, make_client, move, state
from tests.server.test_accounts import (
    HERE,
    PASSWORD,
    as_guest,
    as_player,
    rows,
    sign_in,
    sign_up,
    signed_up,
)

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url) as test_client:
        test_client.headers.update(HERE)
        yield test_client


def session_of(client: TestClient, answer: Any) -> str:
    assert answer.status_code in (200, 201), answer.text
    token = str(client.cookies["candlebox_session"])
    client.cookies.clear()
    return token


def two_devices(client: TestClient, name: str = "Wickham") -> tuple[str, str]:
    """Two sessions of one new account (a laptop's and a phone's); the client left signed out."""
    laptop = session_of(client, sign_up(client, name))
    phone = session_of(client, sign_in(client, name))
    return laptop, phone


def table(client: TestClient, session: str) -> tuple[str, str, str]:
    """A two-seat game made signed in (seat 0, the account's) whose seat 1 a guest takes: the game
    id, seat 0's link token (the first device's) and the guest's token."""
    with as_player(client, session):
        made = create(client, [{"kind": "human"}, {"kind": "human"}], you=0)
    with as_guest(client):
        guest = client.post(
            f"/api/games/{made['id']}/seats/1/claim",
            json={"name": "Guest", "invite": made["invites"]["1"]},
        )
    assert guest.status_code == 200, guest.text
    return made["id"], made["token"], guest.json()["token"]


def seat0_to_act(client: TestClient, game_id: str, guest: str) -> None:
    """Let the guest (seat 1) move while it is to act, so that seat 0 is."""
    for _ in range(50):
        if state(client, game_id)["view"]["pending"]["seats"] != [1]:
            break
        mine = state(client, game_id, guest)
        assert move(client, game_id, guest, mine["legal"][0], mine["move"]).status_code == 200
    assert state(client, game_id)["view"]["pending"]["seats"] == [0]


def token_hashes(url: str) -> list[str | None]:
    return [row.token_hash for row in sorted(rows(url, seats), key=lambda r: (r.game_id, r.seat))]


# ----------------------------------------------------------------------------- any device
def test_the_session_plays_the_accounts_seat_without_its_link(client: TestClient) -> None:
    url = client.app.state.settings.db  # type: ignore[attr-defined]
    laptop, phone = two_devices(client)
    game_id, link, guest = table(client, laptop)
    seat0_to_act(client, game_id, guest)
    before = token_hashes(url)
    with as_player(client, phone):  # the phone holds no seat link, only its own session
        seen = state(client, game_id)
        assert seen["you"] == 0 and seen["legal"]
        made = client.post(
            f"/api/games/{game_id}/moves", json={"action": seen["legal"][0], "expect": seen["move"]}
        )
        assert made.status_code == 200, made.text
    assert token_hashes(url) == before  # no token handed out, none rotated
    # the laptop's link still works: it makes seat 0's next move
    seat0_to_act(client, game_id, guest)
    again = state(client, game_id, link)
    assert again["you"] == 0
    assert move(client, game_id, link, again["legal"][0], again["move"]).status_code == 200


def test_another_accounts_session_is_no_credential_for_the_seat(client: TestClient) -> None:
    laptop, _ = two_devices(client)
    rival = signed_up(client, "Rival")
    game_id, _, guest = table(client, laptop)
    seat0_to_act(client, game_id, guest)
    with as_player(client, rival):
        seen = state(client, game_id)
        assert seen["you"] is None and seen["legal"] == []  # a spectator
        refused = client.post(
            f"/api/games/{game_id}/moves", json={"action": "anything", "expect": seen["move"]}
        )
        assert refused.status_code == 403 and refused.json()["error"] == "credential"
        resign = client.post(f"/api/games/{game_id}/resign")
        assert resign.status_code == 403
    assert state(client, game_id)["over"] is False


def test_a_seat_link_still_wins_over_a_session(client: TestClient) -> None:
    """A signed-in browser that also holds another seat's link plays the seat of the link it sends
    (the guest's, here): the session stands in only when no credential is sent."""
    laptop, _ = two_devices(client)
    game_id, _, guest = table(client, laptop)
    with as_player(client, laptop):
        assert state(client, game_id, guest)["you"] == 1
        assert state(client, game_id)["you"] == 0


def test_the_session_resigns_the_accounts_seat(client: TestClient) -> None:
    laptop, phone = two_devices(client)
    game_id, _, _ = table(client, laptop)
    with as_player(client, phone):
        answer = client.post(f"/api/games/{game_id}/resign")
    assert answer.status_code == 200, answer.text
    assert answer.json()["result"]["resigned"] == 0


def test_a_rematch_asked_on_another_device_is_the_accounts_seat(client: TestClient) -> None:
    """The seat was taken on the laptop (its link is there); the phone, signed in to the same
    account and holding no link, presses Rematch: it gets the same seat at the new table, bound to
    the account, so the new game is in the account's games and the laptop plays it by its session.
    Another account's session asks for nothing."""
    laptop, phone = two_devices(client)
    rival = signed_up(client, "Rival")
    game_id, _, guest = table(client, laptop)
    with as_guest(client):
        resigned = client.post(f"/api/games/{game_id}/resign", headers=auth(guest))
    assert resigned.status_code == 200, resigned.text
    with as_player(client, rival):
        refused = client.post(f"/api/games/{game_id}/rematch")
    assert refused.status_code == 403 and refused.json()["error"] == "credential"
    with as_player(client, phone):
        asked = client.post(f"/api/games/{game_id}/rematch")
    assert asked.status_code == 200, asked.text
    rematch = asked.json()
    assert rematch["seat"] == 0 and rematch["token"]
    with as_player(client, laptop):
        games = client.get("/api/me").json()["games"]
        assert [(g["id"], g["seat"]) for g in games if g["id"] == rematch["id"]] == [
            (rematch["id"], 0)
        ]
        seen = state(client, rematch["id"])  # no link on the laptop for the new game
        assert seen["you"] == 0
    with as_guest(client):  # the guest's seat of the finished game is offered its invite
        offered = client.post(f"/api/games/{game_id}/rematch", headers=auth(guest))
    assert offered.status_code == 200 and offered.json()["invite"], offered.text


@contextlib.contextmanager
def socket(client: TestClient, game_id: str, origin: str = "http://testserver") -> Iterator[Any]:
    with client.websocket_connect(f"/ws/games/{game_id}", headers={"Origin": origin}) as ws:
        yield ws


def test_the_websocket_hello_takes_the_accounts_seat(client: TestClient) -> None:
    laptop, phone = two_devices(client)
    rival = signed_up(client, "Rival")
    game_id, link, guest = table(client, laptop)
    seat0_to_act(client, game_id, guest)
    with as_player(client, phone), socket(client, game_id) as ws:
        ws.send_json({"type": "hello"})
        frame = ws.receive_json()
        assert frame["type"] == "snapshot" and frame["you"] == 0 and frame["legal"]
        ws.send_json(
            {"type": "move", "action": frame["legal"][0], "expect": frame["move"], "ref": 1}
        )
        reply = ws.receive_json()
        while reply["type"] not in ("ack", "error"):
            reply = ws.receive_json()
        assert reply["type"] == "ack", reply
    with as_player(client, rival), socket(client, game_id) as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["you"] is None  # another account only watches
    with socket(client, game_id) as ws:  # the first device's link, signed out
        ws.send_json({"type": "hello", "token": link})
        assert ws.receive_json()["you"] == 0


def test_a_socket_from_another_site_never_uses_the_session(client: TestClient) -> None:
    laptop, _ = two_devices(client)
    game_id, _, _ = table(client, laptop)
    with (
        as_player(client, laptop),
        pytest.raises(WebSocketDisconnect) as closed,
        socket(client, game_id, origin="https://evil.example") as ws,
    ):
        ws.send_json({"type": "hello"})
        ws.receive_json()
    assert closed.value.code == 4403


# ----------------------------------------------------------------------------- claiming
def guest_game(client: TestClient) -> tuple[str, str]:
    with as_guest(client):
        made = create(client, [{"kind": "human", "name": "Guesty"}, {"kind": "bot"}], you=0)
    return made["id"], made["token"]


def test_guest_seats_are_claimed_with_their_tokens(client: TestClient) -> None:
    url = client.app.state.settings.db  # type: ignore[attr-defined]
    game_id, token = guest_game(client)
    other_id, other_token = guest_game(client)
    me = signed_up(client, "Wickham")
    with as_player(client, me):
        wrong = client.post(
            "/api/me/claim",
            json={"seats": [{"game": other_id, "token": token}, {"game": "nope", "token": "x"}]},
        )
        assert wrong.status_code == 200 and wrong.json() == {"claimed": []}
        assert client.get("/api/me").json()["games"] == []
        answer = client.post("/api/me/claim", json={"seats": [{"game": game_id, "token": token}]})
        assert answer.json() == {"claimed": [{"game": game_id, "seat": 0}]}
        (game,) = client.get("/api/me").json()["games"]
        assert game["id"] == game_id and game["name"] == "Guesty"  # the name the table knows
        assert state(client, game_id)["you"] == 0  # the session plays it now
    bound = {row.game_id: row.account_id for row in rows(url, seats) if row.seat == 0}
    assert bound[game_id] is not None and bound[other_id] is None
    # a seat another account holds is not taken over, even with its token
    rival = signed_up(client, "Rival")
    with as_player(client, rival):
        again = client.post("/api/me/claim", json={"seats": [{"game": game_id, "token": token}]})
        assert again.json() == {"claimed": []}
    assert state(client, other_id, other_token)["you"] == 0  # an unclaimed link still works


def test_a_claim_is_refused_with_the_field_named(client: TestClient) -> None:
    assert client.post("/api/me/claim", json={"seats": []}).status_code == 401
    me = signed_up(client, "Wickham")
    with as_player(client, me):
        many = [{"game": "g", "token": "t"}] * 101
        too_many = client.post("/api/me/claim", json={"seats": many})
        assert too_many.status_code == 400 and "seats" in too_many.json()["message"]
        bad = client.post("/api/me/claim", json={"seats": [{"game": 1, "token": "t"}]})
        assert bad.status_code == 400 and "game" in bad.json()["message"]
    with as_player(client, me):
        cross = client.post(
            "/api/me/claim", json={"seats": []}, headers={"Origin": "https://evil.example"}
        )
    assert cross.status_code == 403 and cross.json()["error"] == "cross-origin"


# ----------------------------------------------------------------------------- friends
def test_following_players_by_name(client: TestClient) -> None:
    url = client.app.state.settings.db  # type: ignore[attr-defined]
    rival = signed_up(client, "Rival")
    me = signed_up(client, "Wickham")
    with as_player(client, rival):
        public = create(client, [{"kind": "human"}, {"kind": "bot"}], you=0)
        create(client, [{"kind": "human"}, {"kind": "bot"}], you=0, public=False)
    with as_player(client, me):
        assert client.post("/api/me/follows", json={"name": "RIVAL"}).status_code == 201
        cases = {
            "rival": (409, "already-followed"),
            "Wickham": (400, "follow-self"),
            "Nobody": (404, "no-player"),
            "": (400, "malformed"),
        }
        for name, (status, code) in cases.items():
            answer = client.post("/api/me/follows", json={"name": name})
            assert (answer.status_code, answer.json()["error"]) == (status, code), name
        (person,) = client.get("/api/me/follows").json()["follows"]
        assert person["name"] == "Rival"
        assert [game["id"] for game in person["games"]] == [public["id"]]  # never a private one
        assert client.get("/api/me/export").json()["follows"][0]["name"] == "Rival"
        assert client.delete("/api/me/follows/rival").status_code == 200
        gone = client.delete("/api/me/follows/rival")
        assert gone.status_code == 404 and gone.json()["error"] == "not-followed"
        assert client.get("/api/me/follows").json()["follows"] == []
    assert rows(url, follows) == []


def test_follows_are_limited_per_account(sqlite_url: str) -> None:
    with make_client(sqlite_url, max_follows=1) as client:
        client.headers.update(HERE)
        for name in ("Ember1", "Ember2"):
            signed_up(client, name)
        me = signed_up(client, "Wickham")
        with as_player(client, me):
            assert client.post("/api/me/follows", json={"name": "Ember1"}).status_code == 201
            over = client.post("/api/me/follows", json={"name": "Ember2"})
            assert over.status_code == 409 and over.json()["error"] == "follow-limit"


def private_table(client: TestClient, host: str) -> tuple[str, str]:
    with as_player(client, host):
        made = create(
            client, [{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}], you=0, public=False
        )
    return made["id"], made["token"]


def test_an_invited_friend_takes_the_seat_from_their_games(client: TestClient) -> None:
    url = client.app.state.settings.db  # type: ignore[attr-defined]
    host = signed_up(client, "Wickham")
    friend = signed_up(client, "Rival")
    game_id, link = private_table(client, host)
    invite = client.post(
        f"/api/games/{game_id}/seats/1/invite", json={"name": "rival"}, headers=auth(link)
    )
    assert invite.status_code == 401  # signed in only: the invitation says who sent it
    with as_player(client, host):
        sent = client.post(f"/api/games/{game_id}/seats/1/invite", json={"name": "rival"})
        assert sent.status_code == 201 and sent.json()["invited"] == "Rival"
    with as_player(client, friend):
        (waiting,) = client.get("/api/me").json()["invites"]
        assert (waiting["game_id"], waiting["seat"], waiting["from"]) == (game_id, 1, "Wickham")
        taken = client.post(f"/api/me/invites/{waiting['id']}/accept")
        assert taken.status_code == 200, taken.text
        assert taken.json()["seat"] == 1 and taken.json()["token"]
        assert client.get("/api/me").json()["invites"] == []
        (game,) = client.get("/api/me").json()["games"]
        assert game["id"] == game_id and game["name"] == "Rival"
        assert state(client, game_id)["you"] == 1
        again = client.post(f"/api/me/invites/{waiting['id']}/accept")
        assert again.status_code == 404 and again.json()["error"] == "no-invite"
    assert rows(url, seat_invites) == []


def test_an_invitation_is_declined_and_refused_with_reasons(client: TestClient) -> None:
    host = signed_up(client, "Wickham")
    friend = signed_up(client, "Rival")
    stranger = signed_up(client, "Stranger")
    game_id, _ = private_table(client, host)
    path = f"/api/games/{game_id}/seats"
    with as_player(client, stranger):  # not at the table
        answer = client.post(f"{path}/1/invite", json={"name": "Rival"})
        assert answer.status_code == 403 and answer.json()["error"] == "credential"
    with as_player(client, host):
        cases = {
            (1, "Wickham"): (400, "invite-self"),
            (1, "Nobody"): (404, "no-player"),
            (0, "Rival"): (409, "taken"),  # the host's own seat
            (2, "Rival"): (409, "taken"),  # a bot's
            (9, "Rival"): (400, "bad-seat"),
        }
        for (seat, name), (status, code) in cases.items():
            answer = client.post(f"{path}/{seat}/invite", json={"name": name})
            assert (answer.status_code, answer.json()["error"]) == (status, code), (seat, name)
        assert client.post(f"{path}/1/invite", json={"name": "Rival"}).status_code == 201
        twice = client.post(f"{path}/1/invite", json={"name": "rival"})
        assert twice.status_code == 409 and twice.json()["error"] == "already-invited"
    with as_player(client, stranger):  # nobody invited the stranger
        assert client.get("/api/me").json()["invites"] == []
    with as_player(client, friend):
        (waiting,) = client.get("/api/me").json()["invites"]
    with as_player(client, stranger):
        other = client.delete(f"/api/me/invites/{waiting['id']}")
        assert other.status_code == 404  # only its invitee answers it
        huge = client.delete("/api/me/invites/99999999999999999999")
        assert huge.status_code == 400 and huge.json()["error"] == "no-invite"
    with as_player(client, friend):
        assert client.delete(f"/api/me/invites/{waiting['id']}").status_code == 200
        assert client.get("/api/me").json()["invites"] == []
    assert state(client, game_id)["seats"][1]["taken"] is False


def test_an_invitation_goes_once_its_seat_is_taken(client: TestClient) -> None:
    host = signed_up(client, "Wickham")
    friend = signed_up(client, "Rival")
    with as_player(client, host):
        made = create(client, [{"kind": "human"}, {"kind": "human"}], you=0)
        sent = client.post(f"/api/games/{made['id']}/seats/1/invite", json={"name": "Rival"})
        assert sent.status_code == 201
    with as_guest(client):
        claim = client.post(
            f"/api/games/{made['id']}/seats/1/claim", json={"invite": made["invites"]["1"]}
        )
        assert claim.status_code == 200
    with as_player(client, friend):
        assert client.get("/api/me").json()["invites"] == []


def test_invitations_are_limited_per_account(sqlite_url: str) -> None:
    with make_client(sqlite_url, max_invites=1) as client:
        client.headers.update(HERE)
        host = signed_up(client, "Wickham")
        for name in ("Ember1", "Ember2"):
            signed_up(client, name)
        with as_player(client, host):
            made = create(client, [{"kind": "human"}] * 3, you=0)
            path = f"/api/games/{made['id']}/seats"
            assert client.post(f"{path}/1/invite", json={"name": "Ember1"}).status_code == 201
            over = client.post(f"{path}/2/invite", json={"name": "Ember2"})
            assert over.status_code == 409 and over.json()["error"] == "invite-limit"


def test_deleting_an_account_ends_its_follows_and_invitations(client: TestClient) -> None:
    url = client.app.state.settings.db  # type: ignore[attr-defined]
    host = signed_up(client, "Wickham")
    friend = signed_up(client, "Rival")
    with as_player(client, friend):
        assert client.post("/api/me/follows", json={"name": "Wickham"}).status_code == 201
    with as_player(client, host):
        made = create(client, [{"kind": "human"}, {"kind": "human"}], you=0)
        client.post(f"/api/games/{made['id']}/seats/1/invite", json={"name": "Rival"})
        client.post("/api/me/follows", json={"name": "Rival"})
        gone = client.request("DELETE", "/api/me", json={"password": PASSWORD})
        assert gone.status_code == 200, gone.text
    assert rows(url, follows) == [] and rows(url, seat_invites) == []
    with as_player(client, friend):
        assert client.get("/api/me/follows").json()["follows"] == []


def test_friends_and_devices_on_postgresql(postgres_url: str) -> None:
    """The same queries on PostgreSQL: a claim, a follow, an invitation taken."""
    with make_client(postgres_url) as client:
        client.headers.update(HERE)
        game_id, token = guest_game(client)
        host = signed_up(client, "Wickham")
        friend = signed_up(client, "Rival")
        with as_player(client, host):
            claimed = client.post(
                "/api/me/claim", json={"seats": [{"game": game_id, "token": token}]}
            )
            assert claimed.json()["claimed"] == [{"game": game_id, "seat": 0}]
            assert client.post("/api/me/follows", json={"name": "rival"}).status_code == 201
            made = create(client, [{"kind": "human"}, {"kind": "human"}], you=0, public=False)
            sent = client.post(f"/api/games/{made['id']}/seats/1/invite", json={"name": "Rival"})
            assert sent.status_code == 201
        with as_player(client, friend):
            (waiting,) = client.get("/api/me").json()["invites"]
            assert client.post(f"/api/me/invites/{waiting['id']}/accept").status_code == 200
            assert state(client, made["id"])["you"] == 1
        storage = Storage(postgres_url)
        try:
            with storage.engine.connect() as conn:
                seat0 = (seats.c.game_id == game_id) & (seats.c.seat == 0)
                bound = conn.execute(select(seats.c.account_id).where(seat0)).scalar_one()
        finally:
            storage.close()
        assert bound is not None


def test_a_seat_claimed_through_one_process_is_played_through_another(postgres_url: str) -> None:
    """Two app processes on one PostgreSQL: the second held the game before the seat was bound to
    the account, and learns of it (the session is a credential there too)."""
    with make_client(postgres_url) as one, make_client(postgres_url) as two:
        for app in (one, two):
            app.headers.update(HERE)
        game_id, token = guest_game(one)
        me = signed_up(one, "Wickham")
        with as_player(two, me):
            assert state(two, game_id)["you"] is None  # its copy: a guest's seat
        with as_player(one, me):
            claimed = one.post("/api/me/claim", json={"seats": [{"game": game_id, "token": token}]})
            assert claimed.json()["claimed"] == [{"game": game_id, "seat": 0}]
        with as_player(two, me):
            assert state(two, game_id)["you"] == 0
