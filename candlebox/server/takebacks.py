"""Take-backs at a table (issue 35), what frames show of them: which moves a seat's take-back
would remove (``plan``), and the request waiting for the other players' answers.

The engine decides what a seat may take back (``State.undoable``, candlebox/engine/undoing.py): its
own last decisions while nothing hidden or random came out since. At a table the bots' replies to
them are taken back first, by the same rule — each bot's last run of moves, whole, when none of it
let anything hidden or random out; a person's move after them stands. Rated tables have none. The
requests and answers are candlebox/server/taking_back.py.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from candlebox.engine import State, undoing
from candlebox.engine.undoing import own_run, verdict
from candlebox.server.live import LiveGame

RATED = "rated tables have no take-backs: every move stands"


@dataclass(frozen=True)
class Plan:
    """What a seat's take-back would do now: ``moves`` taken back (its own and its bots' replies),
    leaving ``state``; or none (``moves`` 0) and why not."""

    seat: int
    moves: int
    state: State | None
    reason: str
    own: int = 0  # of ``moves``, the seat's own: the rest are its bots' replies after them


@dataclass
class Request:
    """A seat asked to take back ``moves`` moves of the game at move ``at_move``; the other
    players' answers so far."""

    seat: int
    at_move: int
    moves: int
    accepted: list[int] = field(default_factory=list)
    asked_at: float = 0.0


def deciders(live: LiveGame, seat: int) -> list[int]:
    """The players who must accept ``seat``'s take-back: every other seat a person holds."""
    return [
        s.seat
        for s in live.record.seats
        if s.seat != seat and s.kind == "human" and s.token_hash is not None
    ]


def plan(live: LiveGame, seat: int, bases: Bases | None = None) -> Plan:
    """What ``seat``'s take-back would do now (bots' replies first, then its own decisions);
    ``bases``: earlier states of the game to replay from, added to as the replay goes (None: every
    verdict replays the game from its seed)."""
    if live.record.rated:
        return Plan(seat, 0, None, RATED)
    if live.over:
        return Plan(seat, 0, None, "the game is over: every move stands")
    state, taken = live.state, 0
    while state.history:
        mover = state.history[-1][0]
        name = live.record.seats[mover].name or f"seat {mover}"
        if mover != seat and live.record.seats[mover].kind != "bot":
            return Plan(seat, 0, None, f"{name} moved after you: their move stands")
        if bases is None:
            found = verdict(state, mover)
        else:
            found = verdict(state, mover, bases.best(state, mover))
            bases.add(found.start)
        if mover == seat:
            if found.without is None:
                return Plan(seat, 0, None, found.reason)
            return Plan(seat, taken + found.count, found.without, "", own=found.count)
        if found.without is None or found.count < own_run(state.history, mover):
            return Plan(seat, 0, None, f"{name}'s reply stands: {found.reason}")
        state = found.without
        taken += found.count
    return Plan(seat, 0, None, f"seat {seat} has made no move to take back")


class Bases:
    """A game's states kept to replay from (issue 35): each verdict's ``start``, the game before a
    seat's last run of decisions. A plan then replays only the moves since the player's previous
    turn instead of the whole game; a take-back that goes further back than any of them replays from
    the seed. Each replay from one gives what a replay from the seed would (the engine's ``base``:
    candlebox/engine/undoing.py), so nothing is re-rolled."""

    KEPT = 6  # states kept per game: a few turns of every seat

    def __init__(self) -> None:
        self.states: list[State] = []

    def best(self, state: State, seat: int) -> State | None:
        """The latest kept state the verdict on ``seat``'s last run may replay from."""
        usable = [base for base in self.states if undoing.usable(base, state, seat)]
        return max(usable, key=lambda base: len(base.history), default=None)

    def add(self, start: State | None) -> None:
        if start is None:
            return
        # one of the same length is the same state, or one from before a take-back: the new one
        self.states = [s for s in self.states if len(s.history) != len(start.history)]
        self.states.append(start)
        self.states.sort(key=lambda base: len(base.history))
        del self.states[: -self.KEPT]


def last_person(live: LiveGame) -> int | None:
    """The seat a person holds that moved last, before any bots' replies: the only seat that may
    have something to take back."""
    for mover, _ in reversed(live.state.history):
        if live.record.seats[mover].kind != "bot":
            return mover
    return None


class TakeBackFrames:
    """The requests waiting at the tables this process holds, and each table's latest plan (worked
    out once per move: it replays the game), for the frames."""

    KEPT_GAMES = 1024  # games whose states to replay from are kept (the least recently used go)

    def __init__(self) -> None:
        self.requests: dict[str, Request] = {}
        # by game: (its state object, its move count) when worked out, and the plan
        self._plans: dict[str, tuple[int, int, Plan]] = {}
        self._bases: OrderedDict[str, Bases] = OrderedDict()

    def waiting(self, live: LiveGame) -> Request | None:
        """The request that stands now (one asked at an earlier move has lapsed)."""
        request = self.requests.get(live.id)
        if request is None or request.at_move != live.moves or live.over:
            return None
        return request

    def plan(self, live: LiveGame, seat: int) -> Plan:
        kept = self._plans.get(live.id)
        if kept is not None and kept[:2] == (id(live.state), live.moves) and kept[2].seat == seat:
            return kept[2]
        found = plan(live, seat, self.bases_of(live.id))
        self._plans[live.id] = (id(live.state), live.moves, found)
        return found

    def bases_of(self, game_id: str) -> Bases:
        """The states of the game kept to replay from (made when first asked for)."""
        bases = self._bases.pop(game_id, None) or Bases()
        self._bases[game_id] = bases
        while len(self._bases) > self.KEPT_GAMES:
            self._bases.popitem(last=False)
        return bases

    @staticmethod
    def _may_ask(live: LiveGame, seat: int) -> bool:
        """Whether ``seat`` may have something to take back (else no replay is needed to know).
        Not while a bot is to act: its reply is coming, and the plan, a replay of the game, is
        worked out once it has come rather than after each of a bot's moves."""
        if live.record.rated or live.over or last_person(live) != seat:
            return False
        return all(live.seat(s).kind != "bot" for s in live.state.to_act)

    def forget(self, live: LiveGame) -> None:
        self._plans.pop(live.id, None)

    def frame_part(self, live: LiveGame, seat: int | None) -> dict[str, Any]:
        """The frame's ``undoable`` (how many moves ``seat``'s take-back would remove now; 0 for a
        spectator, at a rated table, while a bot is to act, or while a request waits) and ``take_back`` (the request
        waiting: who asked, how many moves, who accepted and who is still to answer)."""
        request = self.waiting(live)
        shown = None
        if request is not None:
            seats = live.record.seats
            shown = {
                "seat": request.seat,
                "name": seats[request.seat].name or f"seat {request.seat}",
                "moves": request.moves,
                "accepted": list(request.accepted),
                "waiting": [s for s in deciders(live, request.seat) if s not in request.accepted],
            }
        undoable, own = 0, 0
        if seat is not None and request is None and self._may_ask(live, seat):
            found = self.plan(live, seat)
            undoable, own = found.moves, found.own
        # ``undoable_own``: the button says the player's moves apart from the bots' replies
        # ("Take back 4 moves" after one move of theirs read as a mistake, issue 36)
        return {"undoable": undoable, "undoable_own": own, "take_back": shown}
