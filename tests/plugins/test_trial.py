"""The add-a-game trial (issue 39): a game made by ``candlebox new-game``, installed with pip, is
listed, played at the terminal, by every bot, in the lobby and by the RL adapters, and passes its own
tests, with nothing edited outside its package.

It is installed for real (``pip install --no-deps --target``: the wheel pip builds, its entry point
included) and every step runs in a child Python that finds it only through that install. A minute
or so: behind the ``plugins`` marker, run by .ci/run's second step (``-m plugins``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.plugins.conftest import GAME, ROOT, Installed

pytestmark = pytest.mark.plugins


def test_it_is_listed(installed: Installed) -> None:
    out = installed.run("-m", "candlebox.cli", "games")
    assert "Lantern Duel" in out and f"({GAME}, a plug-in from {GAME})" in out
    assert "not loaded" not in out


def test_it_is_played_at_the_terminal(installed: Installed, tmp_path: Path) -> None:
    saved = tmp_path / "game.json"
    out = installed.run(
        "-m", "candlebox.cli", "play", GAME, "--seed", "3", "--save", str(saved), stdin="1\n" * 20
    )
    assert "Choose a card of your hand to bid for the prize worth" in out
    assert "Game over: every prize has been taken" in out
    game = json.loads(saved.read_text())
    assert game["game"] == GAME and len(game["history"]) == 2 * 5
    learn = installed.run(
        "-m", "candlebox.cli", "play", GAME, "--learn", "--seed", "1", stdin="1\n" * 20
    )
    assert "Learn mode." in learn and "Lays this card face down as your bid" in learn


BOTS = """
import json, candlebox
from candlebox import bots
played, refused = {}, {}
names = bots.available() + [level.name for level in candlebox.game_info("lantern-duel").levels]
for name in names:
    state = candlebox.new_game("lantern-duel", players=3, seed=5)
    try:
        bots.check_table(name, state) if name in bots.available() else None
    except ValueError as exc:
        refused[name] = str(exc)
        continue
    level = {l.name: l for l in candlebox.game_info("lantern-duel").levels}.get(name)
    bot, params = (level.bot, dict(level.params)) if level else (name, {})
    if bot == "ismcts":
        params["iterations"] = 30
    robots = [bots.make(bot, seed=s, **params) for s in range(3)]
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, robots[seat].choose(state, seat))
    played[name] = list(state.winners)
print(json.dumps({"played": played, "refused": refused}))
"""


def test_every_bot_plays_it(installed: Installed) -> None:
    out = installed.python(BOTS)
    assert {"random", "heuristic", "ismcts", "easy", "medium", "hard"} <= set(out["played"])
    # The policy bot needs a network trained for the game: it says so, and how to make one.
    assert set(out["refused"]) <= {"policy"}
    for why in out["refused"].values():
        assert "python -m candlebox.rl.imitation lantern-duel" in why
    simulated = installed.run(
        "-m",
        "candlebox.cli",
        "simulate",
        GAME,
        "-n",
        "4",
        "-p",
        "3",
        "--bots",
        "medium,random,hard",
        "--json",
    )
    assert json.loads(simulated)["games"] == 4


LOBBY = """
import json, random
from tests.server.conftest import all_human, create, make_client, play_random, state, wait_for
url = "sqlite:///" + __import__("sys").argv[1]
with make_client(url) as client:
    meta = {g["id"]: g for g in client.get("/api/meta").json()["games"]}
    rules = client.get("/rules/lantern-duel")
    game_id, tokens = all_human(client, 3, game="lantern-duel")
    moves = play_random(client, game_id, tokens, random.Random(1), 100)
    over = state(client, game_id, tokens[0])
    table = create(client, [{"kind": "human"}, {"kind": "bot", "bot": "heuristic", "level": "easy"}], game="lantern-duel", you=0)
    rng = random.Random(2)
    def finished():
        frame = state(client, table["id"], table["token"])
        if not frame["over"] and 0 in frame["view"]["pending"]["seats"]:
            client.post(f"/api/games/{table['id']}/moves", json={"action": rng.choice(frame["legal"]), "expect": frame["move"]}, headers={"Authorization": f"Bearer {table['token']}"})
        return frame["over"] and frame
    with_bot = wait_for(finished, 60)
print(json.dumps({
    "listed": "lantern-duel" in meta, "title": meta.get("lantern-duel", {}).get("title"),
    "rules": rules.status_code, "moves": moves, "over": over["over"], "winners": over["result"]["winners"],
    "bot_table_over": with_bot["over"],
}))
"""


def test_it_is_played_in_the_lobby(installed: Installed, tmp_path: Path) -> None:
    done = installed.run("-c", LOBBY, str(tmp_path / "db.sqlite3"), cwd=ROOT)
    out = json.loads(done.strip().splitlines()[-1])
    assert out["listed"] and out["title"] == "Lantern Duel" and out["rules"] == 200
    assert out["moves"] == 15 and out["over"] and out["winners"]
    assert out["bot_table_over"]


RL = """
import json, numpy as np, pyspiel, candlebox.rl
covered = candlebox.rl.covered_games()
env = candlebox.rl.pettingzoo_env("lantern-duel", players=3)
env.reset(seed=1)
steps = 0
for agent in env.agent_iter():
    obs, reward, terminated, truncated, info = env.last()
    action = None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0])
    env.step(action)
    steps += 1
single = candlebox.rl.gymnasium_env("lantern-duel", seat=0, opponents="heuristic", players=2)
obs, info = single.reset(seed=2)
done = False
while not done:
    obs, reward, terminated, truncated, info = single.step(int(np.flatnonzero(obs["action_mask"])[-1]))
    done = terminated or truncated
names = candlebox.rl.register_openspiel()
game = pyspiel.load_game("candlebox_lantern_duel", {"players": 2})
pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
print(json.dumps({"covered": covered, "steps": steps, "reward": float(reward), "openspiel": names}))
"""


def test_the_rl_adapters_play_it(installed: Installed) -> None:
    pytest.importorskip("pyspiel")
    pytest.importorskip("pettingzoo")
    out = installed.python(RL)
    assert GAME in out["covered"] and "candlebox_lantern_duel" in out["openspiel"]
    assert out["steps"] >= 3 * 5


def test_its_own_tests_pass_installed(installed: Installed) -> None:
    out = installed.run(
        "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests", cwd=installed.project
    )
    assert " passed" in out and "failed" not in out
