"""Re-run the issue-12 attacker's probes against ``candlebox serve`` and print what happens now.

Each probe starts its own server (the code of this checkout, or ``--code DIR`` for another checkout
such as the pre-hardening baseline) on a free loopback port with SQLite in a temporary directory
(PostgreSQL for probes 6 and 8 with ``--pg``: a private server as tests/server/pg.py starts it), runs
its attack and prints one row per finding: probe, what the audit saw, what happens now. ``--latency``
adds a normal player's move round-trip (HTTP POST of legal moves in a human-vs-human game) with no
attack and during the slowloris, chunked-body and flood attacks (the attacker's address 127.0.0.2).

    python bench/probe_server.py                          # every probe, SQLite
    python bench/probe_server.py --pg --latency           # and PostgreSQL, and latency under abuse
    python bench/probe_server.py --code /work/wt/base     # the same probes against another checkout
    python bench/probe_server.py --tiny --only 3,10       # a quick check (the smoke test)

Only loopback is used; every loop is bounded in count and time, and the script stops by itself.
Not part of the test suite (tests/server/test_probe_script.py runs it in --tiny mode).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import select
import shutil
import signal
import socket
import stat
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
ATTACKER = "127.0.0.2"  # the rate limiter keys on the address: attacks come from another one
MiB = 1 << 20
SERVE = [sys.executable, "-m", "candlebox.cli", "serve"]
INTERNALS = ("Traceback", 'File "', ".py", "psycopg", "sqlalchemy", "keyword argument", "5432")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q / 100 * (len(ordered) - 1))))]


@dataclass
class Row:
    probe: str
    audit: str
    now: str


@dataclass
class Run:
    args: argparse.Namespace
    rows: list[Row] = field(default_factory=list)
    latency: list[tuple[str, str, str, str]] = field(default_factory=list)

    def add(self, probe: str, audit: str, now: str) -> None:
        self.rows.append(Row(probe, audit, now))
        print(f"  {probe}: {now}", file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------- the server
class Server:
    """``candlebox serve`` of a checkout in a subprocess, on a free loopback port."""

    def __init__(self, args: argparse.Namespace, env: dict[str, str], db: str | None = None):
        self.workdir = Path(tempfile.mkdtemp(prefix="candlebox-probe-"))
        self.port = free_port()
        self.db_file = self.workdir / "data" / "probe.sqlite3"
        self.db = db or f"sqlite:///{self.db_file}"
        code = str(Path(args.code).resolve())
        full_env = {**os.environ, "PYTHONPATH": code, **env}
        self.log = (self.workdir / "server.log").open("wb")
        self.process = subprocess.Popen(
            [*SERVE, "--port", str(self.port), "--db", self.db, "--bot-delay", "0"],
            stdout=self.log,
            stderr=subprocess.STDOUT,
            env=full_env,
            cwd=self.workdir,
        )
        self.base = f"http://127.0.0.1:{self.port}"
        self.http = httpx.Client(base_url=self.base, timeout=30)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError((self.workdir / "server.log").read_text()[-2000:])
            with suppress(httpx.HTTPError):
                if self.http.get("/api/meta").status_code == 200:
                    break
            time.sleep(0.1)
        else:
            self.stop()
            raise RuntimeError("the server did not start within 60 s")
        meta = self.http.get("/api/meta").json()
        # the hardened server has practice games and a commitment; the baseline has neither
        self.hardened = "content_packs" in meta

    def vm(self, key: str = "VmHWM") -> int:
        """kB of the server process's memory (/proc/PID/status)."""
        for line in Path(f"/proc/{self.process.pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
        return -1

    def bytes_read(self) -> int:
        """Bytes the server process has read so far, sockets included (/proc/PID/io rchar)."""
        for line in Path(f"/proc/{self.process.pid}/io").read_text().splitlines():
            if line.startswith("rchar:"):
                return int(line.split()[1])
        return -1

    def stop(self) -> None:
        self.http.close()
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:  # a stalled bot thread may hold it: the hard way
                self.process.kill()
                self.process.wait(timeout=10)
        self.log.close()
        shutil.rmtree(self.workdir, ignore_errors=True)

    # helpers every probe uses ------------------------------------------------------------
    def create(self, seats: list[dict[str, Any]], **spec: Any) -> httpx.Response:
        body = {"game": "candle-quest", "seats": seats, **spec}
        if "seed" in body and self.hardened:
            body.setdefault("practice", True)
        return self.http.post("/api/games", json=body)

    def two_humans(self) -> tuple[str, list[str]]:
        created = self.create([{"kind": "human"}, {"kind": "human"}], you=0).json()
        claim = self.http.post(
            f"/api/games/{created['id']}/seats/1/claim",
            json={"name": "P1", "invite": created["invites"]["1"]},
        ).json()
        return created["id"], [created["token"], claim["token"]]

    def state(self, game: str, token: str | None = None) -> dict[str, Any]:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        data: dict[str, Any] = self.http.get(f"/api/games/{game}/state", headers=headers).json()
        return data

    def to_act(self, game: str, tokens: list[str]) -> tuple[int, dict[str, Any]] | None:
        """The seat to act and its frame, None when the game is over."""
        for seat, token in enumerate(tokens):
            frame = self.state(game, token)
            if frame.get("over"):
                return None
            if frame.get("legal"):
                return seat, frame
        return None

    def move(
        self, game: str, token: str, action: str, expect: int | None, client: Any = None
    ) -> httpx.Response:
        body: dict[str, Any] = {"action": action}
        if expect is not None:
            body["expect"] = expect
        headers = {"Authorization": f"Bearer {token}"}
        result: httpx.Response = (client or self.http).post(
            f"/api/games/{game}/moves", json=body, headers=headers
        )
        return result

    def wait_over(self, game: str, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.state(game).get("over"):
                return True
            time.sleep(0.1)
        return False


UNLIMITED = {"CANDLEBOX_REQUESTS_PER_SECOND": "0", "CANDLEBOX_MAX_OPEN_GAMES": "0"}


@contextmanager
def server(run: Run, env: dict[str, str] | None = None, db: str | None = None) -> Iterator[Server]:
    started = Server(run.args, {**UNLIMITED, **(env or {})}, db)
    try:
        yield started
    finally:
        started.stop()


def shown(response: httpx.Response, width: int = 60) -> str:
    """The status, error code and the start of the message of an answer."""
    try:
        data = response.json()
    except ValueError:
        return f"{response.status_code} {response.text[:width]}"
    if isinstance(data, dict) and "error" in data:
        return f"{response.status_code} {data['error']}: “{str(data.get('message'))[:width]}”"
    return f"{response.status_code} {response.text[:width]}"


def leaks(text: str, extra: tuple[str, ...] = ()) -> list[str]:
    return [word for word in INTERNALS + extra if word and word in text]


# ----------------------------------------------------------------------------- 1: bot stall
def bot_reply_seconds(srv: Server, timeout: float) -> float | None:
    """A game of a human and a quick bot: the time from the human's move that hands the turn to
    the bot to the bot's answer (the human's turn again, or the end); None: no answer in time."""
    created = srv.create(
        [{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}], you=0, bot_delay=0
    ).json()
    game, token = created["id"], created["token"]
    deadline = time.monotonic() + timeout
    frame = srv.state(game, token)
    while time.monotonic() < deadline and not frame.get("over"):
        if not frame.get("legal"):  # the bot (or the deal) first
            time.sleep(0.02)
            frame = srv.state(game, token)
            continue
        began = time.monotonic()
        srv.move(game, token, frame["legal"][0], frame["move"])
        frame = srv.state(game, token)
        if frame.get("legal") or frame.get("over"):
            continue  # still our turn: that move did not hand the turn over
        while time.monotonic() < deadline:
            frame = srv.state(game, token)
            if frame.get("legal") or frame.get("over"):
                return time.monotonic() - began
            time.sleep(0.01)
    return None


def probe_bot_stall(run: Run) -> None:
    with server(run) as srv:
        idle = [bot_reply_seconds(srv, 30) for _ in range(3)]
        run.add(
            "1 a heuristic bot's reply, nothing else running",
            "",
            ", ".join("none in 30 s" if r is None else f"{r * 1000:.0f} ms" for r in idle),
        )
        hostile = {"kind": "bot", "bot": "ismcts", "params": {"seconds": 3600}}
        answers = [srv.create([hostile, hostile], bot_delay=0) for _ in range(2)]
        accepted = sum(r.status_code == 201 for r in answers)
        verdict = "refused " + shown(answers[0]) if not accepted else f"ACCEPTED ({accepted}/2)"
        run.add("1 bot params seconds=3600", "accepted; both bot threads held 1 h", verdict)
        strongest = {"kind": "bot", "bot": "ismcts", "level": "hard"}
        if not srv.hardened:
            strongest = {"kind": "bot", "bot": "ismcts", "strength": 1.0}
        busy = [srv.create([strongest, strongest], bot_delay=0) for _ in range(2)]
        time.sleep(0.5)
        wait = 15 if run.args.tiny else 30
        replies = [bot_reply_seconds(srv, wait) for _ in range(3)]
        text = ", ".join(
            f"none in {wait} s" if r is None else f"{r * 1000:.0f} ms" for r in replies
        )
        run.add(
            "1 other game's bot reply (2 games of hard ismcts busy)",
            "every other game's bots stopped",
            f"{sum(b.status_code == 201 for b in busy)} busy games; replies: {text}",
        )


# ----------------------------------------------------------------------------- 2: chunked body
def stream_chunked(port: int, total: int, source: str = "127.0.0.1", seconds: float = 60) -> int:
    """POST a chunked body of ``total`` bytes (64 KiB chunks, never built whole); returns the bytes
    sent before the server answered or closed."""
    chunk = b"[" + b" " * (64 * 1024 - 2) + b"]"
    frame = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    sent = 0
    with socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(source, 0)) as s:
        s.sendall(
            b"POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Transfer-Encoding: chunked\r\n\r\n"
        )
        deadline = time.monotonic() + seconds
        while sent < total and time.monotonic() < deadline:
            readable, _, _ = select.select([s], [], [], 0)
            if readable:
                break  # an answer (413) or a close: the server stopped reading
            try:
                s.sendall(frame)
            except OSError:
                break
            sent += len(chunk)
        with suppress(OSError):
            s.sendall(b"0\r\n\r\n")
            s.settimeout(30)
            s.recv(4096)
    return sent


def probe_chunked(run: Run) -> None:
    total = (3 if run.args.tiny else 300) * MiB
    with server(run) as srv:
        before, read0 = srv.vm(), srv.bytes_read()
        began = time.monotonic()
        sent = stream_chunked(srv.port, total)
        took = time.monotonic() - began
        time.sleep(0.5)
        after, read = srv.vm(), srv.bytes_read() - read0
        run.add(
            f"2 chunked body {total // MiB} MB",
            "read whole before 413; 685 MB resident",
            f"server read {read / 1024:.0f} KiB (client got {sent / 1024:.0f} KiB into the socket,"
            f" {took:.1f} s); VmHWM {before / 1024:.0f} → {after / 1024:.0f} MB",
        )


# ----------------------------------------------------------------------------- 3: seeds
def probe_seed(run: Run) -> None:
    with server(run) as srv:
        chosen = srv.http.post(
            "/api/games",
            json={"game": "candle-quest", "seats": [{"kind": "human"}] * 2, "you": 0, "seed": 7},
        )
        run.add("3 seed chosen, 2 humans", "accepted, unseen by rivals", shown(chosen))
        game, tokens = srv.two_humans()
        fairness = srv.state(game, tokens[1]).get("game", {}).get("fairness")
        run.add(
            "3 commitment shown",
            "none",
            f"commitment {fairness['commitment'][:16]}…" if fairness else "none",
        )
        bots = [{"kind": "bot", "bot": "random"}] * 2
        created = srv.create(bots, bot_delay=0, options={"max_turns": 6}).json()
        if not srv.wait_over(created["id"], 60):
            run.add("3 replay --verify", "no verification", "the game did not finish in 60 s")
            return
        saved = srv.http.get(f"/api/games/{created['id']}/saved")
        if saved.status_code != 200:
            run.add("3 replay --verify", "no verification", f"no download: {shown(saved)}")
            return
        data = saved.json()
        honest = srv.workdir / "honest.json"
        honest.write_text(json.dumps(data))
        tampered = srv.workdir / "tampered.json"
        data["fairness"]["seed"] = str(int(data["fairness"]["seed"]) ^ 1)
        tampered.write_text(json.dumps(data))
        verdicts = []
        for path in (honest, tampered):
            out = subprocess.run(
                [sys.executable, "-m", "candlebox.cli", "replay", str(path), "--verify"],
                capture_output=True,
                text=True,
                timeout=60,
                env={**os.environ, "PYTHONPATH": str(Path(run.args.code).resolve())},
                check=False,
            )
            said = (out.stdout + out.stderr).replace(str(path), "FILE").strip()
            verdicts.append(f"exit {out.returncode} “{' '.join(said.split())[:70]}”")
        run.add("3 replay --verify honest / tampered seed", "none", " / ".join(verdicts))


# ----------------------------------------------------------------------------- 4: content paths
def probe_content(run: Run) -> None:
    with server(run) as srv:
        home = str(Path.home())
        answers = {}
        for path in ("/proc/self", "~", str(srv.workdir), str(srv.workdir / "missing")):
            answers[path] = srv.http.post(
                "/api/games",
                json={
                    "game": "candelabria",
                    "seats": [{"kind": "human"}] * 3,
                    "you": 0,
                    "options": {"content": path},
                    **({"practice": True} if srv.hardened else {}),
                },
            )
        messages = {r.json().get("message") for r in answers.values() if r.status_code >= 400}
        created = sum(r.status_code == 201 for r in answers.values())
        leaked = [
            p
            for p, r in answers.items()
            if any(w in r.text for w in (home, str(srv.workdir), str(srv.process.pid)))
        ]
        run.add(
            "4 content /proc/self, ~, existing, missing dir",
            "pid, home dir shown; existence probed",
            f"{created} created; {len(messages)} distinct message(s) "
            f"({sorted(messages, key=str)[0]!s:.60}); paths/pid in answers: {len(leaked)}",
        )


# ----------------------------------------------------------------------------- 5: slowloris
def hold_half_requests(port: int, count: int, source: str) -> list[socket.socket]:
    held = []
    for _ in range(count):
        try:
            sock = socket.create_connection(
                ("127.0.0.1", port), timeout=5, source_address=(source, 0)
            )
            sock.sendall(b"GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ")
            held.append(sock)
        except OSError:
            break
    return held


def still_open(held: list[socket.socket]) -> int:
    open_count = 0
    for sock in held:
        readable, _, _ = select.select([sock], [], [], 0)
        if not readable:
            open_count += 1
            continue
        try:
            sock.setblocking(False)
            if sock.recv(1):
                open_count += 1
        except BlockingIOError:
            open_count += 1
        except OSError:
            pass
    return open_count


def probe_slowloris(run: Run) -> None:
    n = 50 if run.args.tiny else 500
    timeout = 1.0 if run.args.tiny else 10.0
    env = {"CANDLEBOX_HEADER_TIMEOUT": str(timeout)}
    with server(run, env) as srv:
        held = hold_half_requests(srv.port, n, ATTACKER)
        began = time.monotonic()
        lat = []
        game, tokens = srv.two_humans()
        for _ in range(5):
            turn = srv.to_act(game, tokens)
            if turn is None:
                break
            seat, frame = turn
            t = time.perf_counter()
            srv.move(game, tokens[seat], frame["legal"][0], frame["move"])
            lat.append((time.perf_counter() - t) * 1000)
        counts = []
        for after in (timeout + 2, timeout + 5):
            time.sleep(max(0.0, after - (time.monotonic() - began)))
            counts.append(f"{still_open(held)} open after {after:g} s")
        for sock in held:
            sock.close()
        run.add(
            f"5 slowloris {len(held)} half-sent requests",
            "3,000 stayed open 60 s",
            f"{', '.join(counts)}; meanwhile create+5 moves OK, move {statistics_text(lat)}",
        )


def statistics_text(lat: list[float]) -> str:
    if not lat:
        return "no moves"
    return f"p50 {percentile(lat, 50):.1f} ms max {max(lat):.1f} ms"


# ----------------------------------------------------------------------------- 6: retried moves
def repeatable(legal: list[str]) -> str:
    """A move a retry could apply twice: in Candle Quest only a discard (of one of several alike
    candles) can be legal again right after it is made, so one is preferred when there is one."""
    return next((action for action in legal if action.startswith("discard")), legal[0])


def posted_twice(srv: Server, tries: int) -> tuple[int, int, list[int]]:
    """A move posted twice without ``expect`` (a client retrying a lost answer): (tries, times
    applied twice, the answers' statuses seen)."""
    done = twice = skipped = 0
    seen: set[int] = set()
    game, tokens = srv.two_humans()
    deadline = time.monotonic() + 120
    while done < tries and time.monotonic() < deadline:
        turn = srv.to_act(game, tokens)
        if turn is None:
            game, tokens = srv.two_humans()
            continue
        seat, frame = turn
        action = repeatable(frame["legal"])
        if not action.startswith("discard") and skipped < 100:
            srv.move(game, tokens[seat], action, frame["move"])  # on to a discard
            skipped += 1
            continue
        skipped = 0
        codes = [srv.move(game, tokens[seat], action, None).status_code for _ in range(2)]
        seen.update(codes)
        done += 1
        twice += codes == [200, 200]
        if codes[0] != 200:  # refused without expect: play on with it
            srv.move(game, tokens[seat], action, frame["move"])
    return done, twice, sorted(seen)


def retried_moves(srv: Server, rounds: int, with_expect: bool) -> tuple[int, int, int]:
    """(rounds, moves acknowledged, moves stored): each round three simultaneous copies of one
    legal move."""
    acked = stored = done = 0
    pool = ThreadPoolExecutor(3)
    clients = [httpx.Client(base_url=srv.base, timeout=30) for _ in range(3)]
    game, tokens = srv.two_humans()
    start = 0
    try:
        while done < rounds:
            turn = srv.to_act(game, tokens)
            if turn is None:  # over: count it and start another game
                stored += srv.state(game)["move"] - start
                game, tokens = srv.two_humans()
                start = 0
                continue
            seat, frame = turn
            expect = frame["move"] if with_expect else None
            action = repeatable(frame["legal"])
            barrier = threading.Barrier(3)

            def send(
                i: int,
                token: str = tokens[seat],
                game: str = game,
                action: str = action,
                expect: Any = expect,
                barrier: threading.Barrier = barrier,
            ) -> int:
                barrier.wait(5)
                return srv.move(game, token, action, expect, clients[i]).status_code

            codes = list(pool.map(send, range(3)))
            acked += sum(code == 200 for code in codes)
            done += 1
            if not any(code == 200 for code in codes):
                break  # refused outright (no expect): nothing more to learn
        stored += srv.state(game)["move"] - start
    finally:
        pool.shutdown()
        for client in clients:
            client.close()
    return done, acked, stored


def probe_retries(run: Run, kind: str, db: str | None) -> None:
    rounds = 6 if run.args.tiny else 60
    with server(run, db=db) as srv:
        tries, twice, answers = posted_twice(srv, 3 if run.args.tiny else 20)
        run.add(
            f"6 same move posted twice, no expect ({kind})",
            "moves 27 and 28 (applied twice)",
            f"{tries} tries (discards where offered): applied twice {twice}; answers {answers}",
        )
        for with_expect in (False, True):
            done, acked, stored = retried_moves(srv, rounds, with_expect)
            label = "with expect" if with_expect else "no expect"
            run.add(
                f"6 three simultaneous sends ×{rounds}, {label} ({kind})",
                "applied twice in 5 of 60 (SQLite)",
                f"{done} rounds: {acked} acknowledged, {stored} stored",
            )


# ----------------------------------------------------------------------------- 7: private games
def probe_private(run: Run) -> None:
    with server(run) as srv:
        bots = [{"kind": "bot", "bot": "random"}] * 2
        created = srv.create(bots, public=False, bot_delay=0, options={"max_turns": 6}).json()
        game = created["id"]
        over = srv.wait_over(game, 60)
        lobby = srv.http.get("/api/games").text
        listed = game in lobby
        if srv.hardened:
            pages = srv.http.get("/api/games", params={"list": "finished", "limit": 100}).text
            listed = listed or game in pages
        replay = srv.http.get(f"/api/games/{game}/replay", params={"at": 1})
        run.add(
            "7 private game finished",
            "listed; replayable by anyone",
            f"over={over}; listed: {'YES' if listed else 'no'}; replay with the id (the link) "
            f"{replay.status_code}; id {len(game)} chars",
        )


# ----------------------------------------------------------------------------- 8: nested JSON, PG down
def probe_nested(run: Run, kind: str, db: str | None) -> None:
    with server(run, db=db) as srv:
        deep = "[" * 30000 + "]" * 30000
        answer = srv.http.post(
            "/api/games", content=deep, headers={"Content-Type": "application/json"}
        )
        run.add(
            f"8 nested JSON over HTTP ({kind})",
            "500 with a traceback",
            f"{shown(answer)}; internals: {leaks(answer.text) or 'none'}",
        )
        run.add(
            f"8 nested JSON over websocket ({kind})", "socket killed, no message", ws_nested(srv)
        )


def ws_nested(srv: Server) -> str:
    from websockets.sync.client import connect

    game, tokens = srv.two_humans()
    try:
        with connect(f"ws://127.0.0.1:{srv.port}/ws/games/{game}", open_timeout=10) as ws:
            ws.send(json.dumps({"type": "hello", "token": tokens[0]}))
            ws.send("[" * 2000 + "]" * 2000)
            frame = next_frame(ws, ("error",))
            ws.send(json.dumps({"type": "ping"}))
            pong = next_frame(ws, ("pong",))
            return (
                f"{frame.get('type')} frame {frame.get('error')}: “{frame.get('message')}”; "
                f"then ping → {pong.get('type')}"
            )
    except Exception as exc:  # a closed socket is the finding
        return f"closed: {type(exc).__name__}"


def next_frame(ws: Any, kinds: tuple[str, ...]) -> dict[str, Any]:
    """The next frame of one of these types (snapshots and seat changes skipped; at most 20)."""
    for _ in range(20):
        frame: dict[str, Any] = json.loads(ws.recv(timeout=10))
        if frame.get("type") in kinds:
            return frame
    return {"type": "none"}


def probe_pg_down(run: Run, pg: Any) -> None:
    url = pg.new_database()
    with server(run, db=url) as srv:
        game, tokens = srv.two_humans()
        turn = srv.to_act(game, tokens)
        assert turn is not None
        seat, frame = turn
        srv.move(game, tokens[seat], frame["legal"][0], frame["move"])
        turn = srv.to_act(game, tokens)
        assert turn is not None
        seat, frame = turn
        pg.stop()
        answers = [
            srv.move(game, tokens[seat], frame["legal"][0], frame["move"]),
            srv.http.post("/api/games", json={"game": "candle-quest", "seats": [{}, {}], "you": 0}),
        ]
        text = " | ".join(shown(a) for a in answers)
        found = [w for a in answers for w in leaks(a.text, ("127.0.0.1", str(pg.port)))]
        run.add(
            "8 PostgreSQL stopped mid-game: move, create",
            "raw driver error (host, port)",
            f"{text[:150]}; host/port/internals: {found or 'none'}",
        )


# ----------------------------------------------------------------------------- 9: limits
def probe_limits(run: Run) -> None:
    limited = {"CANDLEBOX_REQUESTS_PER_SECOND": "20", "CANDLEBOX_REQUEST_BURST": "120"}
    with server(run, {**limited, "CANDLEBOX_MAX_OPEN_GAMES": "10"}) as srv:
        transport = httpx.HTTPTransport(local_address=ATTACKER)
        requests = 200 if run.args.tiny else 500
        began = time.monotonic()
        with (
            httpx.Client(base_url=srv.base, transport=transport, timeout=10) as flood,
            ThreadPoolExecutor(16) as pool,
        ):
            codes = list(pool.map(lambda _: flood.get("/api/games/none"), range(requests)))
        took = time.monotonic() - began
        limited_count = sum(r.status_code == 429 for r in codes)
        retry = next((r.headers.get("retry-after") for r in codes if r.status_code == 429), None)
        normal = srv.http.get("/api/meta").status_code
        run.add(
            f"9 {requests} requests from one address (16 at a time)",
            "no limit",
            f"{limited_count} × 429 (Retry-After {retry}) in {took:.1f} s; another address "
            f"meanwhile {normal}",
        )
        made = [srv.create([{"kind": "human"}] * 2, you=0).status_code for _ in range(11)]
        run.add("9 11 open games from one address", "unlimited", f"answers {made[-2:]}")
    games = 50 if run.args.tiny else 5000
    with server(run) as srv:
        began = time.monotonic()
        made_count = 0
        with ThreadPoolExecutor(4) as pool:
            for start in range(0, games, 100):
                if time.monotonic() - began > 120:
                    break
                batch = range(start, min(games, start + 100))
                made_count += sum(
                    1
                    for code in pool.map(
                        lambda _: srv.create([{"kind": "human"}] * 2, you=0).status_code, batch
                    )
                    if code == 201
                )
        page = srv.http.get("/api/games")
        run.add(
            f"9 lobby after {made_count} open games",
            "4 MB after 5,000 games",
            f"first page {len(page.content) / 1024:.1f} KiB",
        )
    tiny_expiry = {
        "CANDLEBOX_EXPIRE_AFTER": "1",
        "CANDLEBOX_SWEEP_EVERY": "0.3",
        "CANDLEBOX_KEEP_FINISHED": "1",
    }
    with server(run, tiny_expiry) as srv:
        game = srv.create([{"kind": "human"}] * 2, you=0).json()["id"]
        time.sleep(2.0)
        closed = srv.http.get(f"/api/games/{game}")
        time.sleep(1.5)
        deleted = srv.http.get(f"/api/games/{game}")
        run.add(
            "9 expiry (expire 1 s, keep 1 s)",
            "games never expire",
            f"after 2 s {closed.status_code}; after 3.5 s {deleted.status_code}",
        )


# ----------------------------------------------------------------------------- 10: smaller things
def probe_small(run: Run) -> None:
    with server(run) as srv:
        run.add("10 /openapi.json", "served", str(srv.http.get("/openapi.json").status_code))
        two = [{"kind": "human"}] * 2
        run.add('10 "public": "false"', "taken as public", shown(srv.create(two, public="false")))
        huge = srv.create(two, options={"max_turns": 10**30})
        run.add("10 max_turns=10**30", "accepted", shown(huge))
        internal = srv.create(two, options={"seed": 3})
        run.add(
            "10 option named seed",
            "“got multiple values for keyword argument 'seed'”",
            f"{shown(internal)[:70]}; internals: {leaks(internal.text) or 'none'}",
        )
        plain = srv.http.post(
            "/api/games",
            content=json.dumps({"game": "candle-quest", "seats": two, "you": 0}),
            headers={"Content-Type": "text/plain", "Origin": "http://evil.example"},
        )
        run.add("10 text/plain from another origin", "201 created", shown(plain)[:60])
        mode = stat.S_IMODE(srv.db_file.stat().st_mode) if srv.db_file.exists() else None
        run.add("10 SQLite file mode", "0644 (world-readable)", oct(mode) if mode else "?")


# ----------------------------------------------------------------------------- 11: one seat's sockets
@dataclass
class Flood:
    kept: list[Any] = field(default_factory=list)  # sockets answered with a snapshot, left open
    refused: dict[str, int] = field(default_factory=dict)  # error code or close reason -> count
    no_handshake: int = 0  # sockets the server did not let open


async def seat_sockets(url: str, token: str, count: int, seconds: float, found: Flood) -> None:
    """``count`` websockets from ATTACKER, each saying one seat's hello, opened 100 at a time within
    ``seconds``, into ``found``; the kept ones stay open, for the caller to close."""
    from websockets.asyncio.client import connect

    gate = asyncio.Semaphore(100)
    deadline = time.monotonic() + seconds

    async def one() -> None:
        if time.monotonic() > deadline:
            return
        async with gate:
            try:
                ws = await connect(url, open_timeout=20, local_addr=(ATTACKER, 0))
            except Exception:
                found.no_handshake += 1
                return
            try:
                await ws.send(json.dumps({"type": "hello", "token": token}))
                while True:
                    frame = json.loads(await asyncio.wait_for(ws.recv(), 20))
                    if frame.get("type") == "snapshot":
                        found.kept.append(ws)
                        return
                    if frame.get("type") == "error":
                        refused(frame["error"])
                        await ws.close()
                        return
            except Exception as exc:  # closed without an error frame, or silent
                refused(getattr(getattr(exc, "rcvd", None), "reason", "") or type(exc).__name__)
                await ws.close()

    def refused(why: str) -> None:
        why = why.split(":")[0]  # a close reason is "code: message"
        found.refused[why] = found.refused.get(why, 0) + 1

    await asyncio.gather(*(one() for _ in range(count)))


async def close_sockets(sockets: list[Any]) -> None:
    await asyncio.gather(*(ws.close() for ws in sockets), return_exceptions=True)


def probe_sockets(run: Run) -> None:
    count = 300 if run.args.tiny else 2150
    env = {"CANDLEBOX_MAX_CONNECTIONS": "200"} if run.args.tiny else {}
    with server(run, env) as srv:
        created = srv.create([{"kind": "human"}, {"kind": "human"}], you=0).json()
        url = f"ws://127.0.0.1:{srv.port}/ws/games/{created['id']}"
        loop = asyncio.new_event_loop()
        found = Flood()
        try:
            began = time.monotonic()
            loop.run_until_complete(seat_sockets(url, created["token"], count, 120, found))
            took = time.monotonic() - began
            meta = srv.http.get("/api/meta")
            made = srv.create([{"kind": "human"}, {"kind": "human"}], you=0)
        finally:
            loop.run_until_complete(close_sockets(found.kept))
            loop.close()
        refused = ", ".join(f"{n} {why}" for why, n in sorted(found.refused.items()))
        run.add(
            f"11 {count} sockets of one seat from one address",
            "2,150 accepted; then /api/meta and POST /api/games 503 for everyone",
            f"{len(found.kept)} kept, refused: {refused or 'none'}, {found.no_handshake} not let open "
            f"({took:.1f} s); then from another address /api/meta {meta.status_code}, "
            f"POST /api/games {made.status_code}",
        )


# ----------------------------------------------------------------------------- 14: numbers
def probe_numbers(run: Run) -> None:
    numbers_on(run, "SQLite", None)
    if run.args.pg:
        pg = postgres()
        if pg is not None:
            try:
                numbers_on(run, "PostgreSQL", pg.new_database())
            finally:
                with suppress(Exception):
                    pg.stop()


def numbers_on(run: Run, kind: str, db: str | None) -> None:
    with server(run, db=db) as srv:
        game, tokens = srv.two_humans()
        bots = [{"kind": "bot", "bot": "random"}] * 2
        finished = srv.create(bots, bot_delay=0, options={"max_turns": 6}).json()["id"]
        srv.wait_over(finished, 60)
        auth = {"Authorization": f"Bearer {tokens[0]}"}
        asks: dict[str, Callable[[int], httpx.Response]] = {
            "review?seat=": lambda n: srv.http.get(f"/api/games/{finished}/review?seat={n}"),
            "seats/N/claim": lambda n: srv.http.post(f"/api/games/{game}/seats/{n}/claim", json={}),
            "replay?at=": lambda n: srv.http.get(f"/api/games/{finished}/replay?at={n}"),
            "lobby limit=": lambda n: srv.http.get(f"/api/games?list=open&limit={n}"),
            "move expect": lambda n: srv.http.post(
                f"/api/games/{game}/moves", json={"action": "pass", "expect": n}, headers=auth
            ),
        }
        for name, ask in asks.items():
            answers = []
            for number in (2**63, -1, 10**30):
                answer = ask(number)
                leaked = leaks(answer.text)
                error = answer.json().get("error") if answer.status_code >= 400 else "ok"
                answers.append(f"{answer.status_code} {error}" + (f" {leaked}" if leaked else ""))
            run.add(
                f"14 {name} 2**63 / -1 / 10**30 ({kind})",
                "review?seat=2**63: 500 (SQLite), 503 (PostgreSQL)" if "review" in name else "",
                " / ".join(answers),
            )


# ----------------------------------------------------------------------------- 12: review flood
def attacker_client(srv: Server) -> httpx.Client:
    """An HTTP client of the server from the attacker's address (another client to the server)."""
    transport = httpx.HTTPTransport(local_address=ATTACKER)
    return httpx.Client(base_url=srv.base, transport=transport, timeout=30)


def play_seat_out(srv: Server, game: str, token: str, seconds: float, seed: int) -> bool:
    """The seat of ``token`` plays random legal moves (standing in for a person) until the game is
    over; the bots play the others. False: not over within ``seconds``."""
    import random

    rng = random.Random(seed)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        frame = srv.state(game, token)
        if frame.get("over"):
            return True
        if frame.get("legal"):
            srv.move(game, token, rng.choice(frame["legal"]), frame["move"])
        else:
            time.sleep(0.01)
    return False


def human_game(srv: Server, tiny: bool, seed: int) -> tuple[str, str]:
    """A finished game of a person (random moves) against a heuristic bot: Candelabria for two,
    about 60 decisions of the person's (a few in --tiny mode)."""
    bot = {"kind": "bot", "bot": "heuristic"}
    if tiny:
        made = srv.create([{"kind": "human"}, bot], you=0, bot_delay=0, options={"max_turns": 4})
    else:
        made = srv.create([{"kind": "human"}, bot], game="candelabria", you=0, bot_delay=0)
    data = made.json()
    if not play_seat_out(srv, data["id"], data["token"], 300, seed):
        raise RuntimeError("the person's game did not end within 300 s")
    return data["id"], data["token"]


def short_game_of_two(srv: Server) -> str:
    """A game of two people (the probe plays both seats' first legal moves), played to its end."""
    two = [{"kind": "human"}, {"kind": "human"}]
    created = srv.create(two, you=0, options={"max_turns": 4}).json()
    claim = srv.http.post(
        f"/api/games/{created['id']}/seats/1/claim",
        json={"name": "P1", "invite": created["invites"]["1"]},
    ).json()
    tokens = [created["token"], claim["token"]]
    for _ in range(2000):
        turn = srv.to_act(created["id"], tokens)
        if turn is None:
            break
        seat, frame = turn
        srv.move(created["id"], tokens[seat], frame["legal"][0], frame["move"])
    return str(created["id"])


@dataclass
class Watched:
    """What polling a review showed: its first answer, the places in the queue and the progress
    seen, and the seconds to its end (None: it did not end)."""

    asked: httpx.Response
    positions: list[int] = field(default_factory=list)
    progress: list[tuple[int, int]] = field(default_factory=list)
    seconds: float | None = None


def watch_review(
    http: httpx.Client,
    game: str,
    seat: int,
    limit: float,
    meanwhile: Callable[[], None] | None = None,
) -> Watched:
    """Ask for a review, run ``meanwhile`` (once it is asked for), and poll it to its end."""
    url = f"/api/games/{game}/review"
    began = time.monotonic()
    seen = Watched(http.post(url, json={"seat": seat}))
    if seen.asked.status_code != 202:
        return seen
    if meanwhile is not None:
        meanwhile()
    while time.monotonic() - began < limit:
        answer = http.get(f"{url}?seat={seat}").json()
        if answer.get("status") == "done":
            seen.seconds = time.monotonic() - began
            return seen
        if "position" in answer and answer["position"] not in seen.positions:
            seen.positions.append(answer["position"])
        seen.progress.append((answer.get("done", 0), answer.get("total", 0)))
        time.sleep(0.25)
    return seen


def said(seen: Watched) -> str:
    if seen.asked.status_code != 202:
        return shown(seen.asked)
    total = seen.progress[-1][1] if seen.progress else seen.asked.json().get("total")
    steps = len({done for done, _ in seen.progress})
    took = "not done" if seen.seconds is None else f"done in {seen.seconds:.1f} s"
    places = ",".join(map(str, seen.positions)) or "none shown"
    return f"202; {total} decisions, {took}; progress seen at {steps} counts; places {places}"


def probe_review_flood(run: Run) -> None:
    """Issue 33 item 2: a bot-only game played out and reviewed twice by one client, that client's
    other reviews, and another client's review meanwhile; then a person's review alone."""
    limit = 60 if run.args.tiny else 240
    with server(run) as srv:
        game, _ = human_game(srv, run.args.tiny, 1)  # the newcomer's, reviewed later
        bot = {"kind": "bot", "bot": "heuristic"}
        options = {"max_turns": 6} if run.args.tiny else {}
        flood = srv.create([bot, bot], bot_delay=0, options=options).json()["id"]
        began = time.monotonic()
        over = srv.wait_over(flood, 120)
        moves = srv.state(flood).get("game", {}).get("moves")
        with attacker_client(srv) as attacker:
            answers = [
                attacker.post(f"/api/games/{flood}/review", json={"seat": s}) for s in (0, 1)
            ]
            run.add(
                f"12 bot-only game ({moves} moves, {'over' if over else 'NOT over'} in "
                f"{time.monotonic() - began:.0f} s) reviewed twice by one client",
                "2 reviews, 1,741 decisions queued",
                "; ".join(shown(a, 50) for a in answers),
            )
            own = []  # the attacker's person-played games: its share of the queue
            for _ in range(3):
                mine = short_game_of_two(srv)
                for seat in (0, 1):
                    asked = attacker.post(f"/api/games/{mine}/review", json={"seat": seat})
                    own.append((mine, seat, asked))
            codes = [a.json().get("error") or str(a.status_code) for _, _, a in own]
            run.add(
                "12 one client asks 6 reviews of played games",
                "(every slot held: others 429 for 12+ min)",
                ", ".join(codes),
            )
            cancels: list[str] = []

            def cancel() -> None:  # the newcomer's review (not theirs), then their own last
                cancels.append(shown(attacker.delete(f"/api/games/{game}/review?seat=0"), 30))
                mine, seat, _ = own[1]
                cancels.append(shown(attacker.delete(f"/api/games/{mine}/review?seat={seat}"), 30))

            other = watch_review(srv.http, game, 0, limit, cancel)
            run.add(
                "12 another client's review meanwhile",
                "429 busy for 12+ minutes",
                said(other),
            )
            run.add(
                "12 the attacker cancels another's review / its own",
                "no way to cancel",
                " / ".join(cancels) or "(the review was refused: nothing to cancel)",
            )
    with server(run) as srv:  # the same kind of review, nothing else running
        game, _ = human_game(srv, run.args.tiny, 1)
        alone = watch_review(srv.http, game, 0, limit)
        run.add(
            "12 a person's review alone (Candelabria, random moves vs heuristic)",
            "88 s for a short game",
            said(alone),
        )


# ----------------------------------------------------------------------------- 15: hint slots
def probe_hint_share(run: Run) -> None:
    """Issue 33 item 4: one client asks hints in many games at once; another client's hint
    meanwhile; and a hint between two people after one handed their seat to a bot."""
    count = 4 if run.args.tiny else 8
    with server(run) as srv:
        bot = {"kind": "bot", "bot": "heuristic"}

        def ready(client: httpx.Client) -> tuple[str, str]:
            made = client.post(
                "/api/games",
                json={"game": "candle-quest", "seats": [{"kind": "human"}, bot], "you": 0},
            ).json()
            headers = {"Authorization": f"Bearer {made['token']}"}
            for _ in range(500):  # the bot may move first
                frame = client.get(f"/api/games/{made['id']}/state", headers=headers).json()
                if frame.get("legal"):
                    break
                time.sleep(0.02)
            return made["id"], made["token"]

        def hint(client: httpx.Client, game: str, token: str) -> httpx.Response:
            headers = {"Authorization": f"Bearer {token}"}
            return client.post(f"/api/games/{game}/hint", headers=headers)

        with attacker_client(srv) as attacker:
            theirs = [ready(attacker) for _ in range(count)]
            mine = ready(srv.http)
            with ThreadPoolExecutor(count) as pool:
                asked = [pool.submit(hint, attacker, g, t) for g, t in theirs]
                time.sleep(0.2)  # their searches under way (a probe, not a test: no state to see)
                other = hint(srv.http, *mine)
                answers = [f.result() for f in asked]
        codes: dict[str, int] = {}
        for answer in answers:
            key = answer.json().get("error") or str(answer.status_code)
            codes[key] = codes.get(key, 0) + 1
        run.add(
            f"15 one client's {count} hints at once",
            "every hint slot taken",
            ", ".join(f"{k} ×{v}" for k, v in sorted(codes.items())),
        )
        run.add("15 another client's hint meanwhile", "503 coach-busy", shown(other, 40))
        game, tokens = srv.two_humans()
        own = {"Authorization": f"Bearer {tokens[0]}"}
        handed = srv.http.post(
            f"/api/games/{game}/seats/0/bot", json={"bot": "random"}, headers=own
        )
        frame: dict[str, Any] = {}
        for _ in range(500):
            frame = srv.state(game, tokens[1])
            if frame.get("legal") or frame.get("over"):
                break
            time.sleep(0.02)
        loophole = srv.http.post(
            f"/api/games/{game}/hint", headers={"Authorization": f"Bearer {tokens[1]}"}
        )
        back = srv.http.post(f"/api/games/{game}/seats/0/human", headers=own)
        run.add(
            "15 two people; one hands own seat to a bot, the other asks a hint",
            "hint given",
            f"hand-over {handed.status_code}; hint {shown(loophole, 40)}; back {back.status_code}",
        )


# ----------------------------------------------------------------------------- 13: bot-only tables
def replies_text(replies: list[float | None], wait: float) -> str:
    return ", ".join(f"none in {wait:g} s" if r is None else f"{r * 1000:.0f} ms" for r in replies)


def probe_bot_tables(run: Run) -> None:
    """Issue 33, item 3: all-ISMCTS bot-only tables from one address (no seat credential, so
    nobody could end them), another game's bot reply meanwhile, the creator's stop, the time limit."""
    count = 3 if run.args.tiny else 10
    wait = 15 if run.args.tiny else 30
    with server(run) as srv:
        idle = [bot_reply_seconds(srv, wait) for _ in range(3)]
        run.add(
            "13 a heuristic bot's reply, nothing else running", "~0.1 s", replies_text(idle, wait)
        )
        hard = {"kind": "bot", "bot": "ismcts", "level": "hard"}
        body = {"game": "candle-quest", "seats": [hard, hard], "bot_delay": 0}
        transport = httpx.HTTPTransport(local_address=ATTACKER)
        with httpx.Client(base_url=srv.base, transport=transport, timeout=30) as attacker:
            answers = [attacker.post("/api/games", json=body) for _ in range(count)]
            made = [r.json() for r in answers if r.status_code == 201]
            run.add(
                f"13 {count} all-ISMCTS tables from one address",
                "10 accepted",
                f"{len(made)}/{count} accepted; the 3rd: {shown(answers[2])}",
            )
            time.sleep(0.5)  # their searches under way
            busy = [bot_reply_seconds(srv, wait) for _ in range(3)]
            run.add(
                f"13 other game's bot reply ({len(made)} tables busy)",
                "3–5 s a reply",
                replies_text(busy, wait),
            )
            token = made[0].get("owner_token") if made else None
            target = made[0]["id"] if made else "none"
            refused = attacker.post(f"/api/games/{target}/stop")
            stopped = attacker.post(
                f"/api/games/{target}/stop", headers={"Authorization": f"Bearer {token}"}
            )
            result = srv.state(target).get("result") or {}
            run.add(
                "13 stop a table: no credential / its owner_token",
                "nobody can end them",
                f"{'owner_token given' if token else 'no credential given'}; without: "
                f"{shown(refused, 40)} / with: {shown(stopped, 40)}; "
                f"result.stopped {result.get('stopped')}",
            )
    # the priority alone: with the per-client limit off, every table is accepted and busy
    with server(run, {"CANDLEBOX_MAX_BOT_TABLES": "0"}) as srv:
        transport = httpx.HTTPTransport(local_address=ATTACKER)
        with httpx.Client(base_url=srv.base, transport=transport, timeout=30) as attacker:
            answers = [attacker.post("/api/games", json=body) for _ in range(count)]
            time.sleep(0.5)
            busy = [bot_reply_seconds(srv, wait) for _ in range(3)]
            run.add(
                "13 other game's bot reply, max_bot_tables off "
                f"({sum(r.status_code == 201 for r in answers)} tables busy)",
                "3–5 s a reply",
                replies_text(busy, wait),
            )
    limit = {"CANDLEBOX_BOT_TABLE_SECONDS": "2"}
    with server(run, limit) as srv:
        slow = {"kind": "bot", "bot": "heuristic"}
        made_one = srv.create([slow, slow], bot_delay=0.5).json()
        time.sleep(4)
        frame = srv.state(made_one["id"])
        result = frame.get("result") or {}
        run.add(
            "13 time limit (bot_table_seconds 2)",
            "they never go idle",
            f"after 4 s over={frame.get('over')}, stopped={result.get('stopped')}, "
            f"move {frame.get('move')}",
        )


# ----------------------------------------------------------------------------- latency under abuse
def attack(kind: str, port: int, seconds: float, tiny: bool) -> None:
    """Run in a child process: keep one attack going for ``seconds`` (bounded), then stop."""
    deadline = time.monotonic() + seconds
    if kind == "slowloris":
        held = hold_half_requests(port, 50 if tiny else 500, ATTACKER)
        while time.monotonic() < deadline:  # top the pool up as the server closes them
            time.sleep(0.5)
            held = [s for s in held if still_open([s])]
            held += hold_half_requests(port, (50 if tiny else 500) - len(held), ATTACKER)
        for sock in held:
            sock.close()
    elif kind == "chunked":
        while time.monotonic() < deadline:
            left = deadline - time.monotonic()
            with suppress(OSError):
                stream_chunked(port, 300 * MiB, ATTACKER, seconds=max(0.1, left))
    elif kind == "flood":
        transport = httpx.HTTPTransport(local_address=ATTACKER)
        with httpx.Client(
            base_url=f"http://127.0.0.1:{port}", transport=transport, timeout=5
        ) as flood:
            while time.monotonic() < deadline:
                with suppress(httpx.HTTPError):
                    flood.get("/api/games")


def player_latency(srv: Server, moves: int, pace: float) -> list[float]:
    """A normal player's HTTP move round-trips (ms) in human-vs-human games, ``pace`` s apart."""
    lat: list[float] = []
    game, tokens = srv.two_humans()
    deadline = time.monotonic() + 220
    while len(lat) < moves and time.monotonic() < deadline:
        turn = srv.to_act(game, tokens)
        if turn is None:
            game, tokens = srv.two_humans()
            continue
        seat, frame = turn
        t = time.perf_counter()
        answer = srv.move(game, tokens[seat], frame["legal"][0], frame["move"])
        if answer.status_code == 200:
            lat.append((time.perf_counter() - t) * 1000)
        time.sleep(pace)
    return lat


def probe_latency(run: Run) -> None:
    moves = 20 if run.args.tiny else 200
    env = {
        "CANDLEBOX_REQUESTS_PER_SECOND": "20",
        "CANDLEBOX_REQUEST_BURST": "120",
        "CANDLEBOX_MAX_OPEN_GAMES": "0",
    }
    context = multiprocessing.get_context("fork")
    for kind in ("none", "slowloris", "chunked", "flood"):
        with server(run, env) as srv:
            child = None
            if kind != "none":
                seconds = 30 if run.args.tiny else 240  # stopped when the player is done
                child = context.Process(
                    target=attack, args=(kind, srv.port, seconds, run.args.tiny)
                )
                child.start()
                time.sleep(1.0)  # let the attack get going
            lat = player_latency(srv, moves, 0.1)
            if child is not None:
                child.terminate()
                child.join(10)
            label = "hardened" if srv.hardened else "baseline"
            run.latency.append(
                (
                    kind,
                    label,
                    f"{percentile(lat, 50):.1f}",
                    f"{percentile(lat, 99):.1f} ({len(lat)} moves)",
                )
            )
            print(f"  latency {kind}: {run.latency[-1]}", file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------- main
def postgres() -> Any:
    sys.path.insert(0, str(ROOT))
    from tests.server.pg import start_postgres

    try:
        return start_postgres()
    except BaseException as exc:  # pytest.skip raises a BaseException: PostgreSQL is not here
        print(f"no PostgreSQL: {exc}", file=sys.stderr)
        return None


def main(args: argparse.Namespace) -> Run:
    run = Run(args)
    items = [x.strip() for x in args.only.split(",") if x.strip()]
    wanted = {int(x) for x in items if x.isdigit()} if items else set(range(1, 16))
    probes: dict[int, Callable[[Run], None]] = {
        1: probe_bot_stall,
        2: probe_chunked,
        3: probe_seed,
        4: probe_content,
        5: probe_slowloris,
        7: probe_private,
        9: probe_limits,
        10: probe_small,
        11: probe_sockets,
        12: probe_review_flood,
        13: probe_bot_tables,
        14: probe_numbers,
        15: probe_hint_share,
    }
    for number in sorted(wanted):
        print(f"probe {number}", file=sys.stderr, flush=True)
        try:
            if number in probes:
                probes[number](run)
            elif number == 6:
                probe_retries(run, "SQLite", None)
            elif number == 8:
                probe_nested(run, "SQLite", None)
        except Exception as exc:  # one probe's failure is a finding, the others still run
            run.add(f"{number} (probe failed)", "", f"{type(exc).__name__}: {exc}"[:150])
    if args.pg and wanted & {6, 8}:
        pg = postgres()
        if pg is not None:
            try:
                if 6 in wanted:
                    probe_retries(run, "PostgreSQL", pg.new_database())
                if 8 in wanted:
                    probe_nested(run, "PostgreSQL", pg.new_database())
                    probe_pg_down(run, pg)  # stops the server
            except Exception as exc:
                run.add("6/8 PostgreSQL (probe failed)", "", f"{type(exc).__name__}: {exc}"[:150])
            finally:
                with suppress(Exception):
                    pg.stop()
    if args.latency:
        probe_latency(run)
    return run


def table(run: Run) -> str:
    lines = ["| probe | the audit saw | now |", "|---|---|---|"]
    for row in run.rows:
        now = row.now.replace("|", "/").replace("\n", " ")
        lines.append(f"| {row.probe} | {row.audit} | {now} |")
    if run.latency:
        lines += ["", "| attack | server | move p50 ms | move p99 ms |", "|---|---|---|---|"]
        lines += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in run.latency]
    return "\n".join(lines)


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--code", default=str(ROOT), help="the checkout whose server to run")
    parser.add_argument(
        "--only", default="", help="probe numbers, comma-separated (default all; 0: none)"
    )
    parser.add_argument("--pg", action="store_true", help="also probes 6 and 8 on PostgreSQL")
    parser.add_argument("--latency", action="store_true", help="a player's latency under abuse")
    parser.add_argument("--tiny", action="store_true", help="small counts and sizes (smoke test)")
    parser.add_argument("--json", default=None, help="also write the rows to this file")
    return parser.parse_args(argv)


if __name__ == "__main__":
    arguments = parse()
    result = main(arguments)
    print(table(result))
    if arguments.json:
        rows = [row.__dict__ for row in result.rows]
        Path(arguments.json).write_text(json.dumps({"rows": rows, "latency": result.latency}))
