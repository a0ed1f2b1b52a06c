"""War Season: Preparation (curses granted and deployed), Resolution (a battle per region at war) and
Epilogue; then the next year, or the end of the game.

Preparation: "Take all Tactic Cards ... into your hand. Flip the War Board ... Grant control of Curses
starting with the resolution of the leftmost one." The tactic cards a house owns are its hand (public,
rulings CA-40). Each curse goes to the most flames in front of it (ties: turn order); every flame in
front of it goes back to its owner; the winner places it on a territory at war where it has a unit (not
in a region whose top temple is Black), and its effect resolves at once (rulings CA-W4, CA-W5).

Resolution: the regions at war one by one, from the one after the first curse's region, ascending,
wrapping round. Participants: every house with a miniature there (a curse it controls included, CA-W6).
Alone: it wins. Otherwise each participant chooses 0–2 tactic cards in secret — every participant yet to
choose is in ``to_act`` together; a choice is stored apart from the public hand and logged as "chose"
with no content, so no view or log shows it (nor how many cards) until all have chosen (CA-W7). Reveal;
cancelling in turn order, one card for one, by a shared icon (the cannot-cancel mark respected);
resolution in turn order (cards in slot order, then the uncovered War Board slots), every effect in the
contested region; combat power; the winner scores 4/8/12 VP (x2 with its double-VP curse against an
opponent) and moves to the last place of the turn order (CA-W3; option ``battle_shift="none"``: it
stays). Each tactic card is logged (``resolve``) when its turn to resolve comes, its effects after it.

Epilogue: the eight printed steps; then Mist of the next year, or the end of the game after Year 3.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from candlebox.games.candelabria import decay, extinguished, missions
from candlebox.games.candelabria.decision import Auto, Phase
from candlebox.games.candelabria.effects import gain_vp, push_effect
from candlebox.games.candelabria.marks import (
    BATTLES,
    CANDLES,
    CURSE_BOARD,
    CURSE_MODELS,
    ORDER,
    SECRETS,
    TACTICS,
    UPGRADE_PILES,
    UPGRADES,
    all_moved,
    moved,
)
from candlebox.games.candelabria.notation import PASS, Verb
from candlebox.games.candelabria.pieces import land_flame_to_supply, lift_land_flame
from candlebox.games.candelabria.schema import BLACK, GREY, VP, WHITE
from candlebox.games.candelabria.scoring import end_game, final_vp
from candlebox.games.candelabria.state import WIRING
from candlebox.games.candelabria.temples import place_temple
from candlebox.games.candelabria.territory import UPGRADE_SLOTS, to_bottom
from candlebox.games.candelabria.two_player import spend_tactic
from candlebox.games.candelabria.upgrades import total

if TYPE_CHECKING:
    from candlebox.games.candelabria.state import CandelabriaState

CURSE_POWER = 3  # "The Curse standee ... is a model with 3 combat power"
CASTLE_POWER = 4
BATTLE_VP = (0, 4, 8, 12)  # by year
LAST_YEAR = 3


# ----------------------------------------------------------------------------- Preparation
def to_war(st: CandelabriaState) -> None:
    """Every hand is empty: War Preparation steps 1-2 (the tactic cards owned are the hand; the War
    Boards flipped), then step 3, the curses, one by one."""
    st.events.append(("war", st.year))
    if st.two_player:  # 2-player: "no Curses are assigned"
        st.curses_granted = len(st.curses)
        begin_resolution(st)
        return
    st.curses_granted = 0
    st.curse_models = [-1] * len(st.curses)
    st.curse_owners = [-1] * len(st.curses)
    moved(st, CURSE_MODELS)
    st.stack.append([Auto.WAR_PREP, -1])


def run_war_prep(st: CandelabriaState, frame: list[int]) -> None:
    k = st.curses_granted
    if k >= len(st.curses):
        st.stack.pop()
        begin_resolution(st)
        return
    st.curses_granted = k + 1
    # Each curse granted is an action of its own (rulings CA-M4): what the curse's deployment gains
    # (its effect, "when you deploy a Curse, gain 1 Tactic Card") adds neither to the last Kindling
    # turn's tally nor to another curse's.
    missions.new_action(st)
    row = st.curse_influence[k]
    best = max(row)
    winner = next(s for s in st.order if row[s] == best) if best > 0 else -1
    if (
        st.decay_slots
    ):  # Decay: the house arriving second draws a Decay card (after the curse is placed)
        decay.receive(st, decay.receivers(st, row, winner))
    for seat in range(st.num_players):  # "players must get back all the flames they had put"
        land_flame_to_supply(st, seat, row[seat])
        row[seat] = 0
    moved(st, CURSE_BOARD)
    if winner < 0:
        st.events.append(("curse-unclaimed", k, "no-flames"))
        return
    if not curse_targets(st, winner):
        st.events.append(("curse-unclaimed", k, "no-territory"))
        return
    st.stack.append([Phase.CURSE_AT, winner, k])


def at_war(st: CandelabriaState, region: int) -> bool:
    return not st.corrupted >> region & 1


def curse_targets(st: CandelabriaState, seat: int) -> list[int]:
    """Territories at war holding a unit of the seat (castle, candle or Land Flame), outside the
    regions whose top temple is Black."""
    board = st.board
    bit = 1 << seat
    found: list[int] = []
    for t in range(board.size):
        r = board.region[t]
        if not at_war(st, r) or (st.temples[r] and st.temples[r][-1] == BLACK):
            continue
        if st.land_flames[t] & bit or st.castles[seat] == t or t in st.candle_territories[seat]:
            found.append(t)
    return found


def curse_at_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    table = st.notation.at
    return [table[t] for t in curse_targets(st, frame[1])]


def do_curse_at(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    st.stack.pop()
    seat, k = frame[1], frame[2]
    st.curse_models[k] = a
    st.curse_owners[k] = seat
    moved(st, CURSE_MODELS)
    missions.note(st, seat, f"curse-{k + 1}")
    curse = st.content.curses[st.curses[k]]
    region = st.board.region[a]
    st.events.append(("deploy-curse", seat, k, st.board.names[a], curse.effect))
    # Pushed in reverse: the curse's effect first, then "When you deploy a Curse, gain 1 Tactic Card".
    cards = total(st, seat, "curse-tactic")
    if cards:
        st.stack.append([Auto.REFILL, -1])
        st.stack.append([Phase.TAKE, seat, cards])
    curse_effect(st, seat, curse.effect, region)


def curse_effect(st: CandelabriaState, seat: int, effect: str, region: int) -> None:
    if effect == "ignite-2":
        st.stack.append([Phase.IGNITE, seat, 2, region])
    elif effect == "extinguish-2":
        st.stack.append([Phase.EXTINGUISH, seat, 2, region])
    elif effect == "first-in-order":
        st.order.remove(seat)
        st.order.insert(0, seat)
        moved(st, ORDER)
        st.events.append(("order", tuple(st.order)))
    elif effect == "extinguish-all":
        board = st.board
        for t in board.region_terr[region]:
            for owner in range(st.num_players):
                if st.land_flames[t] >> owner & 1:
                    st.events.append(("extinguish", seat, board.names[t], owner, -1))
                    if owner == seat:  # its own: not "extinguished by another player"
                        lift_land_flame(st, owner, t)
                        land_flame_to_supply(st, owner)
                    else:
                        missions.note(st, seat, "land-flame")
                        extinguished.extinguish_land_flame(st, owner, t)
    elif effect == "recast-candle":
        st.stack.append([Phase.RECAST, seat, region])
    elif effect == "relocate-candle":
        st.stack.append([Phase.LIFT, seat, region])
    elif effect == "temple-or-upgrade":
        st.stack.append([Phase.GIFT, seat, region])
    # "power-4" and "double-vp" act in the battle.


def _candles_in(st: CandelabriaState, region: int) -> list[tuple[int, int]]:
    where = st.board.region
    return [
        (owner, role)
        for owner in range(st.num_players)
        for role in range(3)
        if st.candle_territories[owner][role] >= 0
        and where[st.candle_territories[owner][role]] == region
    ]


def recast_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    table = st.notation.recast
    return [
        table[st.house_of[o]][r]
        for o, r in _candles_in(st, frame[2])
        if st.seal_cards[o][r] >= 0 and st.content.candles[st.seal_cards[o][r]].year <= st.year
    ]


def do_recast(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    """ "Perform again the effect of a Candle in the Region ... The flames on the Candle do not
    change." The curse's controller performs the card's effects (anywhere, as a candle's)."""
    st.stack.pop()
    owner = st.seat_of[a]
    card = st.seal_cards[owner][b]
    st.events.append(("recast", frame[1], owner, b, st.content.candles[card].code))
    st.stack.append([Auto.EFFECTS, frame[1], card, 0])


def lift_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    table = st.notation.lift
    return [table[st.house_of[o]][r] for o, r in _candles_in(st, frame[2])]


def do_lift(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    st.stack.pop()
    st.stack.append([Phase.LIFT_TO, frame[1], st.seat_of[a], b])


def lift_to_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    here = st.candle_territories[frame[2]][frame[3]]
    table = st.notation.to
    return [table[t] for t in range(st.board.size) if t != here]


def do_lift_to(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    """Placed, not moved: no Land Flame, no action, no push (like a Portal relocation)."""
    st.stack.pop()
    owner, role = frame[2], frame[3]
    names = st.board.names
    src = st.candle_territories[owner][role]
    st.candle_territories[owner][role] = a
    moved(st, CANDLES)
    st.events.append(("lift", frame[1], owner, role, names[src], names[a]))


def gift_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    seat, region = frame[1], frame[2]
    n = st.notation
    actions: list[str] = []
    for colour, left in enumerate(st.temple_supply):
        if left > 0:
            actions.append(n.temple[colour][region])
    if len(st.upgrades[seat]) < UPGRADE_SLOTS:
        actions.extend(n.upgrade[p] for p, pile in enumerate(st.upgrade_piles) if pile)
    return actions


def do_gift(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    """ "Place a Temple in the Region where the Curse is deployed, or get an Upgrade Tile for free." """
    st.stack.pop()
    seat = frame[1]
    if verb == Verb.UPGRADE:
        tile = st.upgrade_piles[a].pop()
        st.upgrades[seat].append(tile)
        moved(st, UPGRADE_PILES)
        moved(st, UPGRADES)
        st.events.append(("upgrade", seat, a, st.content.tiles[tile].code, 0))
    else:
        place_temple(st, seat, a, b)


# ----------------------------------------------------------------------------- Resolution
def begin_resolution(st: CandelabriaState) -> None:
    """ "starting from the territory immediately following the number of the first Curse Card drawn
    ... continuing with the numbering in ascending order. Then starting again from 1" — each region at
    war once."""
    regions = list(st.board.regions)
    first = st.content.curses[st.curses[0]].region if st.curses else 0
    after = [r for r in regions if r > first] + [r for r in regions if r <= first]
    if st.two_player:
        # 2-player: "Combat will take place only in Regions where the Curses standees are at the
        # start of the War Season" (each region once, however many curses: rulings CA-2P5).
        haunted = {st.board.region[t] for t in st.curse_models if t >= 0}
        st.battles_left = [r for r in after if r in haunted]
    else:
        st.battles_left = [r for r in after if at_war(st, r)]
    moved(st, BATTLES)
    st.events.append(("battles", tuple(st.battles_left)))
    st.stack.append([Auto.BATTLES, -1])


def participants(st: CandelabriaState, region: int) -> list[int]:
    board = st.board
    where = board.region
    found: list[int] = []
    for seat in st.order:
        bit = 1 << seat
        here = (
            any(st.land_flames[t] & bit for t in board.region_terr[region])
            or where[st.castles[seat]] == region
            or any(t >= 0 and where[t] == region for t in st.candle_territories[seat])
            or any(
                st.curse_owners[k] == seat and where[st.curse_models[k]] == region
                for k in range(len(st.curse_models))
            )
        )
        if here:
            found.append(seat)
    return found


def run_battles(st: CandelabriaState, frame: list[int]) -> None:
    if not st.battles_left:
        st.stack.pop()
        st.stack.append([Auto.EPILOGUE, -1])
        return
    region = st.battles_left.pop(0)
    moved(st, BATTLES)
    fight = participants(st, region)
    st.events.append(("battle", region, tuple(fight)))
    if not fight:
        return
    st.battle = fight
    missions.new_action(st)
    if len(fight) == 1:  # "If only one player is participating ... This player is the winner."
        award(st, region, fight[0])
        return
    st.secret_tactics = [[] for _ in range(st.num_players)]
    moved(st, SECRETS)
    st.stack.append([Phase.SECRET, -1, region])


def waiting(st: CandelabriaState) -> tuple[int, ...]:
    """The participants yet to choose their tactic cards (in turn order)."""
    return tuple(s for s in st.battle if not st.secret_tactics[s])


def secret_actions(st: CandelabriaState, seat: int) -> list[str]:
    """Every way to cover the two War Board slots with 0–2 of the seat's tactic cards."""
    table = st.notation.play
    kinds: list[int] = []
    for card in st.tactics[seat]:
        if card not in kinds:
            kinds.append(card)
    kinds.sort()
    actions = [table[0][0]]
    for c in kinds:
        actions.append(table[c + 1][0])
        actions.append(table[0][c + 1])
    hand = st.tactics[seat]
    for c1 in kinds:
        for c2 in kinds:
            if c1 != c2 or hand.count(c1) > 1:
                actions.append(table[c1 + 1][c2 + 1])
    return actions


def do_secret(st: CandelabriaState, frame: list[int], seat: int, a: int, b: int) -> None:
    st.secret_tactics[seat] = [a - 1, b - 1]
    moved(st, SECRETS)
    st.events.append(("chose", seat))
    if waiting(st):
        return
    # "All players reveal the cards at the same time."
    st.stack.pop()
    region = frame[2]
    tactics = st.content.tactics
    for s in st.battle:
        chosen = st.secret_tactics[s]
        for card in chosen:
            if card >= 0:
                st.tactics[s].remove(card)
        st.played_tactics[s] = list(chosen)
        st.events.append(("reveal", s, tuple(tactics[c].code if c >= 0 else None for c in chosen)))
    st.secret_tactics = [[] for _ in range(st.num_players)]
    moved(st, TACTICS)
    moved(st, SECRETS)
    st.stack.append([Auto.RESOLVE, -1, region, 0])
    for s in reversed(st.battle):
        st.stack.append([Phase.CANCEL, s, region])


def _icons(st: CandelabriaState, card: int) -> set[int]:
    return {icon for icon, _ in st.content.tactics[card].effects}


def cancel_actions(st: CandelabriaState, frame: list[int]) -> list[str]:
    """ "discard ... one or both Tactic Cards they played to discard ... a Tactic Card played by
    another player that share at least one same symbol" — one card for one (CA-W8)."""
    seat = frame[1]
    tactics = st.content.tactics
    table = st.notation.cancel
    actions: list[str] = []
    for mine in (0, 1):
        card = st.played_tactics[seat][mine]
        if card < 0 or tactics[card].no_cancel:
            continue
        icons = _icons(st, card)
        for other in st.battle:
            if other == seat:
                continue
            for theirs in (0, 1):
                target = st.played_tactics[other][theirs]
                if target >= 0 and icons & _icons(st, target):
                    actions.append(table[mine][st.house_of[other]][theirs])
    if actions:
        actions.append(PASS)
    return actions


def do_cancel(st: CandelabriaState, frame: list[int], verb: int, a: int, b: int) -> None:
    seat = frame[1]
    if verb == Verb.PASS:
        st.stack.pop()
        return
    other, theirs = st.seat_of[b >> 1], b & 1
    mine_card = st.played_tactics[seat][a]
    their_card = st.played_tactics[other][theirs]
    st.played_tactics[seat][a] = -1
    st.played_tactics[other][theirs] = -1
    moved(st, SECRETS)
    spend_tactic(st, seat, mine_card)
    spend_tactic(st, other, their_card)
    missions.countered(st, seat, other)
    codes = st.content.tactics
    st.events.append(("cancel", seat, codes[mine_card].code, other, codes[their_card].code))


def run_resolve(st: CandelabriaState, frame: list[int]) -> None:
    """ "Players then resolve any remaining Tactic Cards in Turn Order ... If a player has fewer than
    two Tactic Cards to resolve, they will instead resolve the effects on their War Board that are not
    covered by a Tactic Card." Each card's effects in printed order, in the contested region; the
    slots' effects after the cards. Then the combat powers."""
    region, i = frame[2], frame[3]
    fight = st.battle
    if i >= len(fight):
        st.stack.pop()
        award(st, region, _winner(st, region))
        return
    frame[3] = i + 1
    seat = fight[i]
    slots = st.played_tactics[seat]
    # Pushed in reverse: slot effects last, the slot-2 card before them, the slot-1 card first. A card
    # starts at step -1: it is resolved (logged, spent) when its turn comes, then its effects follow.
    for slot in (1, 0):
        if slots[slot] < 0:
            st.stack.append([Auto.TACTIC, seat, ~slot, 0, region])
    for slot in (1, 0):
        card = slots[slot]
        if card >= 0:
            st.stack.append([Auto.TACTIC, seat, card, -1, region])


def _resolve_card(st: CandelabriaState, seat: int, card: int) -> None:
    """A tactic card's turn to resolve: logged, its slot marked resolved (it stays covered), the card
    spent, Rota Aurea's "1 VP per Tactic card resolved"; its effects come next."""
    slots = st.played_tactics[seat]
    slots[slots.index(card)] = -2  # slot 1 first when both hold the same card
    moved(st, SECRETS)
    spend_tactic(st, seat, card)
    st.events.append(("resolve", seat, st.content.tactics[card].code))
    bonus = total(st, seat, "tactic-vp")
    if bonus:
        gain_vp(st, seat, bonus, "tactic")


def run_tactic(st: CandelabriaState, frame: list[int]) -> None:
    seat, source, index, region = frame[1], frame[2], frame[3], frame[4]
    if index < 0:
        frame[3] = 0
        _resolve_card(st, seat, source)
        return
    if source >= 0:
        effects = st.content.tactics[source].effects
    elif st.decay_slots and st.decay_slots[seat][~source] >= 0:  # a Decay card covers the slot
        st.stack.pop()
        decay.resolve(st, seat, st.decay_slots[seat][~source], region)
        return
    else:
        effects = st.content.war_boards[st.house_of[seat]][~source]
    if index >= len(effects):
        st.stack.pop()
        return
    frame[3] = index + 1
    icon, count = effects[index]
    if icon == VP:
        gain_vp(st, seat, count, "tactic" if source >= 0 else "war-board")
    else:
        push_effect(st, seat, icon, count, region)


def power(st: CandelabriaState, seat: int, region: int) -> int:
    """ "Land Flames are worth 1 Combat Power, Curses are worth 3 Combat Power, Wandering Castles are
    worth 4 Combat Power, and Candles are worth as much Combat Power as the amount of Flames on them." """
    board = st.board
    where = board.region
    bit = 1 << seat
    p = sum(1 for t in board.region_terr[region] if st.land_flames[t] & bit)
    if where[st.castles[seat]] == region:
        p += CASTLE_POWER + total(st, seat, "castle-power")
    for role in range(3):
        t = st.candle_territories[seat][role]
        if t >= 0 and where[t] == region:
            p += st.candle_flames[seat][role]
    for k, owner in enumerate(st.curse_owners):
        if owner == seat and where[st.curse_models[k]] == region:
            base = CURSE_POWER + (st.content.curses[st.curses[k]].effect == "power-4")
            p += base + total(st, seat, "curse-power")
    return p


def _winner(st: CandelabriaState, region: int) -> int:
    fight = [s for s in st.order if s in st.battle]
    powers = {s: power(st, s, region) for s in fight}
    st.events.append(("powers", region, tuple((s, powers[s]) for s in fight)))
    temples = st.temples[region]
    if temples and temples[-1] == GREY:
        # "victory is awarded ... to the House with the lowest combat strength (but with at least an
        # active model in it)": a house whose power is 0 has no active model (CA-W9).
        active = [s for s in fight if powers[s] > 0]
        if active:
            low = min(powers[s] for s in active)
            return next(s for s in active if powers[s] == low)
        return fight[0]
    high = max(powers.values())
    return next(s for s in fight if powers[s] == high)


def award(st: CandelabriaState, region: int, winner: int) -> None:
    vp = BATTLE_VP[st.year]
    opponents = len(st.battle) > 1
    doubled = opponents and any(
        st.curse_owners[k] == winner
        and st.board.region[st.curse_models[k]] == region
        and st.content.curses[st.curses[k]].effect == "double-vp"
        for k in range(len(st.curse_owners))
    )
    st.events.append(("win", winner, region))
    gain_vp(st, winner, vp * 2 if doubled else vp, "battle")
    if missions.on(st):
        battle_missions(st, region, winner)
    # The winner moves to the last place (rulings CA-W3), unless option battle_shift="none".
    if st.order[-1] != winner and st.options.get("battle_shift", "last") == "last":
        st.order.remove(winner)
        st.order.append(winner)
        moved(st, ORDER)
        st.events.append(("order", tuple(st.order)))
    st.battle = []
    st.played_tactics = [[-1, -1] for _ in range(st.num_players)]
    moved(st, BATTLES)
    moved(st, SECRETS)


def battle_missions(st: CandelabriaState, region: int, winner: int) -> None:
    """The missions a battle won completes (rulings CA-M3)."""
    if region == 6:
        missions.note(st, winner, "win-6")
    temples = st.temples[region]
    top = temples[-1] if temples else -1
    if top == GREY:
        missions.note(st, winner, "win-grey")
    elif top == WHITE:
        missions.note(st, winner, "win-white")
    elif top == BLACK:
        missions.note(st, winner, "win-black")
    where = st.board.region
    owners = {
        o for k, o in enumerate(st.curse_owners) if o >= 0 and where[st.curse_models[k]] == region
    }
    if winner in owners:
        missions.note(st, winner, "win-allied-curse")
    if owners - {winner}:
        missions.note(st, winner, "win-enemy-curse")


# ----------------------------------------------------------------------------- Epilogue
def run_epilogue(st: CandelabriaState, frame: list[int]) -> None:
    st.stack.pop()

    for seat in st.order:
        # 1-2. The War Board back on its front; every tactic card owned on it.
        st.tactics[seat] += st.tactics_used[seat]
        st.tactics_used[seat] = []
        # 3-4. Deployed candle cards under the Advanced deck (seen by all); the candles off the map.
        for role in range(3):
            card = st.seal_cards[seat][role]
            if card >= 0:
                to_bottom(st, card, -2)
                st.seal_cards[seat][role] = -1
            st.candle_territories[seat][role] = -1
            st.candle_flame_supply[seat] += st.candle_flames[seat][role]
            st.candle_flames[seat][role] = 0
    if st.decay_slots:
        decay.epilogue(st)
    # 5. Region tokens on their numbered side. 6. Curse cards to the box. 7. Curse models off.
    st.corrupted = 0
    if st.two_player:
        # 2-player: "only the first two from the left" are discarded; the third stays where it is.
        st.curses_out += st.curses[:2]
        st.curses = st.curses[2:]
        st.curse_influence = st.curse_influence[2:]
        st.curse_models = st.curse_models[2:]
        st.curse_owners = st.curse_owners[2:]
    else:
        st.curses_out += st.curses
        st.curses = []
        st.curse_influence = []
        st.curse_models = []
        st.curse_owners = []
    st.curses_granted = 0
    # 8. The maneuvered cards back to hand (face up: everyone knows them).
    for seat in st.order:
        st.hands[seat] += st.maneuvered[seat]
        st.known_hands[seat] += st.maneuvered[seat]
        st.maneuvered[seat] = []
    st.events.append(("epilogue", st.year))
    all_moved(st)  # the War Boards, the map, the Curse Board, the hands: most of the state
    if st.year >= LAST_YEAR:
        final_vp(st)
        end_game(st, "end")
        return
    st.year += 1
    # setup.start_year, through the state's wiring: the year's loop (setup -> Kindling -> War ->
    # setup) is one of control, not of imports.
    WIRING.rules.steps["start_year"](st)
