"""Every game explains itself (issue 14): random games of every game, variant and player count (and
each game's ``Conformance.text_options`` at its most players), where every pending decision has a
prompt, every legal action a label, and every event a sentence in words (the conformance kit's
check, candlebox/testing/words.py).

A sentence names components: a component code (found with candlebox.components) may appear only beside
its name. Field dumps (``key value, key value``, Python lists, seat -1) are not sentences.
"""

from __future__ import annotations

import random

import pytest

import candlebox
from candlebox.engine import game_ids, game_info
from candlebox.engine.plugin import Marks
from candlebox.engine.words import components
from candlebox.testing import words


def configurations() -> list[tuple[str, str, int, dict[str, object]]]:
    return [
        (game, variant, players, options)
        for game in game_ids()
        if game_info(game).text() is not None
        for variant, players, options in words.text_configurations(game)
    ]


@pytest.mark.parametrize(("game", "variant", "players", "options"), configurations())
def test_prompts_labels_and_sentences(
    game: str, variant: str, players: int, options: dict[str, object]
) -> None:
    words.prompts_labels_sentences(game, variant, players, options)


def test_label_refuses_what_is_not_legal() -> None:
    state = candlebox.new_game("candle-quest", players=2, seed=3)
    seat = state.to_act[0]
    with pytest.raises(candlebox.IllegalAction, match="not legal"):
        state.label(seat, "buy")
    with pytest.raises(candlebox.MalformedAction):
        state.label(seat, "fly away")
    other = 1 - seat
    with pytest.raises(candlebox.IllegalAction, match="does not act"):
        state.label(other, "flip")


def test_junior_offers_no_looting_or_auction() -> None:
    for seed in range(3):
        state = candlebox.new_game("candle-quest", players=3, variant="junior", seed=seed)
        rng = random.Random(seed)
        for _ in range(200):
            if state.is_over:
                break
            seat = state.to_act[0]
            said = state.prompt(seat) + " ".join(
                state.label(seat, a) for a in state.legal_actions(seat)
            )
            assert "loot" not in said.lower() and "auction" not in said.lower(), said
            state.apply(seat, rng.choice(state.legal_actions(seat)))
    junior = game_info("candle-quest").text()
    assert junior is not None
    for table in (junior.help, junior.rules):
        assert "loot" not in junior.for_variant(table, "junior").replace("no looting", "")


def test_the_call_prompt_says_what_calling_risks() -> None:
    """With three players in, a call can end highest, middle or lowest; with two there is no middle
    hand and a tie is every hand equal, so the prompt says only what can happen (rulings SC-14/15)."""
    for players, all_tied in ((3, "caller-loses"), (2, "caller-loses"), (2, "caller-wins")):
        state = candlebox.new_game("sixteen-candies", players=players, seed=1, all_tied=all_tied)
        while (state.pending() or {}).get("decision") != "call":
            seat = state.to_act[0]
            state.apply(seat, state.legal_actions(seat)[0])
        said = state.prompt(state.to_act[0])
        assert "gain 2" in said and "penalty plus 1" in said and "your penalty now is" in said
        if players == 3:
            assert "middle hand you lose 1" in said and "If every hand is equal" in said
        else:
            assert "middle" not in said and "ties included" not in said, said
            assert "higher hand you gain 2" in said and "lower hand you lose" in said
            fails = "the call fails" in said
            assert "If the hands are equal" in said and fails == (all_tied == "caller-loses")


def test_a_pool_that_cannot_pay_in_full_is_said_to_pay_what_it_has() -> None:
    """A penalty larger than the pool empties it (rulings SC-17): the sentence says what was owed
    and that the player paid all they had, not that they lost the whole amount."""
    text = game_info("sixteen-candies").text()
    assert text is not None
    state = candlebox.new_game("sixteen-candies", players=2, seed=3, pool=2)
    rng = random.Random(3)
    while not state.is_over:
        seat = state.to_act[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    scores = [e for e in state.log(None) if e["event"] == "score" and e["due"] < -2]
    assert scores and all(e["pool"] == 0 for e in scores)
    for entry in scores:
        said = text.event(entry, Marks())
        assert said is not None and f"owes {-entry['due']} and pays all they have" in said, said


def test_an_orientation_label_says_which_card_is_turned_how() -> None:
    """Each card's half on top, in hand order: no card has one half twice, so that names the way
    each card is turned, and every option's label differs from the others'."""
    state = candlebox.new_game("sixteen-candies", players=2, seed=2)
    seat = state.to_act[0]
    hand = state.view(seat)["seats"][seat]["hand"]
    words = components("sixteen-candies")
    assert all(len(set(code.split("-"))) == 2 for code in words if "-" in code)
    labels = set()
    for action in state.legal_actions(seat):
        said = state.label(seat, action)
        labels.add(said)
        halves = action.split()[1:]
        tops = [
            "the Wild card" if (card["card"] if isinstance(card, dict) else card) == "W"
            else words[half]["name"]
            for card, half in zip(hand, halves, strict=True)
        ]  # fmt: skip
        assert f"Hold {', '.join(tops[:-1])} and {tops[-1]} on top (penalty " in said, said
    assert len(labels) == len(state.legal_actions(seat))


def test_taking_a_tactic_says_what_the_tactic_does() -> None:
    """Candelabria's tactics are named by their icons only ("Tactic card: 1 Destroy temple, 1 VP"):
    the label of taking one carries its effect, so a hint or a button is a choice in words, said as
    what the card does in a battle: "Take ...: score 2 VP" read as points scored by the take, and a
    newcomer looked for them in the final score."""
    state = candlebox.new_game("candelabria", players=2, seed=1)
    words = components("candelabria", state.variant, players=2)
    rng = random.Random(1)
    seen = 0
    for _ in range(3000):
        if state.is_over or seen >= 3:
            break
        seat = state.to_act[0]
        actions = state.legal_actions(seat)
        for action in actions:
            if action.startswith("take "):
                effect = words[action.split(" ")[1]]["text"].rstrip(".")
                label = state.label(seat, action)
                assert label.endswith(f" (in a battle: {effect[0].lower()}{effect[1:]})"), label
                seen += 1
        state.apply(seat, rng.choice(actions))
    assert seen >= 3
