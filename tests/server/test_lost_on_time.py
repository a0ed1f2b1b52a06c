"""A rated game lost on time (issue 35; candlebox/server/timeloss.py) is stored and shown as lost on
time, never as a resignation: the stored status and result, the frame's result and end-screen
standings, the saved game (which ``candlebox replay --verify`` accepts as ending there), the
profile's recent games and the ratings; the same after a restart."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from candlebox.cli.app import app as cli
from candlebox.server.storage import Storage
from tests.server.clocking import NAMES, FakeTime, lost_on_time
from tests.server.conftest import make_client, state


def test_a_rated_game_lost_on_time_is_stored_and_shown_so(
    sqlite_url: str, fake_time: FakeTime, tmp_path: Path
) -> None:
    with make_client(sqlite_url, clock_now=fake_time, clock_every=0.02) as client:
        game_id, late = lost_on_time(client, fake_time)
        winner = 1 - late
        expected = {
            "winners": [winner],
            "scores": [0.0 if n == late else 1.0 for n in (0, 1)],
            "out_of_time": late,
        }
        storage = Storage(sqlite_url)
        try:
            loaded = storage.load_game(game_id)
        finally:
            storage.close()
        assert loaded is not None
        assert (loaded[0].status, loaded[0].result) == ("lost-on-time", expected)

        frame = state(client, game_id)
        assert frame["over"] is True and frame["result"] == expected
        standings = frame["standings"]
        assert standings["summary"] == (
            f"{NAMES[late]} ran out of time at move {frame['move']}, so {NAMES[winner]} wins."
        )
        assert [(r["seat"], r["rank"], r["winner"]) for r in standings["rows"]] == [
            (winner, 1, True),
            (late, 2, False),
        ]

        saved = client.get(f"/api/games/{game_id}/saved").json()
        assert saved["out_of_time"] == late and "resigned" not in saved
        path = tmp_path / "lost.json"
        path.write_text(json.dumps(saved))
        checked = CliRunner().invoke(cli, ["replay", str(path), "--verify"])
        said = " ".join(checked.output.split())
        assert checked.exit_code == 0, checked.output
        assert f"until seat {late} ran out of time after move" in said

        for name, won in ((NAMES[late], False), (NAMES[winner], True)):
            profile = client.get(f"/api/players/{name}").json()
            assert [(r["rated_games"], r["won"]) for r in profile["ratings"]] == [(1, int(won))]
            recent = profile["recent"]
            assert [(g["id"], g["won"], g["out_of_time"]) for g in recent] == [(game_id, won, late)]
            assert recent[0]["resigned"] is None

    with make_client(sqlite_url, clock_now=fake_time) as client:  # restarted: the same end
        again = state(client, game_id)
        assert again["over"] is True and again["result"] == expected
        assert again["standings"]["summary"].startswith(f"{NAMES[late]} ran out of time")
