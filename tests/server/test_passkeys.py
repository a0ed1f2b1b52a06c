"""Passkeys through the API (candlebox/server/passkeys.py, routes/passkeys.py; docs/server.md,
"Passkeys"), with a software authenticator's real answers (tests/server/authenticator.py): register,
list, remove, sign in with the same cookie as a password; challenges used once, bound to their flow
and session, ending; the signature counter; one answer for every refusal, throttled; the relying
party from the public URL or the request, and only over HTTPS or on localhost."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import update

from tests.server.authenticator import Authenticator
from tests.server.conftest import make_client
from tests.server.test_accounts import PASSWORD, as_guest, cookie_header, execute, rows, sign_up

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

from candlebox.server.storage import accounts, passkey_challenges, passkeys

LOCAL = "http://localhost"  # a secure context without HTTPS: where browsers offer passkeys


def local_client(url: str, **settings: Any) -> TestClient:
    client = make_client(url, **settings)
    client.base_url = LOCAL  # type: ignore[assignment]
    client.headers.update({"Origin": LOCAL})
    return client


@pytest.fixture
def client(sqlite_url: str) -> Iterator[TestClient]:
    with local_client(sqlite_url) as test_client:
        yield test_client


def db_url(client: TestClient) -> str:
    return str(client.app.state.settings.db)  # type: ignore[attr-defined]


def register(client: TestClient, device: Authenticator, name: str | None = None) -> Any:
    begun = client.post("/api/passkeys/register/options", json={})
    assert begun.status_code == 200, begun.text
    answer = device.create(begun.json()["options"])
    body: dict[str, Any] = {"flow": begun.json()["flow"], "credential": answer}
    if name is not None:
        body["name"] = name
    return client.post("/api/passkeys", json=body)


def begin_sign_in(client: TestClient) -> dict[str, Any]:
    begun = client.post("/api/passkeys/sign-in/options", json={})
    assert begun.status_code == 200, begun.text
    found: dict[str, Any] = begun.json()
    return found


def sign_in(client: TestClient, device: Authenticator, **knobs: Any) -> Any:
    begun = begin_sign_in(client)
    answer = device.get(begun["options"], **knobs)
    return client.post("/api/passkeys/sign-in", json={"flow": begun["flow"], "credential": answer})


def signed_up_with_a_passkey(client: TestClient, name: str = "Wickham") -> Authenticator:
    assert sign_up(client, name).status_code == 201
    device = Authenticator()
    made = register(client, device, "My phone")
    assert made.status_code == 201, made.text
    client.cookies.clear()
    return device


# ----------------------------------------------------------------------------- the round trip
def test_a_registered_passkey_signs_in_with_the_password_sign_ins_cookie(
    client: TestClient,
) -> None:
    assert sign_up(client).status_code == 201
    begun = client.post("/api/passkeys/register/options", json={})
    options = begun.json()["options"]
    assert options["rp"] == {"id": "localhost", "name": "Candlebox"}
    assert options["user"]["name"] == "Wickham"
    assert options["authenticatorSelection"]["residentKey"] == "required"  # discoverable
    device = Authenticator()
    answer = device.create(options)
    made = client.post("/api/passkeys", json={"flow": begun.json()["flow"], "credential": answer})
    assert made.status_code == 201, made.text
    assert made.json()["name"] == "Passkey 1" and made.json()["used_at"] is None
    listed = client.get("/api/passkeys").json()["passkeys"]
    assert [key["id"] for key in listed] == [made.json()["id"]]

    client.cookies.clear()
    assert client.get("/api/me").status_code == 401
    begun = begin_sign_in(client)
    assert begun["options"]["rpId"] == "localhost"
    assert begun["options"].get("allowCredentials", []) == []  # no account named: username-less
    answer = device.get(begun["options"])
    signed = client.post(
        "/api/passkeys/sign-in", json={"flow": begun["flow"], "credential": answer}
    )
    assert signed.status_code == 200, signed.text
    assert signed.json()["name"] == "Wickham"
    header = cookie_header(signed)
    assert header.startswith("candlebox_session=") and "HttpOnly" in header
    assert "SameSite=lax" in header and "Max-Age=2592000" in header
    assert client.get("/api/me").json()["name"] == "Wickham"
    used = client.get("/api/passkeys").json()["passkeys"][0]
    assert used["used_at"] is not None
    stored = rows(db_url(client), passkeys)[0]
    assert stored.sign_count == 1  # the authenticator's counter, kept for the next check


def test_only_a_signed_in_player_registers_lists_or_removes(client: TestClient) -> None:
    for method, path in [
        ("POST", "/api/passkeys/register/options"),
        ("POST", "/api/passkeys"),
        ("GET", "/api/passkeys"),
        ("DELETE", "/api/passkeys/1"),
    ]:
        answer = client.request(method, path, json={} if method == "POST" else None)
        assert answer.status_code == 401, (path, answer.text)
        assert answer.json()["error"] == "signed-out"


def test_a_passkey_is_named_and_removed_by_its_owner_only(client: TestClient) -> None:
    device = signed_up_with_a_passkey(client)
    assert sign_in(client, device).status_code == 200
    mine = client.get("/api/passkeys").json()["passkeys"][0]
    assert mine["name"] == "My phone"
    with as_guest(client):
        client.headers.update({"Origin": LOCAL})
        assert sign_up(client, "Rival").status_code == 201
        refused = client.delete(f"/api/passkeys/{mine['id']}")
        assert refused.status_code == 404 and refused.json()["error"] == "not-found"
        assert client.delete("/api/passkeys/abc").json()["error"] == "malformed"
        assert client.delete(f"/api/passkeys/{1 << 40}").status_code == 400
    assert client.delete(f"/api/passkeys/{mine['id']}").status_code == 200
    assert client.get("/api/passkeys").json()["passkeys"] == []
    client.cookies.clear()
    refused = sign_in(client, device)
    assert refused.status_code == 401 and refused.json()["error"] == "passkey"


# ----------------------------------------------------------------------------- challenges
def test_a_challenge_answers_once(client: TestClient) -> None:
    device = signed_up_with_a_passkey(client)
    begun = begin_sign_in(client)
    answer = device.get(begun["options"])
    body = {"flow": begun["flow"], "credential": answer}
    assert client.post("/api/passkeys/sign-in", json=body).status_code == 200
    client.cookies.clear()
    again = client.post("/api/passkeys/sign-in", json=body)  # the same answer replayed
    assert again.status_code == 401 and again.json()["error"] == "passkey"
    assert client.get("/api/me").status_code == 401
    # an old answer under a new flow: its challenge is not the new one
    fresh = begin_sign_in(client)
    moved = client.post("/api/passkeys/sign-in", json={"flow": fresh["flow"], "credential": answer})
    assert moved.status_code == 401


def test_a_challenge_ends(client: TestClient) -> None:
    device = signed_up_with_a_passkey(client)
    begun = begin_sign_in(client)
    answer = device.get(begun["options"])
    execute(db_url(client), update(passkey_challenges).values(expires_at=time.time() - 1))
    late = client.post("/api/passkeys/sign-in", json={"flow": begun["flow"], "credential": answer})
    assert late.status_code == 401 and late.json()["error"] == "passkey"
    assert sign_in(client, device).status_code == 200  # a fresh one works


def test_a_registration_belongs_to_the_session_that_asked(client: TestClient) -> None:
    assert sign_up(client).status_code == 201
    begun = client.post("/api/passkeys/register/options", json={}).json()
    answer = Authenticator().create(begun["options"])
    with as_guest(client):
        client.headers.update({"Origin": LOCAL})
        assert sign_up(client, "Rival").status_code == 201
        stolen = client.post("/api/passkeys", json={"flow": begun["flow"], "credential": answer})
        assert stolen.status_code == 400 and stolen.json()["error"] == "passkey-flow"
    # and the flow was used up by the attempt: the owner starts again
    again = client.post("/api/passkeys", json={"flow": begun["flow"], "credential": answer})
    assert again.json()["error"] == "passkey-flow"
    assert rows(db_url(client), passkeys) == []


def test_a_sign_in_flow_cannot_register(client: TestClient) -> None:
    assert sign_up(client).status_code == 201
    begun = begin_sign_in(client)
    answer = Authenticator().create({**begun["options"], "user": {"id": "AAAA"}})
    made = client.post("/api/passkeys", json={"flow": begun["flow"], "credential": answer})
    assert made.status_code == 400 and made.json()["error"] == "passkey-flow"


# ----------------------------------------------------------------------------- what is checked
def test_the_signature_counter_must_move_on(client: TestClient) -> None:
    device = signed_up_with_a_passkey(client)
    assert sign_in(client, device).status_code == 200
    copy = Authenticator(key=device.key, credential_id=device.credential_id)
    copy.user_handle, copy.sign_count = device.user_handle, device.sign_count - 1
    client.cookies.clear()
    cloned = sign_in(client, copy)  # a copied key whose counter lags: its count was seen
    assert cloned.status_code == 401
    assert sign_in(client, device).status_code == 200  # the real one moved on


def test_an_authenticator_that_counts_nothing_signs_in_every_time(client: TestClient) -> None:
    assert sign_up(client).status_code == 201
    device = Authenticator(counts=False)
    assert register(client, device).status_code == 201
    client.cookies.clear()
    for _ in range(2):
        assert sign_in(client, device).status_code == 200


@pytest.mark.parametrize(
    "knobs",
    [
        {"origin": "http://evil.example"},
        {"rp_id": "evil.example"},
        {"key": ec.generate_private_key(ec.SECP256R1())},
    ],
    ids=["another-origin", "another-site", "another-key"],
)
def test_every_refused_sign_in_gets_one_answer(client: TestClient, knobs: dict[str, Any]) -> None:
    device = signed_up_with_a_passkey(client)
    refused = sign_in(client, device, **knobs)
    unknown = sign_in(client, Authenticator(user_handle=device.user_handle))  # never registered
    assert refused.status_code == unknown.status_code == 401
    assert refused.json() == unknown.json()
    assert refused.json()["error"] == "passkey"
    assert "set-cookie" not in refused.headers
    assert client.get("/api/me").status_code == 401


def test_an_answer_naming_another_account_is_refused(client: TestClient) -> None:
    device = signed_up_with_a_passkey(client)
    device.user_handle = b"someone else's handle"
    assert sign_in(client, device).status_code == 401


@pytest.mark.parametrize(
    ("knobs", "code"),
    [
        ({"origin": "http://evil.example"}, "passkey-invalid"),
        ({"rp_id": "evil"}, "passkey-invalid"),
    ],
)
def test_a_registration_for_another_site_is_refused(
    client: TestClient, knobs: dict[str, Any], code: str
) -> None:
    assert sign_up(client).status_code == 201
    begun = client.post("/api/passkeys/register/options", json={}).json()
    answer = Authenticator().create(begun["options"], **knobs)
    made = client.post("/api/passkeys", json={"flow": begun["flow"], "credential": answer})
    assert made.status_code == 400 and made.json()["error"] == code
    assert rows(db_url(client), passkeys) == []


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"flow": "x" * 43, "credential": "not an object"}, "malformed"),
        ({"flow": "x" * 43}, "malformed"),
        ({"flow": "x" * 43, "credential": {}, "extra": 1}, "malformed"),
        ({"flow": "x" * 300, "credential": {}}, "malformed"),
    ],
)
def test_hostile_bodies_are_named(client: TestClient, body: dict[str, Any], code: str) -> None:
    assert sign_up(client).status_code == 201
    for path in ("/api/passkeys", "/api/passkeys/sign-in"):
        answer = client.post(path, json=body)
        assert answer.status_code == 400, answer.text
        assert answer.json()["error"] == code


def test_a_garbled_answer_is_refused_without_internals(client: TestClient) -> None:
    assert sign_up(client).status_code == 201
    begun = client.post("/api/passkeys/register/options", json={}).json()
    answer = Authenticator().create(begun["options"])
    answer["response"]["attestationObject"] = "AAAA"
    made = client.post("/api/passkeys", json={"flow": begun["flow"], "credential": answer})
    assert made.status_code == 400
    assert made.json() == {
        "error": "passkey-invalid",
        "message": "the new passkey could not be verified; try again",
    }
    begun = begin_sign_in(client)
    garbage = {"id": "AAAA", "response": {"userHandle": 5}, "type": 3}
    signed = client.post(
        "/api/passkeys/sign-in", json={"flow": begun["flow"], "credential": garbage}
    )
    assert signed.status_code == 401 and signed.json()["error"] == "passkey"


def test_one_authenticator_is_registered_once(client: TestClient) -> None:
    assert sign_up(client).status_code == 201
    device = Authenticator()
    assert register(client, device).status_code == 201
    begun = client.post("/api/passkeys/register/options", json={}).json()
    # the browser is told which passkeys the account holds (it would refuse to make another)
    excluded = [item["id"] for item in begun["options"]["excludeCredentials"]]
    assert excluded == [rows(db_url(client), passkeys)[0].credential_id]
    twice = client.post(
        "/api/passkeys", json={"flow": begun["flow"], "credential": device.create(begun["options"])}
    )
    assert twice.status_code == 409 and twice.json()["error"] == "passkey-known"


def test_an_account_holds_a_limited_number_of_passkeys(sqlite_url: str) -> None:
    with local_client(sqlite_url, max_passkeys=1) as client:
        assert sign_up(client).status_code == 201
        assert register(client, Authenticator()).status_code == 201
        refused = client.post("/api/passkeys/register/options", json={})
        assert refused.status_code == 409 and refused.json()["error"] == "passkey-limit"


# ----------------------------------------------------------------------------- limits
def test_failed_passkey_sign_ins_are_throttled_per_client_address(sqlite_url: str) -> None:
    with local_client(sqlite_url, sign_in_address_failures=2) as client:
        signed_up_with_a_passkey(client)
        stranger = Authenticator()
        for _ in range(2):
            assert sign_in(client, stranger).status_code == 401
        refused = client.post("/api/passkeys/sign-in/options", json={})
        assert refused.status_code == 429 and int(refused.headers["Retry-After"]) >= 1
        # and a password sign-in from there too: the failures count together
        password = client.post("/api/session", json={"name": "Wickham", "password": PASSWORD})
        assert password.status_code == 429


def test_open_sign_in_ceremonies_are_capped_per_client_address(sqlite_url: str) -> None:
    with local_client(sqlite_url, max_passkey_flows=2) as client:
        for _ in range(2):
            begin_sign_in(client)
        refused = client.post("/api/passkeys/sign-in/options", json={})
        assert refused.status_code == 429
        assert 1 <= int(refused.headers["Retry-After"]) <= 300
        assert len(rows(db_url(client), passkey_challenges)) == 2


def test_a_passkey_request_from_another_site_is_refused(client: TestClient) -> None:
    assert sign_up(client).status_code == 201
    answer = client.post(
        "/api/passkeys/register/options", json={}, headers={"Origin": "http://evil.example"}
    )
    assert answer.status_code == 403 and answer.json()["error"] == "cross-origin"


# ----------------------------------------------------------------------------- where they work
def test_passkeys_need_https_or_localhost(sqlite_url: str) -> None:
    with make_client(sqlite_url) as plain:  # http://testserver: no browser offers passkeys here
        plain.headers.update({"Origin": "http://testserver"})
        refused = plain.post("/api/passkeys/sign-in/options", json={})
        assert refused.status_code == 403 and refused.json()["error"] == "passkeys-need-https"
        assert "HTTPS" in refused.json()["message"]
        assert sign_up(plain).status_code == 201
        refused = plain.post("/api/passkeys/register/options", json={})
        assert refused.json()["error"] == "passkeys-need-https"
    with make_client(sqlite_url) as by_address:
        by_address.base_url = "https://127.0.0.1"  # type: ignore[assignment]
        refused = by_address.post("/api/passkeys/sign-in/options", json={})
        assert refused.json()["error"] == "passkeys-need-a-name"


def test_behind_a_trusted_https_proxy_the_site_is_the_requests_host(sqlite_url: str) -> None:
    https = {"X-Forwarded-Proto": "https", "Origin": "https://testserver"}
    with make_client(sqlite_url, trusted_proxies=("testclient",)) as behind:
        begun = behind.post("/api/passkeys/sign-in/options", json={}, headers=https)
        assert begun.status_code == 200 and begun.json()["options"]["rpId"] == "testserver"


def test_the_public_url_names_the_site(sqlite_url: str) -> None:
    public = "https://candles.example.org"
    with make_client(sqlite_url, public_url=public) as client:
        client.headers.update({"Origin": "http://testserver"})
        assert sign_up(client).status_code == 201
        begun = client.post("/api/passkeys/register/options", json={}).json()
        assert begun["options"]["rp"]["id"] == "candles.example.org"
        device = Authenticator(origin=public, rp_id="candles.example.org")
        answer = device.create(begun["options"])
        made = client.post("/api/passkeys", json={"flow": begun["flow"], "credential": answer})
        assert made.status_code == 201, made.text
        client.cookies.clear()
        assert sign_in(client, device).status_code == 200
        local = Authenticator(credential_id=device.credential_id, key=device.key)
        local.user_handle, local.sign_count = device.user_handle, device.sign_count
        client.cookies.clear()
        assert sign_in(client, local).status_code == 401  # answered for localhost, not the site


# ----------------------------------------------------------------------------- the account's data
def test_deleting_the_account_deletes_its_passkeys_and_export_lists_them(
    client: TestClient,
) -> None:
    device = signed_up_with_a_passkey(client)
    assert sign_in(client, device).status_code == 200
    exported = client.get("/api/me/export").json()
    assert [key["name"] for key in exported["passkeys"]] == ["My phone"]
    assert "public_key" not in exported["passkeys"][0]
    begin_sign_in(client)
    client.post("/api/passkeys/register/options", json={})
    assert client.request("DELETE", "/api/me", json={"password": PASSWORD}).status_code == 200
    assert rows(db_url(client), passkeys) == []
    assert all(row.account_id is None for row in rows(db_url(client), passkey_challenges))
    assert rows(db_url(client), accounts) == []
    assert sign_in(client, device).status_code == 401


def test_passkeys_on_postgresql(postgres_url: str) -> None:
    """The same queries on PostgreSQL: register, sign in, the counter, remove."""
    with local_client(postgres_url) as client:
        device = signed_up_with_a_passkey(client)
        assert sign_in(client, device).status_code == 200
        copy = Authenticator(key=device.key, credential_id=device.credential_id)
        copy.user_handle = device.user_handle
        client.cookies.clear()
        assert sign_in(client, copy).status_code == 401  # its counter is behind
        assert sign_in(client, device).status_code == 200
        key = client.get("/api/passkeys").json()["passkeys"][0]
        assert client.delete(f"/api/passkeys/{key['id']}").status_code == 200
        assert rows(postgres_url, passkeys) == []


def test_a_database_at_the_accounts_revision_keeps_its_accounts(sqlite_url: str) -> None:
    """A database as today's main leaves it (revision 0002, an account signed up) upgraded by this
    code: the account signs in with its password, and adds a passkey."""
    from alembic import command
    from argon2 import PasswordHasher

    from candlebox.server import migrating
    from candlebox.server.storage import make_engine

    engine = make_engine(sqlite_url)
    with engine.begin() as conn:
        command.upgrade(migrating.config(conn), "0002")
        conn.execute(
            accounts.insert().values(
                name="Elder",
                name_key="elder",
                password_hash=PasswordHasher().hash(PASSWORD),
                email="elder@example.org",
                created_at=time.time() - 86400,
            )
        )
    engine.dispose()
    with local_client(sqlite_url) as client:
        signed = client.post("/api/session", json={"name": "elder", "password": PASSWORD})
        assert signed.status_code == 200, signed.text
        me = client.get("/api/me").json()
        assert (me["name"], me["email"], me["email_verified"]) == (
            "Elder",
            "elder@example.org",
            False,
        )
        assert register(client, Authenticator()).status_code == 201
