"""Wrote the saved games in this folder, once, with the code of the day (see README.md here).

Each ``NAME.json`` is exactly what ``State.to_json()`` wrote; ``NAME.expect.json`` is what the state
showed then: every seat's (and a spectator's) view and log, and every seat's legal actions. The files
must keep loading forever, so they are never rewritten: a new format gets new files beside them
(``python -m tests.data.saved.write --prefix v2-`` writes only the files not there yet, and
shares the first files' expectations).
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path
from typing import Any

import candlebox
from candlebox import bots

HERE = Path(__file__).parent

# name -> (game, players, variant, options, moves played in; None plays the game to its end)
GAMES: dict[str, tuple[str, int, str, dict[str, Any], int | None]] = {
    "cq-basic": ("candle-quest", 3, "basic", {}, 40),
    "cq-advanced": ("candle-quest", 4, "advanced", {"dancing": "all", "tiebreak": "shekels"}, 60),
    "cq-junior": ("candle-quest", 2, "junior", {}, 30),
    "cq-basic-over": ("candle-quest", 2, "basic", {}, None),
    "sc-top": ("sixteen-candies", 3, "standard", {"instant_win": "top"}, 45),
    "sc-held": ("sixteen-candies", 2, "standard", {"instant_win": "held"}, 20),
    "sc-over": ("sixteen-candies", 2, "standard", {"rounds": 2, "pool": 6}, None),
    "ca-3p": ("candelabria", 3, "standard", {}, 80),
    "ca-4p": ("candelabria", 4, "standard", {}, 120),
    "ca-5p": ("candelabria", 5, "standard", {}, 60),
    "ca-two-player": ("candelabria", 2, "two-player", {}, 90),
    "ca-missions": ("candelabria", 4, "standard", {"missions": True}, 150),
    "ca-decay": ("candelabria", 3, "standard", {"decay": True}, 150),
    "ca-over": ("candelabria", 3, "standard", {"max_turns": 12}, None),
}


def play(game: str, players: int, variant: str, options: dict[str, Any], moves: int | None):
    state = candlebox.new_game(game, players=players, variant=variant, seed=2026, **options)
    chooser = random.Random(f"{game}/{variant}/{players}")
    # Random play rarely ends Candle Quest before its turn limit; its finished game is the
    # heuristic bot's.
    bot = bots.make("heuristic", seed=1) if game == "candle-quest" and moves is None else None
    done = 0
    while not state.is_over and (moves is None or done < moves):
        seat = state.to_act[0]
        if bot is not None:
            state.apply(seat, bot.choose(state, seat))
        else:
            state.apply(seat, chooser.choice(state.legal_actions(seat)))
        done += 1
    return state


def expectations(state: candlebox.State) -> dict[str, Any]:
    viewers: list[int | None] = [None, *range(state.num_players)]
    return {
        "views": [state.view(seat) for seat in viewers],
        "logs": [state.log(seat) for seat in viewers],
        "legal": [state.legal_actions(seat) for seat in range(state.num_players)],
        "to_act": list(state.to_act),
        "is_over": state.is_over,
        "winners": list(state.winners),
        "scores": list(state.scores),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--prefix", default="")
    parser.add_argument(
        "--expectations",
        metavar="GAME",
        help="rewrite only the expectations of GAME's files, from the saved files as today's code "
        "loads them (after a change of the game's rules version; the saved files stay as they are)",
    )
    args = parser.parse_args()
    if args.expectations:
        for name, spec in GAMES.items():
            if spec[0] == args.expectations:
                saved = json.loads((HERE / f"{name}.json").read_text())
                expect = HERE / f"{name}.expect.json"
                state = candlebox.load(saved)
                expect.write_text(json.dumps(expectations(state), separators=(",", ":")) + "\n")
        return
    for name, spec in GAMES.items():
        path = HERE / f"{args.prefix}{name}.json"
        if path.exists():
            continue
        state = play(*spec)
        path.write_text(json.dumps(state.to_json(), separators=(",", ":")) + "\n")
        if not args.prefix:  # a later format's file shares the first file's expectations
            expect = HERE / f"{name}.expect.json"
            expect.write_text(json.dumps(expectations(state), separators=(",", ":")) + "\n")


if __name__ == "__main__":
    main()
