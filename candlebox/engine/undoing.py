"""Taking back: how many of a seat's last decisions it may take back, and the game without them.

A player may take back their own last decisions as long as nothing hidden or random has come out
since. The engine decides it the same way for every game, from what each move revealed when it was
made (the history is replayed from the seed to see it), never from lists written per game. A move
cannot be taken back when

- it used chance: the state's generator drew (:meth:`Rng.draws_since`);
- it logged a private event: one that not every viewer sees alike (a card drawn into a hand);
- it showed its mover something the mover could not see: with what the mover cannot know dealt anew
  (:meth:`State.resample`, at fixed seeds), the same move shows the mover another view or log — a
  candle turned from the hidden stack, the others' secret choices revealed;
- another seat chose in secret (a move kind marked ``redact``) in the same decision as the mover,
  since the mover's previous decision: the mover's choice may be the one that reveals theirs;
- it ended the game (the end shows everything).

Only the last run of the seat's own consecutive decisions can be taken back: a move by another
seat after them stands (a server takes back its bots' replies first, with the same rule; see
docs/server.md). A history with another seat's hidden moves (a resampled state's) is no record to
replay: nothing can be taken back.

Taking back replays the history from the seed without those moves. They used no chance, so the
generator is where it was before them, and redoing a move shows exactly what it showed before.

A caller that asks again and again as a game goes on (a server, after each of a player's turns)
passes ``verdict`` a ``base``: an earlier state of the same game, such as the ``start`` of a
previous verdict. The replay then starts from a copy of it instead of the seed — the same moves
from the same state, so the same generator and the same verdict, in the time of the moves since.
"""

from __future__ import annotations

from dataclasses import dataclass

from candlebox.engine.errors import IllegalAction
from candlebox.engine.registry import game_info
from candlebox.engine.state import HIDDEN_ACTION, State, set_undoing

# The worlds dealt anew to see whether a move showed its mover something hidden. Fixed, so the
# verdict on a position is always the same; three make a reveal of even a two-way secret go unseen
# only when every world dealt it as it is.
RESAMPLE_SEEDS = (1, 2, 3)


@dataclass(frozen=True)
class Verdict:
    """How many of the seat's last decisions it may take back, why not one more, and the game
    without those decisions (None when there are none); ``start``: the game before the seat's last
    run of decisions (None when it made none), a ``base`` for later verdicts."""

    count: int
    reason: str
    without: State | None = None
    start: State | None = None


def fresh(state: State) -> State:
    """The game ``state`` plays, at its start: the same game, variant, players, seed and options."""
    info = game_info(state.game_id)
    return info.create(state.variant, state.num_players, state.seed, dict(state.options))


def own_run(history: list[tuple[int, str]], seat: int) -> int:
    """How many moves at the end of ``history`` are ``seat``'s, one after another."""
    run = 0
    for mover, _ in reversed(history):
        if mover != seat:
            break
        run += 1
    return run


def verdict(state: State, seat: int, base: State | None = None) -> Verdict:
    """How many of ``seat``'s last decisions it may take back now, why not more, and the game
    without them. ``base``: an earlier state of the same game to replay from (see :func:`usable`;
    one that is not is ignored and the game replayed from its seed)."""
    history = state.history
    run = own_run(history, seat)
    if run == 0:
        last = f"seat {history[-1][0]} moved last" if history else "no move has been made yet"
        return Verdict(0, f"seat {seat} has no decision to take back: {last}")
    if any(action == HIDDEN_ACTION for _, action in history):
        return Verdict(0, "this history hides other seats' moves: it cannot be replayed")
    if base is not None and not usable(base, state, seat):
        base = None
    steps = _replay_run(state, seat, run, base)
    count = 0
    reason = f"all of seat {seat}'s last {run} decisions can be taken back"
    for step in reversed(steps):
        if step.why is not None:
            reason = f"move {step.number + 1} ({history[step.number][1]!r}) {step.why}"
            break
        count += 1
    if count == run and run < len(history):
        reason = f"seat {history[-run - 1][0]} moved before that"
    without = steps[run - count].before if count else None
    return Verdict(count, reason, without, steps[0].before.clone())


def usable(base: State, state: State, seat: int) -> bool:
    """Whether ``verdict(state, seat)`` may replay from ``base``: the same game (game, variant,
    players, seed, options, content), its history a beginning of ``state``'s that ends no later
    than ``seat``'s previous decision before its last run (the replay learns from the moves
    after that decision whether another seat chose in secret alongside ``seat``)."""
    same = (base.game_id, base.variant, base.num_players, base.seed, base.options) == (
        state.game_id,
        state.variant,
        state.num_players,
        state.seed,
        state.options,
    )
    if not same or base.content_pack() != state.content_pack():
        return False
    history, length = state.history, len(base.history)
    start = len(history) - own_run(history, seat)
    previous = next((n for n in range(start - 1, -1, -1) if history[n][0] == seat), -1)
    return length <= previous + 1 and history[:length] == base.history


@dataclass(frozen=True)
class Step:
    """One move of the run as the replay saw it: its number in the history, the game before it,
    and what hidden or random thing it let out (None: nothing)."""

    number: int
    before: State
    why: str | None


def _replay_run(state: State, seat: int, run: int, base: State | None = None) -> list[Step]:
    """The game replayed from its seed (or from ``base``), and each move of the seat's last run as
    it was made."""
    history = state.history
    start = len(history) - run
    twin = fresh(state) if base is None else base.clone()
    together = False  # another seat chose in secret in a decision shared with ``seat``
    for mover, action in history[len(twin.history) : start]:
        together = _after(twin, mover, action, seat, together)
    steps: list[Step] = []
    for number in range(start, len(history)):
        mover, action = history[number]
        why = "follows another seat's secret choice in the same decision" if together else None
        before = twin.clone()
        drawn, logged = twin.rng.state, twin.event_count
        twin.apply_unchecked(mover, action)
        if why is None:
            why = _what_came_out(before, twin, mover, action, drawn, logged)
        together = False
        steps.append(Step(number, before, why))
    return steps


def _after(twin: State, mover: int, action: str, seat: int, together: bool) -> bool:
    """Apply one move of the replay; whether ``seat`` now follows another seat's secret choice
    made in a decision they shared (since ``seat``'s previous decision)."""
    kind = twin.move_kind(action)
    if mover != seat and kind is not None and kind.redact and seat in twin.to_act:
        together = True
    elif mover == seat:
        together = False
    twin.apply_unchecked(mover, action)
    return together


def _what_came_out(
    before: State, after: State, mover: int, action: str, drawn: int, logged: int
) -> str | None:
    """What hidden or random thing the move from ``before`` to ``after`` let out, in words; None
    when nothing did."""
    if after.rng.draws_since(drawn):
        return "used chance"
    viewers = [None, *range(after.num_players)]
    for event in after.events[logged:]:
        shown = [after._event_view(event, viewer) for viewer in viewers]
        if any(view != shown[0] for view in shown):
            return "showed something to some seats only"
    if after.is_over:
        return "ended the game"
    if _shows_hidden(before, after, mover, action, logged):
        return "showed something that was hidden"
    return None


def _shows_hidden(before: State, after: State, mover: int, action: str, logged: int) -> bool:
    """The move showed its mover something it could not see: in a world where what the mover
    cannot know is dealt anew, the same move shows it another view or log."""
    view, log = after.view(mover), after.log(mover, since=logged)
    for seed in RESAMPLE_SEEDS:
        world = before.resample(mover, seed)
        since = world.event_count
        try:
            world.apply(mover, action)
        except IllegalAction:
            return True
        if world.view(mover) != view or world.log(mover, since=since) != log:
            return True
    return False


def undoing(state: State, seat: int, count: int | None) -> int | State:
    """``State.undoable`` (count None) and ``State.undo`` (the state without ``count`` moves)."""
    found = verdict(state, seat)
    if count is None:
        return found.count
    if count > found.count:
        may = "nothing" if found.count == 0 else f"at most {found.count}"
        raise IllegalAction(
            f"seat {seat} cannot take back {count} decision{'s' * (count > 1)} now (it may take "
            f"back {may}): {found.reason}"
        )
    if count == found.count and found.without is not None:
        return found.without.clone()  # the caller owns it; the verdict's copy stays as it was
    return replayed(state, len(state.history) - count)


def replayed(state: State, moves: int) -> State:
    """The game ``state`` plays after only the first ``moves`` moves of its history."""
    twin = fresh(state)
    for mover, action in state.history[:moves]:
        twin.apply_unchecked(mover, action)
    return twin


set_undoing(undoing)
