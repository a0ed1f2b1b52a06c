"""Child processes of a server process (the built-in bot worker, the review pool): spawned, and gone
when their parent is, even when it was killed with SIGKILL and could not tell them."""

from __future__ import annotations

import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import ProcessPoolExecutor

PARENT_CHECK = 1.0  # seconds between a child's looks at whether its parent is still there


def _end_with(parent: int) -> None:
    """In a child: Ctrl-C ignored (it reaches the whole process group; the server, which gets it too,
    shuts its children down, and a traceback from each would only clutter the terminal), and a thread
    that ends the process once ``parent`` is gone (the child is then handed to another parent).
    Without it a killed server's children would wait on their task queue for ever: they hold its
    writing end themselves, so it never reads as closed."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK)
        os._exit(0)

    threading.Thread(target=watch, name="candlebox-parent-watch", daemon=True).start()


def process_pool(workers: int) -> ProcessPoolExecutor:
    """``workers`` spawned processes (not forked: a server has threads, whose locks a forked child
    could inherit held) that end with this process."""
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_end_with,
        initargs=(os.getpid(),),
    )
