"""Setup: the draw stack, the bank, 12 shekels each, and the start-player draw."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from candlebox.games.candle_quest.candles import Candles, Kind

if TYPE_CHECKING:
    from candlebox.games.candle_quest.state import CandleQuestState

STARTING_SHEKELS = 12
JUNIOR_REMOVED_FACE = 6  # the junior game removes the three Unlit candles of face value 6


def candles_in_play(content: Candles, junior: bool) -> tuple[list[int], list[int]]:
    """(candles shuffled into the stack, candles removed from the game before play)."""
    stack: list[int] = []
    removed: list[int] = []
    kind, face = content.kind, content.face
    for candle in content.candles.full_set:
        out = junior and kind[candle] is Kind.UNLIT and face[candle] == JUNIOR_REMOVED_FACE
        (removed if out else stack).append(candle)
    return stack, removed


def stack_from_deck(st: CandleQuestState, deck: list[str], pool: list[int]) -> list[int]:
    """The stack with ``deck`` on top (top first) and the remaining candles shuffled beneath."""
    wanted = []
    type_of, codes = st.content.type_of, st.content.code
    for code in deck:
        if code not in type_of:
            raise ValueError(f"deck: {code!r} is not a candle code (codes: {', '.join(codes)})")
        wanted.append(type_of[code])
    available = Counter(pool)
    too_many = Counter(wanted) - available
    if too_many:
        extra = ", ".join(f"{codes[c]}×{n}" for c, n in sorted(too_many.items()))
        raise ValueError(f"deck: more candles than the game has ({extra} too many)")
    rest = list((available - Counter(wanted)).elements())
    st.rng.shuffle(rest)
    return rest + wanted[::-1]  # the top of the stack is the end of the list


def start_player_draw(st: CandleQuestState) -> int:
    """Each player draws; the highest face value starts; tied players draw again; all go back."""
    contenders = list(range(st.num_players))
    drawn: list[int] = []
    while True:
        if len(st.stack) < len(contenders):  # only conceivable in a tiny custom set: start over
            st.stack.extend(drawn)
            drawn.clear()
            st.rng.shuffle(st.stack)
        faces = {}
        for seat in contenders:
            candle = st.stack.pop()
            drawn.append(candle)
            faces[seat] = st.content.face[candle]
            st.events.append(("start-draw", seat, st.content.code[candle]))
        best = max(faces.values())
        contenders = [seat for seat in contenders if faces[seat] == best]
        if len(contenders) == 1:
            break
    st.stack.extend(drawn)
    st.rng.shuffle(st.stack)
    return contenders[0]


def set_up(st: CandleQuestState, deck: list[str] | None, first_player: int | None) -> None:
    n = st.num_players
    pool, st.removed = candles_in_play(st.content, st.junior)
    total = st.options["bank"]
    if total < STARTING_SHEKELS * n:
        raise ValueError(f"option 'bank': {total} shekels cannot give {n} players 12 each")
    st.shekels = [STARTING_SHEKELS] * n
    st.bank = total - STARTING_SHEKELS * n
    if first_player is not None and first_player >= n:
        raise ValueError(f"option 'first_player': seat {first_player} is not in a {n}-player game")
    if deck is not None:
        st.stack = stack_from_deck(st, deck, pool)
        start = 0 if first_player is None else first_player
    else:
        st.stack = pool
        st.rng.shuffle(st.stack)
        start = start_player_draw(st) if first_player is None else first_player
    st.events.append(("start-player", start))
    st.active = st.actor = start
