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

``--matrix 1x1000,2x1000,4x1000`` runs several configurations back to back (PROCESSESxGAMES, each on a
fresh database; ``@inline`` after one keeps the bots in the web process, ``@workers`` puts them in
``--bot-workers`` workers, the default), and ``--out FILE`` gets the JSON list of results rewritten as
each configuration ends, so an interrupted run keeps what it measured:

    python bench/load_server.py --start-postgres --bot-workers 1 --seconds 60 \
        --matrix 1x1000,2x1000,4x1000,1x2000,2x2000,4x2000,1x4000,2x4000,4x4000 --out load.json
    python bench/load_server.py --start-postgres --bot ismcts --games 100 \
        --matrix 1x100@inline,1x100@workers --out ismcts.json

The load generator is one process on the same machine: each result says how much CPU it used
(``client_cpu_percent``, of one core), how busy the whole machine was (``machine_busy_percent``, of all
cores, other users' processes included) and the load average, so a figure can be read for what it is.
A move is counted ``unanswered`` when it had no answer when the measurement ended (a saturated
server): its latency is not in the percentiles, so a large count means the percentiles flatter it.

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
import resource
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
        self.inflight = 0  # moves sent and not yet answered (ack or error)


# Games being created at once (HTTP requests in flight). httpx's pool scans every waiting request
# whenever a connection frees up: thousands waiting on it made the load generator, not the server,
# the bottleneck (and timed requests out in the pool), so the waiting is done here instead.
CREATING = 48


async def player(
    base: str,
    ws_base: str,
    args: argparse.Namespace,
    stats: Stats,
    stop: asyncio.Event,
    client: httpx.AsyncClient,
    index: int,
    creating: asyncio.Semaphore,
) -> None:
    rng = random.Random(index)
    while not stop.is_set():
        try:
            await one_game(base, ws_base, args, stats, stop, client, rng, creating)
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
    creating: asyncio.Semaphore,
) -> None:
    if not stop.is_set():
        seats = [{"kind": "human"}] + [
            {"kind": "bot", "bot": args.bot, "strength": 1.0} for _ in range(args.players - 1)
        ]
        async with creating:
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
                stats.inflight += 1
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
                        if started is not None:
                            stats.inflight -= 1
                            if stats.measuring:
                                stats.latencies.append(time.perf_counter() - started)
                        continue
                    if kind == "error":
                        stats.errors[frame["error"]] = stats.errors.get(frame["error"], 0) + 1
                        if pending.pop(str(frame.get("ref")), None) is not None:
                            stats.inflight -= 1
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
                stats.inflight -= len(pending)
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
        "CANDLEBOX_MAX_CLIENT_SOCKETS": "0",
        # thousands of websockets in one process: above the default cap of 2048 connections
        "CANDLEBOX_MAX_CONNECTIONS": str(max(2048, 2 * args.games + 256)),
        # a bot worker holds a turn while its bot waits out the delay too: with the default 32 at
        # once, one worker could play at most 32 / bot_delay turns a second for every game here
        "CANDLEBOX_WORKER_GAMES": str(max(32, args.games)),
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


def machine_ticks() -> tuple[int, int]:
    """(busy, total) clock ticks of all cores since boot, from /proc/stat."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return sum(fields) - idle, sum(fields)


def own_cpu_seconds() -> float:
    """CPU used by this process (the load generator) so far."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


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
    # An idle connection is given up well before the server's keep-alive timeout (5 s): with httpx's
    # default of 5 s too, a request sent on a connection the server was closing at that moment failed
    # with ReadError (the request never reached the server; a browser retries such a request itself).
    limits = httpx.Limits(max_connections=64, keepalive_expiry=2.0)
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        for _ in range(1800):  # a loaded machine may take a minute to start several processes
            if process is not None and process.poll() is not None:
                log = (workdir / "server.log").read_text(errors="replace")[-1500:]
                raise RuntimeError(f"the server exited while starting:\n{log}")
            with contextlib.suppress(httpx.HTTPError):
                if (await client.get(f"{base}/api/meta")).status_code == 200:
                    break
            await asyncio.sleep(0.1)
        if args.processes > 1:  # every web process answers (the port is shared): let them all start
            await asyncio.sleep(5 * args.processes)
        stats = Stats()
        stop = asyncio.Event()
        tasks = []
        creating = asyncio.Semaphore(CREATING)
        for index in range(args.games):
            tasks.append(
                asyncio.create_task(
                    player(base, ws_base, args, stats, stop, client, index, creating)
                )
            )
            if index % 50 == 49:
                await asyncio.sleep(args.ramp / max(1, args.games / 50))
        opened = time.monotonic()
        while stats.connected < args.games and time.monotonic() - opened < args.connect_wait:
            await asyncio.sleep(0.2)
        await asyncio.sleep(args.warmup)
        stats.measuring = True
        updates0, sent0 = stats.updates, stats.sent
        concurrent_start = stats.connected
        load_start = os.getloadavg()[0]
        pids = family(process.pid) if process else []
        cpu0 = sum(cpu_seconds(pid) for pid in pids) if process else float("nan")
        own0, machine0 = own_cpu_seconds(), machine_ticks()
        began = time.monotonic()
        await asyncio.sleep(args.seconds)
        elapsed = time.monotonic() - began
        stats.measuring = False
        cpu1 = sum(cpu_seconds(pid) for pid in pids) if process else float("nan")
        own1, machine1 = own_cpu_seconds(), machine_ticks()
        server_alive = process is None or process.poll() is None
        updates, sent = stats.updates - updates0, stats.sent - sent0
        concurrent = stats.connected
        unanswered = stats.inflight
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
    busy = machine1[0] - machine0[0]
    ticks = max(1, machine1[1] - machine0[1])
    return {
        "processes": args.processes,
        "bot_workers": args.bot_workers or (1 if args.processes > 1 else 0),
        "games": args.games,
        "concurrent_at_start": concurrent_start,
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
        "unanswered": unanswered,
        "server_alive_at_end": server_alive,
        "games_finished": stats.finished,
        "server_cpu_percent": round(100 * (cpu1 - cpu0) / elapsed, 1) if process else None,
        "client_cpu_percent": round(100 * (own1 - own0) / elapsed, 1),
        "machine_busy_percent": round(100 * busy / ticks, 1),
        "cores": os.cpu_count(),
        "load_average": [round(load_start, 2), round(os.getloadavg()[0], 2)],
        "at": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()),
    }


def configuration(text: str) -> tuple[int, int, str]:
    """``"2x1000"`` → (2 processes, 1000 games, "workers"); ``"1x100@inline"``: bots in the web
    process."""
    size, _, bots = text.strip().partition("@")
    processes, _, games = size.partition("x")
    if not processes.isdigit() or not games.isdigit() or bots not in ("", "inline", "workers"):
        raise ValueError(f"--matrix: {text!r} is not PROCESSESxGAMES[@inline|@workers]")
    if bots == "inline" and int(processes) > 1:
        raise ValueError(f"--matrix: {text!r}: several processes need the bots in workers")
    return int(processes), int(games), bots or "workers"


def run_matrix(args: argparse.Namespace, postgres: Any) -> list[dict[str, Any]]:
    """Each configuration in turn on a fresh database, its result written out as it ends."""
    results: list[dict[str, Any]] = []
    for processes, games, bots in args.matrix:
        one = argparse.Namespace(**vars(args))
        one.processes, one.games = processes, games
        one.bot_workers = 0 if bots == "inline" else max(1, args.bot_workers)
        if postgres is not None:
            one.db = postgres.new_database()
        print(f"{processes} process(es), {games} games, bots {bots} ...", file=sys.stderr)
        try:
            report = asyncio.run(main(one))
        except RuntimeError as exc:  # reported as what happened, and the next one runs
            report = {"processes": processes, "games": games, "failed": str(exc)}
        report["bots_in"] = bots
        results.append(report)
        print(json.dumps(report), file=sys.stderr)
        if args.out:
            Path(args.out).write_text(json.dumps(results, indent=2) + "\n")
    return results


def parse() -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", type=int, default=1000, help="concurrent games (default 1000)")
    parser.add_argument("--seconds", type=float, default=60, help="measured time (default 60)")
    parser.add_argument("--warmup", type=float, default=5, help="seconds before measuring")
    parser.add_argument("--ramp", type=float, default=10, help="seconds to open all games over")
    parser.add_argument(
        "--connect-wait",
        type=float,
        default=120,
        help="seconds to wait for every game to be connected before measuring anyway",
    )
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
    parser.add_argument(
        "--matrix",
        default=None,
        help="configurations run back to back: PROCESSESxGAMES[@inline|@workers],...",
    )
    parser.add_argument("--out", default=None, help="write the results (a JSON list) here")
    args = parser.parse_args()
    if args.matrix is not None:
        try:
            args.matrix = [configuration(item) for item in args.matrix.split(",")]
        except ValueError as exc:
            parser.error(str(exc))
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
        if arguments.matrix is not None:
            output: Any = run_matrix(arguments, postgres)
        else:
            output = asyncio.run(main(arguments))
            if arguments.out:
                Path(arguments.out).write_text(json.dumps(output, indent=2) + "\n")
    finally:
        if postgres is not None:
            postgres.stop()
    print(json.dumps(output, indent=2))
