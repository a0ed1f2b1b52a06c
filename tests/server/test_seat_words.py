"""Each seat's frame carries the pending decision in words and a label per legal action (issue 14)."""

from __future__ import annotations

import random
from typing import Any

import candlebox
from tests.server.conftest import all_human, move, state


def test_frames_carry_the_prompt_and_a_label_per_legal_action(client: Any) -> None:
    for game in ("candle-quest", "sixteen-candies", "candelabria"):
        players = 3
        game_id, tokens = all_human(client, players, game=game)
        rng = random.Random(5)
        for _ in range(6):
            spectator = state(client, game_id)
            assert spectator["labels"] == [] and spectator["prompt"]
            seat = spectator["view"]["pending"]["seats"][0]
            mine = state(client, game_id, tokens[seat])
            assert mine["prompt"] and mine["prompt"][0].isupper()
            assert len(mine["labels"]) == len(mine["legal"]) > 0
            assert all(
                label != action for label, action in zip(mine["labels"], mine["legal"], strict=True)
            )
            waiting = state(client, game_id, tokens[(seat + 1) % players])
            if (seat + 1) % players not in spectator["view"]["pending"]["seats"]:
                assert waiting["labels"] == []
            response = move(client, game_id, tokens[seat], rng.choice(mine["legal"]), mine["move"])
            assert response.status_code == 200, response.text


def test_the_words_are_the_engines() -> None:
    table = candlebox.new_game("candle-quest", players=2, seed=1)
    seat = table.to_act[0]
    assert table.label(seat, "flip") == "Flip the top candle of the draw stack"
