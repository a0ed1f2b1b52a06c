"""Helpers of the clock tests (tests/server/test_clocks.py, test_lost_on_time.py): the clocks' time
moved by the test, a seat's clock in a frame, and a rated table lost on time."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.server.conftest import auth, create, state, wait_for
from tests.server.test_accounts import HERE, as_guest, sign_up

TWO = [{"kind": "human"}, {"kind": "human"}]
NAMES = ("Ashwick", "Bellamy")  # the two accounts of lost_on_time, by seat


class FakeTime:
    """The clocks' time, moved by the test."""

    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now

    def pass_(self, seconds: float) -> None:
        self.now += seconds


def clock_of(frame: dict[str, Any], seat: int) -> dict[str, Any]:
    found = frame["clocks"][seat]
    assert found["seat"] == seat
    return found  # type: ignore[no-any-return]


def to_act(client: TestClient, game_id: str) -> int:
    return int(state(client, game_id)["view"]["pending"]["seats"][0])


def lost_on_time(client: TestClient, fake_time: FakeTime) -> tuple[str, int]:
    """A rated table of two accounts (``NAMES``) whose seat to act ran out of time, claimed by the
    other: (game id, the seat that lost). ``client`` runs the clocks on ``fake_time``."""
    client.headers.update(HERE)
    assert sign_up(client, NAMES[0]).status_code == 201
    made = create(client, TWO, you=0, rated=True, clock={"mode": "realtime", "initial": 60})
    with as_guest(client):
        client.headers.update(HERE)  # another browser of the site
        assert sign_up(client, NAMES[1]).status_code == 201
        claimed = client.post(f"/api/games/{made['id']}/seats/1/claim", json={})
        assert claimed.status_code == 200, claimed.text
        other = claimed.json()["token"]
        client.cookies.clear()
    late = to_act(client, made["id"])
    tokens = [made["token"], other]
    fake_time.pass_(61)
    wait_for(lambda: clock_of(state(client, made["id"]), late)["out_of_time"])
    answer = client.post(
        f"/api/games/{made['id']}/seats/{late}/timeout", headers=auth(tokens[1 - late])
    )
    assert answer.status_code == 200 and answer.json()["status"] == "lost-on-time", answer.text
    return made["id"], late
