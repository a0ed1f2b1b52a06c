"""The time a training run may take: its own process's CPU time, which a busy machine does not
shorten (so a run on a loaded machine takes longer on the clock but learns as much), and the time on
the clock, for a cap a person waits for. Shared by the two trainers (``candlebox.rl.train``, torch;
``candlebox.rl.imitation``, numpy)."""

from __future__ import annotations

import time


class Clock:
    """CPU and wall seconds since the run began."""

    def __init__(self) -> None:
        self.cpu = time.process_time()
        self.wall = time.perf_counter()

    def cpu_seconds(self) -> float:
        return time.process_time() - self.cpu

    def wall_seconds(self) -> float:
        return time.perf_counter() - self.wall

    def past(self, cpu: float | None, wall: float | None) -> bool:
        """Whether either bound (None: no bound) has been reached."""
        return (cpu is not None and self.cpu_seconds() >= cpu) or (
            wall is not None and self.wall_seconds() >= wall
        )

    def stamp(self) -> dict[str, float]:
        """The two times as a log line's fields."""
        return {
            "cpu_seconds": round(self.cpu_seconds(), 1),
            "wall_seconds": round(self.wall_seconds(), 1),
        }
