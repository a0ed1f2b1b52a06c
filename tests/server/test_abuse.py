"""The server as an attacker sees it (issue 12): retried moves, private games, hostile bodies,
a database that is down, per-client limits, expiry, lobby pages, origins and content types."""

from __future__ import annotations

import os
import stat
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.websockets import WebSocketDisconnect

import candlebox
from candlebox.server import Settings
from candlebox.server.clients import RateLimiter, client_address, same_origin
from tests.server.conftest import all_human, auth, create, make_client, move, state, wait_for
from tests.server.pg import PostgresServer

BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]
SHORT = {"max_turns": 4}  # random bots rarely end a game: cut it short
INTERNALS = ("Traceback", 'File "', ".py", "psycopg", "sqlalchemy", "127.0.0.1", "keyword argument")


def no_internals(text: str) -> None:
    for word in INTERNALS:
        assert word not in text, (word, text)


def to_act(client: Any, game_id: str, tokens: list[str]) -> tuple[int, dict[str, Any]]:
    seat = state(client, game_id)["view"]["pending"]["seats"][0]
    return seat, state(client, game_id, tokens[seat])


# ----------------------------------------------------------------------------- 6: retried moves
def test_a_move_without_expect_is_refused_and_a_retry_is_not_applied_again(client: Any) -> None:
    game_id, tokens = all_human(client, 2, seed=11)
    seat, now = to_act(client, game_id, tokens)
    action = now["legal"][0]
    for _ in range(2):  # what a client retrying a lost answer sends
        refused = move(client, game_id, tokens[seat], action)
        assert refused.status_code == 400 and refused.json()["error"] == "malformed"
        assert "expect" in refused.json()["message"]
    assert state(client, game_id)["move"] == 0
    first = move(client, game_id, tokens[seat], action, 0)
    assert first.status_code == 200 and first.json() == {"move": 0}
    again = move(client, game_id, tokens[seat], action, 0)
    assert again.status_code == 409 and again.json()["error"] == "duplicate"
    assert "already applied as move 0" in again.json()["message"]
    assert state(client, game_id)["move"] == 1
    # over the websocket too
    seat, now = to_act(client, game_id, tokens)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello", "token": tokens[seat]})
        assert ws.receive_json()["type"] == "snapshot"
        ws.send_json({"type": "move", "action": now["legal"][0], "ref": "a"})
        reply = ws.receive_json()
        while reply["type"] == "seats":
            reply = ws.receive_json()
        assert reply["error"] == "malformed" and reply["ref"] == "a"
        for ref in ("b", "c"):
            ws.send_json({"type": "move", "action": now["legal"][0], "expect": 1, "ref": ref})
        replies = []
        while len(replies) < 2:
            frame = ws.receive_json()
            if frame["type"] in ("ack", "error"):
                replies.append(frame)
        assert replies[0] == {"type": "ack", "ref": "b", "move": 1}
        assert replies[1]["error"] == "duplicate" and replies[1]["ref"] == "c"
    assert state(client, game_id)["move"] == 2


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest) -> str:
    if request.param == "sqlite":
        return str(request.getfixturevalue("sqlite_url"))
    return str(request.getfixturevalue("postgres_url"))


def test_three_simultaneous_sends_of_a_move_apply_it_once(db_url: str) -> None:
    """The same request sent three times at once, round after round: applied exactly once each
    round (with its move number) and never at all without one; the database agrees."""
    with make_client(db_url) as client:
        game_id, tokens = all_human(client, 2, seed=5)
        rounds = 0
        for _ in range(15):
            seat, now = to_act(client, game_id, tokens)
            if now["over"]:
                break
            action = now["legal"][-1]
            for expect in (None, now["move"]):
                results: list[Any] = [None] * 3
                barrier = threading.Barrier(3)

                def send(
                    i: int,
                    seat: int = seat,
                    action: str = action,
                    expect: int | None = expect,
                    barrier: threading.Barrier = barrier,
                    results: list[Any] = results,
                ) -> None:
                    barrier.wait()
                    results[i] = move(client, game_id, tokens[seat], action, expect)

                threads = [threading.Thread(target=send, args=(i,)) for i in range(3)]
                for thread in threads:
                    thread.start()
                for thread in threads:
                    thread.join()
                codes = sorted(r.status_code for r in results)
                if expect is None:
                    assert codes == [400, 400, 400], [r.text for r in results]
                else:
                    assert codes == [200, 409, 409], [r.text for r in results]
                    errors = {r.json()["error"] for r in results if r.status_code == 409}
                    assert errors == {"duplicate"}
            rounds += 1
            assert state(client, game_id)["move"] == now["move"] + 1
    with make_client(db_url) as client:  # the record: one move per round, and it replays
        assert state(client, game_id)["move"] == rounds


# ----------------------------------------------------------------------------- 7: private games
def test_private_games_stay_unlisted_when_they_finish(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        private = create(client, BOTS, seed=3, public=False, options=SHORT)["id"]
        public = create(client, BOTS, seed=4, options=SHORT)["id"]
        for game_id in (private, public):
            wait_for(lambda game_id=game_id: state(client, game_id)["over"])

        def finished() -> list[str]:
            pages = client.get("/api/games?list=finished&limit=50").json()["games"]
            return [g["id"] for g in pages]

        # a game's result is stored just after its last frame says it is over: the lobby's
        # finished list follows once it is (seen late beside a CPU burner)
        wait_for(lambda: public in finished())
        assert finished() == [public]
        lobby = client.get("/api/games").json()
        listed = {g["id"] for key in ("open", "playing", "finished") for g in lobby[key]}
        assert public in listed and private not in listed
        # whoever has the link (the game's address) may still replay it
        assert client.get(f"/api/games/{private}/replay?at=0").status_code == 200
    with make_client(sqlite_url) as client:  # and from the database after a restart
        assert client.get(f"/api/games/{public}").status_code == 200
        lobby = client.get("/api/games").json()
        assert [g["id"] for g in lobby["finished"]] == [public]


# ----------------------------------------------------------------------------- 8: never internals
def test_deeply_nested_json_is_a_clear_400_and_an_error_frame(client: Any) -> None:
    deep = b"[" * 100_000 + b"]" * 100_000
    as_json = {"Content-Type": "application/json"}
    for path in ("/api/games",):
        response = client.post(path, content=b'{"game": ' + deep + b"}", headers=as_json)
        assert response.status_code in (400, 413), response.text
    shallow = b'{"game": ' + b"[" * 30_000 + b"]" * 30_000 + b"}"
    response = client.post("/api/games", content=shallow, headers=as_json)
    assert response.status_code == 400 and response.json()["error"] == "malformed"
    no_internals(response.text)
    game_id, tokens = all_human(client, 2, seed=2)
    with client.websocket_connect(f"/ws/games/{game_id}") as ws:
        ws.send_json({"type": "hello", "token": tokens[0]})
        ws.receive_json()
        ws.send_text("[" * 2000 + "]" * 2000)
        reply = ws.receive_json()
        while reply["type"] == "seats":
            reply = ws.receive_json()
        assert reply["type"] == "error" and reply["error"] == "malformed"
        ws.send_json({"type": "ping", "ref": "still"})
        assert ws.receive_json()["ref"] == "still"  # the connection lives on


def test_an_unexpected_failure_is_a_generic_500(client: Any, monkeypatch: Any) -> None:
    service = client.app.state.service

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("/home/secret/candlebox.py line 3: internals")

    monkeypatch.setattr(service.pages, "first_pages", broken)
    response = client.get("/api/games")
    assert response.status_code == 500 and response.json()["error"] == "internal"
    assert "secret" not in response.text and "internals" not in response.text
    # FastAPI's own validation and routing errors: our shape, our words
    bad = client.post("/api/games/x/seats/abc/claim", json={})
    assert bad.status_code == 400 and set(bad.json()) == {"error", "message"}
    assert "int_parsing" not in bad.text and "pydantic" not in bad.text
    missing = client.get("/api/nothing")
    assert missing.status_code == 404 and missing.json()["error"] == "not-found"


def test_postgresql_down_is_a_generic_503(postgres: PostgresServer, postgres_url: str) -> None:
    psycopg = pytest.importorskip("psycopg")  # installed with the PostgreSQL extra only
    with make_client(postgres_url) as client:
        game_id, tokens = all_human(client, 2, seed=7)
        seat, now = to_act(client, game_id, tokens)
        name = postgres_url.rsplit("/", 1)[1]
        with psycopg.connect(
            f"host=127.0.0.1 port={postgres.port} user=candlebox dbname=postgres", autocommit=True
        ) as conn:
            conn.execute(f'DROP DATABASE "{name}" WITH (FORCE)')
        refused = move(client, game_id, tokens[seat], now["legal"][0], now["move"])
        assert refused.status_code == 503 and refused.json()["error"] == "unavailable"
        no_internals(refused.text)
        assert str(postgres.port) not in refused.text
        lobby = client.get("/api/games")
        assert lobby.status_code == 503 and lobby.json()["error"] == "unavailable"
        no_internals(lobby.text)
        created = client.post("/api/games", json={"game": "candle-quest", "seats": [{}, {}]})
        assert created.status_code == 503
        no_internals(created.text)
        with client.websocket_connect("/ws/games/not-cached-id") as ws:
            ws.send_json({"type": "hello"})
            reply = ws.receive_json()
            assert reply["type"] == "error" and reply["error"] == "unavailable"
            no_internals(str(reply))
        with client.websocket_connect(f"/ws/games/{game_id}") as ws:
            ws.send_json({"type": "hello", "token": tokens[seat]})
            ws.receive_json()
            ws.send_json({"type": "move", "action": now["legal"][0], "expect": 0, "ref": 1})
            reply = ws.receive_json()
            while reply["type"] != "error":
                reply = ws.receive_json()
            assert reply["error"] == "unavailable"
            no_internals(str(reply))


# ----------------------------------------------------------------------------- 9: limits
def stopped_clock(client: Any) -> None:
    """The client's rate limiter with its clock stopped: no token comes back between requests, so
    the counts below hold however slowly a loaded machine makes them (the refill is tested alone,
    test_client_address_and_origin_rules)."""
    limiter = client.app.state.rate
    now = limiter.clock()
    limiter.clock = lambda: now


def test_requests_are_rate_limited_per_client(sqlite_url: str) -> None:
    with make_client(sqlite_url, requests_per_second=0.5, request_burst=3) as client:
        stopped_clock(client)
        codes = [client.get("/api/meta").status_code for _ in range(4)]
        assert codes == [200, 200, 200, 429]
        limited = client.get("/api/meta")
        assert limited.json()["error"] == "slow-down"
        assert int(limited.headers["retry-after"]) >= 1
        # X-Forwarded-For is ignored unless the peer is a configured proxy: still limited
        spoofed = client.get("/api/meta", headers={"X-Forwarded-For": "203.0.113.9"})
        assert spoofed.status_code == 429
        with (  # opening a websocket counts too: closed before it is accepted
            pytest.raises(WebSocketDisconnect) as closed,
            client.websocket_connect("/ws/games/any") as ws,
        ):
            ws.receive_json()
        assert closed.value.code == 4429
    # a page's static files count a tenth each: a page load leaves room for the game's requests
    with make_client(sqlite_url, requests_per_second=0.01, request_burst=2) as client:
        stopped_clock(client)
        assert {client.get("/static/css/base.css").status_code for _ in range(9)} == {200}
        codes = [client.get("/api/meta").status_code for _ in range(2)]
        assert codes == [200, 429]  # 2 - 0.9 - 1 leaves a tenth: not a whole request
        assert client.get("/static/css/base.css").status_code == 200
        assert client.get("/static/css/base.css").status_code == 429
    proxied = {"trusted_proxies": ("testclient",)}
    with make_client(sqlite_url, requests_per_second=0.5, request_burst=2, **proxied) as client:
        for address in ("203.0.113.1", "203.0.113.2"):
            headers = {"X-Forwarded-For": f"198.51.100.7, {address}"}
            codes = [client.get("/api/meta", headers=headers).status_code for _ in range(3)]
            assert codes == [200, 200, 429], address


def test_client_address_and_origin_rules() -> None:
    plain = Settings(db="sqlite://")
    proxy = Settings(db="sqlite://", trusted_proxies=("10.0.0.1",))
    forwarded = {"x-forwarded-for": "1.1.1.1, 2.2.2.2"}
    assert client_address("9.9.9.9", forwarded, plain) == "9.9.9.9"
    assert client_address("9.9.9.9", forwarded, proxy) == "9.9.9.9"
    assert client_address("10.0.0.1", forwarded, proxy) == "2.2.2.2"  # the hop our proxy added
    assert client_address("10.0.0.1", {}, proxy) == "10.0.0.1"
    assert same_origin(None, "a.example", plain)
    assert same_origin("https://a.example", "a.example", plain)
    assert not same_origin("https://evil.example", "a.example", plain)
    assert not same_origin("null", "a.example", plain)
    allowed = Settings(db="sqlite://", allowed_origins=("https://b.example",))
    assert same_origin("https://b.example", "a.example", allowed)
    limiter = RateLimiter(rate=1000, burst=1)
    assert limiter.wait("x") == 0 and 0 < limiter.wait("x") <= 0.001 and limiter.wait("y") == 0


def test_spectators_and_open_games_per_client_are_capped(sqlite_url: str) -> None:
    with make_client(sqlite_url, max_spectators=2, max_open_games=2) as client:
        game_id, tokens = all_human(client, 2)
        with (
            client.websocket_connect(f"/ws/games/{game_id}") as one,
            client.websocket_connect(f"/ws/games/{game_id}") as two,
            client.websocket_connect(f"/ws/games/{game_id}") as three,
        ):
            for ws in (one, two):
                ws.send_json({"type": "hello"})
                assert ws.receive_json()["type"] == "snapshot"
            three.send_json({"type": "hello"})
            assert three.receive_json()["error"] == "full"
            with client.websocket_connect(f"/ws/games/{game_id}") as player:  # seats: not capped
                player.send_json({"type": "hello", "token": tokens[0]})
                assert player.receive_json()["type"] == "snapshot"
        create(client, [{}, {}])
        refused = client.post("/api/games", json={"game": "candle-quest", "seats": [{}, {}]})
        assert refused.status_code == 429 and refused.json()["error"] == "too-many-games"
        # the body names the limit, the count and what is counted (issue 36: a player who saw two
        # games of their own was told they had too many)
        body = refused.json()
        assert body["limit"] == 2 and body["count"] == 2, body
        assert "network address" in body["message"] and "at most 2" in body["message"], body
        assert "finish or resign" in body["message"], body


def test_abandoned_games_expire_and_old_ones_are_deleted(sqlite_url: str) -> None:
    """The sweep is run by hand at chosen moments (its own timer is off): what is quiet is a fact of
    the games' last moves, never of how fast this machine ran the test."""
    settings = {"expire_after": 60.0, "keep_finished": 3600.0, "sweep_every": 3600.0}
    with make_client(sqlite_url, **settings) as client:
        service = client.app.state.service  # type: ignore[attr-defined]

        def sweep(now: float) -> tuple[list[str], list[str]]:
            done: tuple[list[str], list[str]] = client.portal.call(service.sweeper.sweep, now)  # type: ignore[union-attr]
            return done

        finished = create(client, BOTS, seed=3, options=SHORT)["id"]
        wait_for(lambda: state(client, finished)["over"])
        # kept for replay a while (then deleted, below)
        assert client.get(f"/api/games/{finished}/replay?at=0").status_code == 200
        quiet, _ = all_human(client, 2, seed=1)
        busy, tokens = all_human(client, 2, seed=2)
        with client.websocket_connect(f"/ws/games/{quiet}") as ws:
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["type"] == "snapshot"
            for _ in range(6):  # the busy game moves; the quiet one does not
                seat, now = to_act(client, busy, tokens)
                assert move(client, busy, tokens[seat], now["legal"][0], now["move"]).is_success
            games = service.registry.games
            quiet_since, busy_since = games[quiet].active_at, games[busy].active_at
            assert busy_since > quiet_since
            # the moment the quiet game has been quiet for expire_after: the busy one has not
            closed, deleted = sweep(quiet_since + 60.0)
            assert closed == [quiet] and deleted == []  # the finished game is kept for replay
            gone = client.get(f"/api/games/{quiet}/state")
            assert gone.status_code == 410 and gone.json()["error"] == "closed"
            frame = ws.receive_json()  # sent before the game left the server: no wait here
            while frame["type"] != "error":
                frame = ws.receive_json()
            assert frame["error"] == "closed"
        lobby = client.get("/api/games").json()
        listed = {g["id"] for key in ("open", "playing", "finished") for g in lobby[key]}
        assert quiet not in listed and busy in listed
        # keep_finished later the ended games are deleted (and by then the busy game is quiet too)
        closed, deleted = sweep(time.time() + 3601.0)
        assert closed == [busy] and sorted(deleted) == sorted([finished, quiet, busy])
        assert client.get(f"/api/games/{finished}").status_code == 404
        assert client.get(f"/api/games/{quiet}").status_code == 404


def test_the_lobby_comes_in_pages(sqlite_url: str) -> None:
    with make_client(sqlite_url, lobby_page=2, lobby_max_page=3) as client:
        made = [create(client, [{}, {}], you=0)["id"] for _ in range(5)]
        first = client.get("/api/games").json()
        assert len(first["open"]) == 2 and first["next"]["open"]
        assert first["next"]["finished"] is None
        seen, cursor = [g["id"] for g in first["open"]], first["next"]["open"]
        while cursor:
            page = client.get("/api/games", params={"list": "open", "cursor": cursor}).json()
            seen += [g["id"] for g in page["games"]]
            cursor = page["next"]
        assert seen == made[::-1]  # newest first, each once
        big = client.get("/api/games?list=open&limit=1000").json()
        assert len(big["games"]) == 3
        for query in ("list=open&cursor=nonsense", "list=secret", "limit=0", "cursor=1.0~x"):
            bad = client.get(f"/api/games?{query}")
            assert bad.status_code == 400, query


# ----------------------------------------------------------------------------- 10: smaller
def test_api_docs_are_off_unless_asked(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        for path in ("/openapi.json", "/docs", "/redoc"):
            assert client.get(path).status_code == 404, path
    with make_client(sqlite_url, api_docs=True) as client:
        assert client.get("/openapi.json").status_code == 200


def test_bodies_are_strict_and_errors_plain(client: Any) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}]
    cases = [
        ({"public": "false"}, "bad-public", "public"),
        ({"you": "0"}, "bad-seat", "you"),
        ({"bot_delay": "1"}, "bad-delay", "bot_delay"),
        ({"surprise": 1}, "malformed", "surprise"),
        ({"options": {"max_turns": 10**30}}, "bad-settings", "max_turns"),
        ({"options": {"seed": 3}}, "bad-settings", "seed"),
        ({"options": {"players": 3}}, "bad-settings", "players"),
    ]
    for extra, code, field in cases:
        response = client.post("/api/games", json={"game": "candle-quest", "seats": seats, **extra})
        assert response.status_code == 400, (extra, response.text)
        assert response.json()["error"] == code and field in response.json()["message"], extra
        no_internals(response.text)
    assert client.get("/api/games").json()["open"] == []
    game_id, _ = all_human(client, 2)
    claim = client.post(f"/api/games/{game_id}/seats/1/bot", json={"strength": [1]})
    assert claim.status_code == 400 and "strength" in claim.json()["message"]
    with pytest.raises(ValueError, match="at most"):
        candlebox.new_game("candle-quest", 2, max_turns=10**30)


def test_state_changing_requests_need_json_and_this_origin(sqlite_url: str) -> None:
    body = b'{"game": "candle-quest", "seats": [{}, {}]}'
    with make_client(sqlite_url, allowed_origins=("https://friend.example",)) as client:
        plain = client.post("/api/games", content=body, headers={"Content-Type": "text/plain"})
        assert plain.status_code == 415 and plain.json()["error"] == "media-type"
        as_json = {"Content-Type": "application/json"}
        other = client.post(
            "/api/games", content=body, headers={**as_json, "Origin": "https://evil.example"}
        )
        assert other.status_code == 403 and other.json()["error"] == "cross-origin"
        for origin in ("http://testserver", "https://friend.example"):
            ok = client.post("/api/games", content=body, headers={**as_json, "Origin": origin})
            assert ok.status_code == 201, (origin, ok.text)
        assert len(client.get("/api/games").json()["open"]) == 2  # the refused ones made nothing
        created = ok.json()
        take = client.post(
            f"/api/games/{created['id']}/seats/0/bot",
            headers={**auth("t" * 43), "Origin": "https://evil.example"},
        )
        assert take.status_code == 403 and take.json()["error"] == "cross-origin"


def test_the_sqlite_file_is_private(tmp_path: Path) -> None:
    path = tmp_path / "data" / "games.sqlite3"
    old = os.umask(0o022)
    try:
        with make_client(f"sqlite:///{path}") as client:
            all_human(client, 2)
            files = [path, Path(f"{path}-wal"), Path(f"{path}-shm")]
            for file in files:
                assert file.exists(), file
                assert stat.S_IMODE(file.stat().st_mode) == 0o600, file
    finally:
        os.umask(old)


def test_settings_come_from_candlebox_variables() -> None:
    settings = Settings.from_env(
        {
            "CANDLEBOX_MAX_SPECTATORS": "3",
            "CANDLEBOX_TRUSTED_PROXIES": "10.0.0.1, 10.0.0.2",
            "CANDLEBOX_API_DOCS": "yes",
            "CANDLEBOX_EXPIRE_AFTER": "90.5",
        }
    )
    assert settings.max_spectators == 3 and settings.api_docs is True
    assert settings.trusted_proxies == ("10.0.0.1", "10.0.0.2")
    assert settings.expire_after == 90.5
    with pytest.raises(ValueError, match="CANDLEBOX_MAX_SPECTATORS"):
        Settings.from_env({"CANDLEBOX_MAX_SPECTATORS": "many"})
