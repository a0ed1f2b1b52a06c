"""A real ``candlebox serve`` process on a private loopback port, for tests that kill it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx

import candlebox
from tests.server.pg import free_port

ROOT = Path(candlebox.__file__).resolve().parents[1]


class ChildProcess:
    """A process a test started and may kill (``process``, once started)."""

    process: subprocess.Popen[bytes] | None = None

    def kill(self) -> None:
        """SIGKILL: no shutdown handler runs, nothing is flushed."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


class ServerProcess(ChildProcess):
    def __init__(
        self,
        db: str,
        log: Path,
        bot_delay: float = 0.0,
        env: dict[str, str] | None = None,
        args: tuple[str, ...] = (),
    ) -> None:
        self.db = db
        self.args = args  # more options for `candlebox serve` (e.g. --bot-workers 0)
        self.env = env or {}  # settings for this server: CANDLEBOX_<NAME> variables
        self.log = log
        self.bot_delay = bot_delay
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 90.0) -> ServerProcess:
        # a deadline, not a measurement: a healthy server answers within a second or two, but a
        # loaded machine (2 cores running the browser tests too) can take tens of seconds
        # the tests start many games from one address over a session: no cap on open games
        env = {
            **os.environ,
            "PYTHONPATH": str(ROOT),
            "CANDLEBOX_MAX_OPEN_GAMES": "0",
            **self.env,
        }
        command = [
            sys.executable,
            "-m",
            "candlebox.cli",
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db,
            "--bot-delay",
            str(self.bot_delay),
            *self.args,
        ]
        with self.log.open("ab") as out:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, env=env)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(f"{self.base}/api/meta", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the server did not start: {self.log.read_text()[-2000:]}")

    def get(self, path: str, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.get(self.base + path, headers=headers, timeout=10)

    def post(self, path: str, body: Any, token: str | None = None) -> Any:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        return httpx.post(self.base + path, json=body, headers=headers, timeout=10)
