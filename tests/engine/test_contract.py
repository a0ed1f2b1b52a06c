"""The engine's own parts of the contract: legality kept by the engine, explain and MalformedAction,
move kinds marked private, and saved games loaded by replay."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import candlebox
from candlebox.games.candelabria.state import CandelabriaState
from candlebox.games.candle_quest.state import CandleQuestState
from candlebox.games.sixteen_candies.state import SixteenCandiesState

GAMES = [
    ("candle-quest", 3, {}),
    ("sixteen-candies", 3, {}),
    ("candelabria", 4, {}),
]


def _played(game: str, players: int, moves: int = 30, **options: object) -> candlebox.State:
    state = candlebox.new_game(game, players=players, seed=11, **options)
    for step in range(moves):
        if state.is_over:
            break
        seat = state.to_act[0]
        actions = state.legal_actions(seat)
        state.apply(seat, actions[step % len(actions)])
    return state


# ----------------------------------------------------------------------------- legality
@pytest.mark.parametrize("cls", [CandleQuestState, SixteenCandiesState, CandelabriaState])
def test_no_game_pastes_its_own_legal_actions(cls: type[candlebox.State]) -> None:
    """Each game implements _legal_for only: the engine's legal_actions is the one in use."""
    assert "legal_actions" not in vars(cls)
    assert cls.legal_actions is candlebox.State.legal_actions
    assert "_legal_for" in vars(cls)


@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_the_kept_list_is_the_games_list_after_every_step(
    game: str, players: int, options: dict
) -> None:
    state = candlebox.new_game(game, players=players, seed=5, **options)
    for step in range(120):
        if state.is_over:
            break
        for seat in state.to_act:
            assert state.legal_actions(seat) == state._legal_for(seat)
        seat = state.to_act[0]
        actions = state.legal_actions(seat)
        state.apply(seat, actions[step * 7 % len(actions)])


def test_resample_never_keeps_a_list_from_before() -> None:
    state = _played("sixteen-candies", 3, moves=8)
    seat = state.to_act[0]
    state.legal_actions(seat)  # kept
    for other in range(3):
        twin = state.resample(other, 1)
        assert twin.legal_actions(seat) == twin._legal_for(seat)


# ----------------------------------------------------------------------------- explain
@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_explain_is_none_for_legal_and_the_apply_message_otherwise(
    game: str, players: int, options: dict
) -> None:
    state = _played(game, players, **options)
    seat = state.to_act[0]
    before = state.to_json()
    for action in state.legal_actions(seat):
        assert state.explain(seat, action) is None
    idle = next((s for s in range(players) if s not in state.to_act), None)
    tries: list[tuple[object, object]] = [
        (seat, "nonsense words"),
        (seat, 7),
        (99, "x"),
        ("a", "x"),
    ]
    if idle is not None:
        tries.append((idle, state.legal_actions(seat)[0]))
    for who, action in tries:
        why = state.explain(who, action)  # type: ignore[arg-type]
        assert why
        with pytest.raises(candlebox.IllegalAction) as refused:
            state.apply(who, action)  # type: ignore[arg-type]
        assert str(refused.value) == why
    assert state.to_json() == before, "explain and refusals change nothing"


# Per game: a text that is no action at all, and an action that is not legal at the start.
REFUSED = [
    ("candle-quest", 2, "fly away", "auction 3"),
    ("sixteen-candies", 2, "draw nothing", "call"),
    ("candelabria", 4, "deploy Z99 Q", "pass"),
]


@pytest.mark.parametrize(("game", "players", "malformed", "illegal"), REFUSED)
def test_malformed_text_raises_malformed_action_and_illegal_text_does_not(
    game: str, players: int, malformed: str, illegal: str
) -> None:
    state = candlebox.new_game(game, players=players, seed=3)
    seat = state.to_act[0]
    assert illegal not in state.legal_actions(seat)
    with pytest.raises(candlebox.MalformedAction, match="is malformed"):
        state.apply(seat, malformed)
    with pytest.raises(candlebox.MalformedAction):
        state.apply(seat, 12)  # type: ignore[arg-type]
    with pytest.raises(candlebox.IllegalAction) as refused:
        state.apply(seat, illegal)
    assert not isinstance(refused.value, candlebox.MalformedAction)
    idle = (seat + 1) % players
    with pytest.raises(candlebox.MalformedAction):  # malformed whoever sends it
        state.apply(idle, malformed)
    assert issubclass(candlebox.MalformedAction, candlebox.IllegalAction)


@pytest.mark.parametrize(("game", "players", "malformed", "illegal"), REFUSED)
def test_refusal_is_what_apply_would_raise_without_applying(
    game: str, players: int, malformed: str, illegal: str
) -> None:
    state = candlebox.new_game(game, players=players, seed=3)
    seat = state.to_act[0]
    before = state.to_json()
    assert state.refusal(seat, state.legal_actions(seat)[0]) is None
    for action, kind in (
        (malformed, candlebox.MalformedAction),
        (illegal, candlebox.IllegalAction),
    ):
        refused = state.refusal(seat, action)
        assert type(refused) is kind
        assert str(refused) == state.explain(seat, action)
        with pytest.raises(kind) as raised:
            state.apply(seat, action)
        assert type(raised.value) is kind and str(raised.value) == str(refused)
    assert state.to_json() == before


# ----------------------------------------------------------------------------- move kinds
def test_private_actions_are_declared_by_move_kind() -> None:
    private = {
        cls.__name__: sorted(k.verb for k in cls.MOVES if k.redact)
        for cls in (CandleQuestState, SixteenCandiesState, CandelabriaState)
    }
    assert private == {
        "CandleQuestState": [],
        "SixteenCandiesState": ["top"],
        "CandelabriaState": ["keep", "play", "return"],
    }
    assert not hasattr(candlebox.State, "PRIVATE_ACTIONS")


def test_every_candelabria_action_in_the_notation_has_a_move_kind() -> None:
    state = candlebox.new_game("candelabria", players=4, seed=1)
    assert isinstance(state, CandelabriaState)
    for text in state.notation.parse:
        assert state.move_kind(text) is not None, text


def test_visible_history_hides_the_others_private_moves_only() -> None:
    state = _played("sixteen-candies", 3, moves=3)  # the three seats turn their hands
    tops = [(mover, action) for mover, action in state.history if action.startswith("top ")]
    assert len(tops) == 3
    for seat in range(3):
        seen = state.visible_history(seat)
        for (mover, action), (_, shown) in zip(state.history, seen, strict=True):
            hidden = action.startswith("top ") and mover != seat
            assert shown == (candlebox.HIDDEN_ACTION if hidden else action)
        assert state.resample(seat, 4).history == seen
    assert all(a == candlebox.HIDDEN_ACTION for _, a in state.visible_history(None)[:3])


# ----------------------------------------------------------------------------- saved games
@pytest.mark.parametrize(("game", "players", "options"), GAMES)
def test_format_2_is_the_configuration_the_history_and_a_checked_snapshot(
    game: str, players: int, options: dict
) -> None:
    state = _played(game, players, moves=40, **options)
    data = state.to_json()
    assert data["format"] == 2
    assert set(data) == {
        "format",
        "rules",
        "game",
        "variant",
        "players",
        "seed",
        "options",
        "history",
        "state",
    }
    again = candlebox.load(json.loads(json.dumps(data)))
    assert again == state and again.rng.state == state.rng.state and again.events == state.events
    light = {key: value for key, value in data.items() if key != "state"}
    assert candlebox.load(light) == state, "the snapshot is only a check"


def test_a_history_move_illegal_at_its_point_is_named_by_number() -> None:
    data = _played("candle-quest", 3, moves=12).to_json()
    data["history"][6] = [data["history"][6][0], "bid 99"]
    with pytest.raises(ValueError, match=r"move 7 \(seat \d: 'bid 99'\) does not replay"):
        candlebox.load(data)
    data["history"][6] = [9, "flip"]
    with pytest.raises(ValueError, match=r"move 7 .* not a seat"):
        candlebox.load(data)


def test_a_hidden_action_in_a_history_does_not_replay() -> None:
    state = _played("sixteen-candies", 3, moves=6)
    with pytest.raises(ValueError, match=r"move \d \(seat \d: '\?'\) does not replay"):
        candlebox.load(state.resample(0, 1).to_json())


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format=3), "format 3 is not supported"),
        (lambda d: d.update(game="chess"), "unknown game 'chess'"),
        (lambda d: d.update(players=9), "not 9"),
        (lambda d: d.update(seed="x"), "malformed"),
        (lambda d: d.update(history=[[0]]), "malformed"),
        (lambda d: d.update(rng=5), "format 2 has no 'rng'"),
        (lambda d: d.update(surprise=1), "malformed"),
        (lambda d: d["options"].update(bank=-5), "option 'bank'"),
        (lambda d: d["state"].update(bank=7), r"differs in state\.bank"),
        (lambda d: d["history"].pop(), r"differs in state\."),
    ],
)
def test_a_tampered_file_is_refused_naming_what_is_wrong(change, message: str) -> None:
    data = copy.deepcopy(_played("candle-quest", 3, moves=12).to_json())
    change(data)
    with pytest.raises(ValueError, match=message):
        candlebox.load(data)


def test_format_1_checks_the_generator_and_the_events_too() -> None:
    saved = json.loads((Path(__file__).parent.parent / "data/saved/cq-basic.json").read_text())
    assert saved["format"] == 1
    candlebox.load(saved)
    for key, value in (("rng", saved["rng"] + 1), ("events", saved["events"][:-1])):
        with pytest.raises(ValueError, match=f"differs in {key}"):
            candlebox.load({**saved, key: value})
    with pytest.raises(ValueError, match="format 1 needs"):
        candlebox.load({k: v for k, v in saved.items() if k != "rng"})
