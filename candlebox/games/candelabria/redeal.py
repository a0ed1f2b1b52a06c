"""The candle cards of a resampled state: a hidden history dealt anew that agrees with every event.

Re-dealing only the unknown slots of the hands and the Advanced deck (as resample once did) leaves the
others' ``draw``, ``keep`` and ``return`` events naming the real cards, and can deal a card where no
history puts it (a house candle everyone saw arrive in one hand dealt into another). Instead the card
flow is replayed from the setup, as ``seat`` saw it: every card nobody has shown it is a token, a
placeholder fixed only when an event it sees names the card (its own draw, a deploy, a maneuver);
whatever the others did in secret (which card an Inn returned, which card Nova Vita kept) is chosen at
random among the choices that fit what follows. The tokens left at the end are dealt the cards nobody
has placed, at random. The result is a history the seat cannot tell from the real one, its events
naming the cards of the new deal; it depends only on the seat's log, the public state and the seed.
"""

from __future__ import annotations

from bisect import bisect_right, insort
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING

from candlebox.engine import Rng
from candlebox.games.candelabria.decision import Phase

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState

ROLES = 3


@dataclass(frozen=True, slots=True)
class Redeal:
    """A consistent deal: the others' hands, the Advanced deck (top last), the aside cards and the
    rewritten events (event index -> event)."""

    hands: list[list[int]]
    advanced_deck: list[int]
    set_aside: list[int]
    events: dict[int, tuple]


class _Impossible(Exception):
    """The random choices so far lead to no history that fits the events: deal again."""


class RedealFailed(RuntimeError):
    """No deal of the candle cards fits what ``seat`` saw: a bug (the real history is one), never a
    reason to hand over the real cards."""

    def __init__(self, seat: int, event: int) -> None:
        super().__init__(
            f"no deal of the candle cards agrees with what seat {seat} saw "
            f"(every history tried stops by event {event})"
        )
        self.seat = seat
        self.event = event


def redeal(
    st: CandelabriaState, seat: int, rng: Rng, attempts: int = 64, budget: int = 256
) -> Redeal:
    """A random consistent deal of what ``seat`` cannot know about the candle cards.

    The secret choices are drawn among those that fit what follows (the cards each seat shows later
    and the cards the seat draws, wherever they are now and whatever route through the deck can bring
    them there); a dead end the look-ahead misses deals again (measured: about 1 replay in 1,400,
    against 1 in 100 when the look-ahead saw only each seat's own shows). After ``attempts`` dead
    ends a depth-first search tries the choices in a fixed order, backing up from each dead end, for
    at most ``budget`` replays. The look-ahead never refuses a choice the real history made (tests
    check it), so the search finds a deal; should it not, :class:`RedealFailed` says so rather than
    hand over the real cards. Everything here reads only what the seat may know, and the seed.
    """
    facts = _Facts(st, seat)
    deepest = 0
    for _ in range(attempts):
        replay = _Replay(st, seat, rng, facts)
        try:
            return replay.run()
        except _Impossible:
            deepest = max(deepest, replay.at)
    if not _told(st):
        return _shuffled(st, seat, rng)
    path: list[int] = []
    for _ in range(budget):
        replay = _Replay(st, seat, rng, facts, path=path)
        try:
            return replay.run()
        except _Impossible:
            deepest = max(deepest, replay.at)
        picks = path + [0] * (len(replay.widths) - len(path))
        back = len(replay.widths) - 1
        while back >= 0 and picks[back] + 1 >= replay.widths[back]:
            back -= 1
        if back < 0:
            break
        path = [*picks[:back], picks[back] + 1]
    raise RedealFailed(seat, deepest)


def _told(st: CandelabriaState) -> bool:
    """Whether the events, read with the cards they really name, bring the cards where they are: not
    so in a position made by hand (a test's, an edited save's), whose hands were set, not dealt."""
    told = _CardsTold(st)
    for k, event in enumerate(st.events):
        if not told.follow(k, event):
            return False
    return (
        all(+told.hands[s] == Counter(hand) for s, hand in enumerate(st.hands))
        and +told.deck == Counter(st.advanced_deck)
        and +told.aside == Counter(st.set_aside)
    )


def _move(source: Counter[int], card: int, target: Counter[int] | None) -> bool:
    """``card`` moved from ``source`` to ``target`` (None: out of the counts), if it is there."""
    if source[card] <= 0:
        return False
    source[card] -= 1
    if target is not None:
        target[card] += 1
    return True


class _CardsTold:
    """Where the events so far, read with the cards they really name, put the candle cards: the
    hands, the Advanced deck, the cards set aside, and each seat's deployed and maneuvered cards."""

    def __init__(self, st: CandelabriaState) -> None:
        content = st.content
        self.index = {card.code: i for i, card in enumerate(content.candles)}
        self.hands = [
            Counter(content.house_candles[st.house_of[s]][1]) for s in range(st.num_players)
        ]
        self.deck = Counter(content.advanced)
        self.aside: Counter[int] = Counter()
        self.sealed: list[list[int]] = [[] for _ in self.hands]
        self.maneuvered: list[list[int]] = [[] for _ in self.hands]
        self.to_aside = _aside_draws(st)

    def follow(self, k: int, event: tuple) -> bool:
        """Event ``k`` followed: false when a card it moves is not where it comes from."""
        kind = event[0]
        if kind == "epilogue":
            self.epilogue()
            return True
        if kind not in ("draw", "keep", "return", "deploy", "maneuver", "house-candle"):
            return True
        card, who = self.index[event[2]], event[1]
        hands = self.hands
        if kind == "draw":
            return _move(self.deck, card, self.aside if k in self.to_aside else hands[who])
        if kind == "keep":
            return _move(self.aside, card, hands[who]) and all(
                _move(self.aside, self.index[code], self.deck) for code in event[3]
            )
        if kind == "return":
            return _move(hands[who], card, self.deck)
        if kind == "house-candle":
            hands[event[3]][card] += 1
            return True
        moved = _move(hands[who], card, None)
        (self.sealed if kind == "deploy" else self.maneuvered)[who].append(card)
        return moved

    def epilogue(self) -> None:
        """The deployed cards go to the Advanced deck, the maneuvered ones back to the hands."""
        for s in range(len(self.hands)):
            self.deck.update(self.sealed[s])
            self.hands[s].update(self.maneuvered[s])
            self.sealed[s], self.maneuvered[s] = [], []


def _shuffled(st: CandelabriaState, seat: int, rng: Rng) -> Redeal:
    """A position made by hand has no history to follow: the cards ``seat`` cannot place (the
    others' hands beyond what everyone saw arrive, the deck's places it does not know, cards set
    aside for another's choice) are shuffled among those places."""
    hands = [list(hand) for hand in st.hands]
    places: list[tuple[list[int], int]] = []
    for other, hand in enumerate(hands):
        if other != seat:
            known = Counter(st.known_hands[other])
            for i, card in enumerate(hand):
                if known[card] > 0:
                    known[card] -= 1
                else:
                    places.append((hand, i))
    deck = list(st.advanced_deck)
    places += [(deck, i) for i, mark in enumerate(st.advanced_known_by) if mark not in (seat, -2)]
    aside = list(st.set_aside)
    frame = st.stack[-1] if st.stack else []
    if not (frame and frame[0] == Phase.KEEP and frame[1] == seat):
        places += [(aside, i) for i in range(len(aside))]
    cards = sorted(where[i] for where, i in places)  # the real order is no clue
    rng.shuffle(cards)
    for (where, i), card in zip(places, cards, strict=True):
        where[i] = card
    return Redeal(hands=hands, advanced_deck=deck, set_aside=aside, events={})


class _Facts:
    """What every replay of one resample shares: read from the events once."""

    def __init__(self, st: CandelabriaState, seat: int) -> None:
        events = st.events
        self.events = events
        self.seat = seat
        self.players = st.num_players
        self.index = {card.code: i for i, card in enumerate(st.content.candles)}
        self.to_aside = _aside_draws(st)
        self.seen, self.taken = _places(st, seat, self.index)
        self.steps = _steps(st, self.to_aside, self.index)
        self.draws: list[int] = []
        # The keep and return events (where a secret choice may move a card), in order; a keep's
        # count of cards put under the deck; the keep each draw set aside for Nova Vita ends in.
        self.transfers: list[int] = []
        self.bottomed: dict[int, int] = {}
        self.keep_of: dict[int, int] = {}
        self.aside_of: dict[int, list[int]] = {}  # a keep -> the draws it chose among
        # Where each card must be next, by event: the deploys and maneuvers that show it (in the
        # hand of their seat) and the seat's own draws of it (at that place in the deck).
        self.targets: dict[int, list[int]] = {}
        self._read_events()
        self.draw_rank = {d: i for i, d in enumerate(self.draws)}
        # The draws that take a place the seat itself filled: it knows the card they bring.
        self.known_draws: dict[int, int] = {}
        for (k, j), d in self.taken.items():
            event = events[k]
            if event[1] == seat:
                code = event[2] if event[0] == "return" else event[3][j]
                self.known_draws[d] = self.index[code]
        self.shows: dict[tuple[int, int], list[int]] = {}  # (seat, card) -> its shows, in order
        self.gains: list[list[int]] = []  # seat -> the events it draws or keeps an unseen card
        for who, steps in enumerate(self.steps):
            self.gains.append([k for k, kind, _ in steps if kind == _GAIN_TOKEN])
            for k, kind, card in steps:
                if kind == _SHOW:
                    self.shows.setdefault((who, card), []).append(k)
        self.reaches: dict[int, _Reach] = {}

    def _read_events(self) -> None:
        """The draws, the transfers (keeps and returns) and the targets, from the events in order."""
        events, seat, index = self.events, self.seat, self.index
        pending: dict[int, list[int]] = {}  # a seat -> its draws set aside, not yet kept
        for k, event in enumerate(events):
            kind = event[0]
            if kind == "draw":
                self.draws.append(k)
                if k in self.to_aside:
                    pending.setdefault(event[1], []).append(k)
                if event[1] == seat:
                    self.targets.setdefault(index[event[2]], []).append(k)
            elif kind == "deploy" or kind == "maneuver":
                self.targets.setdefault(index[event[2]], []).append(k)
            elif kind == "keep":
                self._keep(k, event, pending.pop(event[1], []))
            elif kind == "return":
                self._return(k, event)

    def _keep(self, k: int, event: tuple, aside: list[int]) -> None:
        """A keep: a transfer, with its count put under the deck and the draws it chose among."""
        events = self.events
        self.transfers.append(k)
        after = events[k + 1] if k + 1 < len(events) else ()
        bottom = after[:1] == ("bottom",) and after[1] == event[1]
        self.bottomed[k] = after[2] if bottom else 0
        self.aside_of[k] = aside
        for d in aside:
            self.keep_of[d] = k

    def _return(self, k: int, event: tuple) -> None:
        """A return: a transfer. A card another seat returns where the seat later draws it is shown
        then, to the seat: it must be in that hand (or a token that can be it) as surely as a card
        it deploys. Its other returns take one item from the hand, any: a card it never shows again
        if it has one, a token if each card it has is shown before it could draw it back (else the
        count cannot tell which, and lets it pass)."""
        self.transfers.append(k)
        if event[1] != self.seat:
            card = self.seen.get((k, 0), -1)
            step = (k, _SHOW, card) if card >= 0 else (k, _RETURN, -1)
            insort(self.steps[event[1]], step)

    def reach(self, target: int) -> _Reach:
        found = self.reaches.get(target)
        if found is None:
            found = self.reaches[target] = _Reach(self, target)
        return found

    def next_target(self, card: int, now: int) -> int:
        """The first event after ``now`` that needs ``card`` somewhere, or -1."""
        targets = self.targets.get(card)
        if not targets:
            return -1
        at = bisect_right(targets, now)
        return targets[at] if at < len(targets) else -1


class _Reach:
    """From where a card can still get to the place an event needs it (a deploy or maneuver: its
    seat's hand; the seat's own draw: that place in the deck), through the public flow of places:
    a hand's returns go under the deck, each place under the deck is taken by a known later draw,
    a Nova Vita draw ends kept or under the deck again. Computed backwards from the event, once.
    Routes through the seat's own choices must be the cards its events name."""

    def __init__(self, facts: _Facts, target: int) -> None:
        self.facts = facts
        self.target = target
        event = facts.events[target]
        self.code = event[2]
        self.see = event[0] == "draw"
        # latest[s]: the last event before which a card in s's hand can still get there (-1: never)
        self.latest = [-1] * facts.players
        if not self.see:
            self.latest[event[1]] = target
        self.kept: dict[int, bool] = {}  # keep event -> whether a card in its aside can get there
        seat, events, taken = facts.seat, facts.events, facts.taken
        for k in reversed(facts.transfers[: bisect_right(facts.transfers, target)]):
            kind, who = events[k][0], events[k][1]
            if kind == "keep":
                if who == seat:
                    kept, others = events[k][2], events[k][3]
                    self.kept[k] = (kept == self.code and k < self.latest[who]) or any(
                        code == self.code and self.drawn(taken.get((k, j), -1))
                        for j, code in enumerate(others)
                    )
                else:
                    self.kept[k] = k < self.latest[who] or any(
                        self.drawn(taken.get((k, j), -1)) for j in range(facts.bottomed[k])
                    )
            elif (who != seat or events[k][2] == self.code) and self.drawn(taken.get((k, 0), -1)):
                self.latest[who] = max(self.latest[who], k)

    def drawn(self, d: int) -> bool:
        """Whether a card the draw at event ``d`` takes can get there."""
        if d < 0 or d > self.target:
            return False
        if d == self.target:
            return self.see
        facts = self.facts
        event = facts.events[d]
        if event[1] == facts.seat and event[2] != self.code:
            return False
        keep = facts.keep_of.get(d)
        if keep is not None:
            return self.kept.get(keep, False)
        if d in facts.to_aside:  # a Nova Vita choice still pending
            return False
        return d < self.latest[event[1]]

    def held(self, who: int, now: int) -> bool:
        """Whether a card in ``who``'s hand after event ``now`` can get there."""
        return self.latest[who] > now


class _Replay:
    """One pass over the events, keeping items (a card id >= 0, or a token < 0) where the cards are.

    Random (``path`` None): each secret choice drawn among those that fit. Searching (``path`` a
    list): the ``i``-th choice takes the ``path[i]``-th choice that fits (the first past the path),
    and ``widths`` records how many fit, so that a dead end can back up to the last choice left."""

    def __init__(
        self,
        st: CandelabriaState,
        seat: int,
        rng: Rng,
        facts: _Facts,
        path: list[int] | None = None,
    ) -> None:
        self.st = st
        self.seat = seat
        self.rng = rng
        self.path = path
        self.widths: list[int] = []
        self.at = 0  # the event being replayed (where a dead end is met)
        content = st.content
        self.facts = facts
        self.index = facts.index
        n = st.num_players
        self.hands = [list(content.house_candles[st.house_of[s]][1]) for s in range(n)]
        tokens = len(content.advanced)
        self.deck = [-1 - k for k in range(tokens)]  # the Advanced deck, top last
        self.free = set(content.advanced)  # the cards no item is known to be yet
        self.value: dict[int, int] = {}  # token -> the card it turned out to be
        self.set_aside: list[int] = []
        self.seal_cards = [[-1] * ROLES for _ in range(n)]
        self.maneuvered: list[list[int]] = [[] for _ in range(n)]
        self.order = list(range(n))
        self.named: dict[int, tuple] = {}  # event index -> the items a hidden event moved
        self.to_aside = facts.to_aside
        self.steps = facts.steps
        self.seen = facts.seen

    # ------------------------------------------------------------------ items
    def fix(self, item: int, card: int) -> int:
        """The item seen to be ``card``: a token turns into it, a card must be it."""
        if item >= 0:
            if item != card:
                raise _Impossible
            return card
        if item in self.value:
            if self.value[item] != card:
                raise _Impossible
            return card
        if card not in self.free:
            raise _Impossible
        self.free.discard(card)
        self.value[item] = card
        return card

    def card_of(self, item: int) -> int:
        """The card an item is known to be, or -1."""
        return item if item >= 0 else self.value.get(item, -1)

    def take(self, owner: int, card: int) -> None:
        """``owner`` shows ``card`` from its hand: it is there, or one of its tokens is it. Tokens
        not yet fixed in one hand are alike (same place, same future): the first one does."""
        hand = self.hands[owner]
        if card in hand:
            hand.remove(card)
            return
        if card not in self.free:
            raise _Impossible
        for i, item in enumerate(hand):
            if item < 0 and item not in self.value:
                self.fix(item, card)
                del hand[i]
                return
        raise _Impossible

    def draw_at(self, i: int, now: int) -> int:
        """The draw event that will take the deck's ``i``-th item (top last) after event ``now``,
        or -1 if none will: draws take the top, returns go under the bottom."""
        draws = self.facts.draws
        at = bisect_right(draws, now) + len(self.deck) - 1 - i
        return draws[at] if at < len(draws) else -1

    def can_reach(self, card: int, target: int, now: int) -> bool:
        """Whether the known ``card``, wherever it is after event ``now``, can get to ``target``.
        A card set aside, deployed or maneuvered is let pass (its way on is public)."""
        reach = self.facts.reach(target)
        for who, hand in enumerate(self.hands):
            if card in hand:
                return reach.held(who, now)
        if card in self.deck:
            return reach.drawn(self.draw_at(self.deck.index(card), now))
        return True

    def fits(self, owner: int, k: int) -> bool:
        """Whether ``owner``, left with its hand after its secret choice at event ``k``, can still
        show every card it shows later: one in hand, or a token it holds then that can be that card
        (one nobody has placed, or one that can still get to its hand in time). Its later draws count
        as tokens and its later secret choices as giving nothing away (they are checked in their
        turn)."""
        cards, tokens = self.holding(owner)
        steps = self.steps[owner]
        drawn = bisect_right(self.facts.draws, k)  # the rank of the next draw
        back: dict[int, int] = {}  # a later draw -> the known card a later return puts there
        for at in range(bisect_right(steps, (k, _RETURN, 1 << 30)), len(steps)):
            e, kind, card = steps[at]
            if kind == _RETURN:
                tokens = self.give_back(owner, e, cards, tokens, back)
            elif kind == _GAIN_TOKEN:
                known = self.gained(owner, e, drawn, back)
                if known >= 0:
                    cards[known] += 1
                else:
                    tokens += 1
            elif kind == _GAIN_CARD:
                cards[card] += 1
            elif cards[card] > 0:
                cards[card] -= 1
            elif tokens > 0 and self.may_become(card, e, k):
                tokens -= 1  # a token it holds turns out to be that card, or a draw brings it
            else:
                return False
            if tokens < 0:
                return False
        return True

    def holding(self, owner: int) -> tuple[Counter[int], int]:
        """``owner``'s hand: the cards known in it (tokens with a value count as their card), and
        how many tokens are left."""
        tokens = 0
        cards: Counter[int] = Counter()
        for item in self.hands[owner]:
            card = item if item >= 0 else self.value.get(item, -1)
            if card >= 0:
                cards[card] += 1
            else:
                tokens += 1
        return cards, tokens

    def give_back(
        self, owner: int, e: int, cards: Counter[int], tokens: int, back: dict[int, int]
    ) -> int:
        """A later return, at event ``e``, of an item ``owner`` need not show again: a card if it
        has one, else a token unless every card it holds is pinned. The tokens it then holds, or
        -1 when it has none to give."""
        idle = [c for c, m in cards.items() if m > 0 and not self.shown_after(owner, c, e)]
        if idle:
            cards[idle[0]] -= 1
            if tokens == 0 and len(+cards) == 0:
                # The only choice: should it draw that place again, that card comes back.
                # (With another choice it could return a token now and the card later.)
                back[self.facts.taken.get((e, 0), -1)] = idle[0]
            return tokens
        if all(self.pinned(owner, c, e) for c, m in cards.items() if m > 0):
            return tokens - 1
        return tokens

    def gained(self, owner: int, e: int, drawn: int, back: dict[int, int]) -> int:
        """The known card a later draw (or Nova Vita keep) at event ``e`` brings ``owner``, or -1
        for a token. A draw of a place already in the deck brings the item there now (draws take
        the top, returns go under the bottom): a known card is no token. A Nova Vita keep of known
        cards only, none of which it shows again, brings nothing it needs."""
        facts, deck, value = self.facts, self.deck, self.value
        size = len(deck) - 1
        places = facts.aside_of.get(e) or [e]
        known = []
        for d in places:
            top = size - (facts.draw_rank[d] - drawn)
            if 0 <= top < size + 1:
                card = deck[top]
                card = card if card >= 0 else value.get(card, -1)
            else:
                card = back.get(d, facts.known_draws.get(d, -1))
            if card >= 0:
                known.append(card)
        if len(known) == len(places) and (
            len(places) == 1 or not any(self.shown_after(owner, c, e) for c in known)
        ):
            return known[0]
        return -1

    def may_become(self, card: int, e: int, k: int) -> bool:
        """Whether a token can turn out to be ``card``, shown at event ``e``: one nobody has placed,
        one shown elsewhere first (let pass), or one that can get there from where it is after
        ``k``."""
        return (
            card in self.free or self.facts.next_target(card, k) != e or self.can_reach(card, e, k)
        )

    def shown_after(self, owner: int, card: int, now: int) -> bool:
        shows = self.facts.shows.get((owner, card))
        return shows is not None and shows[-1] > now

    def pinned(self, owner: int, card: int, now: int) -> bool:
        """Whether ``owner`` must keep ``card`` past event ``now``: it shows it before it draws again
        (nothing could bring it back in time)."""
        shows = self.facts.shows[(owner, card)]
        show = shows[bisect_right(shows, now)]
        gains = self.facts.gains[owner]
        at = bisect_right(gains, now)
        return at == len(gains) or gains[at] > show

    def sound(self, k: int, holder: int, bottom: list[int]) -> bool:
        """Whether the secret choice at event ``k`` (applied: ``holder``'s hand as it leaves it,
        ``bottom`` just put under the deck, in that order) can still lead to the events that follow:
        each known card it keeps or puts back can still get to where it is needed next (whoever
        needs it), the seat's draws from those places can be what it drew, ``holder`` can show
        what it shows."""
        if not self.sightings_fit(k, bottom):
            return False
        facts = self.facts
        for item in self.hands[holder]:
            card = self.card_of(item)
            if card >= 0:
                target = facts.next_target(card, k)
                if target >= 0 and not facts.reach(target).held(holder, k):
                    return False
        drawers = {holder}
        for j, item in enumerate(bottom):
            card = self.card_of(item)
            if card >= 0:
                target = facts.next_target(card, k)
                d = self.draw_at(len(bottom) - 1 - j, k)
                if target >= 0 and not facts.reach(target).drawn(d):
                    return False
                if d >= 0:
                    drawers.add(facts.events[d][1])  # it will draw a known card, no token
        drawers.discard(self.seat)
        return all(self.fits(who, k) for who in drawers)

    def sightings_fit(self, k: int, bottom: list[int]) -> bool:
        """Whether the items a secret choice at event ``k`` puts under the deck, in that order, can be
        the cards the seat later draws from those places (the deck's order is public, so which later
        draw meets which returned card is known; only the seat's own draws show the card)."""
        for j, item in enumerate(bottom):
            card = self.seen.get((k, j))
            if card is None:
                continue
            if item >= 0 and item != card:
                return False
            if item < 0 and (item in self.value or card not in self.free):
                return False
        return True

    def choose(self, choices: list[int]) -> int:
        if not choices:
            raise _Impossible
        if self.path is None:
            return self.rng.choice(choices)
        i = len(self.widths)
        self.widths.append(len(choices))
        return choices[self.path[i] if i < len(self.path) else 0]

    # ------------------------------------------------------------------ the replay
    def run(self) -> Redeal:
        st = self.st
        for k, event in enumerate(st.events):
            self.at = k
            kind = event[0]
            if kind == "setup":
                self.order = list(event[3])
            elif kind == "order":
                self.order = list(event[1])
            elif kind == "draw":
                self.draw(k, event)
            elif kind == "keep":
                self.keep(k, event)
            elif kind == "return":
                self.put_back(k, event)
            elif kind == "deploy":
                card = self.index[event[2]]
                self.take(event[1], card)
                self.seal_cards[event[1]][event[3]] = card
            elif kind == "maneuver":
                card = self.index[event[2]]
                self.take(event[1], card)
                self.maneuvered[event[1]].append(card)
            elif kind == "house-candle":
                self.hands[event[3]].append(self.index[event[2]])
            elif kind == "epilogue":
                for s in self.order:
                    for role in range(ROLES):
                        if self.seal_cards[s][role] >= 0:
                            self.deck.insert(0, self.seal_cards[s][role])
                            self.seal_cards[s][role] = -1
                for s in self.order:
                    self.hands[s] += self.maneuvered[s]
                    self.maneuvered[s] = []
        self.at = len(st.events)
        return self.finish()

    def draw(self, k: int, event: tuple) -> None:
        drawer = event[1]
        if not self.deck:
            raise _Impossible
        item = self.deck.pop()
        if drawer == self.seat:
            item = self.fix(item, self.index[event[2]])
        else:
            self.named[k] = (item,)
        (self.set_aside if k in self.to_aside else self.hands[drawer]).append(item)

    def keep(self, k: int, event: tuple) -> None:
        keeper = event[1]
        aside = self.set_aside
        if not aside:
            raise _Impossible
        hand, deck = self.hands[keeper], self.deck
        if keeper == self.seat:
            card = self.index[event[2]]
            if card not in aside:
                raise _Impossible
            i = aside.index(card)
        else:
            choices = []
            for j in range(len(aside)):  # try each choice in place, then undo it
                others = aside[:j] + aside[j + 1 :]
                hand.append(aside[j])
                deck[:0] = others[::-1]
                if self.sound(k, keeper, others):
                    choices.append(j)
                del deck[: len(others)]
                hand.pop()
            i = self.choose(choices)
        kept = aside[i]
        others = aside[:i] + aside[i + 1 :]
        self.set_aside = []
        hand.append(kept)
        for item in others:
            deck.insert(0, item)
        if keeper != self.seat:
            self.named[k] = (kept, *others)

    def put_back(self, k: int, event: tuple) -> None:
        owner = event[1]
        hand = self.hands[owner]
        if owner == self.seat:
            card = self.index[event[2]]
            if card not in hand:
                raise _Impossible
            i = hand.index(card)
        else:
            choices = []
            token = None  # the verdict on one token not yet fixed holds for all (they are alike)
            for j in range(len(hand)):  # try each choice in place, then undo it
                item = hand[j]
                alike = item < 0 and item not in self.value
                if alike and token is not None:
                    ok = token
                else:
                    del hand[j]
                    self.deck.insert(0, item)
                    ok = self.sound(k, owner, [item])
                    del self.deck[0]
                    hand.insert(j, item)
                    if alike:
                        token = ok
                if ok:
                    choices.append(j)
            i = self.choose(choices)
            self.named[k] = (hand[i],)
        self.deck.insert(0, hand.pop(i))

    def finish(self) -> Redeal:
        st, seat = self.st, self.seat
        self.check_public()
        for i, mark in enumerate(st.advanced_known_by):
            if mark in (seat, -2):  # the deck cards the seat knows are where it knows
                self.deck[i] = self.fix(self.deck[i], st.advanced_deck[i])
        for other, hand in enumerate(self.hands):
            if Counter(st.known_hands[other]) - Counter(hand):
                raise _Impossible
        self.value_tokens()
        hands = [
            list(st.hands[s]) if s == seat else [self.final(item) for item in hand]
            for s, hand in enumerate(self.hands)
        ]
        return Redeal(
            hands=hands,
            advanced_deck=[self.final(item) for item in self.deck],
            set_aside=[self.final(item) for item in self.set_aside],
            events=self.named_events(),
        )

    def check_public(self) -> None:
        """What the replay cannot have changed: the public places and sizes, the seat's own hand."""
        st, seat = self.st, self.seat
        if self.seal_cards != st.seal_cards or self.maneuvered != st.maneuvered:
            raise _Impossible  # pragma: no cover - public: the replay follows them exactly
        if Counter(self.hands[seat]) != Counter(st.hands[seat]):
            raise _Impossible  # pragma: no cover - the seat's own hand is known to it
        if len(self.deck) != len(st.advanced_deck) or len(self.set_aside) != len(st.set_aside):
            raise _Impossible  # pragma: no cover - sizes are public

    def value_tokens(self) -> None:
        """The tokens left get the cards nobody has placed, in an order that depends on the replay
        only."""
        left = sorted(self.free)
        self.rng.shuffle(left)
        places = [item for hand in self.hands for item in hand if item < 0]
        places += [item for item in self.deck + self.set_aside if item < 0]
        if len(places) != len(left):
            raise _Impossible  # pragma: no cover - every token stands for one unplaced card
        for item, card in zip(places, left, strict=True):
            self.value[item] = card

    def final(self, item: int) -> int:
        """The card an item is once every token has its value."""
        return item if item >= 0 else self.value[item]

    def named_events(self) -> dict[int, tuple]:
        """The events the replay dealt anew, naming the cards they deal now."""
        st = self.st
        codes = st.content.candles
        events: dict[int, tuple] = {}
        for k, items in self.named.items():
            kind, who = st.events[k][0], st.events[k][1]
            cards = [codes[self.final(item)].code for item in items]
            if kind == "keep":
                events[k] = (kind, who, cards[0], tuple(cards[1:]))
            else:
                events[k] = (kind, who, cards[0])
        return events


def _aside_draws(st: CandelabriaState) -> set[int]:
    """The indices of the draws that went aside for Nova Vita's choice (each draw is three, keep one):
    the draws of the keeper just before its ``keep`` (one plus the public count put under the deck),
    and those of a choice still pending."""
    events = st.events
    result: set[int] = set()
    pending: dict[int, list[int]] = {}
    for k, event in enumerate(events):
        if event[0] == "draw":
            pending.setdefault(event[1], []).append(k)
        elif event[0] == "keep":
            keeper = event[1]
            after = events[k + 1] if k + 1 < len(events) else ()
            count = 1 + (after[2] if after[:1] == ("bottom",) and after[1] == keeper else 0)
            result.update(pending.get(keeper, [])[-count:])
            pending[keeper] = []
    frame = st.stack[-1]
    if frame[0] == Phase.KEEP and st.set_aside:
        result.update(pending.get(frame[1], [])[-len(st.set_aside) :])
    return result


def _places(
    st: CandelabriaState, seat: int, index: dict[str, int]
) -> tuple[dict[tuple[int, int], int], dict[tuple[int, int], int]]:
    """Where the cards put under the deck in secret went, by the place they were put (the event that
    put them, the rank among the cards it put): the cards ``seat`` drew from those places, and the
    draw event that took each place. Found by following the deck's places (public: draws take the
    top, cards go under the bottom) without their cards."""
    places: list[tuple[int, int]] = [(-1, -1)] * len(st.content.advanced)  # top last
    deployed = 0
    seen: dict[tuple[int, int], int] = {}
    taken: dict[tuple[int, int], int] = {}
    events = st.events
    for k, event in enumerate(events):
        kind = event[0]
        if kind == "draw":
            place = places.pop()
            if place[0] >= 0:
                taken[place] = k
                if event[1] == seat:
                    seen[place] = index[event[2]]
        elif kind == "keep":
            after = events[k + 1] if k + 1 < len(events) else ()
            count = after[2] if after[:1] == ("bottom",) and after[1] == event[1] else 0
            for j in range(count):
                places.insert(0, (k, j))
        elif kind == "return":
            places.insert(0, (k, 0))
        elif kind == "deploy":
            deployed += 1
        elif kind == "epilogue":  # the deployed cards, face up: nobody's secret
            places[:0] = [(-1, -1)] * deployed
            deployed = 0
    return seen, taken


_GAIN_TOKEN, _GAIN_CARD, _SHOW, _RETURN = 0, 1, 2, 3


def _steps(
    st: CandelabriaState, to_aside: set[int], index: dict[str, int]
) -> list[list[tuple[int, int, int]]]:
    """For each seat, in order, (event index, what, card) of what its hand goes through: cards it
    draws unseen (a token each, a Nova Vita keep too), cards it receives face up, cards it shows
    (deploy, maneuver). A secret choice must leave it able to show the later ones."""
    n = st.num_players
    steps: list[list[tuple[int, int, int]]] = [[] for _ in range(n)]  # (event, kind, card)
    maneuvered: list[list[int]] = [[] for _ in range(n)]
    for k, event in enumerate(st.events):
        kind = event[0]
        if (kind == "draw" and k not in to_aside) or kind == "keep":
            steps[event[1]].append((k, _GAIN_TOKEN, -1))
        elif kind == "house-candle":
            steps[event[3]].append((k, _GAIN_CARD, index[event[2]]))
        elif kind in ("deploy", "maneuver"):
            steps[event[1]].append((k, _SHOW, index[event[2]]))
            if kind == "maneuver":
                maneuvered[event[1]].append(index[event[2]])
        elif kind == "epilogue":
            for seat in range(n):
                steps[seat] += [(k, _GAIN_CARD, card) for card in maneuvered[seat]]
                maneuvered[seat] = []
    return steps
