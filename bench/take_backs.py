"""What a take-back costs the server per turn (issue 35): the plan of a seat's take-back (how many
moves it would remove, and the game without them) worked out after each of a person's turns, as the
server does for the frames, replayed from the seed each time (before) or from the states kept since
the previous turns (now: candlebox/server/takebacks.py ``Bases``). Both give the same plan; the
script checks it on every turn.

    python bench/take_backs.py                      # The Curse of Candelabria, 4 players, 300 moves
    python bench/take_backs.py --game candle-quest --players 3 --moves 200

One seat is a person, the others bots playing random legal moves; the figures are the milliseconds per
plan over the turns past ``--from`` moves (a long game's), median and mean.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

import candlebox
from candlebox.server.live import LiveGame
from candlebox.server.storage import GameRecord, SeatRecord
from candlebox.server.takebacks import TakeBackFrames, last_person, plan


def table(game: str, players: int, seed: int) -> LiveGame:
    """A live game of ``game``: seat 0 a person, the others bots."""
    state = candlebox.new_game(game, players=players, seed=seed)
    seats = [SeatRecord(0, "human", "Ann", token_hash="a" * 64)] + [
        SeatRecord(n, "bot", f"Bot {n}", bot="random") for n in range(1, players)
    ]
    record = GameRecord(
        id="bench",
        game=game,
        variant=state.variant,
        players=players,
        options=dict(state.options),
        seed=seed,
        public=True,
        bot_delay=0.0,
        seats=seats,
    )
    return LiveGame(record=record, state=state)


def measure(game: str, players: int, moves: int, since: int, seed: int) -> dict[str, list[float]]:
    live = table(game, players, seed)
    frames = TakeBackFrames()
    rng = random.Random(seed)
    times: dict[str, list[float]] = {"from the seed": [], "from kept states": []}
    while live.moves < moves and not live.state.is_over:
        seat = live.state.to_act[0]
        live.state.apply(seat, rng.choice(live.state.legal_actions(seat)))
        live.moves += 1
        if live.state.is_over or last_person(live) != 0 or 0 not in live.state.to_act:
            continue
        started = time.perf_counter()
        slow = plan(live, 0)
        middle = time.perf_counter()
        fast = frames.plan(live, 0)
        done = time.perf_counter()
        assert (slow.moves, slow.reason, slow.state) == (fast.moves, fast.reason, fast.state)
        if live.moves >= since:
            times["from the seed"].append((middle - started) * 1000)
            times["from kept states"].append((done - middle) * 1000)
    print(f"{game}, {players} players: {live.moves} moves played (seed {seed})")
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="candelabria")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--from", dest="since", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    times = measure(args.game, args.players, args.moves, args.since, args.seed)
    for name, found in times.items():
        if not found:
            print(f"{name}: no turn of seat 0 past move {args.since}")
            continue
        median, mean = statistics.median(found), statistics.fmean(found)
        print(f"{name}: {median:.1f} ms median, {mean:.1f} ms mean per plan ({len(found)} turns)")


if __name__ == "__main__":
    main()
