"""Rated players written straight to a server's database, for the leaderboard and profile tests
(the API and browser tests alike): as many rated games as a test needs, without playing them."""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import insert

from candlebox.server.accounts import name_key
from candlebox.server.storage import Storage, accounts, ratings


@dataclass(frozen=True)
class RatedPlayer:
    """An account and its rating in one game: ``rated`` rated games played, ``won`` of them won."""

    name: str
    mu: float
    sigma: float
    rated: int
    won: int


def seed_ratings(url: str, game: str, players: Iterable[RatedPlayer]) -> None:
    """The accounts (no password: nobody signs in to them) with their ratings in ``game``."""
    storage = Storage(url)
    try:
        with storage.engine.begin() as conn:
            for player in players:
                done = conn.execute(
                    insert(accounts).values(
                        name=player.name,
                        name_key=name_key(player.name),
                        password_hash="-",
                        email=None,
                        created_at=time.time(),
                    )
                )
                key = done.inserted_primary_key
                assert key is not None
                conn.execute(
                    insert(ratings).values(
                        account_id=key[0],
                        game=game,
                        mu=player.mu,
                        sigma=player.sigma,
                        rated=player.rated,
                        played=player.rated,
                        won=player.won,
                        updated_at=time.time(),
                    )
                )
    finally:
        storage.close()
