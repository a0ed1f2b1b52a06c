"""A web process's part in notices (issue 35): the account-side stores the routes use, the push
sender, waking the senders when this process's moves wrote mail or pushes, and the daily digests
(looked for every :data:`DIGEST_POLL` seconds; each account's is taken by one process)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from sqlalchemy import Engine

from candlebox.server.config import Settings
from candlebox.server.mail import Mailer
from candlebox.server.notices import Notices, Told, TurnNotices
from candlebox.server.pushing import Pusher, Subscriptions
from candlebox.server.storage import MAIL_KEPT

log = logging.getLogger("candlebox.server")
DIGEST_POLL = 600.0  # seconds between two looks for digests that are due


class NoticeSenders:
    def __init__(self, engine: Engine, settings: Settings, mailer: Mailer) -> None:
        self.notices = Notices(engine, settings)
        self.subscriptions = Subscriptions(engine, settings)
        self.pusher = Pusher(engine, settings)
        self.mailer = mailer
        self.task: asyncio.Task[None] | None = None

    async def start(self, turns: TurnNotices) -> None:
        """Send pushes, look for digests, and be woken by ``turns`` (this process's moves)."""
        self.pusher.start()
        turns.wake = self.wake
        self.task = asyncio.create_task(self.forever())

    async def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        await self.pusher.stop()

    def wake(self, told: Told) -> None:
        if told.mails:
            self.mailer.wake()
        if told.pushes:
            self.pusher.wake()

    async def forever(self) -> None:
        while True:
            await self.look(time.time())
            await asyncio.sleep(DIGEST_POLL)

    async def look(self, now: float) -> int:
        """Write the digests due at ``now`` and forget old pushes; how many digests."""
        try:
            written = await asyncio.to_thread(self.notices.digests, now)
            await asyncio.to_thread(self.pusher.outbox.forget_old, now - MAIL_KEPT)
        except Exception:  # the database may be away for a moment: look again later
            log.exception("looking for digests to send failed")
            return 0
        if written:
            self.mailer.wake()
        return written
