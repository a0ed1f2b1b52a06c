"""Accounts through the API (candlebox/server/accounts.py, routes/accounts.py; docs/server.md,
"Accounts"): each rule of names and passwords, what is stored (hashes only), the session cookie and its
flags, the same answer for an unknown name and a wrong password, the throttle, CSRF, the seats an
account holds, signing out, deletion, export and the operator's reset link."""

from __future__ import annotations

import contextlib
import hashlib
import statistics
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from argon2 import PasswordHasher
from sqlalchemy import select, update
from typer.testing import CliRunner

from candlebox.cli.app import app as cli_app
from candlebox.server.storage import (
    Storage,
    account_sessions,
    accounts,
    password_resets,
    seats,
    sign_in_failures,
)
from tests.server.conftest import auth, create, make_client, move, state

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

HERE = {"Origin": "http://testserver"}  # what a browser sends from the site's own pages
PASSWORD = "correct horse battery"


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url) as test_client:
        test_client.headers.update(HERE)
        yield test_client


def db(url: str) -> Storage:
    return Storage(url)


def rows(url: str, table: Any) -> list[Any]:
    storage = db(url)
    try:
        with storage.engine.connect() as conn:
            return list(conn.execute(select(table)).all())
    finally:
        storage.close()


def execute(url: str, statement: Any) -> None:
    storage = db(url)
    try:
        with storage.engine.begin() as conn:
            conn.execute(statement)
    finally:
        storage.close()


def sign_up(client: TestClient, name: str = "Wickham", **extra: Any) -> Any:
    return client.post("/api/accounts", json={"name": name, "password": PASSWORD, **extra})


def signed_up(client: TestClient, name: str) -> str:
    """A new account's session token (the client is left signed out): another player, or the same
    player's other browser, is then :func:`as_player` with it."""
    answer = sign_up(client, name)
    assert answer.status_code == 201, answer.text
    token = client.cookies["candlebox_session"]
    client.cookies.clear()
    return str(token)


def sign_in(client: TestClient, name: str = "Wickham", password: str = PASSWORD) -> Any:
    return client.post("/api/session", json={"name": name, "password": password})


@contextlib.contextmanager
def as_guest(client: TestClient) -> Iterator[TestClient]:
    """The same browser signed out for a while (its cookie and Origin put back afterwards)."""
    kept = dict(client.cookies)
    client.cookies.clear()
    origin = client.headers.pop("origin", None)
    try:
        yield client
    finally:
        client.cookies.update(kept)
        if origin is not None:
            client.headers["origin"] = origin


@contextlib.contextmanager
def signed_in_as(client: TestClient, name: str) -> Iterator[TestClient]:
    """The same app seen from another player's browser: a new account's cookie for a while (two
    apps on one SQLite file would each hold their own copy of a game)."""
    with as_guest(client):
        client.headers.update(HERE)
        answer = sign_up(client, name)
        assert answer.status_code == 201, answer.text
        yield client


def cookie_header(response: Any) -> str:
    return str(response.headers["set-cookie"])


# ----------------------------------------------------------------------------- signing up
def test_sign_up_answers_201_with_an_httponly_lax_session_cookie(client: TestClient) -> None:
    answer = sign_up(client, email="wick@example.org")
    assert answer.status_code == 201, answer.text
    assert answer.json()["name"] == "Wickham"
    header = cookie_header(answer)
    assert header.startswith("candlebox_session=")
    assert "HttpOnly" in header and "SameSite=lax" in header and "Path=/" in header
    assert "Max-Age=2592000" in header  # 30 days
    assert "Secure" not in header  # plain HTTP: a Secure cookie would never come back
    me = client.get("/api/me")
    assert me.status_code == 200
    assert me.json()["name"] == "Wickham" and me.json()["email"] == "wick@example.org"
    assert me.json()["member_since"] > 0


def test_the_cookie_is_secure_over_https_through_a_trusted_proxy(sqlite_url: str) -> None:
    https = {**HERE, "X-Forwarded-Proto": "https"}
    with make_client(sqlite_url, trusted_proxies=("testclient",)) as behind:
        answer = behind.post(
            "/api/accounts", json={"name": "Proxied", "password": PASSWORD}, headers=https
        )
        assert "Secure" in cookie_header(answer)
    with make_client(sqlite_url) as direct:  # the header from anyone else means nothing
        answer = direct.post(
            "/api/accounts", json={"name": "Direct", "password": PASSWORD}, headers=https
        )
        assert answer.status_code == 201
        assert "Secure" not in cookie_header(answer)


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("ab", "name-short"),
        ("a" * 21, "name-long"),
        ("two words", "name-characters"),
        (" padded", "name-characters"),
        ("wick!", "name-characters"),
        ("<script>", "name-characters"),
        ("Admin", "name-reserved"),
        ("MODERATOR", "name-reserved"),
        ("candlebox", "name-reserved"),
        ("Deleted_Player", "name-reserved"),
        ("easy", "name-reserved"),  # a bot level
        ("Hard", "name-reserved"),
        ("Ember", "name-reserved"),  # a bot seat's name
    ],
)
def test_each_name_refusal_is_named(client: TestClient, name: str, code: str) -> None:
    answer = sign_up(client, name)
    assert answer.status_code == 400, answer.text
    assert answer.json()["error"] == code
    assert rows(str(client.app.state.settings.db), accounts) == []  # type: ignore[attr-defined]


def test_names_are_unique_regardless_of_case_and_width(client: TestClient) -> None:
    assert sign_up(client, "Wickham").status_code == 201
    for again in ("wickham", "WICKHAM", "ｗｉｃｋｈａｍ"):  # the last in fullwidth letters
        answer = sign_up(client, again)
        assert answer.status_code == 409, again
        assert answer.json()["error"] == "name-taken"
    stored = rows(client.app.state.settings.db, accounts)  # type: ignore[attr-defined]
    assert [(row.name, row.name_key) for row in stored] == [("Wickham", "wickham")]


def test_a_name_is_kept_in_nfkc_and_letters_of_any_script_are_names(client: TestClient) -> None:
    assert sign_up(client, "Ｂｅａ_9").json()["name"] == "Bea_9"
    assert sign_up(client, "Zoë-Łucja").status_code == 201
    assert sign_up(client, "Ёлка").status_code == 201


@pytest.mark.parametrize(
    ("spec", "code"),
    [
        ({"password": "seven77"}, "password-short"),
        ({"password": "x" * 257}, "password-long"),
        ({"email": "not an address"}, "email"),
        ({"email": "nobody@localhost"}, "email"),
    ],
)
def test_each_password_and_email_refusal_is_named(
    client: TestClient, spec: dict[str, str], code: str
) -> None:
    answer = client.post("/api/accounts", json={"name": "Wickham", "password": PASSWORD, **spec})
    assert answer.status_code == 400
    assert answer.json()["error"] == code
    assert rows(client.app.state.settings.db, accounts) == []  # type: ignore[attr-defined]


def test_only_hashes_are_stored(client: TestClient) -> None:
    answer = sign_up(client)
    token = client.cookies["candlebox_session"]
    url = client.app.state.settings.db  # type: ignore[attr-defined]
    (account,) = rows(url, accounts)
    assert account.password_hash.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    assert PasswordHasher().verify(account.password_hash, PASSWORD)
    (session,) = rows(url, account_sessions)
    assert session.token_hash == hashlib.sha256(token.encode()).hexdigest()
    raw = Path(url.split(":///", 1)[1]).read_bytes()
    wal = Path(url.split(":///", 1)[1] + "-wal")
    raw += wal.read_bytes() if wal.exists() else b""
    assert PASSWORD.encode() not in raw and token.encode() not in raw
    assert answer.status_code == 201


# ----------------------------------------------------------------------------- signing in
def test_sign_in_answers_200_with_a_new_session(client: TestClient) -> None:
    sign_up(client)
    first = client.cookies["candlebox_session"]
    client.cookies.clear()
    assert client.get("/api/me").status_code == 401
    answer = sign_in(client, "WICKHAM")  # any case
    assert answer.status_code == 200 and answer.json()["name"] == "Wickham"
    assert "HttpOnly" in cookie_header(answer)
    assert client.cookies["candlebox_session"] != first
    assert client.get("/api/me").json()["name"] == "Wickham"


def test_an_unknown_name_and_a_wrong_password_get_the_same_answer_in_the_same_time(
    sqlite_url: str,
) -> None:
    with make_client(sqlite_url, sign_in_failures=0, sign_in_address_failures=0) as client:
        client.headers.update(HERE)
        sign_up(client)
        client.cookies.clear()
        wrong, unknown = [], []
        answers = set()
        for _ in range(7):
            for name, times in (("Wickham", wrong), ("Nobody", unknown)):
                started = time.perf_counter()
                answer = sign_in(client, name, "not the password")
                times.append(time.perf_counter() - started)
                answers.add((answer.status_code, answer.text))
        assert answers == {(401, '{"error":"credentials","message":"wrong name or password"}')}
        # without the dummy hash an unknown name answers a hundred times sooner
        assert statistics.median(unknown) > 0.5 * statistics.median(wrong)


def test_failed_sign_ins_are_throttled_per_account(sqlite_url: str) -> None:
    with make_client(sqlite_url, sign_in_failures=3, sign_in_window=600) as client:
        client.headers.update(HERE)
        sign_up(client)
        sign_up(client, "Other_one")
        client.cookies.clear()
        for _ in range(3):
            assert sign_in(client, "Wickham", "guess guess").status_code == 401
        refused = sign_in(client, "wickham")  # even the right password, while throttled
        assert refused.status_code == 429
        assert refused.json()["error"] == "slow-down"
        assert 590 <= int(refused.headers["Retry-After"]) <= 600
        assert sign_in(client, "Other_one").status_code == 200  # other accounts are not


def test_failed_sign_ins_are_throttled_per_client_address(sqlite_url: str) -> None:
    with make_client(sqlite_url, sign_in_failures=100, sign_in_address_failures=3) as client:
        client.headers.update(HERE)
        sign_up(client)
        client.cookies.clear()
        for name in ("Aaa", "Bbb", "Ccc"):
            assert sign_in(client, name, "guess guess").status_code == 401
        refused = sign_in(client)
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1


def test_a_hash_made_with_older_parameters_is_replaced_at_sign_in(client: TestClient) -> None:
    sign_up(client)
    url = client.app.state.settings.db  # type: ignore[attr-defined]
    weaker = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1).hash(PASSWORD)
    execute(url, update(accounts).values(password_hash=weaker))
    assert sign_in(client).status_code == 200
    (account,) = rows(url, accounts)
    assert account.password_hash.startswith("$argon2id$v=19$m=19456,t=2,p=1$")


# ----------------------------------------------------------------------------- sessions
def test_sign_out_ends_this_session_only(sqlite_url: str) -> None:
    with make_client(sqlite_url) as phone, make_client(sqlite_url) as laptop:
        for browser in (phone, laptop):
            browser.headers.update(HERE)
        sign_up(phone)
        sign_in(laptop)
        kept = phone.cookies["candlebox_session"]
        answer = phone.delete("/api/session")
        assert answer.status_code == 200
        assert 'candlebox_session=""' in cookie_header(answer)  # the browser forgets it
        with as_player(phone, kept):
            assert phone.get("/api/me").status_code == 401
        assert laptop.get("/api/me").status_code == 200


def test_sign_out_everywhere_ends_every_session(sqlite_url: str) -> None:
    with make_client(sqlite_url) as phone, make_client(sqlite_url) as laptop:
        for browser in (phone, laptop):
            browser.headers.update(HERE)
        sign_up(phone)
        sign_in(laptop)
        assert phone.delete("/api/session?everywhere=true").status_code == 200
        assert laptop.get("/api/me").status_code == 401
        assert rows(sqlite_url, account_sessions) == []


def test_a_session_expires_and_slides_while_used(client: TestClient) -> None:
    sign_up(client)
    url = client.app.state.settings.db  # type: ignore[attr-defined]
    soon = time.time() + 86400  # a day left of thirty: it moves on when used
    execute(url, update(account_sessions).values(expires_at=soon))
    answer = client.get("/api/me")
    assert answer.status_code == 200 and "Max-Age=2592000" in cookie_header(answer)
    (session,) = rows(url, account_sessions)
    assert session.expires_at > time.time() + 29 * 86400
    execute(url, update(account_sessions).values(expires_at=time.time() - 1))
    assert client.get("/api/me").status_code == 401


def test_api_session_tells_a_guest_with_a_200(client: TestClient) -> None:
    """Pages ask ``GET /api/session`` before ``/api/me``: a guest is a normal visitor, told so
    without the 401 a browser logs as an error; a session ended or unknown is a guest's."""
    guest = client.get("/api/session")
    assert guest.status_code == 200 and guest.json() == {"signed_in": False}
    sign_up(client)
    assert client.get("/api/session").json() == {"signed_in": True, "name": "Wickham"}
    url = client.app.state.settings.db  # type: ignore[attr-defined]
    execute(url, update(account_sessions).values(expires_at=time.time() + 86400))
    slid = client.get("/api/session")  # a day left of thirty: it moves on, and the cookie with it
    assert slid.json()["signed_in"] and "Max-Age=2592000" in cookie_header(slid)
    assert client.delete("/api/session").status_code == 200
    assert client.get("/api/session").json() == {"signed_in": False}
    with as_player(client, "x" * 43):
        assert client.get("/api/session").json() == {"signed_in": False}


def test_api_me_needs_a_session(client: TestClient) -> None:
    assert client.get("/api/me").status_code == 401
    assert client.get("/api/me/export").status_code == 401
    assert client.delete("/api/session").status_code == 401
    with as_player(client, "x" * 43):
        bogus = client.get("/api/me")
    assert bogus.status_code == 401 and bogus.json()["error"] == "signed-out"


# ----------------------------------------------------------------------------- CSRF
def test_a_cross_origin_request_with_the_cookie_is_refused(client: TestClient) -> None:
    sign_up(client)
    evil = {"Origin": "https://evil.example"}
    body = {"game": "candle-quest", "seats": [{"kind": "human"}, {"kind": "human"}], "you": 0}
    assert client.post("/api/games", json=body, headers=evil).status_code == 403
    refused = client.request("DELETE", "/api/me", json={"password": PASSWORD}, headers=evil)
    assert refused.status_code == 403 and refused.json()["error"] == "cross-origin"
    assert client.delete("/api/session", headers=evil).status_code == 403
    assert client.get("/api/me").status_code == 200  # nothing happened


def test_a_request_with_the_cookie_must_say_where_it_comes_from(client: TestClient) -> None:
    sign_up(client)
    del client.headers["origin"]
    body = {"game": "candle-quest", "seats": [{"kind": "human"}, {"kind": "human"}], "you": 0}
    assert client.post("/api/games", json=body).status_code == 403
    fetched = client.post("/api/games", json=body, headers={"Sec-Fetch-Site": "same-origin"})
    assert fetched.status_code == 201
    client.cookies.clear()
    assert client.post("/api/games", json=body).status_code == 201  # guests: as before


# ----------------------------------------------------------------------------- your games
def test_seats_taken_signed_in_are_the_accounts_waiting_ones_first(client: TestClient) -> None:
    me, rival = two_players(client)
    # the older game waits for me, the newer one for my rival
    waiting = table_where(client, me, rival, mine_first=True)
    not_yet = table_where(client, me, rival, mine_first=False)
    with as_guest(client):
        guest = create(client, [{"kind": "human"}, {"kind": "bot"}], you=0)
    with as_player(client, me):
        games = client.get("/api/me").json()["games"]
    assert [game["id"] for game in games] == [waiting, not_yet]
    assert [game["your_turn"] for game in games] == [True, False]
    assert all(game["name"] == "Wickham" for game in games)
    with as_player(client, rival):
        theirs = client.get("/api/me").json()["games"]
    assert [game["id"] for game in theirs] == [not_yet, waiting]  # its own turn first
    assert guest["id"] not in [game["id"] for game in theirs]
    public = client.get(f"/api/games/{waiting}").json()["seats"]
    assert {seat["name"] for seat in public} == {"Wickham", "Rival"}


def two_players(client: TestClient) -> tuple[str, str]:
    """Two accounts' session tokens: Wickham's and Rival's (the client left signed out)."""
    tokens = []
    for name in ("Wickham", "Rival"):
        assert sign_up(client, name).status_code == 201
        tokens.append(client.cookies["candlebox_session"])
        client.cookies.clear()
    return tokens[0], tokens[1]


@contextlib.contextmanager
def as_player(client: TestClient, token: str) -> Iterator[TestClient]:
    """The client as the browser holding that session (two apps on one SQLite file would each
    hold their own copy of a game, so the players share one app)."""
    client.cookies.set("candlebox_session", token)
    try:
        yield client
    finally:
        client.cookies.clear()


def table_where(client: TestClient, me: str, rival: str, mine_first: bool) -> str:
    """A two-player game whose seats the two accounts claim, ``me`` holding the seat to act first
    (``mine_first``) or the other one."""
    made = create(client, [{"kind": "human"}, {"kind": "human"}])  # the creator takes no seat
    first = state(client, made["id"])["view"]["pending"]["seats"][0]
    order = {True: (first, 1 - first), False: (1 - first, first)}[mine_first]
    for token, seat in zip((me, rival), order, strict=True):
        with as_player(client, token):
            claim = client.post(
                f"/api/games/{made['id']}/seats/{seat}/claim",
                json={"name": "ignored", "invite": made["invites"][str(seat)]},
            )
        assert claim.status_code == 200, claim.text
    return str(made["id"])


def test_a_game_created_signed_in_is_the_accounts(client: TestClient) -> None:
    sign_up(client)
    made = create(client, [{"kind": "human", "name": "typed"}, {"kind": "bot"}], you=0)
    (game,) = client.get("/api/me").json()["games"]
    assert game["id"] == made["id"] and game["seat"] == 0 and game["name"] == "Wickham"
    (row, _) = sorted(rows(client.app.state.settings.db, seats), key=lambda r: r.seat)  # type: ignore[attr-defined]
    assert row.account_id is not None


# ----------------------------------------------------------------------------- privacy
def finished_game(client: TestClient, me: str, rival: str) -> str:
    """A game the two accounts played and ``me`` resigned."""
    with as_player(client, me):
        made = create(client, [{"kind": "human"}, {"kind": "human"}], you=0)
    with as_player(client, rival):
        claim = client.post(
            f"/api/games/{made['id']}/seats/1/claim", json={"invite": made["invites"]["1"]}
        )
        assert claim.status_code == 200, claim.text
    resign = client.post(f"/api/games/{made['id']}/resign", headers=auth(made["token"]))
    assert resign.status_code == 200, resign.text
    return str(made["id"])


def test_deleting_the_account(client: TestClient) -> None:
    url = client.app.state.settings.db  # type: ignore[attr-defined]
    me, rival = two_players(client)
    over = finished_game(client, me, rival)
    with as_player(client, me):
        live = create(client, [{"kind": "human"}, {"kind": "bot"}], you=0)
        wrong = client.request("DELETE", "/api/me", json={"password": "not the password"})
        assert wrong.status_code == 401 and client.get("/api/me").status_code == 200
        answer = client.request("DELETE", "/api/me", json={"password": PASSWORD})
        assert answer.status_code == 200
        assert 'candlebox_session=""' in cookie_header(answer)
    with as_player(client, me):
        assert client.get("/api/me").status_code == 401
    assert sign_in(client).status_code == 401
    names = [seat["name"] for seat in client.get(f"/api/games/{over}").json()["seats"]]
    assert names == ["deleted player", "Rival"]
    assert client.get(f"/api/games/{over}/replay?at=0").status_code == 200  # it still replays
    assert client.get(f"/api/games/{over}/saved").status_code == 200
    assert [row.name for row in rows(url, accounts)] == ["Rival"]
    assert {row.account_id for row in rows(url, account_sessions)} != {None}  # Rival's only
    assert len(rows(url, account_sessions)) == 1
    mine = [row for row in rows(url, seats) if row.name != "Rival"]
    assert {row.account_id for row in mine} == {None}
    assert state(client, live["id"], live["token"])["move"] >= 0  # the live seat still plays


def test_a_deleted_name_stays_deleted_after_a_restart(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        client.headers.update(HERE)
        me, rival = two_players(client)
        over = finished_game(client, me, rival)
        with as_player(client, me):
            client.request("DELETE", "/api/me", json={"password": PASSWORD})
    with make_client(sqlite_url) as restarted:
        names = [seat["name"] for seat in restarted.get(f"/api/games/{over}").json()["seats"]]
        assert names == ["deleted player", "Rival"]


def test_export_is_the_accounts_data_without_secrets(client: TestClient) -> None:
    me, rival = two_players(client)
    over = finished_game(client, me, rival)
    with as_player(client, me):
        answer = client.get("/api/me/export")
    assert answer.status_code == 200
    assert "attachment" in answer.headers["content-disposition"]
    data = answer.json()
    assert data["account"] == {
        "name": "Wickham",
        "email": None,
        "member_since": data["account"]["member_since"],
        "email_verified": False,
    }
    assert data["passkeys"] == []
    assert [game["id"] for game in data["games"]] == [over]
    assert data["games"][0]["status"] == "resigned"
    assert len(data["sessions"]) == 1
    assert "hash" not in answer.text and "$argon2" not in answer.text
    assert me not in answer.text


# ----------------------------------------------------------------------------- reset
def reset_link(url: str, name: str) -> str:
    result = CliRunner().invoke(
        cli_app, ["accounts", "reset", name, "--db", url, "--url", "https://play.example/"]
    )
    assert result.exit_code == 0, result.output
    link = result.output.split()[0]
    assert link.startswith("https://play.example/reset#")
    assert "works once" in result.output
    return link.split("#", 1)[1]


def test_the_operators_reset_link_sets_a_new_password_once(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        client.headers.update(HERE)
        sign_up(client)
        token = reset_link(sqlite_url, "WICKHAM")
        (stored,) = rows(sqlite_url, password_resets)
        assert stored.token_hash == hashlib.sha256(token.encode()).hexdigest()
        short = client.post("/api/accounts/reset", json={"token": token, "password": "short"})
        assert short.status_code == 400 and short.json()["error"] == "password-short"
        new = "a brand new password"
        answer = client.post("/api/accounts/reset", json={"token": token, "password": new})
        assert answer.status_code == 200 and answer.json()["name"] == "Wickham"
        assert client.get("/api/me").status_code == 401  # every session ended
        again = client.post("/api/accounts/reset", json={"token": token, "password": new})
        assert again.status_code == 400 and again.json()["error"] == "reset-token"
        assert sign_in(client).status_code == 401
        assert sign_in(client, password=new).status_code == 200


def test_a_reset_link_stops_working(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        client.headers.update(HERE)
        sign_up(client)
        token = reset_link(sqlite_url, "Wickham")
        execute(sqlite_url, update(password_resets).values(expires_at=time.time() - 1))
        late = client.post("/api/accounts/reset", json={"token": token, "password": "long enough"})
        assert late.status_code == 400 and late.json()["error"] == "reset-token"
        assert sign_in(client).status_code == 200  # the old password still works


def test_a_reset_for_an_unknown_name_is_an_error_for_the_operator(sqlite_url: str) -> None:
    Storage(sqlite_url).close()
    result = CliRunner().invoke(cli_app, ["accounts", "reset", "Nobody", "--db", sqlite_url])
    assert result.exit_code == 2
    assert "no account is named 'Nobody'" in result.output


# ----------------------------------------------------------------------------- guests
def test_guests_play_as_before_next_to_accounts(client: TestClient) -> None:
    sign_up(client)
    with as_guest(client) as guest:  # no cookie, no Origin header: as before accounts
        made = create(guest, [{"kind": "human", "name": "Guest"}, {"kind": "human"}], you=0)
        claim = guest.post(
            f"/api/games/{made['id']}/seats/1/claim",
            json={"name": "Other", "invite": made["invites"]["1"]},
        )
        tokens = [made["token"], claim.json()["token"]]
        first = state(guest, made["id"])["view"]["pending"]["seats"][0]
        mine = state(guest, made["id"], tokens[first])
        answer = move(guest, made["id"], tokens[first], mine["legal"][0], mine["move"])
        assert answer.status_code == 200
        public = guest.get(f"/api/games/{made['id']}").json()["seats"]
        assert [seat["name"] for seat in public] == ["Guest", "Other"]
    assert client.get("/api/me").json()["games"] == []


# ----------------------------------------------------------------------------- PostgreSQL
def test_the_whole_account_life_on_postgresql(postgres_url: str) -> None:
    """The same queries on PostgreSQL: sign up, a game, throttle, reset, export and delete."""
    with make_client(postgres_url, sign_in_failures=2) as client:
        client.headers.update(HERE)
        me, rival = two_players(client)
        over = finished_game(client, me, rival)
        for _ in range(2):
            assert sign_in(client, "wickham", "guess guess").status_code == 401
        assert sign_in(client).status_code == 429
        token = reset_link(postgres_url, "Wickham")
        new = "a brand new password"
        assert (
            client.post("/api/accounts/reset", json={"token": token, "password": new}).status_code
            == 200
        )
        with as_player(client, rival):
            assert [game["id"] for game in client.get("/api/me").json()["games"]] == [over]
            assert client.get("/api/me/export").json()["account"]["name"] == "Rival"
            answer = client.request("DELETE", "/api/me", json={"password": PASSWORD})
            assert answer.status_code == 200
        names = [seat["name"] for seat in client.get(f"/api/games/{over}").json()["seats"]]
        assert names == ["Wickham", "deleted player"]
        assert [row.name for row in rows(postgres_url, accounts)] == ["Wickham"]


def test_the_sweep_deletes_ended_sessions_and_reset_links_and_old_failures(
    client: TestClient,
) -> None:
    url = client.app.state.settings.db  # type: ignore[attr-defined]
    sign_up(client)
    reset_link(url, "Wickham")
    assert sign_in(client, "Wickham", "guess guess").status_code == 401
    assert sign_in(client).status_code == 200  # a second session, kept
    first = min(row.created_at for row in rows(url, account_sessions))
    ended = update(account_sessions).where(account_sessions.c.created_at == first)
    execute(url, ended.values(expires_at=time.time() - 1))
    execute(url, update(password_resets).values(expires_at=time.time() - 1))
    service = client.app.state.service  # type: ignore[attr-defined]
    client.portal.call(service.sweeper.sweep, time.time() + 1)  # type: ignore[union-attr]
    assert len(rows(url, account_sessions)) == 1 and client.get("/api/me").status_code == 200
    assert rows(url, password_resets) == []
    assert [row.key for row in rows(url, sign_in_failures)] == ["address:testclient"]
    later = time.time() + client.app.state.settings.sign_in_window + 1  # type: ignore[attr-defined]
    client.portal.call(service.sweeper.sweep, later)  # type: ignore[union-attr]
    assert rows(url, sign_in_failures) == []
