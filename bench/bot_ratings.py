"""The bot levels on the players' rating scale: a small, seeded round-robin of every game's levels,
rated as the server rates players (candlebox/server/ratings.py: OpenSkill Plackett–Luce, shown as
1500 + 40 × (mu − 3 sigma)), written to bench/results/bot_ratings.json. The leaderboard and the profile
pages show these numbers "for reference"; nobody types them.

The games are bench/levels.py's: per game ``--n`` tables of every level (the line-up rotated one seat
per game) and ``--pairs`` two-player games of each level against the level below, seeded from
``--seed``. Every game is one rating update, its places as the game's standings give them (a level
in two seats of one table moves by the mean of its seats' updates).

    nice -n 19 python bench/bot_ratings.py                 # a few minutes on two cores
    python bench/bot_ratings.py --games sixteen-candies --n 4 --pairs 2 --out /tmp/b.json

The bots are rated against each other only: their numbers say where the levels stand relative to
one another on the players' scale, and a level's number is as sure as its games (``games`` in the
file), not a promise of what a person of that rating would score against it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script: the repository's candlebox, not another
    sys.path.insert(0, str(ROOT))

import candlebox  # noqa: E402
from candlebox.server import ratings  # noqa: E402
from candlebox.sim.ratings import rate  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))  # bench/: levels.py's games
from levels import finish, jobs_for, play, spec  # noqa: E402

OUT = ROOT / "bench" / "results" / "bot_ratings.json"


def measure(game: str, tables: int, pairs: int, seed: int, workers: int) -> dict[str, Any]:
    """Play the game's round-robin and rate its levels: one entry per level, weakest first."""
    jobs = jobs_for(game, tables, pairs, seed)
    if workers <= 1:
        rows = [play(job) for job in jobs]
    else:
        with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
            rows = list(pool.map(play, jobs))
    for row in rows:  # the levels by name, as the rating counts them
        row["bots"] = [level["level"] for level in row["levels"]]
    rated = rate(rows, order=finish)
    if rated is None:
        raise SystemExit("openskill is not installed: pip install -e '.[ratings]'")
    by_level = {found.bot: found for found in rated[1]}
    levels = []
    for level in candlebox.game_info(game).levels:
        found = by_level.get(level.name)
        if found is None:  # no game of this level (a ladder larger than the tables played)
            continue
        levels.append(
            {
                **spec(level),
                "mu": round(found.mu, 4),
                "sigma": round(found.sigma, 4),
                "games": found.games,
                "rating": ratings.shown(found.mu, found.sigma),
            }
        )
    return {"games_played": len(rows), "tables": tables, "pairs": pairs, "levels": levels}


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", default=",".join(candlebox.game_ids()), help="game ids, a,b")
    parser.add_argument("--n", type=int, default=6, help="tables of every level per game")
    parser.add_argument("--pairs", type=int, default=3, help="2-player games per adjacent pair")
    parser.add_argument("--seed", type=int, default=34_000)
    parser.add_argument("--jobs", type=int, default=2, help="processes")
    parser.add_argument("--out", type=Path, default=OUT, help="the JSON file written")
    args = parser.parse_args()
    started = time.monotonic()
    measured = {}
    for game in args.games.split(","):
        print(f"{game}: playing", file=sys.stderr)
        measured[game] = measure(game, args.n, args.pairs, args.seed, args.jobs)
        for level in measured[game]["levels"]:
            print(f"  {level['level']:>8} {level['rating']:>5} ({level['games']} games)")
    data = {
        "made_by": "bench/bot_ratings.py",
        "model": "OpenSkill Plackett-Luce, mu 25, sigma 25/3 (the server's: candlebox/server/ratings.py)",
        "shown": f"{ratings.START} + {ratings.SCALE} x (mu - 3 sigma)",
        "seed": args.seed,
        "seconds": round(time.monotonic() - started, 1),
        "games": measured,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {args.out} in {data['seconds']} s", file=sys.stderr)


if __name__ == "__main__":
    main()
