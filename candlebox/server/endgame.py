"""The end of a game in the page: the standings (``State.standings``, each score's breakdown, who won
and why) in every frame where they may be shown, and rematches — the same table again (game, variant,
options, the same bots in the same seats), offered to the other players of the finished game.

The standings are shown once the game is over, and before that only for a game whose scores are public
(its ``Scoring`` is not ``secret_until_over``). A rematch is kept in this process only: after a restart
the finished game no longer offers it (the new game itself is stored as any other).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import candlebox
from candlebox.engine.leaving import resignation, standings_after
from candlebox.engine.standings import Standings
from candlebox.server import bots as botlib
from candlebox.server import clocks, timeloss
from candlebox.server.bodies import CreateSpec, SeatSpec
from candlebox.server.errors import Rejected
from candlebox.server.live import LiveGame
from candlebox.server.storage import SeatRecord

log = logging.getLogger(__name__)


def standings_data(live: LiveGame) -> dict[str, Any] | None:
    """The standings as plain data for the frame, or None where they may not be shown yet."""
    late = timeloss.lost_on_time(live)
    if late is not None:  # a rated game lost on time: the others first, said so
        return timeloss.standings(live, late)
    names = [seat.name for seat in live.record.seats]
    left = (live.record.result or {}).get("resigned") if live.resigned else None
    if isinstance(left, int):  # the game's points at that move do not rank it (rulings EG-1)
        return resigned_standings(live, left, names).as_data()
    state = live.state
    scoring = candlebox.game_info(state.game_id).scoring()
    if not state.is_over and (scoring is None or scoring.secret_until_over):
        return None
    try:
        return state.standings(names).as_data()
    except Exception:  # a game's scoring that fails must not stop the game being shown
        log.exception("no standings for %s", live.id)
        return None


def resigned_standings(live: LiveGame, left: int, names: list[str]) -> Standings:
    """A resigned game's standings: ``left``, the seat that resigned (or ran out of time), last."""
    result = live.record.result or {}
    return standings_after(
        resignation(live.record.players, left),
        live.moves,
        lambda seat: names[seat],
        out_of_time=result.get("out_of_time") == left,
    )


@dataclass
class Offer:
    """A rematch made of a finished game: the new game's id, who asked, and the invite codes of the
    human seats not yet taken (each shown only to that seat of the finished game)."""

    game: str
    by: int
    invites: dict[int, str] = field(default_factory=dict)


class Rematches:
    def __init__(self) -> None:
        self.offers: dict[str, Offer] = {}  # finished game id -> its rematch

    def frame_part(self, live: LiveGame, seat: int | None) -> dict[str, Any]:
        """The frame's ``standings`` and ``rematch`` (for ``seat``: its own invite only)."""
        offer = self.offers.get(live.id)
        shown = None
        if offer is not None:
            shown = {
                "id": offer.game,
                "by": live.record.seats[offer.by].name,
                "mine": seat == offer.by,
                "invite": offer.invites.get(seat) if seat is not None else None,
            }
        return {"standings": standings_data(live), "rematch": shown}

    async def ask(
        self,
        live: LiveGame,
        seat: int,
        create: Callable[[CreateSpec], Awaitable[dict[str, Any]]],
    ) -> dict[str, Any]:
        """A seat of a finished game asks for a rematch: the first ask creates it (the asker takes
        the same seat), later ones get their seat's invite. Returns ``{id, seat, token | invite}``."""
        if not live.over:
            raise Rejected("not-over", "a rematch can be asked for once the game is over", 409)
        offer = self.offers.get(live.id)
        if offer is not None:
            answer: dict[str, Any] = {"id": offer.game, "seat": seat}
            invite = offer.invites.get(seat)
            if invite is not None:
                answer["invite"] = invite
            return answer
        made = await create(same_table(live, seat))
        invites = {int(k): v for k, v in made.get("invites", {}).items()}
        self.offers[live.id] = Offer(made["id"], seat, invites)
        return {"id": made["id"], "seat": seat, "token": made["token"]}


def seat_again(game_id: str, seat: SeatRecord) -> SeatSpec:
    """The same bot: one of the game's levels by its name (its parameters are the server's, which a
    client may not send), any other bot with its parameters."""
    level = botlib.level_for(game_id, seat.bot, seat.params)
    if level is not None:
        return SeatSpec(kind="bot", name=seat.name, level=level.name)
    return SeatSpec(kind="bot", name=seat.name, bot=seat.bot, params=dict(seat.params or {}))


def same_table(live: LiveGame, you: int) -> CreateSpec:
    """The finished game's table as a new game: the same game, variant and options, bots with the
    same parameters in the same seats, people under the same names; a fresh seed (only the server
    knows it, unless the game was a practice game, whose fixed options stay fixed)."""
    record = live.record
    seats = [
        seat_again(record.game, s) if s.kind == "bot" else SeatSpec(kind="human", name=s.name)
        for s in record.seats
    ]
    practice = record.fair.practice if record.fair is not None else False
    return CreateSpec(
        game=record.game,
        seats=seats,
        variant=record.variant,
        options=dict(record.options),
        bot_delay=record.bot_delay,
        you=you,
        public=record.public,
        practice=practice,
        clock=clocks.spec_of(record.clock),  # the same clock (issue 35)
    )
