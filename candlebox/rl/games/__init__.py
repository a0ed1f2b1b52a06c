"""Per-game modules of the RL adapters: each game's action numbering and view encoder.

A module provides ``GAME_ID``, ``action_texts(config)`` (every action text possible in the
configuration, in a fixed order), ``encoder(config)`` (a :class:`candlebox.rl.core.ViewEncoder`),
``max_game_length(config)`` (an upper bound on decisions in one game, for OpenSpiel) and
``always_a_winner(config)``. It reads the game only through ``candlebox.game_info(id).facts`` and the
seat's view. Register it in ``candlebox.rl.core.GAME_MODULES``.
"""
