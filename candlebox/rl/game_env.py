"""What the Gymnasium env (gymnasium_single.py) and the PettingZoo AEC env (pettingzoo_aec.py) share:
their arguments' checks, the game in play, the table as text and the actions' texts."""

from __future__ import annotations

from candlebox.engine import State
from candlebox.rl.core import Spec

RENDER_MODES = ("human", "ansi")


def check_arguments(render_mode: str | None, flat: bool) -> None:
    """A ValueError naming the argument when ``render_mode`` or ``flat`` is not one the envs take."""
    if not isinstance(flat, bool):
        raise ValueError(f"flat is True or False, got {flat!r}")
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise ValueError(f"render_mode {render_mode!r} is not one of {list(RENDER_MODES)}")


class GameInPlay:
    """An env's Candlebox game in play (hidden information included: ``game``), shown as text and
    acted on by the ids of the configuration's action numbering (``game_spec``)."""

    game_spec: Spec
    game: State | None
    render_mode: str | None

    def _state(self) -> State:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game

    def _render(self, seat: int | None) -> str | None:
        """The table as ``seat`` sees it (None: as a spectator), returned in the "ansi" mode and
        printed in the "human" one."""
        if self.render_mode is None:
            return None
        from candlebox.rl.render import render_text  # deferred: brings rich in, for rendering only

        text = render_text(self._state(), seat)
        if self.render_mode == "ansi":
            return text
        print(text, end="")
        return None

    def close(self) -> None:
        self.game = None

    def action_text(self, action: int) -> str:
        return self.game_spec.actions.to_text(action)

    def action_id(self, text: str) -> int:
        return self.game_spec.actions.to_id(text)
