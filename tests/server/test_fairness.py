"""Verifiable shuffles on the server: a seed only the server knows, its commitment shown to every
seat from the start and opened at the end, practice games for chosen seeds and fixed decks, and the
finished game's download that ``candlebox replay --verify`` checks."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

import candlebox
from candlebox.cli.app import app as cli
from candlebox.engine import fairness
from tests.server.conftest import auth, create, make_client, state

TWO_HUMANS = [{"kind": "human"}, {"kind": "human"}]
BOTS = [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


def test_chosen_seeds_and_fixed_decks_need_a_practice_game(client: Any) -> None:
    deck = list(candlebox.new_game("candle-quest", 2, seed=1).to_json()["state"]["stack"])[:3]
    refused = [
        {"seed": 5},
        {"options": {"deck": deck}},
        {"seed": 5, "practice": False},
        {"seed": 5, "practice": "yes"},
    ]
    for extra in refused:
        body = {"game": "candle-quest", "seats": TWO_HUMANS, "you": 0, **extra}
        response = client.post("/api/games", json=body)
        assert response.status_code == 400, (extra, response.text)
        # A mistyped flag is refused by the strict body itself, naming the field.
        assert response.json()["error"] in ("practice-only", "bad-practice", "malformed")
        if extra.get("practice") == "yes":
            assert "practice" in response.json()["message"]
    message = client.post(
        "/api/games", json={"game": "candle-quest", "seats": TWO_HUMANS, "seed": 5}
    ).json()["message"]
    assert "practice" in message and "seed" in message
    practice = create(client, TWO_HUMANS, you=0, seed=5, options={"deck": deck})
    info = client.get(f"/api/games/{practice['id']}").json()["game"]
    assert info["practice"] is True and info["seed"] == "5" and info["fixed"] == ["seed", "deck"]
    lobby = client.get("/api/games").json()
    listed = {g["id"]: g for g in lobby["open"] + lobby["playing"]}
    assert listed[practice["id"]]["practice"] is True
    assert listed[practice["id"]]["fixed"] == ["seed", "deck"]


def test_a_game_is_dealt_from_a_committed_secret_seed(client: Any, tmp_path: Path) -> None:
    created = create(client, TWO_HUMANS, you=0, options={"max_turns": 4})
    game_id, token = created["id"], created["token"]
    spectator = state(client, game_id)
    seat0 = state(client, game_id, token)
    block = seat0["game"]["fairness"]
    assert block == spectator["game"]["fairness"]  # every seat sees the same commitment
    assert set(block) == {"scheme", "id", "commitment"}  # nothing of the seed before the end
    assert seat0["game"]["practice"] is False and seat0["game"]["seed"] is None
    assert client.get(f"/api/games/{game_id}/saved").status_code == 409
    # two games never get the same seed (they would if the server used a fixed default)
    other = create(client, TWO_HUMANS, you=0, options={"max_turns": 4})
    assert state(client, other["id"])["view"] != spectator["view"] or (
        state(client, other["id"])["game"]["fairness"]["commitment"] != block["commitment"]
    )
    claimed = client.post(
        f"/api/games/{game_id}/seats/1/claim", json={"invite": created["invites"]["1"]}
    ).json()
    tokens = [token, claimed["token"]]
    while not (frame := state(client, game_id))["over"]:
        seat = frame["view"]["pending"]["seats"][0]
        mine = state(client, game_id, tokens[seat])
        body = {"action": mine["legal"][0], "expect": mine["move"]}
        response = client.post(f"/api/games/{game_id}/moves", json=body, headers=auth(tokens[seat]))
        assert response.status_code == 200, response.text
    opened = frame["game"]["fairness"]
    assert opened["commitment"] == block["commitment"]
    info = frame["game"]
    assert not fairness.Opening(opened["id"], opened["commitment"]).check(
        info["game"],
        info["variant"],
        info["players"],
        info["options"],
        int(opened["seed"]),
        opened["nonce"],
    )
    download = client.get(f"/api/games/{game_id}/saved")
    assert download.status_code == 200
    assert "attachment" in download.headers["content-disposition"]
    saved = download.json()
    assert saved["fairness"] == opened and str(saved["seed"]) == opened["seed"]
    assert candlebox.load(saved).is_over  # the engine still reads the file
    path = tmp_path / "game.json"
    path.write_text(json.dumps(saved))
    result = CliRunner().invoke(cli, ["replay", str(path), "--verify"])
    assert result.exit_code == 0, result.output
    assert "YES" in result.output and opened["commitment"] in result.output.replace("\n", "")
    said = " ".join(result.output.split())
    # what a YES proves, and what it cannot (a file of other legal moves would pass as well)
    assert f"each of its {len(saved['history'])} moves was legal" in said
    assert "to the game's end" in said and "the position the file records" in said
    assert "Not proven: that these were the moves played" in said


def test_verify_says_no_and_why(client: Any, tmp_path: Path) -> None:
    created = create(client, BOTS, options={"max_turns": 3})
    game_id = created["id"]
    for _ in range(500):
        if state(client, game_id)["over"]:
            break
        time.sleep(0.02)
    saved = client.get(f"/api/games/{game_id}/saved").json()
    assert "fairness" in saved

    def verify(data: dict[str, Any]) -> Any:
        path = tmp_path / "check.json"
        path.write_text(json.dumps(data))
        return CliRunner().invoke(cli, ["replay", str(path), "--verify"])

    assert verify(saved).exit_code == 0
    cases = {
        "another seed": {**saved, "seed": saved["seed"] ^ 1},  # dealt from another seed
        "seed revealed wrong": {**saved, "fairness": {**saved["fairness"], "seed": "12"}},
        "nonce": {**saved, "fairness": {**saved["fairness"], "nonce": "0" * 64}},
        "options": {**saved, "options": {**saved["options"], "max_turns": 4}},
        "history": {**saved, "history": saved["history"][:-1]},
        "no commitment": {k: v for k, v in saved.items() if k != "fairness"},
        # a game cut short: nothing left to compare the replay's position with, nor an end
        "no state, history cut": {
            **{k: v for k, v in saved.items() if k != "state"},
            "history": saved["history"][: len(saved["history"]) // 2],
        },
        "no state": {k: v for k, v in saved.items() if k != "state"},
        "a resignation that is not one": {**saved, "resigned": 0},
    }
    reasons = {
        "no state, history cut": "before the game's end",
        "no state": "no final position",
        "a resignation that is not one": "reaches the game's end",
    }
    for label, data in cases.items():
        result = verify(data)
        assert result.exit_code == 1, (label, result.output)
        assert "NO:" in result.output, (label, result.output)
        assert reasons.get(label, "") in " ".join(result.output.split()), (label, result.output)


def test_a_resigned_game_verifies_as_ended_by_the_resignation(client: Any, tmp_path: Path) -> None:
    """A resignation ends a game before its rules do (rulings EG-1): the download says which seat
    resigned, and the check says YES for that ending, and NO for a file cut short without one."""
    created = create(client, TWO_HUMANS, you=0)
    game_id = created["id"]
    claimed = client.post(
        f"/api/games/{game_id}/seats/1/claim", json={"invite": created["invites"]["1"]}
    ).json()
    tokens = [created["token"], claimed["token"]]
    for _ in range(3):
        seat = state(client, game_id)["view"]["pending"]["seats"][0]
        mine = state(client, game_id, tokens[seat])
        body = {"action": mine["legal"][0], "expect": mine["move"]}
        response = client.post(f"/api/games/{game_id}/moves", json=body, headers=auth(tokens[seat]))
        assert response.status_code == 200, response.text
    assert client.post(f"/api/games/{game_id}/resign", headers=auth(tokens[1])).status_code == 200
    saved = client.get(f"/api/games/{game_id}/saved").json()
    assert saved["resigned"] == 1 and len(saved["history"]) == 3
    assert candlebox.load(saved).history == [tuple(step) for step in saved["history"]]
    path = tmp_path / "resigned.json"
    path.write_text(json.dumps(saved))
    result = CliRunner().invoke(cli, ["replay", str(path), "--verify"])
    assert result.exit_code == 0, result.output
    said = " ".join(result.output.split())
    assert "YES" in said and "until seat 1 resigned after move 3" in said
    path.write_text(json.dumps({k: v for k, v in saved.items() if k != "resigned"}))
    result = CliRunner().invoke(cli, ["replay", str(path), "--verify"])
    assert result.exit_code == 1 and "before the game's end" in " ".join(result.output.split())


def test_the_commitment_survives_a_restart(sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        created = create(client, TWO_HUMANS, you=0)
        before = state(client, created["id"])["game"]["fairness"]
    with make_client(sqlite_url) as client:
        assert state(client, created["id"])["game"]["fairness"] == before
