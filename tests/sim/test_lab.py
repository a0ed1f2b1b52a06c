"""The designer's lab: content packs exported for every game and read back, design packs (printed
values changed) refused without ``--design`` and accepted with it, errors naming the file and the
field, and the per-card statistics of the results table and the report."""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import candlebox
from candlebox import sim
from candlebox.games.candelabria.components import read_content
from candlebox.games.candle_quest.candles import read_candle_file
from candlebox.games.sixteen_candies.cards import read_deck_file
from candlebox.sim import cards
from tests.cli.conftest import run

GAMES = ("candelabria", "candle-quest", "sixteen-candies")


def export(game: str, folder: Path) -> Path:
    done = run("content", "export", game, str(folder))
    assert done.exit_code == 0, done.output
    return folder


def edit(folder: Path, name: str, change: Callable[[dict[str, Any]], None]) -> None:
    path = folder / name
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data, indent=1))


def satores(data: dict[str, Any]) -> dict[str, Any]:
    return next(h for h in data["houses"] if h["name"] == "Satores Order")


def one_less(data: dict[str, Any]) -> None:
    """Satores' Year III power (2 VP for each Curse territory) gives one less."""
    satores(data)["powers"][2]["amount"] = 1


# ----------------------------------------------------------------------------- export, read back
@pytest.mark.parametrize("game", GAMES)
def test_an_exported_pack_reads_back_as_the_shipped_data(game: str, tmp_path: Path) -> None:
    folder = export(game, tmp_path / "pack")
    packs = candlebox.game_info(game).content_packs()
    assert packs is not None
    readme = (folder / "README.md").read_text()
    for name in packs.files:
        assert (folder / name).is_file() and (
            folder / name.replace(".json", ".schema.json")
        ).is_file()
        assert f"## {name}" in readme
    assert (folder / "words.json").is_file()
    packs.check(str(folder), False)  # the printed game, as shipped
    if game == "candle-quest":
        assert read_candle_file(folder / "candles.json") == read_candle_file()
    elif game == "sixteen-candies":
        assert read_deck_file(folder / "deck.json") == read_deck_file()
    else:
        pack, shipped = read_content(folder), read_content()
        assert (pack.houses, pack.candles, pack.tactics, pack.tiles) == (
            shipped.houses,
            shipped.candles,
            shipped.tactics,
            shipped.tiles,
        )
        # The pack plays the shipped game: the same seed, the same game.
        played = candlebox.new_game(game, 3, seed=5, content=str(folder))
        assert played.view(None) == candlebox.new_game(game, 3, seed=5).view(None)
    # A second export never overwrites a designer's edits.
    again = run("content", "export", game, str(folder))
    assert again.exit_code == 2 and "already holds" in again.stderr


def test_the_readme_documents_every_field(tmp_path: Path) -> None:
    readme = (export("candelabria", tmp_path / "pack") / "README.md").read_text()
    assert "| `houses[].powers[].amount` | whole number (optional) |" in readme
    assert "a design pack may change it" in readme
    assert "| `sides[].regions[].territories[].id` | text |" in readme


# ----------------------------------------------------------------------------- design packs
def test_a_changed_power_is_refused_without_design_and_played_with_it(tmp_path: Path) -> None:
    folder = export("candelabria", tmp_path / "nerf")
    edit(folder, "houses.json", one_less)
    with pytest.raises(ValueError, match=r"houses\.json: houses\[2\]\.powers: Satores Order"):
        candlebox.new_game("candelabria", 3, content=str(folder))
    state = candlebox.new_game("candelabria", 3, content=str(folder), design=True)
    house = next(h for h in state.content.houses if h.name == "Satores Order")  # type: ignore[attr-defined]
    assert house.powers[2][2] == 1
    # At the command line: --design.
    refused = run("simulate", "candelabria", "-p", "3", "-n", "1", "-o", f"content={folder}")
    assert refused.exit_code == 2 and "houses.json: houses[2].powers" in refused.stderr
    done = run(
        "simulate", "candelabria", "-p", "3", "-n", "1", "-o", f"content={folder}", "--design"
    )
    assert done.exit_code == 0, done.output


@pytest.mark.parametrize(
    ("game", "file", "change", "field"),
    [
        (
            "candle-quest",
            "candles.json",
            lambda d: d["colours"][4]["candles"][0].update(face=9),
            "colours[4].candles[0].face",
        ),
        ("sixteen-candies", "deck.json", lambda d: d["wild"].update(penalty=3), "wild.penalty"),
    ],
)
def test_the_other_games_check_design_packs_too(
    game: str, file: str, change: Callable[[dict[str, Any]], None], field: str, tmp_path: Path
) -> None:
    folder = export(game, tmp_path / "pack")
    edit(folder, file, change)
    refused = run("content", "check", game, str(folder))
    assert refused.exit_code == 2
    assert f"{file}: " in refused.stderr and field in refused.stderr
    accepted = run("content", "check", game, str(folder), "--design")
    assert accepted.exit_code == 0, accepted.output
    # They play it: refused as printed, played in design mode; design mode needs a pack.
    refused = run("simulate", game, "-n", "1", "-o", f"content={folder}")
    assert refused.exit_code == 2 and field in refused.stderr
    done = run("simulate", game, "-n", "1", "-o", f"content={folder}", "--design")
    assert done.exit_code == 0, done.output
    alone = run("simulate", game, "-n", "1", "--design")
    assert alone.exit_code == 2 and "give the pack's folder as option 'content'" in alone.stderr


@pytest.mark.parametrize(
    ("file", "change", "message"),
    [
        (
            "houses.json",
            lambda d: satores(d)["powers"][2].update(amount=12),
            "houses.json: houses[2].powers[2].amount: an amount of 1–9, found 12",
        ),
        (
            "houses.json",
            lambda d: satores(d)["powers"][0].update(amount=3),
            "houses.json: houses[2].powers[0].amount: deploy-anywhere takes no amount",
        ),
        (
            "houses.json",
            lambda d: satores(d)["powers"][2].update(icon="inn"),
            "houses.json: houses[2].powers[2]: a design pack changes amounts only",
        ),
        (
            "upgrades.json",
            lambda d: d["tiles"][0].update(amount=10),
            "upgrades.json: tiles[0].amount: an amount of at most 9, found 10",
        ),
        (
            "candles.json",
            lambda d: d["advanced"][0].update(cost=10),
            "candles.json: advanced[0].cost: a wax cost of 0–9, found 10",
        ),
        ("tactics.json", lambda d: d["house"][0].update(house="Q"), "tactics.json: house[0].house"),
    ],
)
def test_design_keeps_the_structural_checks_and_names_file_and_field(
    file: str, change: Callable[[dict[str, Any]], None], message: str, tmp_path: Path
) -> None:
    folder = export("candelabria", tmp_path / "pack")
    edit(folder, file, change)
    done = run("content", "check", "candelabria", str(folder), "--design")
    assert done.exit_code == 2
    assert message in done.stderr.replace("\n", " ")


def test_design_needs_a_pack() -> None:
    with pytest.raises(ValueError, match="option 'design' plays a content pack"):
        candlebox.new_game("candelabria", 3, design=True)


def test_the_table_and_the_report_name_a_design_pack_by_its_hash(tmp_path: Path) -> None:
    base = export("candelabria", tmp_path / "base")
    nerf = export("candelabria", tmp_path / "nerf")
    edit(nerf, "houses.json", one_less)
    out = tmp_path / "lab.csv"
    done = run(
        "simulate",
        "candelabria",
        "-p",
        "3",
        "-n",
        "2",
        "--design",
        "--out",
        str(out),
        "--json",
        "--vary",
        f"content={base},{nerf}",
    )
    assert done.exit_code == 0, done.output
    rows = sim.read(out)
    hashes = {row["arm"]: row["pack"]["hash"] for row in rows}
    assert len(set(hashes.values())) == 2 and all(row["pack"]["design"] for row in rows)
    figures = json.loads(run("report", str(out), "--json").stdout)
    assert [a["content"] for a in figures["arms"]] == [f"design pack {h}" for h in hashes.values()]
    page = sim.build_report(rows, tmp_path / "report", [str(out)], plots=False)
    assert f"design pack {hashes[rows[-1]['arm']]}" in page.read_text()


def test_a_plain_table_has_no_pack() -> None:
    plan = sim.Plan("candle-quest", 2, None, {}, (sim.Seat("random"),) * 2, 1)
    (row,) = sim.run_local(plan)
    assert row["pack"] == {}


# ----------------------------------------------------------------------------- per card
def test_every_game_records_what_each_seat_used() -> None:
    for game, how in (
        ("candelabria", "played"),
        ("candle-quest", "bought"),
        ("sixteen-candies", "held"),
    ):
        players = 3
        plan = sim.Plan(game, players, None, {}, (sim.Seat("random"),) * players, 2)
        rows = sim.run_local(plan)
        assert all(len(row["uses"]) == players for row in rows), game
        assert any(row["uses"][seat].get(how) for row in rows for seat in range(players)), game
        codes = set(candlebox.components(game, players=players))
        used = {c for row in rows for seat in row["uses"] for found in seat.values() for c in found}
        assert used <= codes, (game, used - codes)


def test_a_strengthened_card_shows_a_positive_lift(tmp_path: Path) -> None:
    """Satores' first House Candle (S1) is made free and worth 9 VP: seats that play it must win more
    than their baseline, and the report must say so; the test fails if the hook records nothing."""
    folder = export("candelabria", tmp_path / "strong")

    def strong(data: dict[str, Any]) -> None:
        card = next(c for c in data["house"] if c["code"] == "S1")
        card.update(cost=0, effects={"vp": 9})

    edit(folder, "candles.json", strong)
    out = tmp_path / "strong.csv"
    done = run(
        "simulate",
        "candelabria",
        "-p",
        "3",
        "-n",
        "120",
        "--bots",
        "random",
        "-o",
        f"content={folder}",
        "--out",
        str(out),
        "--json",
    )
    assert done.exit_code == 0, done.output
    found = {(c.how, c.code): c for c in cards.card_stats(sim.read(out))}
    s1 = found[("played", "S1")]
    assert s1.lift > 0 and s1.low > 0, s1
    assert s1.outlier, s1
    figures = json.loads(run("report", str(out), "--json").stdout)
    assert figures["card_correction"] == "Benjamini–Hochberg"
    entry = next(c for c in figures["cards"] if c["code"] == "S1" and c["how"] == "played")
    assert entry["name"] and entry["ci"][0] > 0 and entry["outlier"]
    assert entry["finding"].startswith(f"Played {entry['name']}: seats that did won")
    listed = [(not c["tested"], -c["lift"]) for c in figures["cards"] if c["arm"] == ""]
    assert listed == sorted(listed)  # the tested first, each part by lift
    assert all(-1 <= c["ci"][0] <= c["ci"][1] <= 1 for c in figures["cards"])  # no infinities


def test_benjamini_hochberg_on_a_known_example() -> None:
    # Benjamini and Hochberg's procedure, by hand: p * m / rank, then the running minimum from the top.
    adjusted = cards.benjamini_hochberg([0.01, 0.04, 0.03, 0.2])
    assert adjusted == pytest.approx([0.04, 0.0533333, 0.0533333, 0.2], rel=1e-5)


def test_a_table_written_before_uses_and_pack_reads_with_them_empty(tmp_path: Path) -> None:
    plan = sim.Plan("candle-quest", 2, None, {}, (sim.Seat("random"),) * 2, 2)
    rows = sim.run_local(plan)
    path = tmp_path / "new.csv"
    sim.write(rows, path)
    assert sim.read(path) == rows and any(row["uses"] for row in rows)
    with path.open(newline="") as handle:
        stored = list(csv.DictReader(handle))
    old = tmp_path / "old.csv"  # the same table without the two new columns
    columns = [name for name in sim.COLUMNS if name not in ("uses", "pack")]
    with old.open("w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns, extrasaction="ignore")
        writer.writeheader()
        writer.writerows(stored)
    assert [(r["uses"], r["pack"]) for r in sim.read(old)] == [([], {})] * 2


def test_a_table_without_uses_has_no_card_statistics() -> None:
    plan = sim.Plan("candle-quest", 2, None, {}, (sim.Seat("random"),) * 2, 3)
    rows = [{k: v for k, v in row.items() if k != "uses"} for row in sim.run_local(plan)]
    assert cards.card_stats(rows) == []
