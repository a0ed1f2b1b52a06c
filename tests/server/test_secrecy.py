"""No response or websocket frame sent to a seat ever carries what that seat may not see.

Every seat of a game (and a spectator) watches over its own websocket while the test plays random legal
moves. Each frame is checked two ways: (1) it says exactly what the engine's ``view(seat)``,
``legal_actions(seat)`` and ``log(seat)`` say at that move, nothing more; (2) per game, the hidden
things its plug-in names (``Conformance.seen``) must be absent: Candle Quest's rivals' screen
contents and shekels; 16 Candies' rivals' hands and how they are turned, and the cards others
were dealt or drew from the pile (in the log too) until the end; Candelabria's hands and secret
choices. No frame carries another seat's credential or the raw move history.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

import candlebox
from tests.deep import first_of
from tests.server.conftest import all_human, auth, move, state

Checker = Callable[[dict[str, Any], list[dict[str, Any]], int | None], None]


def _nothing_more(view: dict[str, Any], log: list[dict[str, Any]], seat: int | None) -> None:
    """A game that names no hidden things of its own: the frames are held to the engine alone."""


def _cases() -> list[tuple[str, int, str, int]]:
    """Every registered game and variant, at three players where it can (each game's own rule of
    what a seat may not see is its plug-in's ``Conformance.seen``)."""
    found = []
    for game in candlebox.game_ids():
        for variant in candlebox.variants(game):
            players = min(max(3, variant.min_players), variant.max_players)
            found.append((game, players, variant.name, 31 + len(found)))
    return found


CASES = first_of(_cases(), lambda case: case[0], unpack=True)  # other variants: -m deep (CI)


def no_secrets_in(text: str, others: list[str]) -> None:
    for token in others:
        assert token not in text, "another seat's credential was sent"
    data = json.loads(text)

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            assert not {"history", "rng", "token", "token_hash", "invite"} & set(value), (
                value.keys()
            )
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)

    walk(data)


@pytest.mark.parametrize(("game", "players", "variant", "seed"), CASES)
def test_no_frame_shows_a_seat_what_it_may_not_see(
    client: Any, game: str, players: int, variant: str | None, seed: int
) -> None:
    spec: dict[str, Any] = {"game": game, "seed": seed}
    if variant:
        spec["variant"] = variant
    game_id, tokens = all_human(client, players, **spec)
    engine = candlebox.new_game(game, players, variant, seed=seed)
    viewers: list[int | None] = [*range(players), None]
    checker: Checker = candlebox.game_info(game).conformance().seen or _nothing_more
    rng = random.Random(seed)
    sockets = []
    for viewer in viewers:
        ws = client.websocket_connect(f"/ws/games/{game_id}").__enter__()
        ws.send_json({"type": "hello", **({"token": tokens[viewer]} if viewer is not None else {})})
        sockets.append(ws)
    logs: dict[int | None, list[dict[str, Any]]] = {}
    try:

        def read(index: int, viewer: int | None, kind: str) -> None:
            while True:
                text = sockets[index].receive_text()
                frame = json.loads(text)
                if frame["type"] == kind:
                    break
                assert frame["type"] == "seats", frame
                no_secrets_in(text, tokens)
            others = [t for s, t in enumerate(tokens) if s != viewer]
            no_secrets_in(text, others)
            entries = [item["entry"] for item in frame["log"]]
            if kind == "snapshot":
                logs[viewer] = entries
            else:
                assert frame["log_from"] == len(logs[viewer])
                logs[viewer] = logs[viewer] + entries
            assert frame["move"] == len(engine.history)
            assert frame["view"] == engine.view(viewer)
            assert frame["legal"] == (engine.legal_actions(viewer) if viewer is not None else [])
            assert logs[viewer] == engine.log(viewer)
            checker(frame["view"], logs[viewer], viewer)

        for index, viewer in enumerate(viewers):
            read(index, viewer, "snapshot")
        for _ in range(160):
            if engine.is_over:
                break
            seat = engine.to_act[0]
            action = rng.choice(engine.legal_actions(seat))
            response = move(client, game_id, tokens[seat], action, len(engine.history))
            assert response.status_code == 200, response.text
            engine.apply(seat, action)
            for index, viewer in enumerate(viewers):
                read(index, viewer, "update")
        # the HTTP state of each seat says the same, and nothing of the others'
        for viewer in viewers:
            token = tokens[viewer] if viewer is not None else None
            response = state(client, game_id, token)
            no_secrets_in(json.dumps(response), [t for s, t in enumerate(tokens) if s != viewer])
            assert response["view"] == engine.view(viewer)
            assert [item["entry"] for item in response["log"]] == engine.log(viewer)
            checker(response["view"], engine.log(viewer), viewer)
    finally:
        for ws in sockets:
            ws.__exit__(None, None, None)
    assert len(engine.history) > 20


def test_a_seat_cannot_read_another_seat_with_its_own_credential(client: Any) -> None:
    game_id, tokens = all_human(client, 2, seed=40)
    # the credential decides the seat: there is no way to ask for another seat's view
    mine = client.get(f"/api/games/{game_id}/state?seat=1", headers=auth(tokens[0])).json()
    assert mine["you"] == 0
    assert "candles" not in mine["view"]["seats"][1]
