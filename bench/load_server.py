"""Load test for ``candlebox serve``: N concurrent games over websockets on loopback.

Each game has one seat played by this script (a "player" that thinks a while, then sends a random
legal move over its websocket) and bot seats played by the server. The latency of a move is the time
from sending it to receiving its ``ack`` — the server has checked it, committed it to the database,
applied it and broadcast the new position by then. The script starts its own server (SQLite in a
temporary directory unless --db is given) in a separate process, or uses --url.

    pip install -e '.[server,e2e]'
    python bench/load_server.py --games 1000 --seconds 60
    python bench/load_server.py --games 200 --think 0.2 --db postgresql://user@127.0.0.1:5432/db
    python bench/load_server.py --processes 2 --start-postgres   # 2 web processes + bot workers

With ``--processes N`` the server is ``candlebox serve --workers N --bot-workers M`` on PostgreSQL (a
private one with ``--start-postgres``, Debian's ``postgresql`` package): moves are accepted by any web
process, bots think in the worker processes; the CPU figure is the sum over all of them.

Only loopback addresses are used. The run is bounded by --seconds and stops by itself.
Not part of the test suite.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))
    return ordered[index]


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []  # seconds, measured moves only (after the warm-up)
        self.sent = 0
        self.errors: dict[str, int] = {}
        self.updates = 0  # update frames received: every move of every game, bots' included
        self.finished = 0
        self.connected = 0
        self.measuring = False


async def player(
    base: str,
    ws_base: str,
    args: argparse.Namespace,
    stats: Stats,
    stop: asyncio.Event,
    client: httpx.AsyncClient,
    index: int,
) -> None:
    rng = random.Random(index)
    while not stop.is_set():
        try:
            await one_game(base, ws_base, args, stats, stop, client, rng)
        except Exception as exc:  # counted, never silent: a game that could not be played
            name = f"client-{type(exc).__name__}"
            stats.errors[name] = stats.errors.get(name, 0) + 1
            await asyncio.sleep(1)


async def one_game(
    base: str,
    ws_base: str,
    args: argparse.Namespace,
    stats: Stats,
    stop: asyncio.Event,
    client: httpx.AsyncClient,
    rng: random.Random,
) -> None:
    if not stop.is_set():
        seats = [{"kind": "human"}] + [
            {"kind": "bot", "bot": args.bot, "strength": 1.0} for _ in range(args.players - 1)
        ]
        response = await client.post(
            f"{base}/api/games",
            json={
                "game": args.game,
                "seats": seats,
                "you": 0,
                "bot_delay": args.bot_delay,
                "seed": rng.randrange(1 << 40),
                "practice": True,
            },
        )
        response.raise_for_status()
        created = response.json()
        async with websockets.connect(
            f"{ws_base}/ws/games/{created['id']}",
            max_size=1 << 22,
            open_timeout=60,
            ping_interval=None,
        ) as ws:
            await ws.send(json.dumps({"type": "hello", "token": created["token"]}))
            stats.connected += 1
            pending: dict[str, float] = {}
            move = 0
            legal: list[str] = []
            refs = 0
            turn_task: asyncio.Task[None] | None = None

            async def take_turn(
                expect: int, options: list[str], pending: dict[str, float] = pending
            ) -> None:
                nonlocal refs
                await asyncio.sleep(rng.expovariate(1 / args.think) if args.think > 0 else 0)
                if stop.is_set():
                    return
                refs += 1
                ref = f"r{refs}"
                pending[ref] = time.perf_counter()
                stats.sent += 1
                await ws.send(
                    json.dumps(
                        {
                            "type": "move",
                            "action": rng.choice(options),
                            "expect": expect,
                            "ref": ref,
                        }
                    )
                )

            try:
                while not stop.is_set():
                    try:
                        text = await asyncio.wait_for(ws.recv(), timeout=1.0)
                    except TimeoutError:
                        continue
                    frame = json.loads(text)
                    kind = frame["type"]
                    if kind == "ack":
                        started = pending.pop(frame["ref"], None)
                        if started is not None and stats.measuring:
                            stats.latencies.append(time.perf_counter() - started)
                        continue
                    if kind == "error":
                        stats.errors[frame["error"]] = stats.errors.get(frame["error"], 0) + 1
                        pending.pop(str(frame.get("ref")), None)
                        continue
                    if kind not in ("snapshot", "update"):
                        continue
                    if kind == "update":
                        stats.updates += 1
                    move, legal = frame["move"], frame["legal"]
                    if frame["over"]:
                        stats.finished += 1
                        break
                    if legal and (turn_task is None or turn_task.done()):
                        turn_task = asyncio.create_task(take_turn(move, legal))
            finally:
                if turn_task is not None:
                    turn_task.cancel()
                stats.connected -= 1


def start_server(args: argparse.Namespace, workdir: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    db = args.db or f"sqlite:///{workdir / 'load.sqlite3'}"
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        # one load generator on loopback plays every game: no per-client limits
        "CANDLEBOX_REQUESTS_PER_SECOND": "0",
        "CANDLEBOX_MAX_OPEN_GAMES": "0",
    }
    command = [sys.executable, "-m", "candlebox.cli", "serve", "--port", str(port), "--db", db]
    if args.processes > 1 or args.bot_workers:
        command += ["--workers", str(args.processes), "--bot-workers", str(args.bot_workers or 1)]
    log = (workdir / "server.log").open("wb")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
    return process, f"http://127.0.0.1:{port}"


def family(pid: int) -> list[int]:
    """``pid`` and its descendants (the web processes and bot workers of ``--workers``)."""
    found = [pid]
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        with contextlib.suppress(OSError, ValueError):
            for child in task.read_text().split():
                found += family(int(child))
    return found


def cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return float("nan")


async def main(args: argparse.Namespace) -> dict[str, Any]:
    workdir = Path(tempfile.mkdtemp(prefix="candlebox-load-"))
    process = None
    base = args.url
    if base is None:
        process, base = start_server(args, workdir)
    ws_base = base.replace("http", "ws", 1)
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        for _ in range(1800):  # a loaded machine may take a minute to start several processes
            with contextlib.suppress(httpx.HTTPError):
                if (await client.get(f"{base}/api/meta")).status_code == 200:
                    break
            await asyncio.sleep(0.1)
        if args.processes > 1:  # every web process answers (the port is shared): let them all start
            await asyncio.sleep(5 * args.processes)
        stats = Stats()
        stop = asyncio.Event()
        tasks = []
        for index in range(args.games):
            tasks.append(
                asyncio.create_task(player(base, ws_base, args, stats, stop, client, index))
            )
            if index % 50 == 49:
                await asyncio.sleep(args.ramp / max(1, args.games / 50))
        opened = time.monotonic()
        while stats.connected < args.games and time.monotonic() - opened < 120:
            await asyncio.sleep(0.2)
        await asyncio.sleep(args.warmup)
        stats.measuring = True
        updates0, sent0 = stats.updates, stats.sent
        pids = family(process.pid) if process else []
        cpu0 = sum(cpu_seconds(pid) for pid in pids) if process else float("nan")
        began = time.monotonic()
        await asyncio.sleep(args.seconds)
        elapsed = time.monotonic() - began
        stats.measuring = False
        cpu1 = sum(cpu_seconds(pid) for pid in pids) if process else float("nan")
        updates, sent = stats.updates - updates0, stats.sent - sent0
        concurrent = stats.connected
        stop.set()
        await asyncio.wait(tasks, timeout=10)
        for task in tasks:
            task.cancel()
    if process is not None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
    lat = [x * 1000 for x in stats.latencies]
    return {
        "processes": args.processes,
        "bot_workers": args.bot_workers or (1 if args.processes > 1 else 0),
        "games": args.games,
        "concurrent_at_end": concurrent,
        "players_per_game": args.players,
        "bot": args.bot,
        "think_s": args.think,
        "bot_delay_s": args.bot_delay,
        "measured_s": round(elapsed, 1),
        "player_moves_acked": len(lat),
        "player_moves_per_s": round(sent / elapsed, 1),
        "all_moves_per_s": round(updates / elapsed, 1),
        "latency_ms": {
            "p50": round(percentile(lat, 50), 2),
            "p90": round(percentile(lat, 90), 2),
            "p99": round(percentile(lat, 99), 2),
            "max": round(max(lat), 2) if lat else None,
            "mean": round(statistics.fmean(lat), 2) if lat else None,
        },
        "errors": stats.errors,
        "games_finished": stats.finished,
        "server_cpu_percent": round(100 * (cpu1 - cpu0) / elapsed, 1) if process else None,
    }


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1000, help="concurrent games (default 1000)")
    parser.add_argument("--seconds", type=float, default=60, help="measured time (default 60)")
    parser.add_argument("--warmup", type=float, default=5, help="seconds before measuring")
    parser.add_argument("--ramp", type=float, default=10, help="seconds to open all games over")
    parser.add_argument("--think", type=float, default=2.0, help="a player's mean thinking time, s")
    parser.add_argument("--bot-delay", type=float, default=1.0, help="the server's bot delay, s")
    parser.add_argument("--players", type=int, default=2, help="seats per game (1 player + bots)")
    parser.add_argument("--bot", default="heuristic", help="the bot in the other seats")
    parser.add_argument("--game", default="candle-quest")
    parser.add_argument("--db", default=None, help="database URL (default: SQLite in a temp dir)")
    parser.add_argument("--url", default=None, help="use a running server (http://127.0.0.1:PORT)")
    parser.add_argument(
        "--processes", type=int, default=1, help="web processes (above 1: needs PostgreSQL)"
    )
    parser.add_argument(
        "--bot-workers", type=int, default=0, help="bot worker processes (0: bots in the web one)"
    )
    parser.add_argument(
        "--start-postgres", action="store_true", help="run a private PostgreSQL for the test"
    )
    args = parser.parse_args()
    for name in ("url", "db"):
        value = getattr(args, name)
        if value and not any(h in value for h in ("127.0.0.1", "localhost", "[::1]", "sqlite")):
            parser.error(f"--{name} must be on loopback (127.0.0.1 or localhost)")
    return args


if __name__ == "__main__":
    arguments = parse()
    try:
        import uvloop

        uvloop.install()
    except ImportError:
        pass
    postgres = None
    if arguments.start_postgres:
        sys.path.insert(0, str(ROOT))
        from tests.server.pg import start_postgres  # the tests' private server, under /tmp

        postgres = start_postgres()
        arguments.db = postgres.new_database()
    try:
        report = asyncio.run(main(arguments))
    finally:
        if postgres is not None:
            postgres.stop()
    print(json.dumps(report, indent=2))
