"""Train the ``policy`` bot's network with numpy alone, by imitation of the heuristic bot.

    python -m candlebox.rl.imitation GAME --players 3                 # the shipped file for 3 players
    python -m candlebox.rl.imitation GAME --players 4 --minutes 4 --out mine.npz --log mine.jsonl
    python -m candlebox.rl.imitation GAME --players 3 --decisions 20000 --epochs 8 --seed 1

The network is the one the policy bot plays (candlebox/bots/network.py): tanh layers over the seat's
encoded observation, then the factored output layer (an action's logit is the sum of its tokens'
scores), written as the same float16 ``.npz``. torch is not needed (``candlebox.rl.train``, PPO,
needs it): this trainer fits the network to the heuristic bot's decisions with a cross-entropy over
the legal actions only and Adam, gradients written out by hand (:func:`loss_and_gradients`, checked
against finite differences in tests/rl/test_imitation.py).

The decisions come from games of the configuration (the default variant and options for that many
players) where every seat is drawn from :data:`SEATS` (the heuristic bot, the heuristic bot with
noise, the random bot) and one seat, rotating from game to game, is always the plain heuristic: every
decision of a plain heuristic seat with more than one legal action is recorded. The games of the last
tenth of the decisions are held out: the log reports how often the network picks the heuristic's
action there. With ``--decisions`` and ``--epochs`` alone a seed gives the same file byte for byte (the
archive is written with fixed timestamps); ``--minutes`` bounds the CPU time of the collection and of
the training (each half of it), so how far a busy machine gets can vary.
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import sys
import zipfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from candlebox import bots
from candlebox.bots.network import FORMAT, action_tokens, token_vocabulary
from candlebox.bots.policy import shipped_path
from candlebox.rl.budget import Clock
from candlebox.rl.core import Spec, covered_games

HIDDEN = (128, 128)  # as candlebox.rl.train's network, so the policy bot reads either
BATCH = 256
LEARNING_RATE = 1e-3
EPOCHS = 8
DECISIONS = 60_000
# Observations are kept in memory as float16 rows (every number is in [0, 1], where half precision
# keeps a relative error under 0.1%, far finer than any count's step): at most this many bytes of
# them (Candelabria's 5-player observation is 3,954 numbers, so about 126,000 decisions). A 200 MB
# bound of float32 rows held 12,600 of them, too few for Candelabria (docs/rl.md).
MEMORY = 1_000_000_000
STORED = np.float16
HELD_OUT = 0.1
PROGRESS_SECONDS = 60.0
LEARNER_SHARE = 0.5  # with --learner: the games where it plays the rotating heuristic seat


@dataclass(frozen=True)
class SeatKind:
    """Who may sit at a seat of a collection game, and how often."""

    label: str
    bot: str
    epsilon: float
    weight: float
    teacher: bool  # its decisions are recorded


SEATS = (
    SeatKind("random", "random", 0.0, 0.25, False),
    SeatKind("heuristic(epsilon=0.3)", "heuristic", 0.3, 0.35, False),
    SeatKind("heuristic", "heuristic", 0.0, 0.4, True),
)
TEACHER = SEATS[-1]


@dataclass
class Decisions:
    """The recorded decisions: the seat's observation, its legal action ids and the one chosen."""

    observations: list[np.ndarray] = field(default_factory=list)
    legal: list[list[int]] = field(default_factory=list)
    chosen: list[int] = field(default_factory=list)
    game_starts: list[int] = field(default_factory=list)  # the index of each game's first

    def __len__(self) -> int:
        return len(self.chosen)


def _seat_bot(kind: SeatKind, seed: int) -> bots.Bot:
    if kind.bot == "heuristic":
        return bots.make("heuristic", seed=seed, epsilon=kind.epsilon)
    return bots.make(kind.bot, seed=seed)


def collect(
    spec: Spec,
    decisions: int,
    seed: int,
    cpu_seconds: float | None = None,
    wall_seconds: float | None = None,
    progress: Callable[[int, int], None] | None = None,
    learner: Path | None = None,
    learner_share: float = LEARNER_SHARE,
) -> tuple[Decisions, int]:
    """Up to ``decisions`` of the heuristic's decisions (within the time bounds); and the games.
    ``progress(decisions, games)`` is called between games every ``PROGRESS_SECONDS`` on the clock
    (a long collection on a busy machine says how far it got).

    With a ``learner`` (a policy file of the configuration), a ``learner_share`` of the games is
    played at the rotating heuristic seat by that policy (greedy, as the bot plays) while the
    heuristic's choice in each of its positions is what is recorded (DAgger, Ross et al. 2011): the
    network then learns the heuristic's answers in the positions its own mistakes lead to, which
    games of the heuristic alone never reach."""
    rng = np.random.default_rng(seed)
    weights = np.array([kind.weight for kind in SEATS])
    weights /= weights.sum()
    players = spec.config.players
    found = Decisions()
    clock = Clock()
    games = 0
    said = 0.0
    driver = None if learner is None else bots.make("policy", path=str(learner))
    while len(found) < decisions and not clock.past(cpu_seconds, wall_seconds):
        if progress is not None and clock.wall_seconds() - said >= PROGRESS_SECONDS:
            said = clock.wall_seconds()
            progress(len(found), games)
        kinds = [SEATS[int(i)] for i in rng.choice(len(SEATS), size=players, p=weights)]
        kinds[games % players] = TEACHER
        seats = [_seat_bot(kind, int(rng.integers(2**62))) for kind in kinds]
        state = spec.config.new_game(int(rng.integers(2**62)))
        # drawn only with a learner, so that a seed without one collects what it always did
        driven = games % players if driver and rng.random() < learner_share else -1
        games += 1
        found.game_starts.append(len(found))
        while not state.is_over and len(found) < decisions:
            seat = state.to_act[0]
            action = seats[seat].choose(state, seat)
            legal = spec.actions.legal_ids(state, seat)
            if kinds[seat].teacher and len(legal) > 1:
                found.observations.append(spec.observe(state, seat).astype(STORED))
                found.legal.append(legal)
                found.chosen.append(spec.actions.to_id(action))
            if seat == driven and driver is not None:
                action = driver.choose(state, seat)
            state.apply(seat, action)
    return found, games


@dataclass
class Net:
    """The policy bot's network as trainable arrays: ``layers`` (weights [in, out], bias [out]),
    tanh after each, then the token scores ``head_w`` [hidden, tokens] and ``head_b``; ``index``
    [actions, most tokens] names each action's tokens (``tokens`` itself pads: a score of 0)."""

    layers: list[tuple[np.ndarray, np.ndarray]]
    head_w: np.ndarray
    head_b: np.ndarray
    index: np.ndarray
    vocabulary: list[str]

    def parameters(self) -> list[np.ndarray]:
        flat = [array for layer in self.layers for array in layer]
        return [*flat, self.head_w, self.head_b]


def token_index(texts: Sequence[str]) -> tuple[np.ndarray, list[str]]:
    """Each action's token numbers (padded with the vocabulary's size) and the vocabulary."""
    vocabulary = token_vocabulary(texts)
    place = {token: number for number, token in enumerate(vocabulary)}
    rows = action_tokens(texts)
    index = np.full((len(rows), max(len(row) for row in rows)), len(vocabulary), np.int64)
    for action, row in enumerate(rows):
        index[action, : len(row)] = [place[token] for token in row]
    return index, vocabulary


def new_net(
    inputs: int,
    texts: Sequence[str],
    seed: int,
    hidden: Sequence[int] = HIDDEN,
    dtype: Any = np.float32,
) -> Net:
    """Weights drawn with variance 1/fan-in (tanh's usual scale); the token scores start near 0
    (a uniform policy over the legal actions), as the PPO trainer's output layer does."""
    rng = np.random.default_rng(seed)
    layers = []
    width = inputs
    for size in hidden:
        weights = rng.normal(0.0, 1.0 / np.sqrt(width), (width, size)).astype(dtype)
        layers.append((weights, np.zeros(size, dtype)))
        width = size
    index, vocabulary = token_index(texts)
    head_w = rng.normal(0.0, 0.01 / np.sqrt(width), (width, len(vocabulary))).astype(dtype)
    return Net(layers, head_w, np.zeros(len(vocabulary), dtype), index, vocabulary)


@dataclass(frozen=True)
class Batch:
    """Decisions laid out flat: entry ``e`` is legal action ``actions[e]`` of decision
    ``rows[e]``; a decision's entries are contiguous from ``starts[i]``, its choice at
    ``chosen[i]`` (an entry number)."""

    observations: np.ndarray
    rows: np.ndarray
    actions: np.ndarray
    starts: np.ndarray
    chosen: np.ndarray

    @classmethod
    def of(cls, data: Decisions, picks: Sequence[int], dtype: Any = np.float32) -> Batch:
        legal = [data.legal[i] for i in picks]
        sizes = np.array([len(row) for row in legal])
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        actions = np.concatenate([np.asarray(row, np.int64) for row in legal])
        where = [row.index(data.chosen[i]) for i, row in zip(picks, legal, strict=True)]
        return cls(
            np.stack([data.observations[i] for i in picks]).astype(dtype),
            np.repeat(np.arange(len(picks)), sizes),
            actions,
            starts,
            starts + np.array(where),
        )


def _forward(net: Net, batch: Batch) -> tuple[list[np.ndarray], np.ndarray, np.ndarray]:
    """The hidden activations (the input first), each entry's token numbers and its logit."""
    activations = [batch.observations]
    for weights, bias in net.layers:
        activations.append(np.tanh(activations[-1] @ weights + bias))
    scores = activations[-1] @ net.head_w + net.head_b
    padded = np.concatenate([scores, np.zeros((len(scores), 1), scores.dtype)], axis=1)
    tokens = net.index[batch.actions]
    logits = padded[batch.rows[:, None], tokens].sum(axis=1)
    return activations, tokens, logits


def _softmax(logits: np.ndarray, batch: Batch) -> tuple[np.ndarray, np.ndarray]:
    """Each entry's probability among its decision's legal actions, and each decision's
    log-partition (the log of the sum of exp of its logits)."""
    top = np.maximum.reduceat(logits, batch.starts)
    weights = np.exp(logits - top[batch.rows])
    total = np.add.reduceat(weights, batch.starts)
    return weights / total[batch.rows], top + np.log(total)


def loss(net: Net, batch: Batch) -> float:
    """The mean cross-entropy of the chosen actions among the legal ones."""
    _, _, logits = _forward(net, batch)
    _, partition = _softmax(logits, batch)
    return float(np.mean(partition - logits[batch.chosen]))


def loss_and_gradients(net: Net, batch: Batch) -> tuple[float, list[np.ndarray]]:
    """The mean cross-entropy and its gradient for each of ``net.parameters()``, in order."""
    activations, tokens, logits = _forward(net, batch)
    probability, partition = _softmax(logits, batch)
    count = len(batch.starts)
    value = float(np.mean(partition - logits[batch.chosen]))
    entry = probability.copy()
    entry[batch.chosen] -= 1.0
    entry /= count
    # An entry's logit is the sum of its tokens' scores: each token gets the entry's gradient.
    width = net.head_w.shape[1] + 1
    cells = (batch.rows[:, None] * width + tokens).ravel()
    spread = np.repeat(entry, tokens.shape[1])
    scores = np.bincount(cells, weights=spread, minlength=count * width).reshape(count, width)
    scores = scores[:, :-1].astype(net.head_w.dtype)  # the padding token has no score
    grads = [activations[-1].T @ scores, scores.sum(axis=0)]
    upstream = scores @ net.head_w.T
    for depth in range(len(net.layers) - 1, -1, -1):
        weights, _ = net.layers[depth]
        local = upstream * (1.0 - activations[depth + 1] ** 2)
        grads[:0] = [activations[depth].T @ local, local.sum(axis=0)]
        upstream = local @ weights.T
    return value, grads


class Adam:
    """Adam (Kingma and Ba) over a list of arrays, updated in place."""

    def __init__(self, parameters: list[np.ndarray], rate: float = LEARNING_RATE) -> None:
        self.parameters = parameters
        self.rate = rate
        self.first = [np.zeros_like(p) for p in parameters]
        self.second = [np.zeros_like(p) for p in parameters]
        self.steps = 0

    def step(self, grads: list[np.ndarray], beta1: float = 0.9, beta2: float = 0.999) -> None:
        self.steps += 1
        scale = self.rate * np.sqrt(1 - beta2**self.steps) / (1 - beta1**self.steps)
        for p, g, m, v in zip(self.parameters, grads, self.first, self.second, strict=True):
            m *= beta1
            m += (1 - beta1) * g
            v *= beta2
            v += (1 - beta2) * g * g
            p -= (scale * m / (np.sqrt(v) + 1e-8)).astype(p.dtype)


def agreement(net: Net, data: Decisions, picks: Sequence[int]) -> float:
    """How often the network's choice (the first best-scoring legal action, as the policy bot
    plays at temperature 0) is the one recorded."""
    hits = 0
    for start in range(0, len(picks), BATCH):
        batch = Batch.of(data, picks[start : start + BATCH])
        _, _, logits = _forward(net, batch)
        ends = [*batch.starts[1:], len(logits)]
        for first, end, chosen in zip(batch.starts, ends, batch.chosen, strict=True):
            hits += int(first + np.argmax(logits[first:end]) == chosen)
    return hits / max(1, len(picks))


def split(data: Decisions) -> tuple[list[int], list[int]]:
    """Training and held-out decisions: whole games, the last tenth of the decisions held out."""
    cut = len(data)
    for start in reversed(data.game_starts):
        if start <= len(data) * (1 - HELD_OUT):
            cut = start
            break
    if cut in (0, len(data)):
        return list(range(len(data))), []
    return list(range(cut)), list(range(cut, len(data)))


def fit(
    net: Net,
    data: Decisions,
    picks: Sequence[int],
    epochs: int,
    seed: int,
    cpu_seconds: float | None = None,
    wall_seconds: float | None = None,
    report: Callable[[float, float], None] | None = None,
) -> list[float]:
    """Epochs of Adam over ``picks`` in shuffled batches; each epoch's mean training loss.
    ``report(epochs done, loss)`` after each epoch. A time bound is checked after every batch, so
    that a large collection on a busy machine stops on time: the last epoch may then be a part of
    one (its loss the mean over the batches it took, its epochs done a fraction)."""
    rng = np.random.default_rng(seed)
    optimizer = Adam(net.parameters())
    clock = Clock()
    losses = []
    for epoch in range(epochs):
        order = rng.permutation(np.asarray(picks))
        total = 0.0
        seen = 0
        for start in range(0, len(order), BATCH):
            chunk = order[start : start + BATCH].tolist()
            value, grads = loss_and_gradients(net, Batch.of(data, chunk))
            optimizer.step(grads)
            total += value * len(chunk)
            seen += len(chunk)
            if clock.past(cpu_seconds, wall_seconds):
                break
        losses.append(total / max(1, seen))
        if report is not None:
            report(epoch + seen / max(1, len(order)), losses[-1])
        if clock.past(cpu_seconds, wall_seconds):
            break
    return losses


def _write_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """np.savez_compressed's layout with fixed timestamps, so that equal arrays give equal bytes."""
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, array in arrays.items():
            info = zipfile.ZipInfo(f"{name}.npy", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            with archive.open(info, "w", force_zip64=True) as handle:
                np.lib.format.write_array(handle, np.asanyarray(array), allow_pickle=False)


def export(net: Net, spec: Spec, path: Path, meta: dict[str, Any]) -> int:
    """Write ``net`` as the policy bot reads it (candlebox/bots/network.py); the file's bytes."""
    arrays: dict[str, np.ndarray] = {}
    for i, (weights, bias) in enumerate(net.layers):
        arrays[f"w{i}"] = weights.astype(np.float16)
        arrays[f"b{i}"] = bias.astype(np.float16)
    arrays["head_w"] = net.head_w.astype(np.float16)
    arrays["head_b"] = net.head_b.astype(np.float16)
    arrays["tokens"] = np.array(net.vocabulary)
    config = spec.config
    info = {
        "format": FORMAT,
        "game": config.game_id,
        "variant": config.variant,
        "players": config.players,
        "options": config.given,
        "layers": len(net.layers),
        "observation": spec.observation_size,
        "actions": spec.num_distinct_actions,
        **meta,
    }
    arrays["meta"] = np.array(json.dumps(info, sort_keys=True))
    path.parent.mkdir(parents=True, exist_ok=True)
    part = path.with_name(path.name + ".part.npz")
    _write_npz(part, arrays)
    os.replace(part, path)
    return path.stat().st_size


@dataclass(frozen=True)
class Budget:
    """How much a run may do: decisions, epochs, and (optionally) minutes of CPU time and on the
    clock, half for the collection and half for the training."""

    decisions: int = DECISIONS
    epochs: int = EPOCHS
    minutes: float | None = None
    wall_minutes: float | None = None
    memory: int = MEMORY  # bytes of stored observations

    def most_decisions(self, spec: Spec) -> int:
        """The decisions to collect: as asked, within the memory bound."""
        row = np.dtype(STORED).itemsize * spec.observation_size
        return min(self.decisions, max(1, self.memory // row))

    def half(self) -> tuple[float | None, float | None]:
        cpu = None if self.minutes is None else self.minutes * 30
        wall = None if self.wall_minutes is None else self.wall_minutes * 30
        return cpu, wall


class Log:
    """JSON lines to a file (when given) and to stdout, each stamped with the run's times."""

    def __init__(self, path: Path | None, clock: Clock) -> None:
        self.path = path
        self.clock = clock
        if path is not None:
            path.parent.mkdir(parents=True, exist_ok=True)

    def write(self, line: dict[str, Any]) -> None:
        stamp = {
            "cpu_seconds": round(self.clock.cpu_seconds(), 1),
            "wall_seconds": round(self.clock.wall_seconds(), 1),
        }
        text = json.dumps({**stamp, **line})
        print(text, flush=True)
        if self.path is not None:
            with self.path.open("a") as handle:
                handle.write(text + "\n")


def train(
    game_id: str,
    players: int,
    seed: int = 0,
    budget: Budget = Budget(),
    out: Path | None = None,
    log: Path | None = None,
    learner: Path | None = None,
    learner_share: float = LEARNER_SHARE,
) -> dict[str, Any]:
    """Collect the heuristic's decisions, fit the network, write it; the run's summary."""
    if game_id not in covered_games():
        raise ValueError(f"unknown game {game_id!r}; games: {', '.join(covered_games())}")
    spec = Spec.make(game_id, players)
    out = out or shipped_path(game_id, players)
    driving = _learner(spec, learner, learner_share)
    clock = Clock()
    journal = Log(log, clock)
    journal.write(
        {
            "game": game_id,
            "players": players,
            "variant": spec.config.variant,
            "seed": seed,
            "trainer": "imitation (numpy)",
            "hidden": list(HIDDEN),
            "budget": {
                "decisions": budget.decisions,
                "epochs": budget.epochs,
                "minutes": budget.minutes,
                "wall_minutes": budget.wall_minutes,
                "memory_mb": budget.memory // 1_000_000,
            },
            **driving,
            "load_average": os.getloadavg(),
            "started": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        }
    )
    cpu, wall = budget.half()

    def collecting(decisions: int, games: int) -> None:
        journal.write({"collecting": {"decisions": decisions, "games": games}})

    data, games = collect(
        spec, budget.most_decisions(spec), seed, cpu, wall, collecting, learner, learner_share
    )
    if len(data) == 0:
        raise ValueError(f"no decision was collected for {spec.config.describe()}")
    journal.write({"collected": {"decisions": len(data), "games": games}})
    train_picks, held_out = split(data)
    net = new_net(spec.observation_size, spec.actions.texts, seed)
    before = agreement(net, data, held_out)

    done: list[float] = [0]

    def report(epochs: float, value: float) -> None:
        done[0] = int(epochs) if epochs == int(epochs) else round(epochs, 2)
        journal.write({"epoch": done[0], "loss": round(value, 4)})

    losses = fit(net, data, train_picks, budget.epochs, seed, cpu, wall, report)
    held = agreement(net, data, held_out)
    meta = {
        "seed": seed,
        "trainer": "imitation (numpy)",
        "decisions": len(data),
        "games": games,
        "epochs": done[0],
        **({"learner": driving["learner"]["sha256"]} if driving else {}),
    }
    size = export(net, spec, out, meta)
    summary = {
        "game": game_id,
        "players": players,
        "variant": spec.config.variant,
        "seed": seed,
        "trained": datetime.date.today().isoformat(),
        "decisions": len(data),
        "games": games,
        "epochs": done[0],
        "last_loss": round(losses[-1], 4) if losses else None,
        "held_out": {
            "decisions": len(held_out),
            "agreement_before": round(before, 4),
            "agreement": round(held, 4),
        },
        "out": out.name,  # the log sits beside the file: no path of the machine it was made on
        "bytes": size,
    }
    journal.write(summary)
    return summary


def _learner(spec: Spec, learner: Path | None, share: float) -> dict[str, Any]:
    """The learner's part of the log: its file, digest and how it was made (its ``meta``); a
    ValueError when it is missing or plays another table, before any game."""
    if learner is None:
        return {}
    if not 0.0 < share <= 1.0:
        raise ValueError(f"--learner-share must be above 0 and at most 1, not {share}")
    if not learner.is_file():
        raise ValueError(f"no policy file at {learner}")
    bots.check_table("policy", spec.config.new_game(0), path=str(learner))
    with np.load(learner, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
    made_by = {key: meta[key] for key in ("seed", "decisions", "epochs", "learner") if key in meta}
    return {
        "learner": {
            "file": learner.name,
            "sha256": hashlib.sha256(learner.read_bytes()).hexdigest(),
            "share": share,
            "made_by": made_by,
        }
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m candlebox.rl.imitation",
        description="Train the policy bot's network by imitation of the heuristic (numpy only).",
    )
    parser.add_argument("game", choices=covered_games())
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--decisions", type=int, default=DECISIONS, help="the most to collect")
    parser.add_argument("--epochs", type=int, default=EPOCHS)
    parser.add_argument("--minutes", type=float, help="CPU time budget (half each part)")
    parser.add_argument("--wall-minutes", type=float, help="and at most this long on the clock")
    parser.add_argument(
        "--memory-mb",
        type=int,
        default=MEMORY // 1_000_000,
        help="the most megabytes of observations kept (float16 rows)",
    )
    parser.add_argument(
        "--learner",
        type=Path,
        help="a policy file of this table: it plays the heuristic's seat in a share of the games, "
        "the heuristic's choices there recorded (DAgger)",
    )
    parser.add_argument("--learner-share", type=float, default=LEARNER_SHARE)
    parser.add_argument("--out", type=Path, help="the .npz to write (default: the shipped file)")
    parser.add_argument("--log", type=Path, help="progress as JSON lines")
    args = parser.parse_args(argv)
    for name in ("decisions", "epochs", "memory_mb"):
        if getattr(args, name) < 1:
            flag = name.replace("_", "-")
            parser.error(f"--{flag} must be 1 or more, not {getattr(args, name)}")
    for name in ("minutes", "wall_minutes"):
        value = getattr(args, name)
        if value is not None and not value > 0:
            parser.error(f"--{name.replace('_', '-')} must be above 0, not {value}")
    try:
        budget = Budget(
            args.decisions, args.epochs, args.minutes, args.wall_minutes, args.memory_mb * 1_000_000
        )
        train(
            args.game,
            args.players,
            args.seed,
            budget,
            args.out,
            args.log,
            args.learner,
            args.learner_share,
        )
    except ValueError as exc:
        parser.error(str(exc))
    return 0


if __name__ == "__main__":
    sys.exit(main())
