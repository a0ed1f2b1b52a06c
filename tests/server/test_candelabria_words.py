"""The Curse of Candelabria's log and option words say the right thing, in the server's sentences
(``server.sentences``) and at the terminal (``cli.render``), which both read the game's text capability: the receiver of a house candle, the Upgrade piles
numbered as on the board, a Land Flame ignited, and the 2-player ``first_player``."""

from __future__ import annotations

import io
import random
from typing import Any

import pytest
from rich.console import Console

import candlebox
from candlebox.cli import render
from candlebox.cli.listing import options_table
from candlebox.games.candelabria.text import candelabria_line
from candlebox.server.sentences import entry_text


@pytest.fixture(scope="module")
def played() -> candlebox.State:
    """A whole 3-player game of random moves: three Mists, Forge purchases, ignited Land Flames."""
    state = candlebox.new_game("candelabria", players=3, seed=3)
    rng = random.Random(1)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def _entries(state: candlebox.State, kind: str) -> list[dict[str, Any]]:
    found = [e for e in state.log(None) if e["event"] == kind]
    assert found, kind
    return found


def _terminal(entry: dict[str, Any]) -> str:
    return render.event_line("candelabria", entry)


def test_a_house_candle_is_said_to_go_to_its_receiver(played: candlebox.State) -> None:
    houses = [s["house"] for s in played.view(None)["seats"]]
    entries = _entries(played, "house-candle")
    assert {e["drawer"] for e in entries} != {e["seat"] for e in entries}, "not all the drawer's"
    for entry in entries:
        receiver = houses.index(entry["card"][0])  # a house candle's code starts with its house
        assert candelabria_line(entry) == f"seat {receiver} gets house candle {entry['card']}."
        assert entry_text("candelabria", entry)["text"] == candelabria_line(entry)
        assert _terminal(entry) == candelabria_line(entry)


def test_upgrade_piles_are_numbered_as_on_the_board(played: candlebox.State) -> None:
    bought = [a for _, a in played.history if a.startswith("upgrade ")]  # "upgrade P", P = 1-9
    entries = _entries(played, "upgrade")
    assert [e["pile"] for e in entries if e["gold"]] == [int(a.split()[1]) for a in bought]
    for entry in entries:
        assert 1 <= entry["pile"] <= 9
        words = f"buys upgrade {entry['tile']} from pile {entry['pile']}."
        assert candelabria_line(entry) == f"seat {entry['seat']} {words}"
        assert f"pile {entry['pile']}" in _terminal(entry)


def test_an_ignited_land_flame_has_role_land(played: candlebox.State) -> None:
    entries = _entries(played, "ignite")
    land = [e for e in entries if e["territory"]]
    assert land and all(e["role"] == "land" for e in land)
    assert all(e["role"] in ("E", "P", "W") for e in entries if not e["territory"])
    for entry in land:
        assert candelabria_line(entry) == (
            f"seat {entry['seat']} ignites a Land Flame on {entry['territory']}."
        )
        assert _terminal(entry) == candelabria_line(entry)


def test_first_player_help_says_what_it_does_with_two_players(client: Any) -> None:
    def doc(variant: str) -> str:
        return candlebox.game_info("candelabria").variant(variant).option("first_player").doc

    assert "chooses its house first" in doc("two-player")
    assert "lowest turn-order number" not in doc("two-player")
    assert "lowest turn-order number" in doc("standard")
    # the server's catalogue and the terminal's list of options carry each variant's own words
    meta = client.get("/api/meta").json()
    game = next(g for g in meta["games"] if g["id"] == "candelabria")
    served = {
        v["name"]: next(o["doc"] for o in v["options"] if o["name"] == "first_player")
        for v in game["variants"]
    }
    assert served == {"standard": doc("standard"), "two-player": doc("two-player")}
    out = io.StringIO()
    Console(file=out, width=400).print(options_table(candlebox.variants("candelabria")))
    text = " ".join(out.getvalue().split())
    assert "chooses its house first" in text and "(two-player only)" in text
