"""The background loop shared by the two outboxes (mail in candlebox/server/mail.py, Web Push in
candlebox/server/pushing.py): a task in each web process that sends what is due, woken at once when
this process wrote something to send, and every ``Settings.mail_poll`` seconds for what other
processes wrote and for retries.

What differs between the two is only how a batch is taken from the database and how one item is
delivered; the loop, its wake-up and its batching are here once, so that a fix to one (a database
that is away for a moment, a batch that fills) is a fix to both.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Generic, TypeVar

from candlebox.server.config import Settings

log = logging.getLogger("candlebox.server")

BATCH = 20  # items taken from an outbox at once

Item = TypeVar("Item")


class OutboxWorker(Generic[Item]):
    """Sends an outbox in the background; subclasses say how to take due items (synchronous: it
    runs in a worker thread) and how to deliver one (True when it went)."""

    what = "outbox"  # named in the log when the outbox cannot be read

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.woken = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    def take(self, now: float) -> list[Item]:
        raise NotImplementedError

    async def deliver(self, item: Item) -> bool:
        raise NotImplementedError

    def start(self) -> None:
        self.task = asyncio.create_task(self.forever())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    def wake(self) -> None:
        self.woken.set()

    async def forever(self) -> None:
        while True:
            try:
                await self.send_due()
            except Exception:  # the database may be away for a moment: look again later
                log.exception("the %s sender could not read its outbox", self.what)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.woken.wait(), self.settings.mail_poll)
            self.woken.clear()

    async def send_due(self, now: float | None = None) -> int:
        """Send everything due (``now``: the time to take it at); how many items went."""
        sent = 0
        while True:
            items = await asyncio.to_thread(self.take, now or time.time())
            for item in items:
                sent += await self.deliver(item)
            if len(items) < BATCH:
                return sent
