"""Over the network a content pack is chosen by name from the server's content directory, never by
path, and no answer tells anything about the server's files."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import candlebox.games.candelabria.components as components
import candlebox.games.candle_quest.candles as candles
from tests.server.conftest import make_client

SEATS = [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}]


def create(client: Any, content: Any) -> Any:
    body = {"game": "candelabria", "seats": SEATS, "you": 0, "practice": True}
    return client.post("/api/games", json={**body, "options": {"content": content}})


def test_paths_are_refused_and_answers_name_no_server_path(client: Any) -> None:
    answers = []
    for probe in ["/proc/self", "/proc/self/", "~", "/etc", "/no/such/folder", "../..", "x" * 300]:
        response = create(client, probe)
        assert response.status_code == 400, (probe, response.text)
        body = response.json()
        assert body["error"] == "bad-content"
        assert "/" not in body["message"] and str(os.getpid()) not in body["message"]
        assert os.path.expanduser("~") not in body["message"]
        answers.append(body["message"])
    assert len(set(answers)) == 1  # an existing path reads exactly like a missing one
    meta = client.get("/api/meta").json()
    assert meta["content_packs"] == []
    options = [o["name"] for g in meta["games"] for v in g["variants"] for o in v["options"]]
    assert "content" not in options  # no packs: nothing to offer


def test_a_pack_is_chosen_by_name_from_the_content_directory(
    sqlite_url: str, tmp_path: Path
) -> None:
    packs = tmp_path / "packs"
    shutil.copytree(components.CONTENT, packs / "mine")
    (packs / "broken").mkdir()
    with make_client(sqlite_url, content_dir=str(packs)) as client:
        meta = client.get("/api/meta").json()
        assert meta["content_packs"] == ["broken", "mine"]
        offered = [
            o
            for g in meta["games"]
            for v in g["variants"]
            for o in v["options"]
            if o["name"] == "content"
        ]
        assert offered and all(o["choices"] == ["", "broken", "mine"] for o in offered)
        response = create(client, "mine")
        assert response.status_code == 201, response.text
        game_id = response.json()["id"]
        info = client.get(f"/api/games/{game_id}").json()["game"]
        assert info["options"]["content"] == "mine"
        broken = create(client, "broken")
        assert broken.status_code == 400 and broken.json()["error"] == "bad-content"
        assert str(tmp_path) not in broken.text and "/" not in broken.json()["message"]
        assert create(client, str(packs / "mine")).json()["error"] == "bad-content"
    with make_client(sqlite_url, content_dir=str(packs)) as client:  # and after a restart
        frame = client.get(f"/api/games/{game_id}/state").json()
        assert frame["game"]["options"]["content"] == "mine" and not frame["over"]


def test_design_mode_is_neither_offered_nor_accepted(sqlite_url: str, tmp_path: Path) -> None:
    """A designer's changed values are for candlebox simulate: the server plays its packs as printed."""
    packs = tmp_path / "packs"
    shutil.copytree(components.CONTENT, packs / "mine")
    with make_client(sqlite_url, content_dir=str(packs)) as client:
        meta = client.get("/api/meta").json()
        options = [o["name"] for g in meta["games"] for v in g["variants"] for o in v["options"]]
        assert "content" in options and "design" not in options
        body = {"game": "candelabria", "seats": SEATS, "you": 0, "practice": True}
        for options_given in ({"content": "mine", "design": True}, {"design": True}):
            response = client.post("/api/games", json={**body, "options": options_given})
            assert response.status_code == 400, response.text
            assert response.json()["error"] == "bad-settings"
            assert "'design'" in response.json()["message"]
        assert client.get("/api/games").json()["open"] == []


def test_a_candle_quest_practice_table_plays_a_pack_by_name(
    sqlite_url: str, tmp_path: Path
) -> None:
    packs = tmp_path / "packs"
    shutil.copytree(candles.CONTENT, packs / "cq")
    data = json.loads((packs / "cq" / "candles.json").read_text())
    data["colours"][0]["candles"][0]["sell"] = 0  # the yellow 2 sells for nothing: a new pack
    (packs / "cq" / "candles.json").write_text(json.dumps(data))
    shutil.copytree(components.CONTENT, packs / "candelabria")
    body = {"game": "candle-quest", "seats": SEATS, "you": 0, "practice": True}
    with make_client(sqlite_url, content_dir=str(packs)) as client:
        made = client.post("/api/games", json={**body, "options": {"content": "cq"}})
        assert made.status_code == 201, made.text
        game_id = made.json()["id"]
        frame = client.get(f"/api/games/{game_id}/state").json()
        assert frame["game"]["options"]["content"] == "cq" and not frame["over"]
        # Another game's pack is no Candle Quest pack: refused, naming the file, not the path.
        wrong = client.post("/api/games", json={**body, "options": {"content": "candelabria"}})
        assert wrong.status_code == 400 and wrong.json()["error"] == "bad-content"
        assert "candles.json" in wrong.json()["message"] and str(tmp_path) not in wrong.text
    with make_client(sqlite_url, content_dir=str(packs)) as client:  # and after a restart
        frame = client.get(f"/api/games/{game_id}/state").json()
        assert frame["game"]["options"]["content"] == "cq" and not frame["over"]
