"""This process's figures in Prometheus' text format (``GET /metrics``): moves made, the latency of a
move from its arrival to its broadcast (a histogram), turns owed by bots that no worker holds yet,
and connected websockets. Each process counts its own; every sample carries a ``process`` label (its
pid), so a scraper that reaches several processes can tell them apart (docs/deploy.md)."""

from __future__ import annotations

import bisect
import os
from dataclasses import dataclass, field

# seconds: a move is a few milliseconds on an idle server; the top buckets catch a stalled database
BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


@dataclass
class Histogram:
    counts: list[int] = field(default_factory=lambda: [0] * (len(BUCKETS) + 1))
    total: float = 0.0
    count: int = 0

    def observe(self, seconds: float) -> None:
        self.counts[bisect.bisect_left(BUCKETS, seconds)] += 1
        self.total += seconds
        self.count += 1

    def lines(self, name: str, labels: str) -> list[str]:
        out = []
        running = 0
        for bound, seen in zip((*BUCKETS, float("inf")), self.counts, strict=True):
            running += seen
            le = "+Inf" if bound == float("inf") else repr(bound)
            out.append(f'{name}_bucket{{{labels},le="{le}"}} {running}')
        out.append(f"{name}_sum{{{labels}}} {self.total:.6f}")
        out.append(f"{name}_count{{{labels}}} {self.count}")
        return out


def render(
    moves: int, bot_moves: int, rejected: int, latency: Histogram, bot_queue: int, clients: int
) -> str:
    """The exposition text; ``bot_queue`` is -1 when this process does not know it (inline bots)."""
    labels = f'process="{os.getpid()}"'
    lines = [
        "# HELP candlebox_moves_total Moves recorded by this process (rate() gives moves/s).",
        "# TYPE candlebox_moves_total counter",
        f"candlebox_moves_total{{{labels}}} {moves}",
        "# HELP candlebox_bot_moves_total Of those, moves made by bots.",
        "# TYPE candlebox_bot_moves_total counter",
        f"candlebox_bot_moves_total{{{labels}}} {bot_moves}",
        "# HELP candlebox_moves_rejected_total Moves refused as malformed or illegal.",
        "# TYPE candlebox_moves_rejected_total counter",
        f"candlebox_moves_rejected_total{{{labels}}} {rejected}",
        "# HELP candlebox_move_seconds From a move's arrival to its broadcast.",
        "# TYPE candlebox_move_seconds histogram",
        *latency.lines("candlebox_move_seconds", labels),
        "# HELP candlebox_connected_clients Websockets open on this process.",
        "# TYPE candlebox_connected_clients gauge",
        f"candlebox_connected_clients{{{labels}}} {clients}",
    ]
    if bot_queue >= 0:
        lines += [
            "# HELP candlebox_bot_queue Turns owed by bots that no worker holds.",
            "# TYPE candlebox_bot_queue gauge",
            f"candlebox_bot_queue {bot_queue}",
        ]
    return "\n".join(lines) + "\n"
