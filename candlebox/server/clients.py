"""Limits on anonymous use: who a client is (its address, or the one a trusted proxy names), how fast
it may make requests (a token bucket per address), and which origins may change anything."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit

from candlebox.server.config import Settings

FORWARDED = "x-forwarded-for"


def client_address(peer: str | None, headers: Mapping[str, str], settings: Settings) -> str:
    """The client's address: the connection's peer, unless the peer is a configured trusted proxy;
    then the right-most address of ``X-Forwarded-For`` that is not itself a trusted proxy (a client
    can write anything at the left of that header, so only what our own proxies appended counts)."""
    address = peer or "unknown"
    if address not in settings.trusted_proxies:
        return address
    hops = [hop.strip() for hop in headers.get(FORWARDED, "").split(",") if hop.strip()]
    for hop in reversed(hops):
        if hop not in settings.trusted_proxies:
            return hop[:64]
    return address


def same_origin(origin: str | None, host: str | None, settings: Settings) -> bool:
    """Whether a request carrying ``Origin: origin`` may change anything: no Origin (not a browser,
    or a same-origin GET), the page's own host, or an origin in ``settings.allowed_origins``."""
    if origin is None:
        return True
    if origin in settings.allowed_origins:
        return True
    parts = urlsplit(origin)
    return bool(host) and parts.scheme in ("http", "https") and parts.netloc == host


@dataclass
class Bucket:
    tokens: float
    checked: float


class RateLimiter:
    """A token bucket per client address: ``rate`` requests a second, ``burst`` at once."""

    PRUNE_EVERY = 60.0

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = max(1, burst)
        self.buckets: dict[str, Bucket] = {}
        # the seconds a bucket refills by: a test stops it to count tokens, not race the refill
        self.clock = clock
        self.pruned = clock()

    def wait(self, client: str, cost: float = 1.0) -> float:
        """0 when ``client`` may go ahead now (and its request is counted, ``cost`` tokens: a
        static file costs less than a request that reaches a game); otherwise how many seconds
        until it may."""
        if self.rate <= 0:
            return 0.0
        now = self.clock()
        if now - self.pruned > self.PRUNE_EVERY:
            self._prune(now)
        bucket = self.buckets.get(client)
        if bucket is None:
            bucket = self.buckets[client] = Bucket(float(self.burst), now)
        bucket.tokens = min(self.burst, bucket.tokens + (now - bucket.checked) * self.rate)
        bucket.checked = now
        # a hair's tolerance: ten tenths taken one by one leave 0.999..., not a whole request
        if bucket.tokens >= cost - 1e-9:
            bucket.tokens = max(0.0, bucket.tokens - cost)
            return 0.0
        return (cost - bucket.tokens) / self.rate

    @staticmethod
    def retry_after(wait: float) -> str:
        return str(max(1, math.ceil(wait)))

    def _prune(self, now: float) -> None:
        """Forget clients whose bucket is full again (they would start afresh anyway)."""
        self.pruned = now
        full = [
            key
            for key, bucket in self.buckets.items()
            if bucket.tokens + (now - bucket.checked) * self.rate >= self.burst
        ]
        for key in full:
            del self.buckets[key]
