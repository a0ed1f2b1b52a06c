"""Load run for accounts and rated games (issue 34) on PostgreSQL with two server processes.

The script starts a private PostgreSQL (Debian's ``postgresql`` binaries, as the tests do:
tests/server/pg.py) and two ``candlebox serve`` processes on it, each on its own port
(tests/server/live.py), then, from this one process on loopback:

1. signs up ``--accounts`` accounts (half through each server), at most ``--concurrency`` at once;
2. signs each of them in again (a new session): the sign-in latencies are the headline figure;
3. makes ``--games`` rated two-player tables of ``--game`` (the first account of a pair creates it
   through one server, the second takes the other seat through the other), then plays all of them at
   once to their end: each player on its own websocket to its own server, a random legal move whenever
   it is that seat's turn (so every move crosses to the other process through PostgreSQL's NOTIFY);
4. checks that every finished rated game was counted once in both players' ratings (``GET /api/me``).

Any answer that is not the expected one (an HTTP status, an ``error`` frame, a game that did not end
within ``--game-timeout``, a rating not counted, an exception) is counted in ``errors``. The result
goes to ``bench/results/load_accounts.json`` (kept in git): the sign-in and sign-up latencies
(p50/p95/p99), the games finished, the moves and their latency, the wall times, and the argon2 cost of
one sign-in measured alone (one check of a password against a hash made with the server's parameters,
in this process, before the servers start). ``--write-docs`` writes docs/deploy.md's table from that
file (tests/docs/test_load_accounts_table.py checks they agree).

The server is configured for a load that comes from one address, and says so in the results
(``settings``): the per-client request rate, the cap on a client's open games and its websockets are
turned off, as bench/load_server.py does. The sign-in throttles (failed sign-ins per name and per
address) stay as they are: a load run signs in with the right passwords, and only failures count.

    python bench/load_accounts.py                               # 1,000 accounts, 200 games
    python bench/load_accounts.py --accounts 20 --games 4 --out /tmp/smoke.json
    python bench/load_accounts.py --write-docs                  # docs/deploy.md from the file

Only loopback addresses are used; the servers and PostgreSQL are stopped at the end. Not part of the
test suite (tests/server/test_load_accounts_script.py runs a tiny one, marked ``processes``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results" / "load_accounts.json"
DOCS = ROOT / "docs" / "deploy.md"
BEGIN = (
    "<!-- bench/load_accounts.py --write-docs (generated from the results file; do not edit) -->"
)
END = "<!-- bench/load_accounts.py --write-docs: end -->"
COOKIE = "candlebox_session"
PASSWORD = "a long load-test password"
# What the servers are told, because the whole load comes from one address (127.0.0.1): per-client
# limits a real crowd of players would each have to themselves would otherwise refuse it.
LOAD_SETTINGS = {
    "CANDLEBOX_REQUESTS_PER_SECOND": "0",  # per-address request rate: off
    "CANDLEBOX_MAX_OPEN_GAMES": "0",  # live games created from one address: no cap
    "CANDLEBOX_MAX_CLIENT_SOCKETS": "0",  # websockets from one address: no cap
    "CANDLEBOX_MAX_WAITING_SOCKETS": "0",  # of those, not said hello yet: no cap
    "CANDLEBOX_BOTS": "workers",  # several processes on one database (docs/deploy.md)
    "CANDLEBOX_SWEEP_EVERY": "0",  # no sweep while the games are played
}


def percentile(values: Sequence[float], q: float) -> float | None:
    """The nearest-rank percentile (None for no values)."""
    if not values:
        return None
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


def summary_ms(seconds: Sequence[float]) -> dict[str, float | int | None]:
    """Count, p50/p95/p99, mean and max of latencies given in seconds, in milliseconds."""

    def ms(value: float | None) -> float | None:
        return None if value is None else round(value * 1000, 1)

    return {
        "count": len(seconds),
        "p50_ms": ms(percentile(seconds, 50)),
        "p95_ms": ms(percentile(seconds, 95)),
        "p99_ms": ms(percentile(seconds, 99)),
        "mean_ms": ms(statistics.fmean(seconds)) if seconds else None,
        "max_ms": ms(max(seconds)) if seconds else None,
    }


# ----------------------------------------------------------------------------- argon2 alone
def argon2_cost(repeats: int = 30) -> dict[str, Any]:
    """One sign-in's password check, alone: the median wall and CPU time of verifying a password
    against a hash made with the server's parameters (what ``POST /api/session`` does once)."""
    sys.path.insert(0, str(ROOT))
    from candlebox.server.accounts import HASHER

    stored = HASHER.hash(PASSWORD)
    HASHER.verify(stored, PASSWORD)  # warmed up
    wall, cpu = [], []
    for _ in range(repeats):
        began, began_cpu = time.perf_counter(), time.process_time()
        HASHER.verify(stored, PASSWORD)
        wall.append(time.perf_counter() - began)
        cpu.append(time.process_time() - began_cpu)
    return {
        "memory_kib": HASHER.memory_cost,
        "time_cost": HASHER.time_cost,
        "parallelism": HASHER.parallelism,
        "repeats": repeats,
        "wall_ms": round(statistics.median(wall) * 1000, 1),
        "cpu_ms": round(statistics.median(cpu) * 1000, 1),
    }


# ----------------------------------------------------------------------------- the run
@dataclass
class Player:
    name: str
    server: int  # which server this account talks to (0 or 1)
    session: str = ""
    token: str = ""  # its seat's credential at its rated table


@dataclass
class Tally:
    errors: Counter[str] = field(default_factory=Counter)
    sign_up: list[float] = field(default_factory=list)
    sign_in: list[float] = field(default_factory=list)
    moves: list[float] = field(default_factory=list)  # sent → ack, seconds
    finished: int = 0

    def error(self, what: str) -> None:
        self.errors[what] += 1


def session_of(response: Any) -> str:
    """The session token from a response's Set-Cookie (the client keeps no cookie jar: a thousand
    accounts share one client)."""
    for header in response.headers.get_list("set-cookie"):
        name, _, rest = header.partition("=")
        if name.strip() == COOKIE:
            return rest.split(";", 1)[0]
    return ""


class Load:
    def __init__(self, args: argparse.Namespace, bases: list[str]) -> None:
        self.args = args
        self.bases = bases
        self.tally = Tally()
        self.gate = asyncio.Semaphore(args.concurrency)
        self.http: Any = None

    def headers(self, player: Player) -> dict[str, str]:
        # a state-changing request with the session cookie must say it comes from the site
        headers = {"Origin": self.bases[player.server]}
        if player.session:
            headers["Cookie"] = f"{COOKIE}={player.session}"
        return headers

    async def call(
        self, player: Player, label: str, path: str, expect: int, body: Any = None
    ) -> tuple[Any, float]:
        """One request through the player's server (``label``: its method and what it is, e.g.
        ``POST session``; a body makes it a POST): (the answer, its latency); a status other than
        ``expect`` is counted as an error named by the label and the status."""
        method = label.split()[0]
        began = time.perf_counter()
        try:
            response = await self.http.request(
                method,
                self.bases[player.server] + path,
                json=body,
                headers=self.headers(player),
            )
        except Exception as exc:
            self.tally.error(f"{label}: {type(exc).__name__}")
            return None, time.perf_counter() - began
        took = time.perf_counter() - began
        if response.status_code != expect:
            try:
                code = response.json().get("error", "")
            except ValueError:
                code = "(not JSON)"
            self.tally.error(f"{label}: {response.status_code} {code}")
            return None, took
        return response, took

    async def bounded(self, work: Callable[[], Awaitable[None]]) -> None:
        async with self.gate:
            await work()

    async def sign_up(self, player: Player) -> None:
        body = {"name": player.name, "password": PASSWORD}
        answer, took = await self.call(player, "POST accounts", "/api/accounts", 201, body)
        if answer is not None:
            self.tally.sign_up.append(took)

    async def sign_in(self, player: Player) -> None:
        body = {"name": player.name, "password": PASSWORD}
        answer, took = await self.call(player, "POST session", "/api/session", 200, body)
        if answer is not None:
            self.tally.sign_in.append(took)
            player.session = session_of(answer)
            if not player.session:
                self.tally.error("POST session: no cookie")

    async def table(self, first: Player, second: Player) -> str | None:
        """A rated table of the game: ``first`` creates it, ``second`` takes the other seat."""
        seats = [{"kind": "human"}, {"kind": "human"}]
        spec = {"game": self.args.game, "seats": seats, "you": 0, "rated": True}
        made, _ = await self.call(first, "POST games", "/api/games", 201, spec)
        if made is None:
            return None
        created = made.json()
        first.token = created["token"]
        claim = {"invite": created["invites"]["1"]}
        path = f"/api/games/{created['id']}/seats/1/claim"
        taken, _ = await self.call(second, "POST claim", path, 200, claim)
        if taken is None:
            return None
        second.token = taken.json()["token"]
        return str(created["id"])

    async def play(self, game_id: str, player: Player, seed: int, counts: bool) -> None:
        """Random legal moves for the player's seat over its own websocket until the game is over
        (``counts``: this seat counts the game as finished, so that each game is counted once)."""
        import websockets

        rng = random.Random(seed)
        url = self.bases[player.server].replace("http", "ws", 1) + f"/ws/games/{game_id}"
        sent: dict[str, float] = {}
        try:
            async with websockets.connect(
                url, max_size=1 << 22, open_timeout=120, ping_interval=None
            ) as ws:
                await ws.send(json.dumps({"type": "hello", "token": player.token}))
                answered = -1  # the last move number this seat answered
                over = False
                # once over, the last move's ack is awaited: it comes after the result and the
                # ratings are committed, which the check after the games reads
                while not over or sent:
                    frame = json.loads(await ws.recv())
                    kind = frame["type"]
                    if kind in ("ack", "error"):
                        began = sent.pop(str(frame.get("ref")), None)
                        if kind == "error":
                            self.tally.error(f"ws {frame.get('error')}")
                        elif began is not None:
                            self.tally.moves.append(time.perf_counter() - began)
                        continue
                    if kind not in ("snapshot", "update") or over:
                        continue
                    if frame["over"]:
                        over = True
                        self.tally.finished += int(counts)
                    elif frame["legal"] and frame["move"] != answered:
                        answered = frame["move"]
                        ref = f"m{answered}"
                        sent[ref] = time.perf_counter()
                        move = rng.choice(frame["legal"])
                        message = {"type": "move", "action": move, "expect": answered, "ref": ref}
                        await ws.send(json.dumps(message))
        except Exception as exc:  # the socket closed or failed before the end: an error
            self.tally.error(f"ws {type(exc).__name__}")

    async def counted(self, player: Player) -> None:
        """The player's rated game counted once in its rating: one rated game played."""
        answer, _ = await self.call(player, "GET me", "/api/me", 200)
        if answer is None:
            return
        found = [r for r in answer.json()["ratings"] if r["game"] == self.args.game]
        counts = (found[0]["rated_games"], found[0]["played"]) if found else (0, 0)
        if counts != (1, 1):
            self.tally.error(f"rating not counted once: {counts[0]} rated, {counts[1]} played")

    async def run(self) -> dict[str, Any]:
        import httpx

        args = self.args
        players = [Player(f"load{n:05d}", n % 2) for n in range(args.accounts)]
        nobody = CookieJar(DefaultCookiePolicy(allowed_domains=[]))  # sessions are sent by hand
        # A new connection for every request, as the nginx configuration of docs/deploy.md opens
        # one upstream: a kept-alive one may be closed by the server (keep_alive_timeout) just as a
        # request goes out on it, which a browser retries but this client would count as an error
        # (it did once in 2,400 requests at a load average of 35, with a 2 s expiry on our side).
        limits = httpx.Limits(max_connections=args.concurrency * 2, max_keepalive_connections=0)
        phases: dict[str, float] = {}
        async with httpx.AsyncClient(timeout=120, limits=limits, cookies=nobody) as self.http:
            for name, step in (("sign_up", self.sign_up), ("sign_in", self.sign_in)):
                began = time.perf_counter()
                await asyncio.gather(*(self.bounded(lambda p=p, s=step: s(p)) for p in players))
                phases[name] = time.perf_counter() - began
            pairs = [
                (players[2 * g], players[2 * g + 1])
                for g in range(min(args.games, args.accounts // 2))
                if players[2 * g].session and players[2 * g + 1].session
            ]
            began = time.perf_counter()
            tables: list[str | None] = [None] * len(pairs)

            async def make(at: int) -> None:
                tables[at] = await self.table(*pairs[at])

            await asyncio.gather(
                *(self.bounded(lambda at=at: make(at)) for at in range(len(pairs)))
            )
            phases["tables"] = time.perf_counter() - began
            began = time.perf_counter()
            ready = [(game, pair) for game, pair in zip(tables, pairs, strict=True) if game]
            plays = [
                self.play(game, player, seed=2 * at + seat, counts=seat == 0)
                for at, (game, pair) in enumerate(ready)
                for seat, player in enumerate(pair)
            ]
            done = asyncio.gather(*plays)
            try:
                await asyncio.wait_for(done, args.game_timeout)
            except TimeoutError:
                self.tally.error("games not over within --game-timeout")
            phases["play"] = time.perf_counter() - began
            began = time.perf_counter()
            seated = [player for _, pair in ready for player in pair]
            await asyncio.gather(*(self.bounded(lambda p=p: self.counted(p)) for p in seated))
            phases["check"] = time.perf_counter() - began
        return {
            "accounts": args.accounts,
            "games_planned": args.games,
            "games_started": len(ready),
            "games_finished": self.tally.finished,
            "moves": len(self.tally.moves),
            "phases_s": {name: round(took, 1) for name, took in phases.items()},
            "sign_up": summary_ms(self.tally.sign_up),
            "sign_in": summary_ms(self.tally.sign_in),
            "move": summary_ms(self.tally.moves),
            "errors": dict(self.tally.errors),
            "error_count": sum(self.tally.errors.values()),
        }


def measure(args: argparse.Namespace) -> dict[str, Any]:
    """The whole run: argon2 alone, then PostgreSQL, two servers and the load."""
    argon2 = argon2_cost()
    print(f"argon2 alone: {argon2}", file=sys.stderr)
    sys.path.insert(0, str(ROOT))
    from tests.server.live import ServerProcess  # the tests' way to run `candlebox serve`
    from tests.server.pg import start_postgres

    workdir = Path(tempfile.mkdtemp(prefix="candlebox-load-accounts-"))
    postgres = None if args.db else start_postgres()
    servers: list[Any] = []
    try:
        db = args.db or postgres.new_database()
        for n in range(2):  # no bot worker: a rated table has no bot
            server = ServerProcess(
                db, workdir / f"server{n}.log", env=LOAD_SETTINGS, args=("--bot-workers", "0")
            )
            servers.append(server.start(timeout=180))
        load_before = os.getloadavg()[0]
        began = time.perf_counter()
        result = asyncio.run(Load(args, [server.base for server in servers]).run())
        wall = time.perf_counter() - began
        alive = all(server.process.poll() is None for server in servers)
    finally:
        for server in servers:
            server.stop()
        if postgres is not None:
            postgres.stop()
    if not alive:
        result["errors"]["a server exited"] = 1
        result["error_count"] += 1
    return {
        "at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "game": args.game,
        "concurrency": args.concurrency,
        "server_processes": 2,
        "database": "a PostgreSQL of its own (fsync off)" if args.db is None else "given",
        "settings": LOAD_SETTINGS,
        **result,
        "wall_s": round(wall, 1),
        "argon2": argon2,
        "cores": os.cpu_count(),
        "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        "logs": str(workdir),
    }


# ----------------------------------------------------------------------------- the docs' table
def shown(ms: float) -> str:
    """A latency as the table shows it: milliseconds below a second, seconds above."""
    return f"{ms:,.0f} ms" if ms < 1000 else f"{ms / 1000:,.2f} s"


def docs_lines(result: dict[str, Any]) -> list[str]:
    """docs/deploy.md's table of the run, from the results file."""
    argon2, sign_in, sign_up, move = (
        result["argon2"],
        result["sign_in"],
        result["sign_up"],
        result["move"],
    )
    phases = result["phases_s"]
    errors = ", ".join(f"{n} {what}" for what, n in sorted(result["errors"].items())) or "none"

    def latency(part: dict[str, Any], *qs: int) -> str:
        return " / ".join(shown(part[f"p{q}_ms"]) for q in qs)

    def rate(count: int, seconds: float) -> str:
        return f"{count / seconds:,.1f}/s" if seconds else "-"

    return [
        f"Measured {result['at']} (`python bench/load_accounts.py`; {result['cores']} cores, "
        f"load average {result['load_average'][0]} before, {result['load_average'][1]} after; "
        f"{result['concurrency']} requests at once):",
        "",
        "| what | figure |",
        "|---|---|",
        f"| accounts signed up, then signed in | {result['accounts']:,} |",
        f"| sign-in p50 / p95 / p99 | {latency(sign_in, 50, 95, 99)} |",
        f"| sign-up p50 / p95 / p99 | {latency(sign_up, 50, 95, 99)} |",
        f"| sign-ins, sign-ups a second (both processes) | "
        f"{rate(sign_in['count'], phases['sign_in'])}, {rate(sign_up['count'], phases['sign_up'])} |",
        f"| argon2id per sign-in, alone ({argon2['memory_kib'] // 1024} MiB, "
        f"t={argon2['time_cost']}, p={argon2['parallelism']}) | {argon2['cpu_ms']} ms of CPU, "
        f"{argon2['wall_ms']} ms of wall time (median of {argon2['repeats']}) |",
        f"| rated {result['game']} games played at once, finished | "
        f"{result['games_started']:,}, {result['games_finished']:,} |",
        f"| moves; p50 / p99 from sending one to its ack | {result['moves']:,}; "
        f"{latency(move, 50, 99)} |",
        f"| wall time: sign-ups, sign-ins, tables, play, check | {phases['sign_up']} s, "
        f"{phases['sign_in']} s, {phases['tables']} s, {phases['play']} s, {phases['check']} s |",
        f"| errors | {result['error_count']} ({errors}) |",
    ]


def documented(text: str) -> list[str]:
    """The lines between the markers in a document (a ValueError naming them when missing)."""
    lines = text.splitlines()
    if lines.count(BEGIN) != 1 or lines.count(END) != 1 or lines.index(END) < lines.index(BEGIN):
        raise ValueError(f"the document needs one line {BEGIN!r} and, after it, one {END!r}")
    return lines[lines.index(BEGIN) + 1 : lines.index(END)]


def write_docs(path: Path = DOCS, results: Path = RESULTS) -> None:
    text = path.read_text()
    documented(text)
    head, rest = text.split(BEGIN + "\n")
    _, tail = rest.split(END)
    lines = docs_lines(json.loads(results.read_text()))
    path.write_text(head + BEGIN + "\n" + "\n".join(lines) + "\n" + END + tail)


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--accounts", type=int, default=1000, help="accounts (default 1000)")
    parser.add_argument("--games", type=int, default=200, help="rated games at once (default 200)")
    parser.add_argument("--game", default="sixteen-candies", help="the game played")
    parser.add_argument(
        "--concurrency", type=int, default=32, help="requests in flight at once (default 32)"
    )
    parser.add_argument(
        "--game-timeout", type=float, default=1800, help="seconds for every game to end"
    )
    parser.add_argument(
        "--db", default=None, help="an empty PostgreSQL database on loopback (default: start one)"
    )
    parser.add_argument("--out", type=Path, default=RESULTS, help="the results file written")
    parser.add_argument(
        "--write-docs", action="store_true", help="write docs/deploy.md's table from --out; no run"
    )
    args = parser.parse_args()
    if args.accounts < 2 or args.games < 1 or args.concurrency < 1:
        parser.error("--accounts is at least 2, --games and --concurrency at least 1")
    if args.db and not (
        args.db.startswith("postgresql") and any(h in args.db for h in ("127.0.0.1", "localhost"))
    ):
        parser.error("--db is a PostgreSQL database on loopback (127.0.0.1 or localhost)")
    return args


def main() -> None:
    args = parse()
    if args.write_docs:
        write_docs(DOCS, args.out)
        print("\n".join(docs_lines(json.loads(args.out.read_text()))))
        return
    result = measure(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))
    if result["error_count"]:
        sys.exit(1)


if __name__ == "__main__":
    main()
