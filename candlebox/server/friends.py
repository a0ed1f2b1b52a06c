"""Friends (issue 34): following players by name, and inviting an account by name into an open seat.

- Following is one-way and public knowledge only: whom you follow, and their live public games
  (what the lobby already shows to anyone). An unknown name is refused as unknown: a name's
  existence is no secret (public profiles show it), and the rate limits bound the asking.
- An invitation names an open human seat of a live game the inviter sits at; it waits in the
  invited player's "Your games" until they take the seat (bound to their account, without the
  private game's join code: the invitation stands for it) or decline it. It is no longer shown,
  nor counted against the inviter's limit, once the seat is taken or the game is no longer live
  (the row goes with the game).
- Each account follows at most ``max_follows`` players and has at most ``max_invites`` invitations
  waiting at once.

Synchronous, like :mod:`candlebox.server.accounts`: the routes call it in a worker thread.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from sqlalchemy import ColumnElement, Connection, Engine, delete, func, insert, select
from sqlalchemy.exc import IntegrityError

from candlebox.server.accounts import Account, name_key
from candlebox.server.config import Settings
from candlebox.server.errors import Rejected
from candlebox.server.storage import accounts, follows, games, seat_invites, seats


@dataclass(frozen=True)
class PublicGame:
    """A live public game a followed player sits at (what the lobby lists for anyone)."""

    id: str
    game: str
    variant: str
    players: int


@dataclass(frozen=True)
class Followed:
    name: str
    since: float
    games: tuple[PublicGame, ...]


@dataclass(frozen=True)
class Invitation:
    """An invitation waiting for its answer, as the invited player sees it."""

    id: int
    game_id: str
    game: str
    variant: str
    seat: int
    by: str  # the inviting player's name
    at: float


class Friends:
    def __init__(self, engine: Engine, settings: Settings) -> None:
        self.engine = engine
        self.settings = settings

    # ------------------------------------------------------------------ following
    def follow(self, account: Account, name: str) -> str:
        """Follow the player named ``name`` (any case); returns their name as they wrote it."""
        with self.engine.begin() as conn:
            other = _named(conn, name)
            if other.id == account.id:
                raise Rejected("follow-self", "you cannot follow yourself")
            count = conn.execute(
                select(func.count()).select_from(follows).where(follows.c.follower_id == account.id)
            ).scalar_one()
            if count >= self.settings.max_follows:
                raise Rejected(
                    "follow-limit",
                    f"you follow {count} players, the most allowed; unfollow one first",
                    409,
                )
            already = Rejected("already-followed", f"you already follow {other.name}", 409)
            known = conn.execute(
                select(follows.c.created_at).where(
                    follows.c.follower_id == account.id, follows.c.followed_id == other.id
                )
            ).first()
            if known is not None:
                raise already
            try:
                conn.execute(
                    insert(follows).values(
                        follower_id=account.id, followed_id=other.id, created_at=time.time()
                    )
                )
            except IntegrityError:  # the same follow sent twice at once: the other one counted
                raise already from None
        return str(other.name)

    def unfollow(self, account: Account, name: str) -> str:
        with self.engine.begin() as conn:
            other = _named(conn, name)
            done = conn.execute(
                delete(follows).where(
                    follows.c.follower_id == account.id, follows.c.followed_id == other.id
                )
            )
            if done.rowcount != 1:
                raise Rejected("not-followed", f"you do not follow {other.name}", 404)
        return str(other.name)

    def followed(self, account: Account) -> list[Followed]:
        """Whom the account follows (by name), each with their live public games."""
        with self.engine.connect() as conn:
            people = conn.execute(
                select(accounts.c.id, accounts.c.name, follows.c.created_at)
                .join(follows, follows.c.followed_id == accounts.c.id)
                .where(follows.c.follower_id == account.id)
                .order_by(accounts.c.name_key)
            ).all()
            ids = [row.id for row in people]
            playing: dict[int, list[PublicGame]] = {i: [] for i in ids}
            if ids:
                rows = conn.execute(
                    select(
                        seats.c.account_id,
                        games.c.id,
                        games.c.game,
                        games.c.variant,
                        games.c.players,
                    )
                    .join(games, games.c.id == seats.c.game_id)
                    .where(
                        seats.c.account_id.in_(ids),
                        games.c.status == "live",
                        games.c.public.is_(True),
                    )
                    .order_by(games.c.updated_at.desc())
                    .limit(20 * len(ids))
                ).all()
                for row in rows:
                    found = PublicGame(row.id, row.game, row.variant, row.players)
                    if found not in playing[row.account_id]:
                        playing[row.account_id].append(found)
        return [
            Followed(row.name, float(row.created_at), tuple(playing[row.id][:5])) for row in people
        ]

    # ------------------------------------------------------------------ invitations
    def invite(self, account: Account, game_id: str, seat: int, name: str) -> str:
        """Invite the player named ``name`` into ``seat`` of ``game_id`` (the caller checked that
        ``account`` sits at that live game and that the seat is open); returns their name."""
        with self.engine.begin() as conn:
            other = _named(conn, name)
            if other.id == account.id:
                raise Rejected("invite-self", "you cannot invite yourself")
            seated = conn.execute(
                select(seats.c.seat).where(
                    seats.c.game_id == game_id, seats.c.account_id == other.id
                )
            ).first()
            if seated is not None:
                raise Rejected("already-seated", f"{other.name} already sits at this table", 409)
            waiting = conn.execute(
                select(func.count())
                .select_from(seat_invites)
                .where(seat_invites.c.from_id == account.id, _still_open())
            ).scalar_one()
            if waiting >= self.settings.max_invites:
                raise Rejected(
                    "invite-limit",
                    f"you have {waiting} invitations waiting for an answer, the most allowed",
                    409,
                )
            already = Rejected(
                "already-invited", f"{other.name} is already invited to this seat", 409
            )
            known = conn.execute(
                select(seat_invites.c.id).where(
                    seat_invites.c.game_id == game_id,
                    seat_invites.c.seat == seat,
                    seat_invites.c.to_id == other.id,
                )
            ).first()
            if known is not None:
                raise already
            try:
                conn.execute(
                    insert(seat_invites).values(
                        game_id=game_id,
                        seat=seat,
                        from_id=account.id,
                        to_id=other.id,
                        created_at=time.time(),
                    )
                )
            except IntegrityError:  # the same invitation sent twice at once
                raise already from None
        return str(other.name)

    def invitations(self, account: Account) -> list[Invitation]:
        """The invitations waiting for the account's answer whose seat is still open in a live
        game, newest first (the others are left to go with their game)."""
        inviter = accounts.alias("inviter")
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    seat_invites.c.id,
                    seat_invites.c.game_id,
                    seat_invites.c.seat,
                    seat_invites.c.created_at,
                    games.c.game,
                    games.c.variant,
                    inviter.c.name,
                )
                .join(games, games.c.id == seat_invites.c.game_id)
                .join(inviter, inviter.c.id == seat_invites.c.from_id)
                .where(seat_invites.c.to_id == account.id, _still_open())
                .order_by(seat_invites.c.created_at.desc(), seat_invites.c.id.desc())
                .limit(100)
            ).all()
        return [
            Invitation(
                row.id, row.game_id, row.game, row.variant, row.seat, row.name, row.created_at
            )
            for row in rows
        ]

    def invitation(self, account: Account, invite_id: int) -> tuple[str, int]:
        """The game and seat of one of the account's invitations; 404 for any other id."""
        with self.engine.connect() as conn:
            row = conn.execute(
                select(seat_invites.c.game_id, seat_invites.c.seat).where(
                    seat_invites.c.id == invite_id, seat_invites.c.to_id == account.id
                )
            ).first()
        if row is None:
            raise Rejected("no-invite", "there is no such invitation (answered, or withdrawn)", 404)
        return str(row.game_id), int(row.seat)

    def answered(self, game_id: str, seat: int) -> None:
        """The seat was taken: every invitation into it is gone."""
        with self.engine.begin() as conn:
            conn.execute(
                delete(seat_invites).where(
                    seat_invites.c.game_id == game_id, seat_invites.c.seat == seat
                )
            )

    def decline(self, account: Account, invite_id: int) -> None:
        with self.engine.begin() as conn:
            done = conn.execute(
                delete(seat_invites).where(
                    seat_invites.c.id == invite_id, seat_invites.c.to_id == account.id
                )
            )
        if done.rowcount != 1:
            raise Rejected("no-invite", "there is no such invitation (answered, or withdrawn)", 404)


def _still_open() -> ColumnElement[bool]:
    """An invitation's seat is still an open human seat of a live game (a seat taken through its
    join link, or a game ended, leaves the invitation behind until the game is deleted)."""
    return (
        select(seats.c.seat)
        .join(games, games.c.id == seats.c.game_id)
        .where(
            seats.c.game_id == seat_invites.c.game_id,
            seats.c.seat == seat_invites.c.seat,
            seats.c.token_hash.is_(None),
            seats.c.kind == "human",
            games.c.status == "live",
        )
        .correlate(seat_invites)
        .exists()
    )


def _named(conn: Connection, name: str) -> Account:
    row = conn.execute(select(accounts).where(accounts.c.name_key == name_key(name)[:100])).first()
    if row is None:
        raise Rejected("no-player", f"no player is named {name[:40]!r}", 404)
    return Account(int(row.id), row.name, row.email, float(row.created_at))
