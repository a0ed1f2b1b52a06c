"""The Candelabria observation written from a seat's typed view."""

from __future__ import annotations

import numpy as np
from msgspec import UNSET

from candlebox.games.candelabria.encoder.facts import (
    ADVANCED,
    CANDLE_FLAMES,
    CARD_INDEX,
    COUNT_SCALE,
    CURSE_CARDS,
    CURSE_DECK,
    CURSE_INDEX,
    CURSE_PLACES,
    DECAY,
    DECAY_INDEX,
    DECISION_INDEX,
    HAND_SCALE,
    HOUSES,
    LAND_FLAMES,
    MISSION_INDEX,
    MISSIONS,
    RESERVE,
    ROLE_FLAMES,
    ROLE_NAMES,
    ROLES,
    SEASONS,
    SLOTS,
    TACTIC_COPIES,
    TACTIC_INDEX,
    TACTICS_DECK,
    TEMPLE_NAMES,
    TEMPLES_EACH,
    TILE_INDEX,
    TILES,
    VP_SCALE,
    WAREHOUSE,
)
from candlebox.games.candelabria.encoder.layout import (
    EncoderLayout,
)
from candlebox.games.candelabria.views import (
    CandelabriaView,
    FinishedView,
    Mission,
    Missions,
    Pending,
    Seat,
)


class ViewWriter(EncoderLayout):
    """The observation written from the seat's typed view (``fill``)."""

    def fill(self, view: CandelabriaView, out: np.ndarray) -> None:
        at = self.at
        n = self.n
        seat_of = {info.house: info.seat for info in view.seats}
        seat = view.seat
        pending = view.pending
        self.fill_seats(out, seat, view.active, None if pending is None else pending.seats)
        if pending is not None:
            self._pending(pending, seat_of, out)
        out[at["year"].start + view.year - 1] = 1.0
        out[at["season"].start + SEASONS.index(view.season)] = 1.0
        out[at["turn"].start] = view.turn / self.turn_scale
        for place, s in enumerate(view.order):
            out[at["order"].start + s * n + place] = 1.0
        self._map(view, seat_of, out)
        self._war(view, seat_of, out)
        self._boards(view, out)
        for info in view.seats:
            self._seat(info, seat, out)
        if self.missions and view.missions is not UNSET:
            self._missions(view.missions, seat_of, out)
        if isinstance(view, FinishedView):
            self.fill_winners(out, view.winners)
            for s, score in enumerate(view.scores):
                out[at["scores"].start + s] = score / VP_SCALE

    def _map(self, view: CandelabriaView, seat_of: dict[str | None, int], out: np.ndarray) -> None:
        """The territories (Land Flames, castles, candles), the curse standees and the regions."""
        at = self.at
        n = self.n
        ti = self.terr_index
        ri = self.region_index
        lf, castles, candles = at["land_flames"].start, at["castles"].start, at["candles"].start
        for terr in view.territories:
            t = ti[terr.territory]
            for h in terr.land_flames:
                out[lf + t * n + seat_of[h]] = 1.0
            if terr.castle is not UNSET:
                out[castles + t * n + seat_of[terr.castle]] = 1.0
            if terr.candles is not UNSET:
                for candle in terr.candles:
                    h, _, role = candle.candle.partition("-")
                    place = (t * n + seat_of[h]) * 3 + ROLES.index(role)
                    out[candles + place] = (candle.flames + 1) / (ROLE_FLAMES + 1)
        for model in view.curse_models:
            k = model.curse - 1
            out[at["curse_models"].start + ti[model.territory] * CURSE_PLACES + k] = 1.0
            if model.owner is not None:
                out[at["curse_owner"].start + k * n + seat_of[model.owner]] = 1.0
        for region in view.regions:
            r = ri[region.region]
            if region.corrupted:
                out[at["corrupted"].start + r] = 1.0
            temples = region.temples
            for colour in temples:
                out[at["temples"].start + r * 3 + TEMPLE_NAMES.index(colour)] += 1 / TEMPLES_EACH
            if temples:
                out[at["temple_top"].start + r * 3 + TEMPLE_NAMES.index(temples[-1])] = 1.0

    def _war(self, view: CandelabriaView, seat_of: dict[str | None, int], out: np.ndarray) -> None:
        """The Curse Board with the flames before each curse, and the War Season's battles."""
        at = self.at
        n = self.n
        ri = self.region_index
        for k, curse in enumerate(view.curses[:CURSE_PLACES]):
            out[at["curse_cards"].start + k * len(CURSE_CARDS) + CURSE_INDEX[curse.curse]] = 1.0
            for h, flames in curse.flames.items():
                out[at["curse_flames"].start + k * n + seat_of[h]] = flames / LAND_FLAMES
        for region_number in view.battles_left:
            out[at["battles_left"].start + ri[region_number]] = 1.0
        for s in view.battle:
            out[at["battle"].start + s] = 1.0

    def _boards(self, view: CandelabriaView, out: np.ndarray) -> None:
        """The public boards and decks: Tactics board, Upgrade piles, temples, decks, reserve."""
        at = self.at
        self.add_counts(
            out,
            at["tactics_board"].start,
            (TACTIC_INDEX[code] for code in view.tactics_board),
            1.0 / TACTIC_COPIES,
        )
        for p, pile in enumerate(view.upgrade_piles):
            if pile.top is not None:
                out[at["upgrade_tops"].start + p * len(TILES) + TILE_INDEX[pile.top]] = 1.0
            out[at["upgrade_sizes"].start + p] = pile.size / 4.0
        for i, colour in enumerate(TEMPLE_NAMES):
            out[at["temples_left"].start + i] = view.temples_left[colour] / TEMPLES_EACH
        decks = at["decks"].start
        out[decks] = view.curse_deck / CURSE_DECK
        out[decks + 1] = view.tactics_deck / TACTICS_DECK
        out[decks + 2] = view.advanced_deck / len(ADVANCED)
        if view.decay_deck is not UNSET:
            out[decks + 3] = view.decay_deck / len(DECAY)
        out[at["reserve"].start] = view.reserve.gold / RESERVE
        out[at["reserve"].start + 1] = view.reserve.wax / RESERVE

    def _pending(self, pending: Pending, seat_of: dict[str | None, int], out: np.ndarray) -> None:
        at = self.at
        out[at["decision"].start + DECISION_INDEX[pending.decision]] = 1.0
        if pending.region is not UNSET and pending.region is not None:
            out[at["p_region"].start + self.region_index[pending.region]] = 1.0
        if pending.territory is not UNSET:
            out[at["p_territory"].start + self.terr_index[pending.territory]] = 1.0
        if pending.count is not UNSET:
            out[at["p_count"].start] = pending.count / COUNT_SCALE
        if pending.moves_left is not UNSET:
            out[at["p_moves_left"].start] = pending.moves_left / 3.0
            out[at["p_extra_used"].start] = float(pending.extra_used is True)
        if pending.steps is not UNSET:
            out[at["p_steps"].start] = pending.steps / 3.0
        if pending.candle is not UNSET:
            h, _, role = pending.candle.partition("-")
            out[at["p_candle"].start + seat_of[h] * 3 + ROLES.index(role)] = 1.0
        if pending.role is not UNSET:
            out[at["p_role"].start + ROLE_NAMES.index(pending.role.lower())] = 1.0
        if pending.curse is not UNSET:
            out[at["p_curse"].start + pending.curse - 1] = 1.0
        if pending.stage is not UNSET:
            out[at["p_stage"].start + pending.stage - 1] = 1.0
        if pending.first is not UNSET:
            out[at["p_first"].start + HOUSES.index(pending.first)] = 1.0
        if pending.cards is not UNSET:
            for code in pending.cards:
                out[at["p_cards"].start + CARD_INDEX[code]] = 1.0
        if pending.decay is not UNSET and pending.decay is not None:
            out[at["p_decay"].start + DECAY_INDEX[pending.decay.card]] = 1.0

    def _seat(self, info: Seat, viewer: int | None, out: np.ndarray) -> None:
        at = self.at
        s = info.seat
        c, _k = self.c, self.k
        if info.house is not None:  # None: not chosen yet (2-player house choice)
            out[at["houses"].start + s * len(HOUSES) + HOUSES.index(info.house)] = 1.0
        out[at["vp"].start + s] = info.vp / VP_SCALE
        out[at["gold"].start + s] = info.gold / WAREHOUSE
        out[at["wax"].start + s] = info.wax / WAREHOUSE
        out[at["land_supply"].start + s] = info.land_flames / LAND_FLAMES
        out[at["candle_supply"].start + s] = info.candle_flames / CANDLE_FLAMES
        out[at["hand_size"].start + s] = info.hand_size / HAND_SCALE
        for code in info.deployed:
            if code is not None:
                out[at["deployed"].start + s * c + CARD_INDEX[code]] = 1.0
        for code in info.maneuvered:
            out[at["maneuvered"].start + s * c + CARD_INDEX[code]] = 1.0
        # its own hand (every hand once the game is over), else the cards it is known to hold
        known = info.hand if info.hand is not UNSET else info.known_hand
        if known is not UNSET:
            for code in known:
                out[at["known_cards"].start + s * c + CARD_INDEX[code]] = 1.0
        for code in info.upgrades:
            out[at["upgrades"].start + s * len(TILES) + TILE_INDEX[code]] = 1.0
        self._seat_tactics(info, viewer, out)

    def _seat_tactics(self, info: Seat, viewer: int | None, out: np.ndarray) -> None:
        """A seat's tactic cards (owned, used, its secret choice to itself, played) and Decay cards."""
        at = self.at
        s = info.seat
        k = self.k
        step = 1.0 / TACTIC_COPIES
        self.add_counts(
            out, at["tactics"].start + s * k, (TACTIC_INDEX[code] for code in info.tactics), step
        )
        self.add_counts(
            out,
            at["tactics_used"].start + s * k,
            (TACTIC_INDEX[code] for code in info.tactics_used),
            step,
        )
        if info.chosen is True:
            out[at["chosen"].start + s] = 1.0
        if s == viewer and info.secret is not UNSET:
            for slot, secret in enumerate(info.secret):
                index = k if secret is None else TACTIC_INDEX[secret]
                out[at["my_secret"].start + slot * (k + 1) + index] = 1.0
        if info.played is not UNSET:
            for slot, played in enumerate(info.played):
                if played is None:
                    index = k
                else:
                    index = k + 1 if played == "resolved" else TACTIC_INDEX[played]
                out[at["played"].start + (s * SLOTS + slot) * (k + 2) + index] = 1.0
        if self.decay and info.decay is not UNSET:
            for slot, card in enumerate(info.decay):
                if card is not None:
                    place = (s * SLOTS + slot) * len(DECAY) + DECAY_INDEX[card.card]
                    out[at["decay_slots"].start + place] = 1.0

    def _missions(
        self, missions: Missions, seat_of: dict[str | None, int], out: np.ndarray
    ) -> None:
        at = self.at
        n = self.n

        def places(card: Mission) -> None:
            m = MISSION_INDEX[card.mission]
            for p, holder in enumerate(card.places):
                if holder is None:
                    continue
                index = n if holder == "blocked" else seat_of[holder]
                out[at["mission_places"].start + (m * 3 + p) * (n + 1) + index] = 1.0

        for card in missions.public:
            out[at["mission_public"].start + MISSION_INDEX[card.mission]] = 1.0
            places(card)
        for house, private in missions.private.items():
            if private is not None:
                m = MISSION_INDEX[private.mission]
                out[at["mission_private"].start + m * n + seat_of[house]] = 1.0
                places(private)
        out[at["mission_box"].start] = missions.box / len(MISSIONS)
