"""The how-to-play data of every game (issue 14): every decision and move kind links to a section that
exists, every logged event is explained or marked as bookkeeping, the learn setup is a real
configuration, and the rulings agree with docs/rulings.md."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

import candlebox
from candlebox.engine.howto import codes_in, explain_options, how_to_play, rule_link, slug
from candlebox.games.candelabria import text as candelabria_text
from candlebox.games.candelabria.decision import IDLE
from candlebox.games.candelabria.decision import NAMES as CA_NAMES
from candlebox.games.candelabria.decision import Phase as CAPhase
from candlebox.games.candle_quest import text as cq_text
from candlebox.games.candle_quest.decision import NAMES as CQ_NAMES
from candlebox.games.sixteen_candies import text as sc_text
from candlebox.games.sixteen_candies.decision import NAMES as SC_NAMES
from tests.learn import rulings

GAMES = ("candle-quest", "sixteen-candies", "candelabria")
DECISIONS = {
    "candle-quest": set(CQ_NAMES.values()),
    "sixteen-candies": set(SC_NAMES.values()),
    "candelabria": {CA_NAMES[p] for p in CAPhase if p not in IDLE},
}
EVENTS = {
    "candle-quest": set(cq_text.LINES),
    "sixteen-candies": set(sc_text.LINES),
    "candelabria": set(candelabria_text._CANDELABRIA),
}
SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"


@pytest.mark.parametrize("game", GAMES)
def test_every_decision_and_move_kind_links_to_a_section(game: str) -> None:
    howto = how_to_play(game)
    for name in DECISIONS[game]:
        assert name in howto.decisions, f"{game}: decision {name!r} has no section"
    for key, anchor in howto.decisions.items():
        assert key.split("?")[0] in DECISIONS[game], f"{game}: {key!r} is no decision"
        assert anchor in howto.sections, f"{game}: {key!r} links to missing #{anchor}"
    verbs = {kind.verb for kind in type(candlebox.new_game(game, players=2)).MOVES}
    assert set(howto.moves) == verbs, f"{game}: move kinds {sorted(verbs ^ set(howto.moves))}"
    assert set(howto.does) == verbs
    for verb, anchor in howto.moves.items():
        assert anchor in howto.sections, f"{game}: {verb!r} links to missing #{anchor}"


@pytest.mark.parametrize("game", GAMES)
def test_every_pending_decision_of_every_variant_has_a_rule(game: str) -> None:
    info = candlebox.game_info(game)
    for variant in info.variants:
        for players in sorted({variant.min_players, variant.max_players}):
            for seed in (1, 2):
                state = candlebox.new_game(game, players=players, variant=variant.name, seed=seed)
                rng = random.Random(seed)
                steps = 0
                while not state.is_over and steps < 400:
                    link = rule_link(state)
                    assert link is not None, f"{game}/{variant.name}: {state.pending()}"
                    seat = sorted(state.to_act)[0]
                    state.apply(seat, rng.choice(state.legal_actions(seat)))
                    steps += 1


@pytest.mark.parametrize("game", GAMES)
def test_every_logged_event_is_explained_or_bookkeeping(game: str) -> None:
    howto = how_to_play(game)
    assert not set(howto.explain) & howto.quiet
    assert set(howto.explain) | howto.quiet == EVENTS[game]


@pytest.mark.parametrize("game", GAMES)
def test_sections_are_named_after_the_rulebook_and_in_our_own_words(game: str) -> None:
    howto = how_to_play(game)
    book = {
        "candle-quest": "candle-quest-rulebook.txt",
        "sixteen-candies": "16-candies-rulebook.txt",
        "candelabria": "curse-of-candelabria-rulebook.txt",
    }[game]
    path = SEEDS / book if SEEDS.exists() else Path("/work/shared/seeds") / book
    if not path.exists():
        pytest.skip("the rulebooks are not on this machine")
    text = path.read_text(encoding="utf-8")
    lines = {slug(line) for line in text.splitlines() if line.strip()}
    # the linked sections carry the rulebook's own section words
    for anchor in set(howto.decisions.values()) | set(howto.moves.values()):
        found = any(line == anchor or line.startswith(anchor + "-") for line in lines)
        assert found, f"{game}: #{anchor} is not a section of the rulebook"

    # no sentence of eight words or more is copied from the rulebook
    def runs(words: list[str], n: int = 8) -> set[str]:
        return {" ".join(words[i : i + n]) for i in range(len(words) - n + 1)}

    book_runs = runs(re.findall(r"[a-z0-9']+", text.lower()))
    ours = runs(re.findall(r"[a-z0-9']+", howto.markdown.lower()))
    assert not ours & book_runs, sorted(ours & book_runs)[:3]


@pytest.mark.parametrize("game", GAMES)
def test_the_learn_setup_is_a_two_player_game_of_the_named_variant(game: str) -> None:
    learn = how_to_play(game).learn
    state = candlebox.new_game(game, players=learn.players, variant=learn.variant)
    assert state.num_players == 2 and state.variant == learn.variant and learn.why
    seat = sorted(state.to_act)[0]
    options = explain_options(state, seat)
    assert [o.action for o in options] == state.legal_actions(seat)
    assert all(o.label and o.does and o.anchor and o.section for o in options)


def test_learn_options_name_the_components_they_touch() -> None:
    state = candlebox.new_game("candle-quest", players=2, seed=3)
    state.apply(state.to_act[0], "flip")
    table = state.view(None)["table"]
    buy = next(o for o in explain_options(state, state.to_act[0]) if o.action == "buy")
    words = candlebox.components("candle-quest", "basic", players=2)
    assert buy.components == [{"code": table, **words[table]}] and buy.anchor == "buy"
    assert words[table]["text"] in buy.explained() and buy.does in buy.explained()
    two = candlebox.new_game("candelabria", players=2, seed=1)
    assert codes_in(
        "house C",
        "Play the Cinis Clan",
        candlebox.components("candelabria", "two-player", players=2),
    ) == ["house:C"]
    assert two.variant == "two-player"
    # the house choice explains each house's three powers, one per year
    seat = sorted(two.to_act)[0]
    house = explain_options(two, seat)[0]
    code = house.action.split()[1]
    assert [c["code"] for c in house.components] == [
        f"house:{code}",
        f"power:{code}1",
        f"power:{code}2",
        f"power:{code}3",
    ]
    for kind, patterns in how_to_play("candelabria").related.items():
        assert patterns and all("{code}" in p for p in patterns), kind


def test_the_rulings_data_agrees_with_docs_rulings() -> None:
    assert rulings.main([]) == 0, "run: python -m tests.learn.rulings --write"
    for package, data in rulings.parse(rulings.DOC.read_text(encoding="utf-8")).items():
        assert data, package
        assert all(r["text"] and not r["text"].startswith(">") for r in data)


def test_the_rulings_players_read_name_no_file_loader_or_test() -> None:
    """The rules pages show each ruling to players: the paragraphs about files, loaders and tests stay
    in docs/rulings.md ("**In the code.**") and out of the pages' data."""
    internal = re.compile(r"[\w/]+\.(?:json|py)\b|\btests?/|\bthe loader\b|\bschema\b", re.I)
    for package, data in rulings.parse(rulings.DOC.read_text(encoding="utf-8")).items():
        for ruling in data:
            found = internal.findall(ruling["text"])
            assert not found, f"{package} {ruling['id']} shows players {found}"
    assert rulings.CODE_NOTE in rulings.DOC.read_text(encoding="utf-8")


def test_rulings_apply_by_variant_and_option() -> None:
    cq = how_to_play("candle-quest")
    ids = lambda variant, **o: {r.id for r, _ in cq.rulings_for(variant, {"bank": 100, **o})}  # noqa: E731
    assert "CQ-15" in ids("junior") and "CQ-15" not in ids("basic")
    assert "CQ-14" in ids("advanced") and "CQ-14" not in ids("basic")
    chosen = dict((r.id, v) for r, v in cq.rulings_for("basic", {"bank": 40}))
    assert chosen["CQ-2"] == {"bank": 40}
    ca = how_to_play("candelabria")
    two = {r.id for r, _ in ca.rulings_for("two-player", {"missions": False})}
    std = {r.id for r, _ in ca.rulings_for("standard", {"missions": True, "decay": False})}
    assert "CA-2P1" in two and "CA-2P1" not in std
    assert "CA-M1" in std and "CA-M1" not in two and "CA-D1" not in std
