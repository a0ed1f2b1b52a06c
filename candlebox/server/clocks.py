"""Clocks (issue 35; docs/server.md, "Clocks"): a table's clock chosen at its creation, and the time
each seat has left, kept by the server.

- **Realtime** (``initial`` seconds for the game, ``increment`` added after each move) or
  **turn-based** (``per_move`` seconds for each move, reset by every move: a game over days). A seat's
  clock runs while the game waits for that seat and a person plays it (a bot is never out of time);
  a simultaneous choice runs the clock of every seat still to choose.
- **Stored as it runs**: each seat's seconds left as of ``since``, the moment its clock started
  running (``seat_clocks``). A move settles its seat's clock and starts the next seats' in the
  same transaction as the move, so a server killed at any moment loses no time: the clock keeps
  running from the stored start.
- **Out of time** is only marked (by the process watching the clock: candlebox/server/clockwatch.py);
  the game goes on when another player hands the seat to its bot, or, at a rated table, ends with
  that seat lost on time.

Everything here is plain accounting on :class:`~candlebox.server.storage.ClockRecord`; the time is
passed in (``Settings.clock_now``), so tests move it themselves.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from sqlalchemy import Connection, select, update

from candlebox.server.bodies import ClockSpec, RealtimeClock, TurnBasedClock
from candlebox.server.errors import Rejected
from candlebox.server.live import LiveGame
from candlebox.server.storage import ClockRecord, GameRecord, SeatClock, seat_clocks

HOUR = 3600.0
DAY = 24 * HOUR
# the limits of a table that is not a practice one (a practice table takes any clock of 1 s or more)
REALTIME_INITIAL = (60.0, 3 * HOUR)
REALTIME_INCREMENT = (0.0, 180.0)
PER_MOVE = (HOUR, 14 * DAY)


def _span(seconds: float) -> str:
    """A limit in words: "60 s", "3 h", "14 d"."""
    for unit, size in (("d", DAY), ("h", HOUR), ("min", 60.0)):
        if seconds >= size and seconds % size == 0:
            return f"{seconds / size:g} {unit}"
    return f"{seconds:g} s"


def spoken(seconds: float) -> str:
    """Time left in words, as the page shows it: "2 d 4 h", "3 h 5 min", "4 min 10 s", "9 s"."""
    whole = max(0, int(seconds))
    days, rest = divmod(whole, int(DAY))
    hours, rest = divmod(rest, int(HOUR))
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    if minutes:
        return f"{minutes} min {secs} s"
    return f"{secs} s"


def _within(name: str, value: float, bounds: tuple[float, float], practice: bool) -> None:
    low, high = bounds
    if practice or low <= value <= high:
        return
    raise Rejected(
        "bad-clock",
        f"clock.{name} is from {_span(low)} to {_span(high)} ({value:g} s was asked; a practice "
        "table takes any clock of at least 1 s)",
    )


def choose(spec: ClockSpec | None, record: GameRecord, practice: bool) -> ClockRecord | None:
    """The clock of a new table from its creation request (None: no clock); :class:`Rejected`
    (400, ``bad-clock``) naming the field for a clock outside the limits, or at a table of bots."""
    if spec is None:
        return None
    if not any(seat.kind == "human" for seat in record.seats):
        raise Rejected("bad-clock", "a table of bots only has no clock: leave clock out")
    if isinstance(spec, RealtimeClock):
        _within("initial", spec.initial, REALTIME_INITIAL, practice)
        _within("increment", spec.increment, REALTIME_INCREMENT, practice)
        mode, initial, increment = "realtime", spec.initial, spec.increment
    else:
        _within("per_move", spec.per_move, PER_MOVE, practice)
        mode, initial, increment = "turn-based", spec.per_move, 0.0
    seats = [SeatClock(float(initial)) for _ in record.seats]
    return ClockRecord(mode, float(initial), float(increment), seats)


def runs_for(record: GameRecord, seat: int) -> bool:
    """A seat's clock may run: a person plays it (a bot's seat never runs out of time)."""
    return record.seats[seat].kind == "human"


def started(clock: ClockRecord, record: GameRecord, waiting: tuple[int, ...], now: float) -> None:
    """Start the clocks of the seats a new game waits for."""
    for seat in waiting:
        if runs_for(record, seat):
            clock.seats[seat].since = now


def left(seat: SeatClock, now: float) -> float:
    """Seconds the seat has left now (negative once it ran out)."""
    if seat.since is None:
        return seat.remaining
    return seat.remaining - max(0.0, now - seat.since)


def _settled(clock: ClockRecord, seat: SeatClock, now: float, moved: bool) -> SeatClock:
    """A clock stopped now; ``moved``: its seat has just moved (the increment, or a new move's
    time at a turn-based table)."""
    remaining = left(seat, now)
    if moved:
        remaining = clock.initial if clock.mode == "turn-based" else remaining + clock.increment
    return SeatClock(remaining, None, remaining <= 0)  # realtime: no time left, out of time


def advance(
    clock: ClockRecord,
    seats: list[SeatClock],
    mover: int,
    waiting: set[int],
    runs: list[bool],
    now: float,
) -> list[SeatClock]:
    """The seats' clocks once ``mover`` has moved and the game waits for ``waiting``: the mover's
    clock settled (its increment, or a new move's time), the clocks of the seats waited for running
    (``runs``: a person plays the seat; at a turn-based table each starts a new move's time), every
    other one stopped."""
    out = []
    for number, seat in enumerate(seats):
        if number == mover or (number not in waiting and seat.since is not None):
            seat = _settled(clock, seat, now, moved=number == mover)
        if number in waiting and seat.since is None and runs[number]:
            fresh = clock.mode == "turn-based" and not seat.out_of_time  # a new move's time
            seat = replace(seat, since=now, remaining=clock.initial if fresh else seat.remaining)
        out.append(seat)
    return out


@dataclass
class Tick:
    """What a move does to the clocks, written in the move's transaction: the clocks are read
    there (locked on PostgreSQL), so a move made by another process since this one's copy was read
    is counted from what it stored, and the result is kept once the move is committed."""

    game_id: str
    clock: ClockRecord
    mover: int
    waiting: set[int]
    runs: list[bool]
    now: float
    seats: list[SeatClock] = field(default_factory=list)

    def write(self, conn: Connection) -> None:
        stored = read_seats(conn, self.game_id, lock=True) or self.clock.seats
        self.seats = advance(self.clock, stored, self.mover, self.waiting, self.runs, self.now)
        write_seats(conn, self.game_id, stored, self.seats)


def write_seats(
    conn: Connection, game_id: str, stored: list[SeatClock], seats: list[SeatClock]
) -> None:
    """Store the seats' clocks that differ from ``stored``."""
    for number, (before, seat) in enumerate(zip(stored, seats, strict=True)):
        if seat == before:
            continue
        conn.execute(
            update(seat_clocks)
            .where(seat_clocks.c.game_id == game_id, seat_clocks.c.seat == number)
            .values(remaining=seat.remaining, since=seat.since, out_of_time=seat.out_of_time)
        )


def read_seats(conn: Connection, game_id: str, lock: bool = False) -> list[SeatClock]:
    """The seats' clocks as stored (``lock``: held until the transaction ends, on PostgreSQL)."""
    query = select(seat_clocks).where(seat_clocks.c.game_id == game_id).order_by(seat_clocks.c.seat)
    if lock:
        query = query.with_for_update()
    rows = conn.execute(query)
    return [SeatClock(row.remaining, row.since, bool(row.out_of_time)) for row in rows]


def after_move(live: LiveGame, mover: int, action: str, now: float) -> Tick | None:
    """What ``mover``'s legal ``action`` does to the clocks (None: the table has no clock). The move
    is tried on a copy of the state, to know whom the game waits for next: the live state changes
    only once the move is committed."""
    clock = live.record.clock
    if clock is None:
        return None
    after = live.state.clone()
    after.apply(mover, action)
    waiting = set() if after.is_over else set(after.to_act)
    runs = [runs_for(live.record, number) for number in range(live.record.players)]
    return Tick(live.id, clock, mover, waiting, runs, now)


def ticked(live: LiveGame, tick: Tick | None) -> None:
    """The move is committed: its clocks are the game's now."""
    if tick is not None and live.record.clock is not None and tick.seats:
        live.record.clock.seats = tick.seats


def out_of_time(clock: ClockRecord, seat: int, now: float) -> bool:
    """The seat ran out of time: marked so, or its running clock is at zero."""
    state = clock.seats[seat]
    return state.out_of_time or (state.since is not None and left(state, now) <= 0)


def config_public(clock: ClockRecord | None) -> dict[str, Any] | None:
    """The clock chosen at creation, as the API names it (None: no clock)."""
    if clock is None:
        return None
    if clock.mode == "turn-based":
        return {"mode": "turn-based", "per_move": clock.initial}
    return {"mode": "realtime", "initial": clock.initial, "increment": clock.increment}


def clocks_public(live: LiveGame, now: float) -> list[dict[str, Any]]:
    """Each seat's clock as every seat and spectator sees it: seconds left now (the page counts
    down from it between frames), whether it runs, and whether it ran out."""
    clock = live.record.clock
    if clock is None:
        return []
    over = live.over
    return [
        {
            "seat": number,
            "remaining": round(max(0.0, left(seat, now)), 1),
            "running": seat.since is not None and not over and runs_for(live.record, number),
            "out_of_time": not over
            and runs_for(live.record, number)
            and out_of_time(clock, number, now),
        }
        for number, seat in enumerate(clock.seats)
    ]


def frame_part(live: LiveGame, now: float) -> dict[str, Any]:
    """The part of a frame about the clocks: the config and each seat's clock."""
    return {"clock": config_public(live.record.clock), "clocks": clocks_public(live, now)}


def allowance(clock: ClockRecord | None) -> float:
    """Seconds a game with this clock may go without a move beyond the server's ``expire_after``
    before the sweep closes it: its clock's own time (a turn-based game of 72 h a move is not
    closed after a day)."""
    return 0.0 if clock is None else clock.initial


def spec_of(clock: ClockRecord | None) -> ClockSpec | None:
    """The creation request's clock that makes ``clock`` again (a rematch: the same table)."""
    if clock is None:
        return None
    if clock.mode == "turn-based":
        return TurnBasedClock(per_move=clock.initial)
    return RealtimeClock(initial=clock.initial, increment=clock.increment)
