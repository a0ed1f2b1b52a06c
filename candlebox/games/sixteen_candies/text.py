"""16 Candies in words: the log's sentences, plain strings shared by the terminal, the server and the
pages (the terminal colours the card codes through :class:`candlebox.engine.plugin.Marks`).
"""

from __future__ import annotations

from typing import Any

from candlebox.engine import game_info
from candlebox.engine.plugin import (
    PLAIN,
    EventSentence,
    GameText,
    Marks,
    code_text,
    events_in_words,
    game_over_sentence,
)
from candlebox.engine.state import State
from candlebox.games.sixteen_candies.decision import Phase
from candlebox.games.sixteen_candies.state import SixteenCandiesState
from candlebox.games.sixteen_candies.words import table

CANDIES: dict[str, str] = game_info("sixteen-candies").facts["candies"]


_c = code_text  # a code from an entry, marked (a dash when there is none)


# ----------------------------------------------------------------------------- the log
def _seat(entry: dict[str, Any], m: Marks = PLAIN) -> str:
    return m.seat(entry.get("seat"))  # type: ignore[arg-type]


def _draw(e: dict[str, Any], m: Marks) -> str:
    if e.get("source") == "discard":
        return f"{_seat(e, m)} takes {_c(m, e.get('card'))} from the discard pile"
    if "card" in e:
        return f"{_seat(e, m)} draws {_c(m, e.get('card'))}"
    return f"{_seat(e, m)} draws from the draw pile"


def counted(value: object, candy: object) -> str:
    """A hand's worth in words: "9 Chocolate"; one in the singular, as its half's own name says
    ("1 Gummy Bear", the words of the half G1), not "1 Gummy Bears"."""
    code = str(candy or "")
    if value == 1 and (entry := table().get(f"{code}1")) is not None:
        return entry.name
    return f"{value} {CANDIES.get(code, code)}"


def _reveal(e: dict[str, Any], m: Marks) -> str:
    tops = " ".join(_c(m, t) for t in e.get("tops", []))
    worth = counted(e.get("value"), e.get("candy"))
    return f"{_seat(e, m)} reveals {tops}: {m.literal(worth)}, penalty {e.get('penalty')}"


def _score(e: dict[str, Any], m: Marks) -> str:
    due = e.get("due", 0)
    role = {"caller": "the caller", "instant": "the instant winner", "other": ""}.get(
        e.get("role", ""), ""
    )
    rank = e.get("rank")
    who = f"{_seat(e, m)} ({', '.join(x for x in (role, str(rank)) if x)})"
    if due > 0:
        change = f"adds {due}"
    elif due < 0 and e.get("pool") == 0:  # a pool pays what it has (rulings SC-17)
        change = f"owes {-due} and pays all they have"
    elif due < 0:
        change = f"loses {-due}"
    else:
        change = "nothing happens"
    return f"{who}: {change} → {e.get('pool')} candy"


_game_over = game_over_sentence(
    {
        "last-candy": "only one player has candy left",
        "rounds": "the last round is played",
        "max-turns": "the turn limit is reached",
    }
)


LINES: dict[str, EventSentence] = {
    "round": lambda e, m: (
        m.strong(f"Round {e.get('round')}") + f": {m.seat(e['marker'])} holds the marker"
    ),
    "deal": lambda e, m: (
        f"{_seat(e, m)} is dealt {_c(m, e['card'])}"
        if "card" in e
        else f"{_seat(e, m)} is dealt a card"
    ),
    "flip": lambda e, m: f"{_c(m, e.get('card'))} starts the discard pile",
    "draw": _draw,
    "skip": lambda e, m: f"{_seat(e, m)} does not draw",
    "reshuffle": lambda e, m: (
        f"the discard pile is shuffled into a new draw pile of {e.get('count')}"
    ),
    "discard": lambda e, m: f"{_seat(e, m)} discards {_c(m, e.get('card'))}",
    "call": lambda e, m: m.strong(f'{_seat(e, m)}: "I\'ve got candy!"'),
    "end-turn": lambda e, m: m.faint(f"end of turn {e.get('turn')}"),
    "instant-win": lambda e, m: m.strong(f"{_seat(e, m)} wins the round instantly!"),
    "reveal": _reveal,
    "score": _score,
    "out": lambda e, m: m.strong(f"{_seat(e, m)} is out of candy"),
    "game-over": _game_over,
}


# One log entry as a sentence, e.g. 'seat 1 discards G6-K1'; None for an unknown event.
event_line = events_in_words(LINES)


# ----------------------------------------------------------------------------- labels and prompts
def _name(code: str) -> str:
    entry = table().get(code)
    return code if entry is None else entry.name


def card(code: str) -> str:
    """A card by its name: '6 Gummy Bears / 1 Chocolate'; the Wild as 'the Wild'. No code beside it:
    a learn option and the review showed "(G5-K2)", letters a player never learns (issue 36)."""
    return f"the {_name(code)}" if code == "W" else _name(code)


def orientation(hand: list[int], halves: list[str], wild: int) -> str:
    """Which half of each card of the hand (in hand order) is on top: "4 Gummy Bears, 6 Chocolate
    and the Wild card on top". The top halves say it all: no card has one half twice, so the half
    on top names the card's way up, and the hand names the cards (naming them too made each option
    forty words long, alike but for one, and a phone's hint strip showed only the first card)."""
    parts = [
        "the Wild card" if t == wild else _name(half) for t, half in zip(hand, halves, strict=True)
    ]
    listed = ", ".join(parts[:-1]) + " and " + parts[-1] if len(parts) > 1 else parts[0]
    return f"{listed} on top"


def label(state: State, seat: int, action: str) -> str:
    """A legal 16 Candies action in words."""
    assert isinstance(state, SixteenCandiesState)
    st = state
    verb, _, arg = action.partition(" ")
    if action == "draw pile":
        return "Draw the top card of the draw pile (unseen)"
    if action == "draw discard":
        return f"Take {card(st.content.code[st.discard[-1]])} from the top of the discard pile"
    if verb == "skip":
        return "Draw nothing this turn"
    if verb == "discard":
        return f"Discard {card(arg)}"
    if verb == "top":
        halves = arg.split(" ")
        rot = st.notation.rotations(st.hands[seat])
        bits = rot.bits[action]
        pen = st.content.half_penalty
        penalty = sum(pen[2 * t + o] for t, o in zip(st.hands[seat], bits, strict=True))
        win = " — an Instant Round Win" if rot.instant[action] else ""
        shown = orientation(st.hands[seat], halves, st.content.wild)
        return f"Hold {shown} (penalty {penalty}){win}"
    if verb == "call":
        return "Call \u201cI've got candy!\u201d: everyone else gets one last turn, then hands are shown"
    return "End your turn without calling"


_CALL_RISK = (
    "Call \u201cI've got candy!\u201d or end your turn. Calling ends the round after everyone "
    "else's last turn: with the highest hand (ties included) you gain 2 candy; with a middle hand "
    "you lose 1; with the lowest hand you lose your cards' penalty plus 1 — your penalty now is "
    "{penalty}. {tied}"
)
_ALL_TIED = {
    "caller-loses": "If every hand is equal, the call fails and you pay as the lowest.",
    "caller-wins": "If every hand is equal, you gain as the highest.",
}
# Two players in the round: no middle hand, and a tie is every hand equal (rulings SC-14, SC-15).
_CALL_RISK_TWO = (
    "Call \u201cI've got candy!\u201d or end your turn. Calling ends the round after your rival's "
    "last turn: with the higher hand you gain 2 candy; with the lower hand you lose your cards' "
    "penalty plus 1 — your penalty now is {penalty}. {tied}"
)
_TIED_TWO = {
    "caller-loses": "If the hands are equal, the call fails and you pay as the lower hand.",
    "caller-wins": "If the hands are equal, you gain as the higher hand.",
}


def prompt(state: State, seat: int | None) -> str:
    """The pending 16 Candies decision in words, as ``seat`` sees it."""
    assert isinstance(state, SixteenCandiesState)
    st = state
    if st.phase is Phase.OVER:
        return "The game is over."
    you = seat == st.actor
    other = f"Seat {st.actor}"
    if st.phase is Phase.SETUP:
        if you:
            return "Pick up your new hand and choose which half of each card is on top."
        return f"{other} is picking up their new hand and turning the cards."
    if st.phase is Phase.DRAW:
        return _draw_prompt(st) if you else f"{other} is drawing."
    if st.phase is Phase.DISCARD:
        return "Discard one of your four cards." if you else f"{other} is discarding a card."
    if st.phase is Phase.ROTATE:
        if you:
            return "Choose which half of each of the three cards you keep is on top."
        return f"{other} is turning their cards."
    if you:
        return _call_prompt(st, seat)
    return f"{other} is deciding whether to call \u201cI've got candy!\u201d."


def _draw_prompt(st: SixteenCandiesState) -> str:
    """The actor's draw: from the draw pile or the discard pile's top card."""
    top = card(st.content.code[st.discard[-1]]) if st.discard else "nothing"
    final = " (your last turn: someone has called)" if st.caller >= 0 else ""
    return f"Draw the top card of the draw pile, or take {top} from the discard pile{final}."


def _call_prompt(st: SixteenCandiesState, seat: int | None) -> str:
    """The actor's call or end of turn, with what a failed call would cost it now."""
    hand = st.hands[seat] if seat is not None else []
    ups = st.ups[seat] if seat is not None else []
    pen = st.content.half_penalty
    penalty = sum(pen[2 * t + o] for t, o in zip(hand, ups, strict=False))
    if sum(1 for pool in st.pools if pool) == 2:
        return _CALL_RISK_TWO.format(penalty=penalty, tied=_TIED_TWO[st.all_tied]).strip()
    return _CALL_RISK.format(penalty=penalty, tied=_ALL_TIED[st.all_tied]).strip()


HELP = {
    "": (
        "A turn: draw the top card of the draw pile or of the discard pile, discard one of your four "
        "cards, choose which half of each card you keep is on top, then call \u201cI've got candy!\u201d "
        "or end your turn. Orientations are typed as the top half of each card, e.g. "
        "'top G6 K3 W', in any order. A hand is worth the most candies of one kind on its top halves."
    ),
}
RULES = {
    "": (
        "16 Candies: each player holds three two-ended cards and a pool of 16 candies. On your turn "
        "draw, discard, and turn your cards so their top halves show as many of one candy as "
        "possible. Call \u201cI've got candy!\u201d when you think you beat someone: after everyone "
        "else's last turn, hands are shown; the caller gains or loses candy by how they rank, and the "
        "lowest hand pays its penalty. Showing 4, 5 and 6 of one candy wins the round at once. The "
        "last player with candy left wins."
    ),
}

TEXT = GameText(event=event_line, label=label, prompt=prompt, help=HELP, rules=RULES)
