"""A take-back and a move at once through two ``candlebox serve`` processes on one PostgreSQL (issue
35): one process grants a take-back (its last acceptance) while the other records the next move of
the same game, again and again. Exactly one of the two is done, the other refused with a clear 409;
every game's moves have no gap, replay, and both processes then show the same game. Marked
``processes`` (CI's second step)."""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

import pytest

from candlebox.server import Settings
from candlebox.server.packs import fresh_state
from candlebox.server.storage import Storage
from tests.server.conftest import wait_for
from tests.server.live import ServerProcess

pytestmark = pytest.mark.processes

ENV = {"CANDLEBOX_REQUESTS_PER_SECOND": "0", "CANDLEBOX_SWEEP_EVERY": "0"}
GAME = "candle-quest"
ROUNDS = 16


def table(server: ServerProcess, seed: int) -> tuple[str, list[str]]:
    """A practice table of two people: (game id, each seat's credential)."""
    seats = [{"kind": "human"}, {"kind": "human"}]
    body = {"game": GAME, "seats": seats, "you": 0, "practice": True, "seed": seed}
    made = server.post("/api/games", body)
    assert made.status_code == 201, made.text
    created = made.json()
    claimed = server.post(
        f"/api/games/{created['id']}/seats/1/claim", {"invite": created["invites"]["1"]}
    )
    assert claimed.status_code == 200, claimed.text
    return created["id"], [created["token"], claimed.json()["token"]]


def frame(server: ServerProcess, game_id: str, token: str | None = None) -> Any:
    answer = server.get(f"/api/games/{game_id}/state", token)
    assert answer.status_code == 200, answer.text
    return answer.json()


def to_undoable(server: ServerProcess, game_id: str, tokens: list[str], seed: int) -> int | None:
    """Random moves until the seat that moved last may take something back while the other seat
    is to act; that seat (None: the game ended first)."""
    rng = random.Random(seed)
    for _ in range(300):
        spectator = frame(server, game_id)
        if spectator["over"]:
            return None
        seat = spectator["view"]["pending"]["seats"][0]
        mine = frame(server, game_id, tokens[seat])
        action = rng.choice(mine["legal"])
        body = {"action": action, "expect": mine["move"]}
        moved = server.post(f"/api/games/{game_id}/moves", body, tokens[seat])
        assert moved.status_code == 200, moved.text
        after = frame(server, game_id, tokens[seat])
        if after["undoable"] > 0 and after["legal"] == [] and not after["over"]:
            return int(seat)
    return None


def at_once(*calls: Any) -> list[Any]:
    """Run the calls in threads released together; their answers in order."""
    start = threading.Barrier(len(calls))
    answers: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        start.wait()
        answers[index] = calls[index]()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return answers


def race(
    first: ServerProcess, second: ServerProcess, game_id: str, token: str, now: int, action: str
) -> list[Any]:
    """The last acceptance of a take-back through ``first`` and the next move through ``second``,
    released together; their answers."""
    accept = f"/api/games/{game_id}/undo/accept"
    return at_once(
        lambda: first.post(accept, {"expect": now}, token),
        lambda: second.post(
            f"/api/games/{game_id}/moves", {"action": action, "expect": now}, token
        ),
    )


def replays(url: str, game_id: str) -> int:
    """The game's stored moves are numbered 0 … n-1 and replay through the engine; n."""
    storage = Storage(url)
    try:
        loaded = storage.load_game(game_id)
    finally:
        storage.close()
    assert loaded is not None
    record, moves = loaded
    assert [m.number for m in moves] == list(range(len(moves))), "a gap in the move numbers"
    state = fresh_state(Settings(db=url), record)
    for move in moves:
        state.apply(move.seat, move.action)
    return len(moves)


def test_a_take_back_and_a_move_at_once_never_leave_a_gap(
    postgres_url: str, tmp_path: Path
) -> None:
    first = ServerProcess(postgres_url, tmp_path / "a.log", env=ENV).start()
    second = ServerProcess(postgres_url, tmp_path / "b.log", env=ENV).start()
    outcomes = []
    try:
        for seed in range(ROUNDS):
            game_id, tokens = table(first, seed)
            asker = to_undoable(first, game_id, tokens, seed)
            if asker is None:
                continue
            other = 1 - asker
            now = frame(first, game_id)["move"]
            asked = first.post(f"/api/games/{game_id}/undo", {"expect": now}, tokens[asker])
            assert asked.status_code == 200 and "asked" in asked.json(), asked.text
            # the second process holds the game too, at the same move
            theirs = wait_for(lambda: (f := frame(second, game_id, tokens[other]))["legal"] and f)  # noqa: B023
            assert theirs["move"] == now
            action = theirs["legal"][0]
            accept, move = race(first, second, game_id, tokens[other], now, action)
            count = replays(postgres_url, game_id)
            codes = sorted([accept.status_code, move.status_code])
            assert codes == [200, 409], ("both done", accept.text, move.text)
            refused = accept if accept.status_code == 409 else move
            assert "moved on" in refused.json()["message"], refused.text
            outcomes.append("take-back" if accept.status_code == 200 else "move")
            assert count == (now + 1 if outcomes[-1] == "move" else now - asked.json()["asked"])
            for server in (first, second):  # both processes show the game as stored
                wait_for(lambda s=server: frame(s, game_id)["move"] == count)  # noqa: B023
    finally:
        first.stop()
        second.stop()
    assert len(outcomes) >= ROUNDS // 2, "too few games reached a take-back"
