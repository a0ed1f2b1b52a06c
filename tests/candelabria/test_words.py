"""Words for The Curse of Candelabria: every code a game shows has a name and a text in the words of
its configuration; the words file is checked against the content."""

from __future__ import annotations

import json
import random
import re
import shutil
from pathlib import Path

import pytest

import candlebox
from candlebox.engine.words import WordsError, schema
from candlebox.games.candelabria import words
from candlebox.games.candelabria.board import board_for
from candlebox.games.candelabria.components import load_content
from candlebox.games.candelabria.schema import CONTENT, ICONS
from candlebox.games.candelabria.text import candelabria_line, moves_left


def test_the_shipped_words_match_the_content() -> None:
    table = words.read(CONTENT / "words.json", load_content())
    assert table["1I2S!"].reconstructed
    assert not table["house:C"].reconstructed
    assert not table["C1"].reconstructed  # the rulebook's deploy example prints it
    assert table["C2"].reconstructed


def test_words_follow_the_content_data() -> None:
    table = candlebox.components("candelabria", decay=True, missions=True)
    assert table["N-3I1X"]["text"].startswith("Nova Vita Coven only: Ignite 3 and Extinguish 1")
    assert "cannot cancel" in table["1I2S!"]["text"]
    assert "Year II on" in table["C4"]["text"]
    assert table["2-mine"]["text"].startswith("Costs 2 gold. From Year II on")
    assert "region 5" in table["curse:5"]["text"]
    assert "first place in the turn order" in table["curse:5"]["text"]


def test_options_decide_which_codes_are_listed() -> None:
    plain = candlebox.components("candelabria", players=4)
    assert "D1" not in plain and "Y1" not in plain
    full = candlebox.components("candelabria", players=4, decay=True, missions=True)
    assert {"D1", "D16", "Y1", "K12"} <= set(full)
    three = candlebox.components("candelabria", players=3)
    assert "curse:9" not in three and "curse:8" in three  # the small side has regions 1-8
    assert "house:L" not in three and "L1" not in three and "L-3I" not in three
    chosen = candlebox.components(
        "candelabria", players=4, houses=["C", "Rota", "S", "nova vita coven"]
    )
    assert {"house:C", "house:R", "house:S", "house:N"} <= set(chosen)
    assert "house:L" not in chosen and "power:L1" not in chosen


def test_a_bad_configuration_is_refused_as_new_game_does() -> None:
    with pytest.raises(ValueError, match="unknown option 'decks2'"):
        candlebox.components("candelabria", decks2={})
    with pytest.raises(ValueError, match="not 7"):
        candlebox.components("candelabria", players=7)


def test_a_content_pack_without_words_uses_the_shipped_ones(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(CONTENT, pack)
    (pack / "words.json").unlink()
    assert candlebox.components("candelabria", content=str(pack)) == candlebox.components(
        "candelabria"
    )


def test_a_content_pack_with_a_card_the_words_lack_is_named(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(CONTENT, pack)
    data = json.loads((pack / "candles.json").read_text())
    data["advanced"][0]["code"] = "A99"
    (pack / "candles.json").write_text(json.dumps(data))
    (pack / "words.json").unlink()
    with pytest.raises(WordsError, match="no words for 'A99'"):
        candlebox.components("candelabria", content=str(pack))


def test_a_content_pack_with_its_own_broken_words_is_named(tmp_path: Path) -> None:
    pack = tmp_path / "pack"
    shutil.copytree(CONTENT, pack)
    data = json.loads((pack / "words.json").read_text())
    data["entries"] = [e for e in data["entries"] if e["code"] != "war-board:N2"]
    (pack / "words.json").write_text(json.dumps(data))
    with pytest.raises(
        WordsError, match=r"words.json: code 'war-board:N2' \(war-board\): no entry"
    ):
        candlebox.components("candelabria", content=str(pack))


def test_an_unmarked_reconstruction_is_named(tmp_path: Path) -> None:
    data = json.loads((CONTENT / "words.json").read_text())
    for entry in data["entries"]:
        if entry["code"] == "curse:5":
            del entry["reconstructed"]
        if entry["code"] == "house:C":
            entry["reconstructed"] = True
    path = tmp_path / "words.json"
    path.write_text(json.dumps(data))
    with pytest.raises(WordsError) as err:
        words.read(path, load_content())
    assert "code 'curse:5': its data is reconstructed; mark it so" in str(err.value)
    assert "code 'house:C': its data is printed, not reconstructed" in str(err.value)


def test_the_schema_file_is_current() -> None:
    folder = Path(words.__file__).parent / "content"
    assert json.loads((folder / "words.schema.json").read_text()) == schema()


BORDERS = re.compile(r"Borders ([^.]+)\.")
BRIDGES = re.compile(r"A bridge links it to ([^.]+)\.")


def _named(match: re.Match[str] | None) -> set[str]:
    return set(re.split(r", | and ", match.group(1))) if match else set()


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_each_territory_lists_what_the_board_says_borders_it(players: int) -> None:
    table = candlebox.components("candelabria", players=players)
    board = board_for(load_content(), "small" if players <= 3 else "large")
    bridges = {frozenset(b) for b in board.bridges}
    for t, code in enumerate(board.names):
        entry = table[code]
        kind = words.ICON_SHORT[ICONS[board.icon[t]]]
        assert entry["name"].startswith(f"Territory {code} (region {board.region[t]}, ")
        text = entry["text"]
        over = {board.names[n] for n in board.adj[t] if frozenset((t, n)) in bridges}
        assert _named(BRIDGES.search(text)) == over
        assert _named(BORDERS.search(text)) | over == {board.names[n] for n in board.adj[t]}
        assert text.startswith(kind.partition(":")[0] + ":")


def test_territories_come_from_the_side_the_player_count_uses() -> None:
    small = candlebox.components("candelabria", players=3)
    large = candlebox.components("candelabria", players=4)
    # the two sides name territories alike but differ in kind and borders
    assert small["1b"]["name"] == "Territory 1b (region 1, Mine)"
    assert large["1b"]["name"] == "Territory 1b (region 1, Curse Influence)"
    assert "10a" in large and "10a" not in small and "9a" not in small
    assert "Castle start of the Cinis Clan." in large["8b"]["text"]
    assert "White Temple" in large["4c"]["text"]
    # without a player count the standard game could be on either side: each says both
    either = candlebox.components("candelabria")
    assert either["1b"]["name"] == "Territory 1b"
    assert "On the 8-region side (3 players): region 1, Mine. Mine:" in either["1b"]["text"]
    assert "On the 10-region side (4–5 players): region 1, Curse Influence." in either["1b"]["text"]
    assert either["10a"]["text"].startswith("On the 10-region side (4–5 players): region 10,")
    two = candlebox.components("candelabria", "two-player")
    assert "move a curse standee" in two["2a"]["text"]
    assert "move a curse standee" not in small["2a"]["text"]


@pytest.mark.parametrize(("players", "variant"), [(2, "two-player"), (3, "standard")])
def test_moves_left_are_counted_in_words(players: int, variant: str) -> None:
    """ "1 move left", never "1 moves left": a maneuver's and a 2-player haunt's prompt, and the
    words the others read while a seat maneuvers."""
    assert (moves_left(0), moves_left(1), moves_left(2)) == (
        "0 moves left",
        "1 move left",
        "2 moves left",
    )
    pick = random.Random(players)
    seen: set[str] = set()
    for seed in range(6):
        state = candlebox.new_game("candelabria", players=players, variant=variant, seed=seed)
        while not state.is_over and len(state.history) < 400:
            seat = state.to_act[0]
            pending = state.pending() or {}
            decision = pending.get("decision")
            left = pending.get("moves_left", pending.get("count"))
            for viewer in (seat, None):
                text = state.prompt(viewer)
                assert not re.search(r"\b1 moves\b", text), text
            if decision in ("move", "haunt") and left == 1:
                assert "(1 move left)" in state.prompt(seat), state.prompt(seat)
                seen.add(str(decision))
            state.apply(seat, pick.choice(state.legal_actions(seat)))
    assert "move" in seen  # the check above ran on a maneuver with one move left


# A Tactic card's face: how many of each icon (the page's tiles read "1 Ignite", "2 Steal")
FACE = {
    "V": "VP",
    "I": "Ignite",
    "X": "Extinguish",
    "S": "Steal",
    "T": "Draw tactic",
    "D": "Destroy temple",
}


def test_a_tactic_is_named_by_what_its_face_shows() -> None:
    """A new player read "Taper reveals Tactic 1I1S" and "takes tactic 1I2S!" in the notices: a
    tactic's name says its icons as its tile does, and the rulebook's circle with a slash in words."""
    shipped = json.loads((CONTENT / "words.json").read_text())
    tactics = [e for e in shipped["entries"] if e["kind"] == "tactic"]
    assert tactics
    for entry in tactics:
        code = entry["code"].split("-")[-1]
        assert not re.search(r"\d[VIXSTD]", entry["name"]), entry["name"]
        for count, letter in re.findall(r"(\d)([VIXSTD])", code):
            assert f"{count} {FACE[letter]}" in entry["name"], entry["name"]
        assert ("cannot cancel" in entry["name"]) == code.endswith("!"), entry["name"]


def test_taking_a_tactic_reads_well_once_its_name_replaces_the_code() -> None:
    """A notice puts the card's name in place of its code (the page's words.plain): "takes tactic
    Tactic card: 2 VP" said "tactic" twice."""
    line = candelabria_line({"event": "take", "seat": 1, "card": "2V"})
    assert line is not None and "2V" in line
    name = words.components("standard", {}, players=3)["2V"]["name"]
    noticed = line.replace("2V", name)
    assert noticed.lower().count("tactic") == 1, noticed


def test_a_reveal_says_which_war_board_slot_was_left_empty() -> None:
    """ "Taper reveals —, 1T1V." left a new player guessing what the dash was: each War Board slot is
    named, an empty one as empty."""
    line = candelabria_line({"event": "reveal", "seat": 1, "cards": [None, "1T1V"]})
    assert line == "seat 1 reveals: slot 1 empty; slot 2 1T1V."
    line = candelabria_line({"event": "reveal", "seat": 1, "cards": [None, None]})
    assert line == "seat 1 reveals: slot 1 empty; slot 2 empty."


def test_an_extinguished_land_flame_goes_somewhere_a_person_would_say() -> None:
    """Issue 36: "Wick puts the extinguished Land Flame: supply." read as a note, not a sentence."""
    line = candelabria_line({"event": "flame", "seat": 1, "curse": "supply"})
    assert line == "seat 1 puts the extinguished Land Flame back in the supply."
    line = candelabria_line({"event": "flame", "seat": 1, "curse": 2})
    assert line == "seat 1 puts the extinguished Land Flame in front of Curse 2."
