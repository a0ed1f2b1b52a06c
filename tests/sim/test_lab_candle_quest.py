"""Candle Quest plays content packs: a changed candle plays differently, the printed pack plays the
same game as no pack, a changed value is refused without design mode, and a saved game records its
pack (by hash) and refuses to load under another."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import candlebox
from candlebox.engine import State
from tests.cli.conftest import run

GAME = "candle-quest"


def export(folder: Path) -> Path:
    done = run("content", "export", GAME, str(folder))
    assert done.exit_code == 0, done.output
    return folder


def dearer_sell(folder: Path) -> Path:
    """Every Lit candle sells for one less than its face (printed: about half of it)."""
    path = folder / "candles.json"
    data = json.loads(path.read_text())
    for colour in data["colours"]:
        for candle in colour["candles"]:
            candle["sell"] = candle["face"] - 1
    path.write_text(json.dumps(data, indent=1))
    return folder


def played(seed: int, **options: object) -> State:
    state = candlebox.new_game(GAME, 3, seed=seed, **options)
    bots = [candlebox.bots.make("heuristic", seed=seed + seat) for seat in range(3)]
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, bots[seat].choose(state, seat))
    return state


def test_the_printed_pack_plays_the_same_games_as_no_pack(tmp_path: Path) -> None:
    folder = export(tmp_path / "printed")
    for seed in range(3):
        pack, shipped = played(seed, content=str(folder)), played(seed)
        assert pack.history == shipped.history and pack.scores == shipped.scores


def test_a_changed_sell_value_plays_differently(tmp_path: Path) -> None:
    folder = dearer_sell(export(tmp_path / "sell"))
    state = candlebox.new_game(GAME, 3, seed=1, content=str(folder))
    red = state.content.type_of["R7"]  # type: ignore[attr-defined]
    assert state.content.sell[red] == 6  # type: ignore[attr-defined]
    # The pack's sell values are what the bank pays: the games differ from the printed ones.
    for seed in (1, 2):
        assert played(seed, content=str(folder)).history != played(seed).history
    sales = [e for e in played(1, content=str(folder)).events if e[0] == "sell" and e[2][0] != "D"]
    assert sales and all(
        code_sold == f"{code_sold[0]}{paid + 1}" for _, _, code_sold, paid in sales
    )
    done = run("simulate", GAME, "-p", "3", "-n", "1", "-o", f"content={folder}")
    assert done.exit_code == 0, done.output


def test_a_changed_face_is_refused_without_design_and_played_with_it(tmp_path: Path) -> None:
    folder = export(tmp_path / "face")
    path = folder / "candles.json"
    data = json.loads(path.read_text())
    data["colours"][4]["candles"][5] = {"face": 12, "sell": 6}  # the red 8 becomes a red 12
    path.write_text(json.dumps(data))
    with pytest.raises(ValueError, match=r"candles\.json: .*colours\[4\]\.candles\[5\]\.face"):
        candlebox.new_game(GAME, 3, content=str(folder))
    with pytest.raises(ValueError, match=r"option 'design' .* option 'content' too"):
        candlebox.new_game(GAME, 3, design=True)
    refused = run("simulate", GAME, "-p", "3", "-n", "1", "-o", f"content={folder}")
    assert refused.exit_code == 2 and "colours[4].candles[5].face" in refused.stderr
    done = run("simulate", GAME, "-p", "3", "-n", "1", "-o", f"content={folder}", "--design")
    assert done.exit_code == 0, done.output
    # The candle's code is its colour and face: it plays as R12.
    state = candlebox.new_game(GAME, 2, seed=3, content=str(folder), design=True, deck=["R12"])
    state.apply(state.to_act[0], "flip")
    assert state.pending() == {"decision": "buy-sell-auction", "seats": [0], "candle": "R12"}
    state.apply(0, "sell")
    assert state.shekels[0] == 12 + 6  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="not a candle code"):
        candlebox.new_game(GAME, 2, seed=3, deck=["R12"])


def test_a_saved_game_records_its_pack_and_refuses_another(tmp_path: Path) -> None:
    folder = dearer_sell(export(tmp_path / "sell"))
    game = played(4, content=str(folder))
    saved = json.loads(json.dumps(game.to_json()))
    assert saved["pack"] == game.content_pack() and saved["pack"].startswith("sha256:")
    assert candlebox.load(saved) == game
    # The same pack elsewhere is the same pack (its hash is of the files, not of where they lie).
    moved = shutil.copytree(folder, tmp_path / "moved")
    again = candlebox.load({**saved, "options": {**saved["options"], "content": str(moved)}})
    assert again.history == game.history and again.content_pack() == game.content_pack()
    # Another pack (here the printed one) under the same options is refused, naming both.
    printed = export(tmp_path / "printed")
    other = {**saved, "options": {**saved["options"], "content": str(printed)}}
    with pytest.raises(
        ValueError, match=f"played with content pack {saved['pack']}, but .* now gives pack sha256:"
    ):
        candlebox.load(other)
    shipped = {**saved, "options": {**saved["options"], "content": None}}
    with pytest.raises(ValueError, match="now gives the printed content"):
        candlebox.load(shipped)
    # A game of the printed content saves as before: no pack recorded.
    assert "pack" not in played(4).to_json()


def test_a_replay_refuses_a_game_whose_pack_changed(tmp_path: Path) -> None:
    folder = dearer_sell(export(tmp_path / "sell"))
    saved = played(5, content=str(folder)).to_json()
    (tmp_path / "game.json").write_text(json.dumps(saved))
    assert run("replay", str(tmp_path / "game.json")).exit_code == 0
    # The designer edits the pack after the game: the replay would be another game.
    path = folder / "candles.json"
    data = json.loads(path.read_text())
    data["colours"][0]["candles"][0]["sell"] = 0
    moved = tmp_path / "edited"
    shutil.copytree(folder, moved)
    (moved / "candles.json").write_text(json.dumps(data))
    (tmp_path / "edited.json").write_text(
        json.dumps({**saved, "options": {**saved["options"], "content": str(moved)}})
    )
    refused = run("replay", str(tmp_path / "edited.json"))
    assert refused.exit_code == 2, refused.output
    assert f"played with content pack {saved['pack']}" in refused.stderr


def test_the_rl_encoding_refuses_a_pack_with_other_candle_codes(tmp_path: Path) -> None:
    """Its observation has a place for each printed candle code: a renamed candle has none."""
    np = pytest.importorskip("numpy")
    from candlebox.rl import Spec

    folder = export(tmp_path / "face")
    path = folder / "candles.json"
    data = json.loads(path.read_text())
    data["colours"][4]["candles"][5] = {"face": 12, "sell": 6}  # the red 8 becomes a red 12
    path.write_text(json.dumps(data))
    spec = Spec.make(GAME, 3)
    out = np.zeros(spec.observation_size, dtype=np.float32)
    printed = candlebox.new_game(GAME, 3, seed=1, content=str(export(tmp_path / "printed")))
    spec.observe(printed, 0, out)  # the printed candles from a pack: encoded
    state = candlebox.new_game(GAME, 3, seed=1, content=str(folder), design=True)
    with pytest.raises(ValueError, match="knows the printed candles only"):
        spec.observe(state, 0, out)
