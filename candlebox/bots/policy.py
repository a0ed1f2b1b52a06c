"""The policy bot: a small trained network picks the move, with numpy alone (no torch).

A game's network for 2 players is the file its plug-in names as its ``network`` capability (the
built-in games': ``candlebox/bots/policies/<game id>.npz``, made by ``python -m candlebox.rl.train
GAME``, docs/rl.md); for another player count the file beside it, ``<game id>-<n>p.npz`` (made by
``python -m candlebox.rl.imitation GAME --players N``); ``path=`` loads another file. The bot
encodes its seat's observation with the game's own RL encoder, runs the network's policy half and
picks among the legal actions only (candlebox/bots/network.py). numpy is imported when the bot first plays, so that
importing the bots (and playing with the others) never needs it.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from candlebox.engine import Rng, State, game_info
from candlebox.engine.rng import fresh_seed

if TYPE_CHECKING:
    from candlebox.bots.network import Network


def shipped_path(game_id: str, players: int = 2) -> Path:
    """Where the network shipped for a game and player count lives (it may not exist): for 2
    players the game's ``network`` capability, for another count the file beside it named
    ``<its stem>-<players>p.npz`` (``candle-quest-3p.npz``); a game that names none has them in the
    current folder (``<game id>.npz``, ``<game id>-3p.npz``: where the trainers write by default)."""
    network = game_info(game_id).network()
    two = Path(f"{game_id}.npz") if network is None else Path(str(network.file()))
    return two if players == 2 else two.with_name(f"{two.stem}-{players}p{two.suffix}")


class PolicyBot:
    """Plays the shipped (or ``path``) network of the state's game: ``temperature=0`` (the default)
    takes the highest-scoring legal action, a positive one samples from the softmax of
    logits / temperature with the bot's own seeded generator."""

    name = "policy"
    one_table = True  # a file per player count, each for one variant: servers do not offer it

    def __init__(
        self, seed: int | None = None, temperature: float = 0.0, path: str | None = None
    ) -> None:
        if isinstance(temperature, bool) or not isinstance(temperature, int | float):
            raise ValueError(f"temperature must be a number, got {temperature!r}")
        if not 0.0 <= temperature <= 100.0:
            raise ValueError(f"temperature must be between 0 and 100, got {temperature!r}")
        self.rng = Rng(fresh_seed() if seed is None else seed)
        self.temperature = float(temperature)
        self.path = None if path is None else Path(path)
        if self.path is not None and not self.path.is_file():
            raise ValueError(f"no policy file at {self.path}")
        self._networks: dict[tuple[str, str, int, str], Network] = {}

    def network(self, state: State) -> Network:
        """The network for the state's configuration, loaded once."""
        key = (state.game_id, state.variant, state.num_players, repr(sorted(state.options.items())))
        network = self._networks.get(key)
        if network is None:
            try:  # deferred: numpy is optional, and only this bot needs it
                from candlebox.bots.network import Network
            except ImportError as exc:  # pragma: no cover - depends on the environment
                if exc.name != "numpy":
                    raise
                raise ValueError("the policy bot needs numpy: pip install -e '.[rl]'") from None
            path = self.path or shipped_path(state.game_id, state.num_players)
            if not path.is_file():
                raise ValueError(
                    f"no trained policy ships for the game {state.game_id!r} with "
                    f"{state.num_players} players; train one with `python -m "
                    f"candlebox.rl.imitation {state.game_id} --players {state.num_players}` "
                    "and pass its file as path="
                )
            network = Network.load(path, state)
            self._networks[key] = network
        return network

    def check_table(self, state: State) -> None:
        """A ValueError naming the table the network was trained for, unless it is ``state``'s."""
        self.network(state)

    def choose(self, state: State, seat: int) -> str:
        actions = state.legal_actions(seat)
        if not actions:
            raise ValueError(f"seat {seat} has no decision to make now")
        network = self.network(state)  # a game without a policy says so even at a forced move
        if len(actions) == 1:
            return actions[0]
        draw = self.rng.below(1 << 30) / (1 << 30) if self.temperature else 0.0
        return network.pick(state, seat, self.temperature, draw)
