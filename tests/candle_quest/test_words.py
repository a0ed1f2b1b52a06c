"""Words for Candle Quest: every code a game shows has a name and a text, and the words file is checked."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import candlebox
from candlebox.engine.howto import explain_options, how_to_play
from candlebox.engine.words import WordsError, schema
from candlebox.games.candle_quest import words
from candlebox.games.candle_quest.candles import CANDLE_FILE, TYPE_OF
from candlebox.games.candle_quest.conformance import shown_codes


def test_every_candle_has_words_in_every_variant() -> None:
    for variant in ("basic", "advanced", "junior"):
        table = candlebox.components("candle-quest", variant)
        assert set(TYPE_OF) <= set(table)
        assert all(entry["name"] and entry["text"] for entry in table.values())


def test_words_read_the_candle_file() -> None:
    table = candlebox.components("candle-quest")
    assert table["R8"]["name"] == "Red candle (value 8)"
    assert "selling it brings 4" in table["R8"]["text"]
    assert "looting it costs 12" in table["R8"]["text"]
    assert "guarding your Menorah" in table["U6"]["text"]


def test_a_variant_can_have_its_own_text() -> None:
    junior = candlebox.components("candle-quest", "junior")
    assert "removed before play" in junior["U6"]["text"]
    assert "give you a candle" in junior["U4"]["text"]
    assert "give you a candle" not in candlebox.components("candle-quest", "basic")["U4"]["text"]


def _verbs_offered(variant: str) -> set[str]:
    """The action verbs seeded random games of the variant offer (to any seat, at any point)."""
    verbs: set[str] = set()
    for seed in range(4):
        state = candlebox.new_game("candle-quest", players=3, variant=variant, seed=seed)
        rng = random.Random(seed)
        for _ in range(300):
            if state.is_over:
                break
            seat = state.to_act[0]
            legal = state.legal_actions(seat)
            verbs |= {action.split()[0] for action in legal}
            state.apply(seat, rng.choice(legal))
    return verbs


# The words that speak of an action's verb (auctions bring bids).
SPEAK_OF = {"auction": r"auction|\bbid", "bid": r"\bbid", "loot": r"\bloot"}


@pytest.mark.parametrize("variant", ["advanced", "junior"])
def test_words_never_speak_of_what_the_variant_lacks(variant: str) -> None:
    """Words follow the table: an action the basic game offers and this variant never does (the junior
    game has no auctions and no looting) is in none of the variant's texts."""
    # "pass" is left out: a bidder's answer in an auction, but also a stalled player's (CQ-9).
    lacks = (_verbs_offered("basic") - _verbs_offered(variant)) & set(SPEAK_OF)
    assert lacks == ({"auction", "bid", "loot"} if variant == "junior" else set())
    for code, entry in candlebox.components("candle-quest", variant).items():
        for verb in lacks:
            found = re.search(SPEAK_OF[verb], entry["text"], re.I)
            assert not found, f"{variant} {code}: {entry['text']!r} speaks of {verb}"


def test_what_a_move_does_in_the_junior_game_never_speaks_of_auctions_or_loots() -> None:
    """The learner's "what it does" for each move the junior game offers, and what the log's events
    explain, follow its table too (learn.json's ``does_in``)."""
    lacks = {"auction", "bid", "loot"}
    howto = how_to_play("candle-quest")
    offered = _verbs_offered("junior")
    texts = {verb: howto.does_of(verb, "junior") for verb in offered}
    texts |= {f"event {event}": howto.explain[event] for event in offered & set(howto.explain)}
    for what, text in texts.items():
        for verb in lacks:
            assert not re.search(SPEAK_OF[verb], text, re.I), f"junior {what}: {text!r}"
    state = candlebox.new_game("candle-quest", players=2, variant="junior", seed=1)
    flip = next(o for o in explain_options(state, state.to_act[0]) if o.action == "flip")
    assert flip.does == howto.does_of("flip", "junior") != howto.does["flip"]


def test_the_junior_rules_say_how_many_unlit_candles_leave() -> None:
    state = candlebox.new_game("candle-quest", players=2, variant="junior", seed=1)
    count = len(state.view(None)["removed"])
    junior = how_to_play("candle-quest").markdown.split("### Junior Game", 1)[1]
    number = {2: "two", 3: "three"}[count]
    assert f"the {number} Unlit candles of value 6" in junior


@pytest.mark.parametrize("variant", ["basic", "advanced", "junior"])
@pytest.mark.parametrize("code", ["U4", "U6", "kind:unlit"])
def test_unlit_words_say_what_happens_when_a_player_cannot_pay(variant: str, code: str) -> None:
    """The FAQ's fallback (tests/candle_quest/test_rules.py plays it): the highest-value candle or
    all the shekels, the Unlit candle leaves, the bonus turn still follows."""
    text = candlebox.components("candle-quest", variant)[code]["text"]
    if variant == "junior" and code == "U6":
        assert "removed before play" in text
        return
    assert "highest-value candle or all" in text and "shekels" in text
    if code != "kind:unlit":
        assert "leaves the game" in text and "bonus turn still follows" in text


def test_the_junior_removed_unlit_candles_are_shown_and_explained() -> None:
    state = candlebox.new_game("candle-quest", players=2, variant="junior", seed=3)
    codes = shown_codes(state)
    assert "U6" in codes
    assert codes <= set(candlebox.components("candle-quest", "junior", players=2))


def _copy(tmp_path: Path, change: Any) -> Path:
    """A copy of the words file with ``change`` applied to its decoded entries (a list of dicts)."""
    data = json.loads(words.WORDS_FILE.read_text())
    change(data["entries"])
    path = tmp_path / "words.json"
    path.write_text(json.dumps(data))
    return path


def _entry(entries: list[dict[str, Any]], code: str) -> dict[str, Any]:
    return next(e for e in entries if e["code"] == code)


def test_a_missing_entry_is_named(tmp_path: Path) -> None:
    path = _copy(tmp_path, lambda es: es.remove(_entry(es, "R8")))
    with pytest.raises(WordsError, match=r"words.json: code 'R8' \(candle\): no entry"):
        words.read(path)


def test_an_entry_without_a_component_is_named(tmp_path: Path) -> None:
    path = _copy(tmp_path, lambda es: _entry(es, "R8").update(code="R9"))
    with pytest.raises(WordsError, match=r"code 'R9' \(candle\): no such component"):
        words.read(path)


def test_empty_text_and_a_missing_mark_are_named(tmp_path: Path) -> None:
    def change(entries: list[dict[str, Any]]) -> None:
        entry = _entry(entries, "Y2")
        entry["text"] = " "
        del entry["reconstructed"]

    path = _copy(tmp_path, change)
    with pytest.raises(WordsError) as err:
        words.read(path, CANDLE_FILE)
    assert "code 'Y2': empty text" in str(err.value)
    assert "code 'Y2': its data is reconstructed; mark it so" in str(err.value)


def test_a_text_for_an_unknown_variant_is_named(tmp_path: Path) -> None:
    path = _copy(tmp_path, lambda es: _entry(es, "U4").update(variant_text={"expert": "x"}))
    with pytest.raises(WordsError, match="code 'U4': text for an unknown variant 'expert'"):
        words.read(path)


def test_names_must_differ(tmp_path: Path) -> None:
    path = _copy(tmp_path, lambda es: _entry(es, "R8").update(name="Red candle (value 7)"))
    with pytest.raises(WordsError, match="name 'Red candle \\(value 7\\)' is also"):
        words.read(path)


def test_a_file_that_is_not_words_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "words.json"
    path.write_text(words.WORDS_FILE.read_text().replace('"entries"', '"entry"'))
    with pytest.raises(WordsError, match=r"words\.json: Object contains unknown field `entry`"):
        words.read(path)


def test_the_schema_file_is_current() -> None:
    written = json.loads((words.WORDS_FILE.parent / "words.schema.json").read_text())
    assert written == schema()


@pytest.mark.parametrize(
    ("variant", "shekels", "said"),
    [
        ("basic", 4, "sell it or auction it (you cannot pay 8 to buy it)."),
        ("basic", 0, "sell it (you cannot pay 8 to buy it)."),
        ("junior", 4, "sell it (you cannot pay 8 to buy it)."),
        ("basic", 8, "buy it, sell it, or auction it."),
    ],
)
def test_a_flipped_candles_prompt_names_only_the_choices_there_are(
    variant: str, shekels: int, said: str
) -> None:
    """With fewer shekels than the candle's face the prompt said "buy it or sell it" over a lone Sell
    (issue 36): it names what the player can do and why Buy is not among them."""
    game = candlebox.new_game(
        "candle-quest", variant=variant, players=2, deck=["R8"], first_player=0
    )
    game.shekels[0] = shekels
    game.apply(0, "flip")
    assert ("buy" in game.legal_actions(0)) == (shekels >= 8)
    assert game.prompt(0) == f"You flipped Red candle (value 8) (R8): {said}"


def test_a_loot_label_says_when_candles_pay_the_rest() -> None:
    """A loot dearer than the seat's shekels is paid with candles as well, and cannot be called off
    once chosen: its label says so (the page's legal actions, learn mode, the coach and the terminal
    all show the label), and a loot the shekels cover says nothing of candles. Random games are
    played until both kinds were seen."""
    seen = {True: 0, False: 0}
    rng = random.Random(5)
    for seed in range(200):
        state = candlebox.new_game("candle-quest", 3, seed=seed, variant="basic")
        while not state.is_over and not all(seen.values()):
            seat = state.to_act[0]
            actions = state.legal_actions(seat)
            for action in actions:
                if action.startswith("loot "):
                    pile = state.piles[int(action.split()[1])]
                    short = state.shekels[seat] < state.content.loot_cost[pile[-1]]
                    said = state.label(seat, action)
                    assert (
                        said.endswith(
                            f"you have {state.shekels[seat]} shekel"
                            f"{'' if state.shekels[seat] == 1 else 's'}, so you pay with candles too"
                        )
                        == short
                    ), (short, said)
                    seen[short] += 1
            state.apply(seat, rng.choice(actions))
        if all(seen.values()):
            break
    assert all(seen.values()), seen
