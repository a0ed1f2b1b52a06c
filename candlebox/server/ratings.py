"""Records and ratings (issue 34; docs/server.md, "Ratings").

- **A rating** per account and game, over all player counts: OpenSkill's Plackett–Luce model (its
  defaults: mu 25, sigma 25/3), moved once per rated game by the seats' finishing places.
- **Shown** as a conservative number, ``1500 + 40 × (mu − 3 sigma)``: a new player shows 1500; wins
  raise it, losses lower it, and it rises as it grows surer (a gap of 200 is about a 4-in-5 chance to
  finish ahead of the other in a two-player game once both ratings are settled).
- **Provisional** for the first ``PROVISIONAL_GAMES`` rated games of a game: marked so on a profile,
  and left off the leaderboard until then.
- **Places**: a game played out ranks its seats as its standings do (a tie shares the place); a
  resignation puts the seat that resigned last and every other seat first (rulings EG-1); a rated game
  closed because nobody moved for ``expire_after`` seconds — there is no clock, so this is how a seat
  is lost on time or abandoned — puts the seats it was waiting for last and the others first.
- **Once**: every end is counted in the transaction that records it, with a row in ``counted_games``
  keyed by the game, so the same game is never counted twice (another process, a restart).
- Every finished game (rated or not) counts in the record of each account that held a seat: games
  played and won per game.
"""

from __future__ import annotations

import functools
import json
import logging
import math
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import Connection, and_, func, select, update
from sqlalchemy.dialects import postgresql, sqlite

import candlebox
from candlebox.engine import State
from candlebox.server.errors import Rejected
from candlebox.server.storage import (
    FINISHED,
    GameRecord,
    accounts,
    counted_games,
    games,
    rated_games,
    ratings,
    seats,
)

log = logging.getLogger("candlebox.server")
MODEL = PlackettLuce()
MU, SIGMA = MODEL.mu, MODEL.sigma
START = 1500  # what a new player's rating shows
SCALE = 40  # shown points per unit of mu − 3 sigma
PROVISIONAL_GAMES = 10  # rated games of a game before its rating is established
PAGE_SIZE = 25  # leaderboard rows per page
MAX_PAGE = 10_000
RECENT = 10  # recent public games on a profile
# The bot levels measured on the same scale (bench/bot_ratings.py writes it; read, never typed)
BOT_RATINGS = Path(__file__).resolve().parents[2] / "bench" / "results" / "bot_ratings.json"


def shown(mu: float, sigma: float) -> int:
    """The number players see: conservative (mu − 3 sigma), on a scale where a start is 1500."""
    return round(START + SCALE * (mu - 3 * sigma))


@dataclass(frozen=True)
class Rating:
    """An account's rating in one game (``games``: its rated games there)."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def rating_of(conn: Connection, account_id: int, game: str) -> Rating:
    """The account's rating in ``game`` (a new player's when it has none yet)."""
    row = conn.execute(
        select(ratings.c.mu, ratings.c.sigma, ratings.c.rated).where(
            ratings.c.account_id == account_id, ratings.c.game == game
        )
    ).first()
    return Rating() if row is None else Rating(row.mu, row.sigma, row.rated)


# ---------------------------------------------------------------------------- how a game ended
@dataclass(frozen=True)
class Ending:
    """Each seat's place (1 first; equal places tie) and the seats that won."""

    places: tuple[int, ...]
    winners: tuple[int, ...]


def played_out(state: State) -> Ending:
    """A game played to its end: the places its standings give (should a game's scoring fail,
    the winners first and every other seat second, rather than no count at all)."""
    winners = tuple(state.winners)
    try:
        place = {row.seat: row.rank for row in state.standings().rows}
        return Ending(tuple(place[seat] for seat in range(state.num_players)), winners)
    except Exception:
        log.exception("no standings for a %s game; its winners first", state.game_id)
        return Ending(tuple(1 if n in winners else 2 for n in range(state.num_players)), winners)


def resignation(players: int, seat: int) -> Ending:
    """``seat`` resigned: last; every other seat shares first place."""
    return Ending(
        tuple(2 if n == seat else 1 for n in range(players)),
        tuple(n for n in range(players) if n != seat),
    )


def lost_on_time(players: int, waited_for: Iterable[int]) -> Ending | None:
    """Nobody moved for too long: the seats the game waited for lose, the others share first place;
    None when it waited for nobody (nobody to blame: not counted)."""
    losers = set(waited_for)
    if not losers:
        return None
    return Ending(
        tuple(2 if n in losers else 1 for n in range(players)),
        tuple(n for n in range(players) if n not in losers),
    )


# ---------------------------------------------------------------------------- counting an end
def game_ended(conn: Connection, record: GameRecord, ending: Ending) -> bool:
    """Count the end of ``record``'s game, in the caller's transaction: each account's games played
    and won and, at a rated table whose every seat is an account's, the ratings. Once per game:
    False (nothing done) when it was counted before, by this process or another."""
    held = [(seat.seat, seat.account_id) for seat in record.seats if seat.account_id is not None]
    if not held or not _first_count(conn, record.id):
        return False
    now = time.time()
    ids = sorted({account for _, account in held})
    current = _locked(conn, ids, record.game, now)
    rated = record.rated and len(held) == record.players and len(ids) == record.players
    moved = _rate(current, held, ending.places) if rated else {}
    for account in ids:  # an account in two seats of an unrated game: one game played
        won = any(seat in ending.winners for seat, holder in held if holder == account)
        new = moved.get(account, current[account])
        conn.execute(
            update(ratings)
            .where(ratings.c.account_id == account, ratings.c.game == record.game)
            .values(
                mu=new.mu,
                sigma=new.sigma,
                rated=ratings.c.rated + int(rated),
                played=ratings.c.played + 1,
                won=ratings.c.won + int(won),
                updated_at=now,
            )
        )
    return True


def _first_count(conn: Connection, game_id: str) -> bool:
    """Claim the game's count: True for the first transaction to claim it. A second one waits on
    PostgreSQL for the first to end, then finds the row and claims nothing. The row inserted is
    returned (an INSERT's row count is not kept on PostgreSQL: it reads -1 there)."""
    values = {"game_id": game_id, "at": time.time()}
    if conn.dialect.name == "postgresql":
        claim: Any = postgresql.insert(counted_games).values(**values).on_conflict_do_nothing()
    else:
        claim = sqlite.insert(counted_games).values(**values).on_conflict_do_nothing()
    return conn.execute(claim.returning(counted_games.c.game_id)).first() is not None


def _locked(conn: Connection, ids: list[int], game: str, now: float) -> dict[int, Rating]:
    """The accounts' ratings in ``game``, each row created if new and locked (PostgreSQL) until the
    transaction ends, in account order, so two games ending at once with the same players take
    turns instead of losing one update."""
    fresh = [
        {
            "account_id": account,
            "game": game,
            "mu": MU,
            "sigma": SIGMA,
            "rated": 0,
            "played": 0,
            "won": 0,
            "updated_at": now,
        }
        for account in ids
    ]
    if conn.dialect.name == "postgresql":
        conn.execute(postgresql.insert(ratings).values(fresh).on_conflict_do_nothing())
    else:
        conn.execute(sqlite.insert(ratings).values(fresh).on_conflict_do_nothing())
    rows = conn.execute(
        select(ratings.c.account_id, ratings.c.mu, ratings.c.sigma, ratings.c.rated)
        .where(ratings.c.account_id.in_(ids), ratings.c.game == game)
        .order_by(ratings.c.account_id)
        .with_for_update()
    ).all()
    return {row.account_id: Rating(row.mu, row.sigma, row.rated) for row in rows}


def _rate(
    current: dict[int, Rating], held: list[tuple[int, int]], places: Sequence[int]
) -> dict[int, Rating]:
    """One Plackett–Luce update: every seat a team of one, ranked by its place."""
    order = sorted(held)
    teams = [[MODEL.create_rating([current[a].mu, current[a].sigma])] for _, a in order]
    new = MODEL.rate(teams, ranks=[float(places[seat]) for seat, _ in order])
    return {
        account: Rating(team[0].mu, team[0].sigma, current[account].games + 1)
        for (_, account), team in zip(order, new, strict=True)
    }


# ---------------------------------------------------------------------------- profiles
def check_game(game: str) -> str:
    """A game's id as the registry has it; 404 naming the games otherwise."""
    known = candlebox.game_ids()
    if game not in known:
        raise Rejected("no-game", f"unknown game {game!r}; games: {', '.join(known)}", 404)
    return game


def check_page(page: str) -> int:
    """A leaderboard page number from a query: 1 to ``MAX_PAGE``; 400 naming ``page`` otherwise."""
    text = page.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 6 or not 1 <= int(text) <= MAX_PAGE:
        raise Rejected(
            "bad-page", f"page is a whole number from 1 to {MAX_PAGE}, got {page[:20]!r}"
        )
    return int(text)


def profile(conn: Connection, key: str) -> dict[str, Any] | None:
    """A player's public page by their name's key (None: no such player, or deleted): member
    since, a rating and a record per game, and their recent public finished games (never a private
    one)."""
    account = conn.execute(
        select(accounts.c.id, accounts.c.name, accounts.c.created_at).where(
            accounts.c.name_key == key
        )
    ).first()
    if account is None:
        return None
    records = records_of(conn, account.id)
    return {
        "name": account.name,
        "member_since": account.created_at,
        "ratings": records,
        "recent": _recent(conn, account.id),
        # the bot levels on the same scale, for reference, in each game the player finished
        "levels": {r["game"]: reference_levels(r["game"]) for r in records},
    }


def records_of(conn: Connection, account_id: int) -> list[dict[str, Any]]:
    """The account's rating and record in each game it finished, by game id."""
    rows = conn.execute(
        select(ratings).where(ratings.c.account_id == account_id).order_by(ratings.c.game)
    ).all()
    return [_record_json(row) for row in rows]


def _record_json(row: Any) -> dict[str, Any]:
    rating = Rating(row.mu, row.sigma, row.rated)
    return {
        "game": row.game,
        "title": _title(row.game),
        "rating": rating.shown,
        "provisional": rating.provisional,
        "rated_games": row.rated,
        "played": row.played,
        "won": row.won,
    }


def _recent(conn: Connection, account_id: int) -> list[dict[str, Any]]:
    mine = (
        select(games, seats.c.seat)
        .join(seats, seats.c.game_id == games.c.id)
        .where(
            seats.c.account_id == account_id,
            games.c.public.is_(True),
            games.c.status.in_(FINISHED),
        )
        .order_by(games.c.updated_at.desc(), games.c.id)
        .limit(RECENT)
    )
    found = conn.execute(mine).all()
    ids = [row.id for row in found]
    names: dict[str, list[dict[str, Any]]] = {game_id: [] for game_id in ids}
    rated: set[str] = set()
    if ids:
        for seat in conn.execute(
            select(seats.c.game_id, seats.c.seat, seats.c.name, seats.c.kind, seats.c.account_id)
            .where(seats.c.game_id.in_(ids))
            .order_by(seats.c.game_id, seats.c.seat)
        ):
            names[seat.game_id].append(
                {"seat": seat.seat, "name": seat.name, "kind": seat.kind, "account": _held(seat)}
            )
        rated = {
            row.game_id
            for row in conn.execute(
                select(rated_games.c.game_id).where(rated_games.c.game_id.in_(ids))
            )
        }
    out = []
    for row in found:
        result = json.loads(row.result) if row.result else {}
        out.append(
            {
                "id": row.id,
                "game": row.game,
                "title": _title(row.game),
                "variant": row.variant,
                "players": row.players,
                "finished_at": row.updated_at,
                "rated": row.id in rated,
                "seat": row.seat,
                "won": row.seat in result.get("winners", []),
                # how it ended early, if it did: the seat that resigned or ran out of time
                "resigned": result.get("resigned"),
                "out_of_time": result.get("out_of_time"),
                "seats": names[row.id],
            }
        )
    return out


def _held(seat: Any) -> bool:
    return seat.account_id is not None


# ---------------------------------------------------------------------------- the leaderboard
def leaderboard(conn: Connection, game: str, page: int) -> dict[str, Any]:
    """One page of the game's established ratings (``PROVISIONAL_GAMES`` rated games or more), best
    first; the players still provisional are counted, not listed."""
    established = and_(ratings.c.game == game, ratings.c.rated >= PROVISIONAL_GAMES)
    total = conn.execute(select(func.count()).select_from(ratings).where(established)).scalar_one()
    provisional = conn.execute(
        select(func.count())
        .select_from(ratings)
        .where(ratings.c.game == game, ratings.c.rated > 0, ratings.c.rated < PROVISIONAL_GAMES)
    ).scalar_one()
    rows = conn.execute(
        select(ratings, accounts.c.name)
        .join(accounts, accounts.c.id == ratings.c.account_id)
        .where(established)
        .order_by(
            (ratings.c.mu - 3 * ratings.c.sigma).desc(), ratings.c.rated.desc(), accounts.c.name
        )
        .offset((page - 1) * PAGE_SIZE)
        .limit(PAGE_SIZE)
    ).all()
    first = (page - 1) * PAGE_SIZE + 1
    return {
        "game": game,
        "title": _title(game),
        "page": page,
        "page_size": PAGE_SIZE,
        "pages": max(1, math.ceil(total / PAGE_SIZE)),
        "total": total,
        "provisional_players": provisional,
        "players": [
            {"rank": first + at, "name": row.name, **_record_json(row)}
            for at, row in enumerate(rows)
        ],
        "levels": reference_levels(game),
    }


def reference_levels(game: str, path: Path = BOT_RATINGS) -> list[dict[str, Any]]:
    """The game's bot levels as bench/bot_ratings.py measured them on this scale, weakest first
    ([] when the file is missing or holds no such game)."""
    return list(_measured(path).get(game, []))


@functools.cache
def _measured(path: Path) -> dict[str, list[dict[str, Any]]]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {
        game: [
            {"level": level["level"], "rating": int(level["rating"]), "games": int(level["games"])}
            for level in found["levels"]
        ]
        for game, found in data.get("games", {}).items()
    }


def _title(game: str) -> str:
    try:
        return candlebox.game_info(game).title
    except (KeyError, ValueError):  # a game no longer registered: its id
        return game
