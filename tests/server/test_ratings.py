"""Records and ratings (candlebox/server/ratings.py, routes/players.py; docs/server.md, "Ratings"):
a rated game played to its end moves both players' ratings once, by OpenSkill's own numbers; a
resignation and a seat lost on time are losses; rated tables refuse guests, bots, practice and
hints; a profile never lists a private game; the leaderboard's pages are bounded and a hostile page
number is a 400 naming the field."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select

import candlebox
from candlebox.server import Settings, bodies
from candlebox.server import ratings as ratinglib
from candlebox.server.accounts import Accounts
from candlebox.server.service import GameService
from candlebox.server.storage import Storage, accounts, ratings
from tests.server.conftest import auth, make_client, move, run_async, state
from tests.server.seeding import RatedPlayer, seed_ratings
from tests.server.test_accounts import HERE, as_guest, as_player, signed_up

SHORT = {"max_turns": 3}  # a game played to its end in a few moves
GAME = "sixteen-candies"


@pytest.fixture
def client(sqlite_url: str) -> Iterator[Any]:
    with make_client(sqlite_url) as test_client:
        test_client.headers.update(HERE)
        yield test_client


def players(client: Any, *names: str) -> list[str]:
    """The accounts' session tokens (the client left signed out)."""
    return [signed_up(client, name) for name in names]


def rated_table(client: Any, sessions: list[str], **spec: Any) -> tuple[str, list[str]]:
    """A rated table of ``GAME`` whose seats the accounts take in order: (id, seat tokens)."""
    body = {"game": GAME, "seats": [{"kind": "human"}] * len(sessions), "you": 0, "rated": True}
    with as_player(client, sessions[0]):
        made = client.post("/api/games", json={**body, **spec})
    assert made.status_code == 201, made.text
    created = made.json()
    tokens = [created["token"]]
    for seat, session in enumerate(sessions[1:], 1):
        with as_player(client, session):
            claim = client.post(
                f"/api/games/{created['id']}/seats/{seat}/claim",
                json={"invite": created["invites"][str(seat)]},
            )
        assert claim.status_code == 200, claim.text
        tokens.append(claim.json()["token"])
    return created["id"], tokens


def play_out(client: Any, game_id: str, tokens: list[str], seed: int = 1) -> dict[str, Any]:
    rng = random.Random(seed)
    for _ in range(500):
        spectator = state(client, game_id)
        if spectator["over"]:
            return spectator
        seat = spectator["view"]["pending"]["seats"][0]
        mine = state(client, game_id, tokens[seat])
        answer = move(client, game_id, tokens[seat], rng.choice(mine["legal"]), mine["move"])
        assert answer.status_code == 200, answer.text
    raise AssertionError("the game did not end")


def record(client: Any, name: str, game: str = GAME) -> dict[str, Any]:
    answer = client.get(f"/api/players/{name}")
    assert answer.status_code == 200, answer.text
    (found,) = [r for r in answer.json()["ratings"] if r["game"] == game]
    return found  # type: ignore[no-any-return]


def stored(url: str) -> dict[str, tuple[float, float, int, int, int]]:
    """Each account's row in ``ratings``: (mu, sigma, rated, played, won) by name."""
    storage = Storage(url)
    try:
        with storage.engine.connect() as conn:
            rows = conn.execute(
                select(accounts.c.name, ratings).join(
                    accounts, accounts.c.id == ratings.c.account_id
                )
            ).all()
    finally:
        storage.close()
    return {row.name: (row.mu, row.sigma, row.rated, row.played, row.won) for row in rows}


# ----------------------------------------------------------------------------- rating a game
@pytest.mark.parametrize("database", ["sqlite", "postgres"])
def test_a_rated_game_played_to_the_end_moves_both_ratings_once(
    database: str, request: pytest.FixtureRequest
) -> None:
    """On either database (PostgreSQL reports no row count for an INSERT: the count's claim on
    ``counted_games`` must not depend on one, or no game is ever counted there)."""
    url = request.getfixturevalue(f"{database}_url")
    with make_client(url) as client:
        client.headers.update(HERE)
        sessions = players(client, "Wickham", "Rival")
        game_id, tokens = rated_table(client, sessions, options=SHORT)
        over = play_out(client, game_id, tokens)
        assert over["game"]["rated"] is True
        standings = {row["seat"]: row["rank"] for row in over["standings"]["rows"]}
    # OpenSkill's own update of two new players, ranked as the game's standings rank them
    teams = [[ratinglib.MODEL.rating()] for _ in range(2)]
    expected = ratinglib.MODEL.rate(teams, ranks=[float(standings[0]), float(standings[1])])
    rows = stored(url)
    for seat, name in enumerate(("Wickham", "Rival")):
        mu, sigma, rated, played, won = rows[name]
        assert (mu, sigma) == pytest.approx((expected[seat][0].mu, expected[seat][0].sigma))
        assert (rated, played) == (1, 1)
        assert won == int(seat in over["result"]["winners"])
    if standings[0] != standings[1]:
        best = "Wickham" if standings[0] < standings[1] else "Rival"
        worst = "Rival" if best == "Wickham" else "Wickham"
        assert rows[best][0] > ratinglib.MU > rows[worst][0]
    # a restart finds the game over (as does any other process): it is not counted again
    with make_client(url) as restarted:
        assert restarted.get(f"/api/games/{game_id}").json()["game"]["status"] == "over"
        shown = record(restarted, "Wickham")
    assert stored(url) == rows
    assert shown["rated_games"] == 1 and shown["provisional"] is True
    assert shown["rating"] == ratinglib.shown(rows["Wickham"][0], rows["Wickham"][1])
    # counting the same end again (another process finishing the same game) changes nothing
    storage = Storage(url)
    try:
        loaded = storage.load_game(game_id)
        assert loaded is not None
        ending = ratinglib.resignation(2, 0)
        with storage.engine.begin() as conn:
            assert ratinglib.game_ended(conn, loaded[0], ending) is False
    finally:
        storage.close()
    assert stored(url) == rows


def test_a_resignation_is_a_loss(client: Any) -> None:
    sessions = players(client, "Wickham", "Rival")
    game_id, tokens = rated_table(client, sessions)
    resigned = client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[1]))
    assert resigned.status_code == 200, resigned.text
    url = client.app.state.settings.db
    rows = stored(url)
    assert rows["Rival"][0] < ratinglib.MU < rows["Wickham"][0]
    assert rows["Wickham"][2:] == (1, 1, 1) and rows["Rival"][2:] == (1, 1, 0)
    assert record(client, "Rival")["rating"] < ratinglib.START < record(client, "Wickham")["rating"]


def test_a_seat_that_stops_moving_loses_on_time(sqlite_url: str) -> None:
    """No clock: a rated game nobody moves in for ``expire_after`` is closed, and the seats it waits
    for lose (the sweep run by hand at a chosen moment, as in test_abuse)."""
    with make_client(sqlite_url, expire_after=60.0, sweep_every=3600.0) as client:
        client.headers.update(HERE)
        sessions = players(client, "Wickham", "Rival")
        game_id, tokens = rated_table(client, sessions)
        first = state(client, game_id)["view"]["pending"]["seats"][0]
        mine = state(client, game_id, tokens[first])
        assert move(client, game_id, tokens[first], mine["legal"][0], mine["move"]).is_success
        waiting = state(client, game_id)["view"]["pending"]["seats"]
        assert waiting == [1 - first]
        service = client.app.state.service
        closed, _ = client.portal.call(service.sweeper.sweep, time.time() + 61.0)
        assert closed == [game_id]
    rows = stored(sqlite_url)
    late, other = ("Wickham", "Rival") if waiting == [0] else ("Rival", "Wickham")
    assert rows[late][0] < ratinglib.MU < rows[other][0]
    assert rows[late][2:] == (1, 1, 0) and rows[other][2:] == (1, 1, 1)


def test_an_unrated_game_counts_in_the_record_but_not_the_rating(client: Any) -> None:
    sessions = players(client, "Wickham", "Rival")
    game_id, tokens = rated_table(client, sessions, rated=False)
    assert client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[0])).is_success
    mine = record(client, "Wickham")
    assert (mine["rated_games"], mine["played"], mine["won"]) == (0, 1, 0)
    assert mine["rating"] == ratinglib.START and mine["provisional"] is True
    assert stored(client.app.state.settings.db)["Rival"][:2] == (ratinglib.MU, ratinglib.SIGMA)


# ----------------------------------------------------------------------------- rated tables
def test_guests_are_refused_at_rated_tables(client: Any) -> None:
    (session,) = players(client, "Wickham")
    body = {"game": GAME, "seats": [{"kind": "human"}] * 2, "you": 0, "rated": True}
    with as_guest(client):
        client.headers.update(HERE)
        refused = client.post("/api/games", json=body)
    assert refused.status_code == 403 and refused.json()["error"] == "rated-guest"
    assert "sign in" in refused.json()["message"]
    with as_player(client, session):
        made = client.post("/api/games", json=body).json()
    claim = {"invite": made["invites"]["1"]}
    url = f"/api/games/{made['id']}/seats/1/claim"
    with as_guest(client):
        client.headers.update(HERE)
        guest = client.post(url, json=claim)
    assert guest.status_code == 403 and guest.json()["error"] == "rated-guest"
    with as_player(client, session):
        twice = client.post(url, json=claim)
    assert twice.status_code == 409 and twice.json()["error"] == "rated-twice"
    seats = client.get(f"/api/games/{made['id']}").json()["seats"]
    assert seats[1]["taken"] is False  # nothing changed: the seat is still open
    assert client.get(f"/api/games/{made['id']}").json()["game"]["rated"] is True


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"seats": [{"kind": "human"}, {"kind": "bot", "level": "easy"}]}, "rated-bots"),
        ({"practice": True}, "rated-practice"),
        ({"hints": True}, "rated-hints"),
        ({"seats": [{"kind": "human"}]}, "rated-players"),
        ({"rated": "yes"}, "bad-rated"),
    ],
)
def test_a_rated_table_has_no_bots_practice_or_hints(
    client: Any, change: dict[str, Any], code: str
) -> None:
    (session,) = players(client, "Wickham")
    body = {"game": GAME, "seats": [{"kind": "human"}] * 2, "you": 0, "rated": True, **change}
    with as_player(client, session):
        refused = client.post("/api/games", json=body)
        assert refused.status_code == 400, refused.text
        assert refused.json()["error"] == code
        assert client.get("/api/me").json()["games"] == []  # no game was made


def test_hints_and_bots_are_refused_during_a_rated_game(client: Any) -> None:
    sessions = players(client, "Wickham", "Rival")
    game_id, tokens = rated_table(client, sessions)
    hint = client.post(f"/api/games/{game_id}/hint", headers=auth(tokens[0]))
    assert hint.status_code == 403 and hint.json()["error"] == "hints-off"
    assert "rated" in hint.json()["message"]
    bot = client.post(
        f"/api/games/{game_id}/seats/0/bot", json={"strength": "easy"}, headers=auth(tokens[0])
    )
    assert bot.status_code == 409 and bot.json()["error"] == "rated-bots"
    assert [s["kind"] for s in client.get(f"/api/games/{game_id}").json()["seats"]] == [
        "human",
        "human",
    ]


def test_the_lobby_and_the_game_say_rated_and_which_names_are_players(client: Any) -> None:
    sessions = players(client, "Wickham", "Rival")
    game_id, _ = rated_table(client, sessions)
    (listed,) = client.get("/api/games").json()["playing"]
    assert listed["id"] == game_id and listed["rated"] is True
    assert [(s["name"], s["account"]) for s in listed["seats"]] == [
        ("Wickham", True),
        ("Rival", True),
    ]


# ----------------------------------------------------------------------------- profiles
def test_private_games_are_never_on_a_profile(client: Any) -> None:
    sessions = players(client, "Wickham", "Rival")
    public, tokens = rated_table(client, sessions)
    assert client.post(f"/api/games/{public}/resign", headers=auth(tokens[1])).is_success
    private, tokens = rated_table(client, sessions, public=False)
    assert client.post(f"/api/games/{private}/resign", headers=auth(tokens[1])).is_success
    for name in ("Wickham", "wickham", "WICKHAM"):  # a name in any case
        profile = client.get(f"/api/players/{name}").json()
        assert profile["name"] == "Wickham" and profile["member_since"] > 0
        assert [game["id"] for game in profile["recent"]] == [public]
        assert private not in client.get(f"/api/players/{name}").text
    (game,) = profile["recent"]
    assert game["rated"] is True and game["won"] is True and game["seat"] == 0
    assert [s["name"] for s in game["seats"]] == ["Wickham", "Rival"]
    assert record(client, "Wickham")["played"] == 2  # the record counts both


def test_an_unknown_and_a_deleted_player_get_the_same_404(client: Any) -> None:
    sessions = players(client, "Wickham", "Rival")
    game_id, tokens = rated_table(client, sessions)
    assert client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[1])).is_success
    with as_player(client, sessions[1]):
        deleted = client.request("DELETE", "/api/me", json={"password": "correct horse battery"})
        assert deleted.status_code == 200
    answers = [client.get(f"/api/players/{name}") for name in ("Rival", "Nobody", "x" * 500)]
    assert [a.status_code for a in answers] == [404, 404, 404]
    assert {a.json()["error"] for a in answers} == {"no-player"}
    assert "Rival" not in stored(client.app.state.settings.db)  # its rating went with it


def test_api_me_has_the_players_ratings(client: Any) -> None:
    sessions = players(client, "Wickham", "Rival")
    game_id, tokens = rated_table(client, sessions)
    assert client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[1])).is_success
    with as_player(client, sessions[0]):
        (mine,) = client.get("/api/me").json()["ratings"]
    assert mine == record(client, "Wickham")


# ----------------------------------------------------------------------------- the leaderboard
def seed_players(url: str, settled: int, provisional: int) -> None:
    """Accounts with ratings written directly: ``settled`` of them with 10+ rated games, each a
    little better than the one before, and ``provisional`` with fewer."""
    seed_ratings(
        url,
        GAME,
        (
            RatedPlayer(
                f"P{n:03d}",
                mu=20.0 + n * 0.1,
                sigma=2.0,
                rated=ratinglib.PROVISIONAL_GAMES + n if n < settled else 3,
                won=n,
            )
            for n in range(settled + provisional)
        ),
    )


def test_the_leaderboard_comes_a_bounded_page_at_a_time(client: Any) -> None:
    settled = ratinglib.PAGE_SIZE + 2
    seed_players(client.app.state.settings.db, settled, 3)
    first = client.get(f"/api/leaderboard/{GAME}").json()
    assert (first["total"], first["pages"], first["provisional_players"]) == (settled, 2, 3)
    assert len(first["players"]) == ratinglib.PAGE_SIZE
    assert first["players"][0]["name"] == f"P{settled - 1:03d}"  # the best first
    shown = [p["rating"] for p in first["players"]]
    assert shown == sorted(shown, reverse=True)
    assert all(not p["provisional"] for p in first["players"])
    second = client.get(f"/api/leaderboard/{GAME}?page=2").json()
    assert [p["rank"] for p in second["players"]] == [ratinglib.PAGE_SIZE + 1, settled]
    assert second["players"][-1]["name"] == "P000"
    names = {p["name"] for p in first["players"] + second["players"]}
    assert len(names) == settled and not names & {"P027", "P028", "P029"}  # provisional
    assert client.get(f"/api/leaderboard/{GAME}?page=3").json()["players"] == []


@pytest.mark.parametrize(
    "page", ["0", "-1", "abc", "1.5", "1e3", "99999999999999999999", "", "\u00b2", "10001"]
)
def test_a_hostile_page_number_is_a_400_naming_the_field(client: Any, page: str) -> None:
    answer = client.get(f"/api/leaderboard/{GAME}", params={"page": page})
    assert answer.status_code == 400
    assert answer.json()["error"] == "bad-page" and "page" in answer.json()["message"]


def test_an_unknown_game_has_no_leaderboard(client: Any) -> None:
    answer = client.get("/api/leaderboard/chess")
    assert answer.status_code == 404 and answer.json()["error"] == "no-game"


def test_the_bot_levels_come_from_the_measured_file(client: Any) -> None:
    levels = client.get(f"/api/leaderboard/{GAME}").json()["levels"]
    assert levels == ratinglib.reference_levels(GAME)
    names = [level["level"] for level in levels]
    assert names == [level.name for level in candlebox.game_info(GAME).levels]


async def quiet_rated_game(tmp_path: Path) -> tuple[Settings, str, int]:
    """Bot workers: a rated game of two accounts with one move made, by a process that then
    stopped (no process holds it). Returns the settings, the game's id and the seat it waits for."""
    chosen = Settings(
        db=f"sqlite:///{tmp_path / 'workers.sqlite3'}",
        bots="workers",
        expire_after=60.0,
        sweep_every=0,
        bot_delay=0.0,
        requests_per_second=0,
    )
    first = GameService(chosen)
    await first.start()
    try:
        store = Accounts(first.registry.storage.engine, chosen)
        ada, _ = store.sign_up("Wickham", "correct horse battery", None)
        bea, _ = store.sign_up("Rival", "correct horse battery", None)
        seats = [{"kind": "human"}, {"kind": "human"}]
        body = {"game": GAME, "seats": seats, "you": 0, "rated": True}
        made = await first.create(bodies.convert(body, bodies.CreateSpec), None, ada)
        claim = bodies.ClaimSpec(invite=made["invites"]["1"])
        await first.seating.claim(made["id"], 1, claim, bea)
        live = await first.any_game(made["id"])
        (seat,) = live.state.to_act
        await first.moves.submit(made["id"], seat, live.state.legal_actions(seat)[0], 0)
        (waiting,) = live.state.to_act
    finally:
        await first.stop()
    return chosen, made["id"], int(waiting)


def assert_lost_on_time_once(url: str, waited: int) -> None:
    rows = stored(url)
    late, other = ("Wickham", "Rival") if waited == 0 else ("Rival", "Wickham")
    assert rows[late][0] < ratinglib.MU < rows[other][0]
    assert rows[late][2:] == (1, 1, 0) and rows[other][2:] == (1, 1, 1)


def test_with_bot_workers_a_rated_game_nobody_holds_is_lost_on_time(tmp_path: Path) -> None:
    """Bot workers: a quiet game no process holds is closed by any process's sweep, which rebuilds
    a rated one to see whom it waited for."""

    async def scenario() -> int:
        chosen, game_id, waiting = await quiet_rated_game(tmp_path)
        later = GameService(chosen)  # a process that never loaded the game
        await later.start()
        try:
            closed, _ = await later.sweeper.sweep(time.time() + 61)
            assert closed == [game_id]
        finally:
            await later.stop()
        return waiting

    waited = run_async(scenario())
    assert_lost_on_time_once(f"sqlite:///{tmp_path / 'workers.sqlite3'}", waited)


def test_a_failure_between_closing_and_counting_leaves_the_game_for_the_next_sweep(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A rated game nobody holds is closed and counted in one transaction: a failure while counting
    (a process stopped there, the database gone) leaves it live, and the next sweep closes and
    counts it, once. (Closed first and counted after, it stayed closed and uncounted forever.)"""

    def broken(*args: Any, **kwargs: Any) -> bool:
        raise RuntimeError("stopped between closing the game and counting it")

    async def scenario() -> int:
        chosen, game_id, waiting = await quiet_rated_game(tmp_path)
        later = GameService(chosen)
        await later.start()
        try:
            with monkeypatch.context() as patched:
                patched.setattr(ratinglib, "game_ended", broken)
                try:
                    failed, _ = await later.sweeper.sweep(time.time() + 61)
                except RuntimeError:
                    failed = []  # the sweep gave up; the next one runs all the same
                assert failed == []
            closed, _ = await later.sweeper.sweep(time.time() + 61)
            assert closed == [game_id]
            again, _ = await later.sweeper.sweep(time.time() + 61)
            assert again == []
        finally:
            await later.stop()
        return waiting

    waited = run_async(scenario())
    assert_lost_on_time_once(f"sqlite:///{tmp_path / 'workers.sqlite3'}", waited)
