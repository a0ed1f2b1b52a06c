"""The lobby's lists — open seats, games being played, finished games — of public games only (a
private game is never listed, live or finished), newest first, a page at a time."""

from __future__ import annotations

import asyncio
import heapq
from typing import Any

import candlebox
from candlebox.server.bodies import LOBBY_LISTS, LobbyList
from candlebox.server.registry import LiveGames
from candlebox.server.storage import GameRecord

Page = tuple[
    list[dict[str, Any]], str | None
]  # the games and the next page's cursor (None: no more)


class Lobby:
    def __init__(self, games: LiveGames) -> None:
        self.games = games
        self.settings = games.settings

    async def first_pages(self, limit: int | None = None) -> dict[str, Any]:
        """The first page of each of the lobby's lists and the cursor of each list's next page."""
        out: dict[str, Any] = {"next": {}}
        for which in LOBBY_LISTS:
            out[which], out["next"][which] = await self.page(which, limit, None)
        return out

    async def page(self, which: LobbyList, limit: int | None, cursor: str | None) -> Page:
        """One page of a lobby list, newest first, after ``cursor`` (a previous page's ``next``)."""
        size = self._page_size(limit)
        after = None if cursor is None else parse_cursor(cursor)
        if which == "finished":
            return await self._finished_page(size, after)
        wanted = which == "open"
        candidates = (
            live
            for live in self.games.games.values()
            if live.record.public
            and live.has_open_seat() == wanted
            and (after is None or (live.record.created_at, live.id) < after)
        )
        page = heapq.nlargest(size + 1, candidates, key=lambda g: (g.record.created_at, g.id))
        more = len(page) > size
        page = page[:size]
        cursor_out = make_cursor(page[-1].record.created_at, page[-1].id) if more else None
        return [self.games.frames.summary(live) for live in page], cursor_out

    async def _finished_page(self, size: int, after: tuple[float, str] | None) -> Page:
        records = await asyncio.to_thread(self.games.storage.finished_games, size + 1, after)
        done = [finished_summary(record) for record in records[:size]]
        last = records[size - 1] if len(records) > size else None
        return done, None if last is None else make_cursor(last.updated_at, last.id)

    def _page_size(self, limit: int | None) -> int:
        return (
            self.settings.lobby_page if limit is None else min(limit, self.settings.lobby_max_page)
        )


def finished_summary(record: GameRecord) -> dict[str, Any]:
    return {
        "id": record.id,
        "game": record.game,
        "title": candlebox.game_info(record.game).title,
        "variant": record.variant,
        "players": record.players,
        "seats": [
            {"seat": s.seat, "name": s.name, "kind": s.kind, "account": s.account_id is not None}
            for s in record.seats
        ],
        "result": record.result,
        "finished_at": record.updated_at,
        "practice": bool(record.fair and record.fair.practice),
        "rated": record.rated,
    }


def make_cursor(stamp: float, game_id: str) -> str:
    return f"{stamp!r}~{game_id}"  # of the form bodies.CURSOR checks


def parse_cursor(cursor: str) -> tuple[float, str]:
    """A cursor (already checked against ``bodies.CURSOR``) as (time, game id)."""
    stamp, _, game_id = cursor.partition("~")
    return float(stamp), game_id
