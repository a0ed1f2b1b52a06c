"""The Curse of Candelabria for the RL adapters: action numbering and view encoding.

The board side follows the player count (2–3 players: the small side, 24 territories in 8 regions;
4–5 players: the large side, 30 territories in 10 regions), and only the houses whose start region is on
that side can be seated (the small side has no Luminis). ``T`` below is a territory of the side, ``R`` a
region of the side, ``H`` a seatable house, ``CARD`` a house candle card of a seatable house or an
Advanced card (the candles in play), ``M`` a model (``E P W C``), a role ``E P W``.

Actions (docs/notation/candelabria.md), in id order:

1. the declining and one-word actions: ``done``, ``skip``, ``pass``; ``stay`` (only when a seatable
   house has the Luminis Year I power, or with ``decay``); ``spare`` (only with
   ``castle_entry="optional"`` or ``warrior_push="optional"``); ``supply`` (standard only);
2. ``deploy CARD R`` (3 per card), ``maneuver CARD``, ``return CARD``; ``keep CARD`` (only when a
   seatable house has the Nova Vita Year I power; house cards returned or deployed go under the
   Advanced deck, so any card can be drawn);
3. territory actions: ``at T``, ``to T``, ``ignite T``, ``extinguish T``, ``move M T``, ``extra R T``;
   ``shift R T`` (as ``stay``); ``haunt K T`` (two-player, K = 1–3);
4. ``ignite R``, ``relocate M``;
5. per house: ``destroy H``, ``destroy H-R``, ``push H-R``, ``extinguish H``, ``extinguish H-R``,
   ``steal H gold``, ``steal H wax``; standard: ``recast H-R``, ``lift H-R``; two-player: ``house H``;
   then ``cancel M H N`` (M, N = 1, 2);
6. ``curse K`` (standard, K = 1–3), ``upgrade P`` (P = 1–9), ``temple C R`` (C = W, G, B), ``raze R``;
7. ``mine gold G wax W`` for 1 ≤ G + W ≤ the most a Mine gives (the side's Mine territories plus
   the "additional Mine territory" tile, at most a warehouse of 10: 8 on the small side, 6 on the
   large);
8. ``take CODE`` for every common tactic code (house tactic cards never reach the Tactics board);
9. ``play A B``: every ordered pair a seat can own, A and B each ``-`` or a tactic code, with the
   common codes and the house codes of one seatable house, the same code twice only for a card with
   two copies or more; sorted by (A, B) in the order ``-``, then the tactic codes of the facts;
10. with ``decay``: ``decay 1``, ``decay 2``, ``either 1``, ``either 2``.

Counts: standard 3 players 2,462 (``play`` 1,559, the candle-card texts 420, the territory texts 264,
the house texts 92, ``mine`` 44); standard 4–5 players 2,843 (``play`` 1,739, cards 450, territories
420 with ``shift``, houses 115, ``mine`` 27); two-player 2,510 (``play`` 1,559, cards 420, territories
336 with ``haunt``, houses 72, ``mine`` 44). ``missions`` adds no action; ``decay`` adds its 4 and,
where they were absent, ``stay`` and the ``shift`` texts (standard 3 players 2,539, 4–5 players
2,847); an optional ``castle_entry`` or ``warrior_push`` adds ``spare``.

The observation encodes the seat's view only (rulings CA-39): the map (each territory's Land Flames,
castles, candles with their flames, curse standees), the regions (corruption, temples), the Curse Board
and the flames before each curse, the battles, the Tactics board, the Upgrade piles' tops and sizes, the
decks' sizes and the reserve, every seat's resources, supplies, candles, deployed and maneuvered cards,
upgrades, tactic cards, hand size and the cards it is known to hold (its own hand for the seat), the
tactic cards played in a battle once revealed (the seat's own secret choice to itself only; of the
others only that they have chosen), Decay cards and Mission cards when the options are on, and the
pending decision with its details.

``fill`` encodes the typed view; ``fill_state`` (the adapters' path) writes the same numbers read from
the state, without building a view or any text. Each state keeps its last observation (a canvas) with a
copy of the data every field was written from, and a field is written again only when its data differ:
between two decisions most of the board is unchanged. tests/rl/test_state_encoders.py holds the two to
the bit on every seat of random games of every configuration, and tests/rl/test_candelabria_reader.py
reads states, clones and older states in any order.
"""

from __future__ import annotations

from candlebox.engine.encoding import Config
from candlebox.engine.plugin import Encoding
from candlebox.games.candelabria.encoder.actions import (
    action_texts,
    always_a_winner,
    cards_in_play,
    max_game_length,
    mine_bound,
    play_texts,
    seatable,
    side_of,
    turn_bound,
)
from candlebox.games.candelabria.encoder.facts import (
    ADVANCED,
    BATTLE_DECISIONS,
    CANDLE_FLAMES,
    CARD_INDEX,
    CARDS,
    COMMON,
    COUNT_SCALE,
    CURSE_CARDS,
    CURSE_DECK,
    CURSE_INDEX,
    CURSE_PLACES,
    DECAY,
    DECAY_INDEX,
    DECISION_INDEX,
    DECISIONS,
    GAME_ID,
    HAND_SCALE,
    HOUSE_CARDS,
    HOUSES,
    LAND_FLAMES,
    MISSION_INDEX,
    MISSIONS,
    MODELS,
    PICKS,
    PILES,
    RESERVE,
    ROLE_FLAMES,
    ROLE_NAMES,
    ROLES,
    SEASONS,
    SLOTS,
    TACTIC_CARDS,
    TACTIC_COPIES,
    TACTIC_INDEX,
    TACTICS,
    TACTICS_DECK,
    TEMPLE_LETTERS,
    TEMPLE_NAMES,
    TEMPLES_EACH,
    TILE_INDEX,
    TILES,
    TURN_DECISIONS,
    VP_SCALE,
    WAR_EXTRA,
    WAREHOUSE,
    YEARS,
)
from candlebox.games.candelabria.encoder.state_reader import StateReader
from candlebox.games.candelabria.encoder.view_writer import ViewWriter

__all__ = [
    "ADVANCED",
    "BATTLE_DECISIONS",
    "CANDLE_FLAMES",
    "CARDS",
    "CARD_INDEX",
    "COMMON",
    "COUNT_SCALE",
    "CURSE_CARDS",
    "CURSE_DECK",
    "CURSE_INDEX",
    "CURSE_PLACES",
    "DECAY",
    "DECAY_INDEX",
    "DECISIONS",
    "DECISION_INDEX",
    "ENCODING",
    "GAME_ID",
    "HAND_SCALE",
    "HOUSES",
    "HOUSE_CARDS",
    "LAND_FLAMES",
    "MISSIONS",
    "MISSION_INDEX",
    "MODELS",
    "PICKS",
    "PILES",
    "RESERVE",
    "ROLES",
    "ROLE_FLAMES",
    "ROLE_NAMES",
    "SEASONS",
    "SLOTS",
    "TACTICS",
    "TACTICS_DECK",
    "TACTIC_CARDS",
    "TACTIC_COPIES",
    "TACTIC_INDEX",
    "TEMPLES_EACH",
    "TEMPLE_LETTERS",
    "TEMPLE_NAMES",
    "TILES",
    "TILE_INDEX",
    "TURN_DECISIONS",
    "VP_SCALE",
    "WAREHOUSE",
    "WAR_EXTRA",
    "YEARS",
    "CandelabriaEncoder",
    "action_texts",
    "always_a_winner",
    "cards_in_play",
    "encoder",
    "max_game_length",
    "mine_bound",
    "play_texts",
    "seatable",
    "side_of",
    "turn_bound",
]


class CandelabriaEncoder(StateReader, ViewWriter):
    """The layout, the state reader and the view writer together: the game's encoder."""


def encoder(config: Config) -> CandelabriaEncoder:
    return CandelabriaEncoder(config)


ENCODING = Encoding(
    action_texts=action_texts,
    encoder=encoder,
    max_game_length=max_game_length,
    always_a_winner=always_a_winner,
)
