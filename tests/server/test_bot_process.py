"""The built-in bot worker (issue 17): a web process that plays its own bots lets them think in a child
process, which keeps each seat's bot between turns and is replaced when it dies."""

from __future__ import annotations

import os
import random
import signal
import time
from pathlib import Path

import pytest

import candlebox
from candlebox.server import botplay
from candlebox.server.botplay import BotKey, choose_in_process
from candlebox.server.children import process_pool
from tests.server.conftest import create, make_client, move, state, wait_for
from tests.server.live import ServerProcess


def key(seat: int = 1, generation: int = 0, live_id: str = "g1") -> BotKey:
    return BotKey(live_id, "heuristic", "{}", 7, seat, generation, 1.0, "candle-quest")


def test_a_bot_process_keeps_each_seats_bot_and_forgets_the_oldest(monkeypatch: object) -> None:
    state_ = candlebox.new_game("candle-quest", players=2, seed=3)
    seat = state_.to_act[0]
    first = choose_in_process(key(seat), state_)
    assert first in state_.legal_actions(seat)
    kept = botplay._KEPT[key(seat)]
    choose_in_process(key(seat), state_)
    assert botplay._KEPT[key(seat)] is kept  # the same bot, its random state carried on
    assert key(seat, generation=1) not in botplay._KEPT  # another key is another bot
    botplay.KEPT_BOTS = 2
    try:
        for index in range(3):
            choose_in_process(key(seat, live_id=f"other{index}"), state_)
        assert len(botplay._KEPT) == 2 and key(seat) not in botplay._KEPT
    finally:
        botplay.KEPT_BOTS = 512
        botplay._KEPT.clear()


def _children(client: object) -> list[int]:
    pool = client.app.state.service.bots._process_pool  # type: ignore[attr-defined]
    return [] if pool is None else list(pool._processes)


def _play_until_the_bot_moved(client: object, game: str, token: str, rng: random.Random) -> None:
    """The person's moves (seat 0) until the bot (seat 1) has had a turn and played it."""
    waited = False

    def bot_moved() -> bool:
        nonlocal waited
        now = state(client, game, token)  # type: ignore[arg-type]
        if now["over"]:
            return True
        if 1 in now["view"]["pending"]["seats"]:
            waited = True  # the bot's turn: it thinks
            return False
        if waited:
            return True  # it was the bot's turn and now it is ours again: the bot has moved
        response = move(client, game, token, rng.choice(now["legal"]), now["move"])  # type: ignore[arg-type]
        assert response.status_code == 200, response.text
        return False

    wait_for(bot_moved, timeout=60)
    assert not state(client, game, token)["over"]  # type: ignore[arg-type]


def test_bots_think_in_another_process_which_is_replaced_when_killed(tmp_path: Path) -> None:
    with make_client(f"sqlite:///{tmp_path / 'db.sqlite3'}", bot_processes=1) as client:
        created = create(
            client, [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}], you=0, seed=5
        )
        game, token, rng = created["id"], created["token"], random.Random(2)
        _play_until_the_bot_moved(client, game, token, rng)
        children = _children(client)
        assert len(children) == 1 and os.getpid() not in children
        os.kill(children[0], signal.SIGKILL)  # the bot process dies: the next turn is still played
        _play_until_the_bot_moved(client, game, token, rng)
        replaced = _children(client)
        assert len(replaced) == 1 and replaced != children


@pytest.mark.parametrize("bots", ["inline", "workers"])
def test_a_hint_is_searched_in_a_bot_process(
    bots: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Where the server plays its bots, and where bot workers do (the web process then starts its
    children for hints alone)."""
    if bots == "inline":
        url = f"sqlite:///{tmp_path / 'db.sqlite3'}"
    else:
        url = request.getfixturevalue("postgres_url")  # workers share a PostgreSQL database
    with make_client(url, bot_processes=1, bots=bots) as client:
        assert _children(client) == [] or bots == "inline"  # workers: none before a hint
        # seed 5: the person (seat 0) begins, so no bot turn (which needs a worker) comes first
        created = create(client, [{"kind": "human"}, {"kind": "bot"}], you=0, seed=5)
        game, token = created["id"], created["token"]
        frame = wait_for(lambda: (now := state(client, game, token))["legal"] and now)
        while len(frame["legal"]) == 1:  # the flip: then a decision worth a second's search
            made = move(client, game, token, frame["legal"][0], expect=frame["move"])
            assert made.status_code == 200, made.text
            frame = wait_for(lambda: (now := state(client, game, token))["legal"] and now)
        spent = time.process_time()  # this process's CPU: the server's threads included
        answer = client.post(
            f"/api/games/{game}/hint", headers={"Authorization": f"Bearer {token}"}
        )
        spent = time.process_time() - spent
        assert answer.status_code == 200, answer.text
        tip = answer.json()
        assert sorted(o["action"] for o in tip["options"]) == sorted(frame["legal"])
        # the second of search was spent in the bot process, not in this one's threads
        assert spent < 0.5, f"{spent:.2f} CPU s in the web process for a 1 s hint"
        assert len(_children(client)) == 1


def test_hints_beyond_what_the_searchers_can_take_are_refused_at_once(tmp_path: Path) -> None:
    with make_client(f"sqlite:///{tmp_path / 'db.sqlite3'}", bot_processes=1) as client:
        created = create(client, [{"kind": "human"}, {"kind": "bot"}], you=0, seed=4)
        game, token = created["id"], created["token"]
        wait_for(lambda: state(client, game, token)["legal"])
        coach = client.app.state.service.coach  # type: ignore[attr-defined]
        assert coach.max_hints == 2  # two per bot process
        coach.thinking.update({("other", 0), ("other", 1)})  # two hints under way elsewhere
        answer = client.post(
            f"/api/games/{game}/hint", headers={"Authorization": f"Bearer {token}"}
        )
        assert answer.status_code == 503, answer.text
        assert answer.json()["error"] == "coach-busy"
        assert (game, 0) not in coach.thinking and (game, 0) not in coach.last_hint
        coach.thinking.clear()
        answer = client.post(
            f"/api/games/{game}/hint", headers={"Authorization": f"Bearer {token}"}
        )
        assert answer.status_code == 200, answer.text  # the refusal cost the seat no wait


def _child_pids(pid: int) -> set[int]:
    children = Path(f"/proc/{pid}/task/{pid}/children")
    return {int(p) for p in children.read_text().split()} if children.exists() else set()


def _alive(pid: int) -> bool:
    try:
        state_line = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state_line[0] != "Z"  # a zombie has ended (its parent has not reaped it yet)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
@pytest.mark.processes  # a real server process, killed (CI's second step)
def test_the_bot_processes_end_with_a_killed_server(tmp_path: Path) -> None:
    server = ServerProcess(f"sqlite:///{tmp_path / 'db.sqlite3'}", tmp_path / "server.log").start()
    try:
        assert server.process is not None
        pid = server.process.pid
        # started with the server (not on the first bot's turn): the default two, and a tracker
        spawned = wait_for(lambda: len(_child_pids(pid)) >= 2 and _child_pids(pid), timeout=60)
        server.kill()
        wait_for(lambda: not any(_alive(child) for child in spawned), timeout=15)
    finally:
        server.stop()


def _sigint_handler() -> str:
    return repr(signal.getsignal(signal.SIGINT))


def test_a_child_leaves_ctrl_c_to_its_server() -> None:
    """Ctrl-C reaches the whole process group: the server shuts its children down, and a child that
    took it itself would print a KeyboardInterrupt traceback into the operator's terminal."""
    pool = process_pool(1)
    try:
        assert pool.submit(_sigint_handler).result(timeout=60) == repr(signal.SIG_IGN)
    finally:
        pool.shutdown()
