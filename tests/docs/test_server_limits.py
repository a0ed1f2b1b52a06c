"""docs/server.md's figures are the code's (issue 33, item 6): it said one hint per 3 seconds
while the server allows one a second, so each figure it states of a limit is read from the code."""

from __future__ import annotations

from pathlib import Path

import pytest

from candlebox.server.config import Settings

SERVER_MD = Path(__file__).resolve().parents[2] / "docs" / "server.md"


def test_the_hint_spacing_in_the_docs_is_the_codes() -> None:
    pytest.importorskip("fastapi", reason="the server extra is not installed")
    from candlebox.server.coaching import HINT_EVERY

    text = " ".join(SERVER_MD.read_text().split())
    unit = "second" if HINT_EVERY == 1 else "seconds"
    assert f"its next search {HINT_EVERY:g} {unit} after the last one ended" in text


@pytest.mark.parametrize(
    "name", ["max_seat_sockets", "max_client_sockets", "max_waiting_sockets", "hello_timeout"]
)
def test_the_websocket_limits_table_shows_the_defaults(name: str) -> None:
    default = getattr(Settings(db="sqlite://"), name)
    shown = f"{default:g} s" if isinstance(default, float) else f"{default:,}"
    assert f"| `{name}` | {shown} |" in SERVER_MD.read_text()
