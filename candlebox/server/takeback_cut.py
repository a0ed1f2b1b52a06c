"""What a take-back removes from the tables (issue 35; docs/server.md, "Take-backs"), all in one
transaction: the moves, and everything recorded about them.

Every table that refers to a game's move numbers, and what a take-back back to move ``keep`` (the
moves ``keep`` … ``at - 1`` removed) does to it:

- ``moves``: the removed moves go. The game's row is held alone first (``Storage.hold_game``), so a
  move another process records meanwhile either comes before (the take-back then finds more moves
  than it removes, and refuses: :class:`MoveConflict`) or after (it then finds its previous move
  gone, and refuses the same way): never a gap in the move numbers.
- ``take_backs``: the request goes.
- ``bot_turns`` (bot workers): a turn owed past the new end goes; owed at ``keep`` when a bot is to
  act there.
- ``stand_ins`` (the spans a bot played a seat for its player): a span wholly among the removed
  moves goes; one still open that began among them starts at ``keep`` (the bot still plays the
  seat); one that ended among them ends at ``keep``.
- ``hints_given``: the hints for decisions after move ``keep`` go with them; a hint for move
  ``keep`` stays — the game is back at that very decision, which its seat saw a hint for.
- ``seat_clocks``: nobody gets time back. The time spent on the removed moves stays spent, and at a
  realtime table the increments they earned go (a take-back earns no time); then, as after a move,
  the clocks of the seats the game waits for again run from now — at a turn-based table each with a
  new move's time — and every other one stops.

Reviews and review jobs are of finished games, which take nothing back; the chat is kept by time,
not by move.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field, replace

from sqlalchemy import Connection, and_, delete, func, select, update

from candlebox.engine import State
from candlebox.server import clocks
from candlebox.server.live import LiveGame
from candlebox.server.storage import (
    ClockRecord,
    MoveConflict,
    SeatClock,
    Storage,
    bot_turns,
    hints_given,
    moves,
    stand_ins,
    take_backs,
)

HEARD = "take-back"  # the notification other processes hear
NOBODY = -1  # no seat moved: clocks.advance settles no mover's clock


@dataclass
class Cut:
    """A take-back of game ``game_id`` from ``at`` moves back to ``keep``, leaving ``after``;
    ``owes_bot``: a bot worker is to play a bot's turn at ``keep``."""

    game_id: str
    at: int
    keep: int
    after: State
    removed: list[tuple[int, str]]  # the moves taken back: (seat, action) each
    owes_bot: bool
    clock: ClockRecord | None
    runs: list[bool]  # whose clock may run: a person plays the seat
    now: float
    seats: list[SeatClock] = field(default_factory=list)  # the clocks as written

    @classmethod
    def of(cls, live: LiveGame, after: State, workers: bool, now: float) -> Cut:
        keep = len(after.history)
        record = live.record
        waits = set() if after.is_over else set(after.to_act)
        bot = any(record.seats[seat].kind == "bot" for seat in waits)
        return cls(
            game_id=live.id,
            at=live.moves,
            keep=keep,
            after=after,
            removed=list(live.state.history[keep:]),
            owes_bot=workers and bot,
            clock=record.clock,
            runs=[clocks.runs_for(record, seat) for seat in range(record.players)],
            now=now,
        )

    def write(self, conn: Connection) -> None:
        """The whole take-back, in the caller's transaction; :class:`MoveConflict` (and nothing
        of it written) when the game is not at move ``at`` in the tables any more."""
        Storage.hold_game(conn, self.game_id, sole=True)
        mine = moves.c.game_id == self.game_id
        gone = conn.execute(delete(moves).where(mine, moves.c.number >= self.keep)).rowcount
        left = conn.execute(select(func.count()).select_from(moves).where(mine)).scalar_one()
        if gone != self.at - self.keep or left != self.keep:
            raise MoveConflict(
                f"game {self.game_id} is not at move {self.at} any more: a move was recorded "
                "meanwhile"
            )
        conn.execute(delete(take_backs).where(take_backs.c.game_id == self.game_id))
        self._bot_turn(conn)
        self._stand_ins(conn)
        conn.execute(
            delete(hints_given).where(
                hints_given.c.game_id == self.game_id, hints_given.c.move > self.keep
            )
        )
        self._clocks(conn)
        Storage.notify(conn, self.game_id, HEARD)

    def _bot_turn(self, conn: Connection) -> None:
        if self.owes_bot:
            Storage.owe_bot_turn(conn, self.game_id, self.keep)
        else:
            past = and_(bot_turns.c.game_id == self.game_id, bot_turns.c.number > self.keep)
            conn.execute(delete(bot_turns).where(past))

    def _stand_ins(self, conn: Connection) -> None:
        game = stand_ins.c.game_id == self.game_id
        start, end = stand_ins.c.from_move, stand_ins.c.until_move
        conn.execute(delete(stand_ins).where(game, start >= self.keep, end.is_not(None)))
        conn.execute(
            update(stand_ins)
            .where(game, start > self.keep, end.is_(None))
            .values(from_move=self.keep)
        )
        conn.execute(update(stand_ins).where(game, end > self.keep).values(until_move=self.keep))

    def _clocks(self, conn: Connection) -> None:
        if self.clock is None:
            return
        stored = clocks.read_seats(conn, self.game_id, lock=True)
        if not stored:
            return
        earned = Counter(seat for seat, _ in self.removed)
        taken = stored
        if self.clock.mode == "realtime":  # the increments the removed moves earned go
            taken = [
                replace(seat, remaining=seat.remaining - self.clock.increment * earned[number])
                for number, seat in enumerate(stored)
            ]
        waiting = set() if self.after.is_over else set(self.after.to_act)
        self.seats = clocks.advance(self.clock, taken, NOBODY, waiting, self.runs, self.now)
        clocks.write_seats(conn, self.game_id, stored, self.seats)

    def applied(self, live: LiveGame) -> None:
        """The take-back is committed: this process's copy of what it changed."""
        if live.record.clock is not None and self.seats:
            live.record.clock.seats = self.seats
        live.record.hints_given = [
            (seat, move) for seat, move in live.record.hints_given if move <= self.keep
        ]
