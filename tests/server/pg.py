"""A private PostgreSQL server for the tests: Debian's ``postgresql`` binaries, a data directory and a
port of its own under /tmp, started and stopped by the tests (never a system-wide service).

``start_postgres()`` skips the calling test with the reason when no server can be started here.
"""

from __future__ import annotations

import concurrent.futures
import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import threading
import uuid
from dataclasses import dataclass
from pathlib import Path

import pytest


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _bindir() -> Path | None:
    found = sorted(
        glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4])
    )
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


@dataclass
class PostgresServer:
    bindir: Path
    root: Path
    port: int
    user: str | None  # the OS user the server runs as (root may not run it)

    @property
    def data(self) -> Path:
        return self.root / "data"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://candlebox@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(
            f"host=127.0.0.1 port={self.port} user=candlebox dbname=postgres", autocommit=True
        ) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        _run(
            self.user,
            [str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "immediate", "stop"],
        )
        shutil.rmtree(self.root, ignore_errors=True)


def _run(
    user: str | None, command: list[str], timeout: float = 60
) -> subprocess.CompletedProcess[str]:
    if user is not None:
        command = ["runuser", "-u", user, "--", *command]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)


def start_postgres() -> PostgresServer:
    pytest.importorskip("psycopg", reason="psycopg is not installed: pip install -e '.[server]'")
    bindir = _bindir()
    if bindir is None:
        pytest.skip("PostgreSQL is not installed here (Debian: apt-get install -y postgresql)")
    user: str | None = None
    if os.geteuid() == 0:  # the server refuses to run as root: use the package's own account
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            pytest.skip("running as root and there is no 'postgres' user to run PostgreSQL as")
        user = "postgres"
    root = Path(tempfile.mkdtemp(prefix="candlebox-pg-", dir="/tmp"))
    os.chmod(root, 0o755)
    if user is not None:
        shutil.chown(root, user)
    port = free_port()
    server = PostgresServer(bindir, root, port, user)
    init = _run(
        user,
        [
            str(bindir / "initdb"),
            "-D",
            str(server.data),
            "-U",
            "candlebox",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
        ],
    )
    if init.returncode != 0:
        shutil.rmtree(root, ignore_errors=True)
        pytest.skip(f"PostgreSQL's initdb failed here: {init.stderr.strip()[-300:]}")
    options = (
        f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off "
        "-c synchronous_commit=off -c full_page_writes=off -c max_connections=60"
    )
    start = _run(
        user,
        [
            str(bindir / "pg_ctl"),
            "-D",
            str(server.data),
            "-o",
            options,
            "-l",
            str(root / "server.log"),
            "-w",
            "-t",
            "30",
            "start",
        ],
    )
    if start.returncode != 0:
        log = (root / "server.log").read_text() if (root / "server.log").exists() else ""
        shutil.rmtree(root, ignore_errors=True)
        pytest.skip(f"PostgreSQL did not start here: {(start.stderr + log).strip()[-300:]}")
    return server


def start_together(url: str, starters: int) -> None:
    """Open ``starters`` storages on ``url`` at the same moment, as ``serve --workers N`` does;
    raises the error of any that failed to start."""
    from candlebox.server.storage import Storage  # here: this module starts servers, needs no app

    ready = threading.Barrier(starters)

    def start() -> None:
        ready.wait()
        Storage(url).close()

    with concurrent.futures.ThreadPoolExecutor(max_workers=starters) as pool:
        for started in [pool.submit(start) for _ in range(starters)]:
            started.result()
