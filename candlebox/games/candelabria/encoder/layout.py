"""The Candelabria observation's layout: every field, its size and place, for one configuration."""

from __future__ import annotations

from typing import Any, cast

import numpy as np

from candlebox.engine.encoding import Config, Layout, ViewEncoder
from candlebox.games.candelabria.encoder.actions import (
    side_of,
    turn_bound,
)
from candlebox.games.candelabria.encoder.canvas import (
    Memory,
    _Canvas,
    _Tables,
)
from candlebox.games.candelabria.encoder.facts import (
    CARDS,
    CURSE_CARDS,
    CURSE_PLACES,
    DECAY,
    DECISIONS,
    HOUSES,
    MISSIONS,
    PILES,
    SEASONS,
    SLOTS,
    TACTICS,
    TILES,
    YEARS,
)


class EncoderLayout(ViewEncoder):
    """The observation's fields and their places for one configuration, and the state reader's
    caches (empty after a copy or a pickle)."""

    def build(self, config: Config, layout: Layout) -> None:
        n = config.players
        side = side_of(config)
        self.n = n
        self.terr_index = {t: i for i, t in enumerate(side["territories"])}
        self.region_index = {r: i for i, r in enumerate(side["regions"])}
        t = len(self.terr_index)
        r = len(self.region_index)
        c = len(CARDS)
        k = len(TACTICS)
        self.t, self.r, self.c, self.k = t, r, c, k
        self.turn_scale = float(turn_bound(config))
        self.missions = bool(config.options.get("missions"))
        self.decay = bool(config.options.get("decay"))
        layout.add("me", n)
        layout.add("active", n)
        layout.add("to_act", n)
        layout.add("decision", len(DECISIONS))
        layout.add("over", 1)
        # the pending decision's details
        layout.add("p_region", r)
        layout.add("p_territory", t)
        layout.add("p_count", 1)  # / 10
        layout.add("p_moves_left", 1)  # / 3
        layout.add("p_extra_used", 1)
        layout.add("p_steps", 1)  # / 3
        layout.add("p_candle", n * 3)  # seat x role
        layout.add("p_role", 3)
        layout.add("p_curse", CURSE_PLACES)
        layout.add("p_stage", 2)
        layout.add("p_first", len(HOUSES))
        layout.add("p_cards", c)  # Nova Vita's cards to keep (its own seat only)
        layout.add("p_decay", len(DECAY))
        # the year
        layout.add("year", YEARS)
        layout.add("season", len(SEASONS))
        layout.add("turn", 1)  # / the turn bound
        layout.add("order", n * n)  # seat x place in turn order
        layout.add("houses", n * len(HOUSES))  # each seat's house
        # the map
        layout.add("land_flames", t * n)
        layout.add("castles", t * n)
        layout.add("candles", t * n * 3)  # a candle of seat s, role r: (its flames + 1) / 5
        layout.add("curse_models", t * CURSE_PLACES)
        layout.add("curse_owner", CURSE_PLACES * n)
        layout.add("corrupted", r)
        layout.add("temples", r * 3)  # levels of each colour / 6
        layout.add("temple_top", r * 3)
        # the Curse Board and the War Season
        layout.add("curse_cards", CURSE_PLACES * len(CURSE_CARDS))
        layout.add("curse_flames", CURSE_PLACES * n)  # / 25
        layout.add("battles_left", r)
        layout.add("battle", n)
        # the public boards and decks
        layout.add("tactics_board", k)  # counts / most copies
        layout.add("upgrade_tops", PILES * len(TILES))
        layout.add("upgrade_sizes", PILES)  # / 4
        layout.add("temples_left", 3)
        layout.add("decks", 4)  # curse, tactics, advanced, decay
        layout.add("reserve", 2)
        # the seats
        layout.add("vp", n)
        layout.add("gold", n)
        layout.add("wax", n)
        layout.add("land_supply", n)
        layout.add("candle_supply", n)
        layout.add("hand_size", n)
        layout.add("deployed", n * c)
        layout.add("maneuvered", n * c)
        layout.add("known_cards", n * c)  # the seat's own hand; of the others what is known
        layout.add("upgrades", n * len(TILES))
        layout.add("tactics", n * k)  # counts / most copies
        layout.add("tactics_used", n * k)
        layout.add("chosen", n)
        layout.add("my_secret", SLOTS * (k + 1))  # the seat's own secret choice ('-' last)
        layout.add("played", n * SLOTS * (k + 2))  # revealed cards; '-' and 'resolved' last
        if self.decay:
            layout.add("decay_slots", n * SLOTS * len(DECAY))
        if self.missions:
            m = len(MISSIONS)
            layout.add("mission_public", m)
            layout.add("mission_private", m * n)  # whose private mission it is, where seen
            layout.add("mission_places", m * 3 * (n + 1))  # each place: its seat, or blocked
            layout.add("mission_box", 1)
        layout.add("winners", n)
        layout.add("scores", n)  # / 200
        self.at = layout.fields
        self.start = {name: place.start for name, place in layout.fields.items()}
        # The state reader's places: every field's (start, stop), to clear it.
        self.span = {name: (place.start, place.stop) for name, place in layout.fields.items()}
        self._forget_states()

    def _forget_states(self) -> None:
        """The state reader's caches, empty: what it keeps of the states it read, its tables."""
        self._tables: _Tables | None = None
        self._canvases: dict[int, _Canvas] = {}
        self._zero = cast(Memory, np.zeros(self.layout.size, dtype=np.float32).data)

    def __getstate__(self) -> dict[str, Any]:
        """Pickled (a copied or pickled environment) without the caches: memoryviews do not
        pickle, and a canvas belongs to a state of this process."""
        kept = dict(self.__dict__)
        for name in ("_tables", "_canvases", "_zero"):
            del kept[name]
        return kept

    def __setstate__(self, kept: dict[str, Any]) -> None:
        self.__dict__.update(kept)
        self._forget_states()
