"""The content pack: schemas in sync, the shipped data meets the rulebook, every check refuses a bad file
with a message naming the file and the field, and ``content=`` loads a user's own folder."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from candlebox.games import candelabria
from candlebox.games.candelabria.board import Board
from candlebox.games.candelabria.checks import ContentError, sketch_borders
from candlebox.games.candelabria.components import load_content, read_content
from candlebox.games.candelabria.schema import CONTENT, FILES, schema

SHIPPED = load_content()


@pytest.mark.parametrize("name", FILES)
def test_shipped_schema_files_match_the_loader(name: str) -> None:
    assert json.loads((CONTENT / f"{name}.schema.json").read_text()) == schema(name)


@pytest.mark.parametrize("name", FILES)
def test_every_file_is_marked_reconstructed_with_a_note(name: str) -> None:
    data = json.loads((CONTENT / f"{name}.json").read_text())
    assert data["reconstructed"] is True
    assert len(data["about"]) > 80


def test_the_shipped_board_fits_the_house_start_table() -> None:
    large = Board(SHIPPED.sides["large"])
    small = Board(SHIPPED.sides["small"])
    assert len(large.regions) == 10 and large.turn_track == 5 and large.size == 30
    assert len(small.regions) == 8 and small.turn_track == 3 and small.size == 24
    icons = Counter(large.icon)
    assert set(icons.values()) == {5}, "five territories of each icon on the large side"

    def icons_of(board: Board, region: int) -> set[str]:
        from candlebox.games.candelabria.schema import ICONS

        return {ICONS[board.icon[t]] for t in board.region_terr[region]}

    for board in (large, small):
        assert "forge" in icons_of(board, 8)  # Cinis castle
        assert "curse" in icons_of(board, 2)  # Rota Aurea castle
        assert "curse" in icons_of(board, 3)  # Satores castle
        assert {"inn", "portal"} <= icons_of(board, 4)  # Nova Vita
    assert {"inn", "portal"} <= icons_of(large, 9)  # Luminis
    for region in small.regions:
        if region != 6:
            assert "mine" in icons_of(small, region), "2-player mode: a Mine in every curse region"


def test_the_map_is_the_sketch_and_region_6_is_central() -> None:
    for side in SHIPPED.sides.values():
        assert sketch_borders(side.sketch) == {(min(a, b), max(a, b)) for a, b in side.borders}
    large = Board(SHIPPED.sides["large"])
    touching: dict[int, set[int]] = {r: set() for r in large.regions}
    for t in range(large.size):
        for u in large.adj[t]:
            if large.region[u] != large.region[t]:
                touching[large.region[t]].add(large.region[u])
    assert touching[6] == {2, 4, 5, 7, 8}
    assert len(large.bridges) == 3
    names = large.names
    assert {(names[a], names[b]) for a, b in large.bridges} == {
        ("4b", "7a"),
        ("5c", "8c"),
        ("8b", "9c"),
    }


def test_the_shipped_cards_have_the_printed_counts() -> None:
    assert len(SHIPPED.common_tactics) == 75
    assert all(len(cards) == 3 for cards in SHIPPED.house_tactics)
    assert len(SHIPPED.candles) == 75 and len(SHIPPED.advanced) == 50
    for h in range(5):
        assert {y: len(cs) for y, cs in SHIPPED.house_candles[h].items()} == {1: 3, 2: 1, 3: 1}
    assert len(SHIPPED.all_tiles) == 36
    years = Counter(SHIPPED.tiles[t].year for t in SHIPPED.all_tiles)
    assert years == Counter({1: 10, 2: 11, 3: 15})
    assert sorted(k.region for k in SHIPPED.curses) == [1, 2, 3, 4, 5, 7, 8, 9, 10]
    assert sum(SHIPPED.temples) == 18 and SHIPPED.reserve == (50, 50)


def test_the_printed_example_cards_exist() -> None:
    from candlebox.games.candelabria.schema import EFFECTS

    c1 = SHIPPED.candles[SHIPPED.candle_index["C1"]]
    assert (c1.cost, c1.year) == (1, 1)
    assert {EFFECTS[i]: n for i, n in c1.effects} == {"vp": 1, "tactic": 1}
    lu1 = SHIPPED.candles[SHIPPED.candle_index["L1"]]
    assert lu1.year == 1 and any(EFFECTS[i] == "extinguish" for i, _ in lu1.effects)
    for code in ("1I1X", "2I1X", "3X", "1I2S!", "C-1X1V", "N-3I1X"):
        assert code in SHIPPED.tactic_index
    assert SHIPPED.tactics[SHIPPED.tactic_index["1I2S!"]].no_cancel


# ----------------------------------------------------------------------------- every check, refused
def _copy(tmp_path: Path) -> Path:
    folder = tmp_path / "pack"
    shutil.copytree(CONTENT, folder)
    return folder


def _edit(folder: Path, name: str, change: Callable[[Any], None]) -> None:
    path = folder / f"{name}.json"
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


def _large(d: Any) -> Any:
    return next(s for s in d["sides"] if s["key"] == "large")


def _small(d: Any) -> Any:
    return next(s for s in d["sides"] if s["key"] == "small")


def _region(side: Any, number: int) -> Any:
    return next(r for r in side["regions"] if r["number"] == number)


def _drop_sketch(d: Any) -> None:
    for side in d["sides"]:
        side["sketch"] = []


def _cut_off_the_east(d: Any) -> None:
    """Regions 7 and 8 of the small side left with no way in."""
    _drop_sketch(d)
    small = _small(d)
    for pair in (["6a", "7c"], ["6c", "7c"], ["6c", "8a"]):
        small["borders"].remove(pair)
    small["bridges"] = []


BAD: list[tuple[str, Callable[[Any], None], str]] = [
    # board.json
    ("board", lambda d: d["sides"].pop(), "one large and one small side"),
    ("board", lambda d: _large(d)["regions"].pop(), "the large side has 10 regions"),
    ("board", lambda d: _small(d).update(turn_track=4), "turn order track has 3 spaces"),
    ("board", lambda d: _small(d).update(players=[3]), "is for [2, 3] players"),
    ("board", lambda d: _region(_large(d), 7).update(number=11), "numbered 1–10"),
    ("board", lambda d: _region(_large(d), 1)["territories"].pop(), "every region has 3"),
    (
        "board",
        lambda d: _region(_large(d), 1)["territories"][0].update(id="x1"),
        "region number and a letter",
    ),
    (
        "board",
        lambda d: _region(_large(d), 1)["territories"][0].update(icon="tavern"),
        "Invalid enum value 'tavern'",
    ),
    (
        "board",
        lambda d: _region(_small(d), 5)["territories"][1].update(icon="inn"),
        "no Mine territory",
    ),
    ("board", lambda d: _region(_small(d), 5).update(half=None), "needs a half"),
    ("board", lambda d: _large(d)["borders"].append(["1a", "99z"]), "'99z' is not a territory"),
    ("board", lambda d: _large(d)["borders"].append(["1a", "1a"]), "cannot border itself"),
    ("board", lambda d: _large(d)["borders"].append(["1b", "1a"]), "listed twice"),
    ("board", lambda d: _large(d)["bridges"].append(["1a", "1b"]), "both in region 1"),
    ("board", lambda d: _large(d)["bridges"].append(["1b", "2a"]), "already share a border"),
    ("board", lambda d: _cut_off_the_east(d), "reachable"),
    (
        "board",
        lambda d: (
            _drop_sketch(d),
            _large(d)["borders"].remove(["1a", "1b"]),
            _large(d)["borders"].remove(["1a", "1c"]),
        ),
        "joined by borders",
    ),
    (
        "board",
        lambda d: _large(d)["borders"].remove(["1a", "1b"]),
        "the sketch and the borders disagree",
    ),
    (
        "board",
        lambda d: (
            _drop_sketch(d),
            _large(d)["borders"].remove(["6a", "7c"]),
            _large(d)["borders"].remove(["6c", "7c"]),
            _large(d)["borders"].remove(["6c", "8a"]),
        ),
        "region 6 is the central region",
    ),
    ("board", lambda d: d.update(extra=1), "unknown field"),
    # houses.json
    ("houses", lambda d: d["houses"][0].update(name="Cinder Clan"), "the five houses are"),
    ("houses", lambda d: d["houses"][1].update(code="C"), "distinct capital letters"),
    ("houses", lambda d: d["houses"][0].update(turn_order=3), "number 2 on the turn order track"),
    ("houses", lambda d: d["houses"][0]["start"].update(region=7), "Cinis Clan starts in region 8"),
    (
        "houses",
        lambda d: d["houses"][0]["start"].update(castle="mine"),
        "castle starts on the forge",
    ),
    ("houses", lambda d: d["houses"][3]["start"].update(no_flame=[]), "leaves ['portal'] without"),
    ("houses", lambda d: d["houses"][4]["start"].update(temple="grey"), "starts with black temple"),
    ("houses", lambda d: d["houses"][2]["powers"][0].update(year=2), "powers are printed as"),
    # curses.json
    ("curses", lambda d: d["cards"][0].update(region=6), "each region but 6"),
    ("curses", lambda d: d["cards"][1].update(effect="ignite-2"), "nine printed curse effects"),
    ("curses", lambda d: d["cards"][1].update(effect="plague"), "Invalid enum value 'plague'"),
    # tactics.json
    ("tactics", lambda d: d["common"][0].update(copies=5), "75 common Tactic cards, found 74"),
    ("tactics", lambda d: d["common"][0].update(house="C"), "no house logo"),
    ("tactics", lambda d: d["common"][0].update(effects={}), "between 1 and 6 different effects"),
    ("tactics", lambda d: d["common"][0].update(effects={"ignite": 0}), "a count of 1–9"),
    (
        "tactics",
        lambda d: d["common"][1].update(effects={"ignite": 1, "extinguish": 1}),
        "listed twice",
    ),
    ("tactics", lambda d: d["house"][0].update(house="Z"), "'Z' is not a house code"),
    ("tactics", lambda d: d["house"][0].update(house="R"), "house C has 3 house Tactic cards"),
    ("tactics", lambda d: d["war_boards"].pop(), "one War Board per house"),
    ("tactics", lambda d: d["war_boards"][0]["slots"].pop(), "two reduced effects"),
    (
        "tactics",
        lambda d: d["war_boards"][1].update(slots=d["war_boards"][0]["slots"]),
        "different combination",
    ),
    ("tactics", lambda d: d["common"][0]["effects"].update(smite=1), "Invalid enum value 'smite'"),
    # candles.json
    ("candles", lambda d: d["house"][1].update(code="C1"), "distinct code"),
    ("candles", lambda d: d["house"][0].update(cost=-1), "a wax cost of 0–9"),
    ("candles", lambda d: d["house"][0].update(year=4), "year 1, 2 or 3"),
    (
        "candles",
        lambda d: d["house"][0].update(effects={"vp": 1, "ignite": 1, "steal": 1}),
        "between 1 and 2",
    ),
    ("candles", lambda d: d["house"][0].update(house="Q"), "'Q' is not a house code"),
    ("candles", lambda d: d["house"][0].update(year=2), "three Year I, one Year II, one Year III"),
    ("candles", lambda d: d["advanced"].pop(), "50 Advanced Candle cards"),
    ("candles", lambda d: d["advanced"][0].update(house="C"), "no house logo"),
    # upgrades.json
    ("upgrades", lambda d: d["tiles"].pop(), "36 Upgrade tiles, found 35"),
    ("upgrades", lambda d: d["tiles"][1].update(code="1-steal"), "twice"),
    ("upgrades", lambda d: d["tiles"][0].update(year=0), "year 1, 2 or 3"),
    ("upgrades", lambda d: d["tiles"][0].update(copies=0), "at least 1"),
    ("upgrades", lambda d: d["tiles"][0].update(icon="mine"), "takes no icon"),
    ("upgrades", lambda d: d["tiles"][10].pop("icon"), "needs icon"),
    ("upgrades", lambda d: d["tiles"][0].pop("amount"), "needs an amount"),
    (
        "upgrades",
        lambda d: d["tiles"][0].update(effect="deploy-vp", copies=1),
        "deploy-steal 1 is missing",
    ),
    (
        "upgrades",
        lambda d: [t.update(year=2) for t in d["tiles"] if t["year"] == 3],
        "at least one Year III",
    ),
    ("upgrades", lambda d: d["tiles"][0].update(effect="fly"), "Invalid enum value 'fly'"),
    # components.json
    ("components", lambda d: d["temples"].update(white=7), "18 Temple levels"),
    ("components", lambda d: d["temples"].update(white=0, grey=12), "three colours"),
    ("components", lambda d: d["reserve"].update(gold=40), "50 Gold"),
    ("components", lambda d: d["reserve"].update(wax="many"), "Expected `int`"),
]


@pytest.mark.parametrize(
    ("name", "change", "message"), BAD, ids=[f"{b[0]}-{i}" for i, b in enumerate(BAD)]
)
def test_a_bad_content_file_is_refused_naming_file_and_field(
    tmp_path: Path, name: str, change: Callable[[Any], None], message: str
) -> None:
    folder = _copy(tmp_path)
    _edit(folder, name, change)
    with pytest.raises(ContentError, match=f"^{name}.json: ") as refused:
        read_content(folder)
    assert message in str(refused.value)


def test_a_missing_file_or_folder_is_refused(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    (folder / "curses.json").unlink()
    with pytest.raises(ContentError, match=r"curses\.json: cannot be read"):
        read_content(folder)
    with pytest.raises(ContentError, match="does not exist"):
        read_content(tmp_path / "nowhere")
    (folder / "curses.json").write_text("{not json")
    with pytest.raises(ContentError, match=r"curses\.json: not valid JSON"):
        read_content(folder)


def test_the_content_option_loads_a_users_folder(tmp_path: Path) -> None:
    folder = _copy(tmp_path)
    _edit(folder, "board", lambda d: _region(_large(d), 9).update(colour="emerald"))
    _edit(folder, "candles", lambda d: d["house"][0].update(cost=0))
    game = candelabria.new_game(players=4, seed=1, content=str(folder))
    assert next(r for r in game.view(None)["regions"] if r["region"] == 9)["colour"] == "emerald"
    assert game.content.candles[game.content.candle_index["C1"]].cost == 0
    again = candelabria.load(json.loads(json.dumps(game.to_json())))
    assert again.to_json() == game.to_json()
    with pytest.raises(ContentError, match="does not exist"):
        candelabria.new_game(players=4, seed=1, content=str(tmp_path / "nowhere"))
    with pytest.raises(ValueError, match="option 'content' takes a folder path"):
        candelabria.new_game(players=4, seed=1, content=3)
