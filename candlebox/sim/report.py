"""``candlebox report``: a balance report (HTML with PNG plots) from one or more results tables.

Rows are grouped by configuration (game, variant, players); each gets: the line-ups played, win rate by
seat, by place in the turn order (first-player advantage) and by bot, each with a 95% interval; win rate
by any text fact of a seat (a house, say); game length and score distributions; how often each kind of
action is chosen; numeric per-seat facts by bot; and ratings of the bots. Plots need matplotlib (the
``sim`` extra, Agg backend: no display needed); without it the report has its tables only. Ratings need
openskill or trueskill.
"""

from __future__ import annotations

import html
import json
import math
import os
import re
from collections import Counter
from collections.abc import Hashable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import candlebox
from candlebox.sim import cards, compare, ratings, stats, summary
from candlebox.sim.stats import Rate

PALETTE = ["#4C72B0", "#DD8452", "#55A868", "#C44E52", "#8172B3", "#937860", "#DA8BC3", "#8C8C8C"]


def have_matplotlib() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def title_of(game: str) -> str:
    """The game's title, or its id when the game is not registered here."""
    try:
        return candlebox.game_info(game).title
    except ValueError:
        return game


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


@dataclass
class Section:
    title: str
    parts: list[str] = field(default_factory=list)

    def add(self, text: str) -> None:
        self.parts.append(text)


# ----------------------------------------------------------------------------- HTML pieces
def esc(value: Any) -> str:
    return html.escape(str(value))


def table(header: list[str], rows: list[list[Any]], numeric_from: int = 1) -> str:
    head = "".join(f"<th>{esc(h)}</th>" for h in header)
    head = f"<thead><tr>{head}</tr></thead>" if any(header) else ""
    body = "".join(
        "<tr>"
        + "".join(
            f'<td class="{"num" if i >= numeric_from else "txt"}">{esc(cell)}</td>'
            for i, cell in enumerate(row)
        )
        + "</tr>"
        for row in rows
    )
    # Wide tables scroll sideways on a phone instead of widening the page.
    return f'<div class="wide"><table>{head}<tbody>{body}</tbody></table></div>'


def image(name: str | None, alt: str) -> str:
    return f'<img src="{esc(name)}" alt="{esc(alt)}">' if name else ""


def rate_rows(rates: dict[Hashable, Rate], label: str = "") -> list[list[Any]]:
    return [
        [
            f"{label}{key}",
            f"{rate.wins:.12g}",
            rate.games,
            f"{rate.rate:.1%}",
            f"{rate.low:.1%}–{rate.high:.1%}",
        ]
        for key, rate in rates.items()
    ]


RATE_HEADER = ["", "wins", "games", "win rate", "95% interval"]

CSS = """
body { font-family: system-ui, sans-serif; margin: 2em auto; max-width: 1100px; color: #222;
       padding: 0 0.8em; }
div.wide { overflow-x: auto; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 2px solid #ddd; margin-top: 2em; }
h3 { margin-top: 1.6em; } p.note { color: #555; max-width: 60em; }
table { border-collapse: collapse; margin: 0.6em 0; font-size: 0.92em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; } th { background: #f3f3f3; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; } td.txt { text-align: left; }
img { max-width: 100%; border: 1px solid #eee; margin: 0.4em 0; }
"""


# ----------------------------------------------------------------------------- plots
@dataclass(frozen=True)
class Bars:
    """One panel's bars: what both the horizontal and the vertical drawing need."""

    label: str
    rates: dict[Hashable, Rate]
    baseline: float | None
    keys: list[str]
    positions: list[int]
    values: list[float]
    errors: list[list[float]]  # [below, above] each rate: matplotlib's asymmetric error bars
    colours: list[str]

    @classmethod
    def of(cls, label: str, rates: dict[Hashable, Rate], baseline: float | None) -> Bars:
        keys = [str(key) for key in rates]
        below = [max(0.0, rate.rate - rate.low) for rate in rates.values()]
        above = [max(0.0, rate.high - rate.rate) for rate in rates.values()]
        return cls(
            label=label,
            rates=rates,
            baseline=baseline,
            keys=keys,
            positions=list(range(len(keys))),
            values=[rate.rate for rate in rates.values()],
            errors=[below, above],
            colours=[PALETTE[i % len(PALETTE)] for i in range(len(keys))],
        )


class Plots:
    """PNG files in the report's folder; every method returns the file name, or None (no matplotlib)."""

    def __init__(self, folder: Path, enabled: bool) -> None:
        self.folder = folder
        self.enabled = enabled and have_matplotlib()
        self.plt: Any = None
        self.percent: Any = None
        if self.enabled:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt

            plt.rcParams.update(
                {
                    "font.size": 11,
                    "axes.titlesize": 13,
                    "axes.spines.top": False,
                    "axes.spines.right": False,
                    "axes.grid": True,
                    "grid.alpha": 0.3,
                    "figure.dpi": 100,
                }
            )
            self.plt = plt
            from matplotlib.ticker import PercentFormatter

            self.percent = PercentFormatter(1.0, decimals=0)

    def save(self, figure: Any, name: str) -> str:
        figure.tight_layout()
        figure.savefig(self.folder / name, dpi=110, bbox_inches="tight")
        self.plt.close(figure)
        return name

    def rates(
        self,
        name: str,
        panels: list[tuple[str, str, dict[Hashable, Rate]]],
        baseline: float | None,
    ) -> str | None:
        """Bars of win rates with their 95% intervals; one panel per (title, axis label, rates)."""
        panels = [panel for panel in panels if panel[2]]
        if not self.enabled or not panels:
            return None
        longest = max(len(str(key)) for _, _, rates in panels for key in rates)
        # Long labels or many bars read better as horizontal bars, one row each.
        horizontal = longest > 8 or max(len(rates) for _, _, rates in panels) > 6
        if horizontal:
            count = sum(len(rates) for _, _, rates in panels)
            figure, axes = self.plt.subplots(
                len(panels), 1, figsize=(9, 1.2 + 0.55 * count + 0.6 * len(panels)), squeeze=False
            )
        else:
            figure, axes = self.plt.subplots(
                1, len(panels), figsize=(4.6 * len(panels), 4), squeeze=False
            )
        draw = self._horizontal_bars if horizontal else self._vertical_bars
        for ax, (title, label, rates) in zip(axes.flat, panels, strict=True):
            draw(ax, Bars.of(label, rates, baseline))
            ax.set_title(title)
        return self.save(figure, name)

    def _horizontal_bars(self, ax: Any, bars: Bars) -> None:
        """One row a bar, the figures in a column right of the plot (the axis label goes unused:
        the rows name themselves)."""
        ax.barh(
            bars.positions, bars.values, xerr=bars.errors, color=bars.colours, capsize=4, height=0.6
        )
        ax.set_yticks(bars.positions, bars.keys)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.xaxis.set_major_formatter(self.percent)
        ax.set_xlabel("win rate (bars: 95% interval; dashed line: even share)")
        if bars.baseline is not None:
            ax.axvline(bars.baseline, color="#555", linestyle="--", linewidth=1)
        # The figures in a column right of the plot, clear of bars and intervals.
        for pos, rate in zip(bars.positions, bars.rates.values(), strict=True):
            ax.text(
                1.02,
                pos,
                f"{rate.rate:.1%}  [{rate.low:.0%}–{rate.high:.0%}]  n={rate.games}",
                va="center",
                transform=ax.get_yaxis_transform(),
            )

    def _vertical_bars(self, ax: Any, bars: Bars) -> None:
        """One column a bar, its rate above it."""
        ax.bar(
            bars.positions, bars.values, yerr=bars.errors, color=bars.colours, capsize=5, width=0.6
        )
        ax.set_xticks(bars.positions, bars.keys)
        ax.set_ylim(0, 1.12)
        ax.set_yticks([0, 0.2, 0.4, 0.6, 0.8, 1.0])
        ax.yaxis.set_major_formatter(self.percent)
        ax.set_ylabel("win rate (bars: 95% interval)")
        ax.set_xlabel(f"{bars.label}\n(dashed line: even share)")
        if bars.baseline is not None:
            ax.axhline(bars.baseline, color="#555", linestyle="--", linewidth=1)
        for pos, rate in zip(bars.positions, bars.rates.values(), strict=True):
            ax.text(pos, rate.high + 0.02, f"{rate.rate:.0%}", ha="center")

    def lengths(self, name: str, rows: list[dict[str, Any]]) -> str | None:
        if not self.enabled:
            return None
        figure, axes = self.plt.subplots(1, 2, figsize=(10, 3.8))
        for ax, column, colour in zip(axes, ("turns", "steps"), PALETTE, strict=False):
            values = [row[column] for row in rows]
            low, high = min(values), max(values)
            width = max(1, math.ceil((high - low + 1) / 30))  # whole-number bins, at most 30
            edges = [low - 0.5 + width * i for i in range((high - low) // width + 2)]
            ax.hist(values, bins=edges, color=colour, edgecolor="white")
            mean = sum(values) / len(values)
            ax.axvline(mean, color="#222", linestyle="--", linewidth=1, label=f"mean {mean:.1f}")
            ax.set_title(f"game length in {column}")
            ax.set_xlabel(column)
            ax.set_ylabel("games")
            ax.legend(fontsize=9)
        return self.save(figure, name)

    def scores(self, name: str, rows: list[dict[str, Any]]) -> str | None:
        """Final scores by bot: box plots, or a bar of how often each score occurs when there are few."""
        if not self.enabled:
            return None
        by_bot: dict[str, list[float]] = {}
        for row in rows:
            for seat, score in enumerate(row["scores"]):
                by_bot.setdefault(row["bots"][seat], []).append(score)
        labels = list(by_bot)
        distinct = sorted({score for values in by_bot.values() for score in values})
        figure, ax = self.plt.subplots(figsize=(max(6, 1.6 * len(labels) + 3), 4))
        if len(distinct) <= 6:
            width = 0.8 / len(labels)
            for i, label in enumerate(labels):
                counts = Counter(by_bot[label])
                total = len(by_bot[label])
                ax.bar(
                    [x + i * width - 0.4 + width / 2 for x in range(len(distinct))],
                    [counts[d] / total for d in distinct],
                    width=width,
                    color=PALETTE[i % len(PALETTE)],
                    label=label,
                )
            ax.set_xticks(range(len(distinct)), [f"{d:g}" for d in distinct])
            ax.set_xlabel("final score")
            ax.yaxis.set_major_formatter(self.percent)
            ax.set_ylabel("share of the bot's seat-games")
            ax.legend(fontsize=9)
        else:
            ax.boxplot([by_bot[label] for label in labels], showmeans=True)
            ax.set_xticks(range(1, len(labels) + 1), labels, rotation=15 if len(labels) > 3 else 0)
            ax.set_ylabel("final score")
        ax.set_title("final scores by bot")
        return self.save(figure, name)

    def actions(self, name: str, shares: dict[str, dict[str, float]]) -> str | None:
        if not self.enabled or not shares:
            return None
        kinds = sorted({kind for per in shares.values() for kind in per})
        bots = list(shares)
        height = 0.8 / len(bots)
        figure, ax = self.plt.subplots(
            figsize=(9, 1.2 + 0.22 * len(kinds) * len(bots) + 0.3 * len(kinds))
        )
        for i, bot in enumerate(bots):
            positions = [k + i * height - 0.4 + height / 2 for k in range(len(kinds))]
            values = [shares[bot].get(kind, 0.0) for kind in kinds]
            ax.barh(positions, values, height=height, color=PALETTE[i % len(PALETTE)], label=bot)
        ax.set_yticks(range(len(kinds)), kinds)
        ax.invert_yaxis()
        ax.xaxis.set_major_formatter(self.percent)
        ax.set_xlabel("share of the bot's actions")
        ax.set_title("how often each kind of action is chosen")
        ax.legend(
            fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.1), ncol=min(3, len(bots))
        )
        return self.save(figure, name)

    def ratings(self, name: str, found: list[ratings.Rating], system: str) -> str | None:
        if not self.enabled or not found:
            return None
        figure, ax = self.plt.subplots(figsize=(9, 1.8 + 0.6 * len(found)))
        positions = list(range(len(found)))
        ax.errorbar(
            [r.mu for r in found],
            positions,
            xerr=[3 * r.sigma for r in found],
            fmt="o",
            capsize=5,
            color=PALETTE[0],
            label="mu ± 3 sigma",
        )
        ax.scatter(
            [r.ordinal for r in found],
            positions,
            marker="|",
            s=200,
            color=PALETTE[3],
            label="ordinal (mu − 3 sigma)",
            zorder=3,
        )
        ax.set_yticks(positions, [r.bot for r in found])
        ax.set_ylim(len(found) - 0.4, -0.6)  # best at the top, with room round the rows
        ax.set_xlabel("rating")
        ax.set_title(f"bot ratings: {system}")
        ax.legend(
            fontsize=9, loc="upper center", bbox_to_anchor=(0.5, -0.25 - 0.5 / len(found)), ncol=2
        )
        return self.save(figure, name)


# ----------------------------------------------------------------------------- the report
def configuration_section(
    key: tuple[str, str, int], rows: list[dict[str, Any]], plots: Plots, arm: str = ""
) -> Section:
    game, variant, players = key
    base = slug(f"{game}-{variant}-{players}p-{arm}")
    named = f", arm {arm}" if arm else ""
    section = Section(f"{title_of(game)} ({variant}), {players} players{named} — {len(rows)} games")
    even = 1 / players

    section.add(_overview(rows))

    section.add("<h3>Findings</h3>")
    section.add(findings_html(rows, players))

    _seat_rates(section, rows, plots, base, players)
    bot_rates = _bot_rates(section, rows, plots, base, even)
    means, text_facts = stats.seat_facts(rows)
    _fact_rates(section, rows, plots, base, even, text_facts)
    _lengths_and_scores(section, rows, plots, base, players, list(bot_rates))
    _actions_chosen(section, rows, plots, base)
    if means:
        _means_by_bot(section, means)
    _ratings(section, rows, plots, base)
    return section


def _overview(rows: list[dict[str, Any]]) -> str:
    """The games at a glance: seeds, line-ups, endings, content, length and options."""
    lineups = Counter(" · ".join(row["bots"]) for row in rows)
    reasons = Counter(row["end_reason"] or "unknown" for row in rows)
    seeds = sorted(row["seed"] for row in rows)
    truncated = sum(row["truncated"] for row in rows)
    option_sets = Counter(json.dumps(row["options"], sort_keys=True) for row in rows)
    return table(
        ["", ""],
        [
            ["games", len(rows)],
            ["seeds", f"{seeds[0]}–{seeds[-1]}" if seeds else "—"],
            [
                "line-ups (seat 0 · seat 1 · ...)",
                "; ".join(f"{k} ×{n}" for k, n in lineups.items()),
            ],
            ["ended by", ", ".join(f"{k} {n}" for k, n in reasons.most_common())],
            ["truncated (turn limit)", f"{truncated} ({truncated / len(rows):.1%})"],
            ["content", summary.pack_text(rows)],
            [
                "mean length",
                f"{_mean(r['turns'] for r in rows):.1f} turns, {_mean(r['steps'] for r in rows):.1f} steps",
            ],
            [
                "options",
                "; ".join(option_sets)
                if len(option_sets) <= 3
                else f"{len(option_sets)} different sets",
            ],
        ],
        numeric_from=9,
    )


def _seat_rates(
    section: Section, rows: list[dict[str, Any]], plots: Plots, base: str, players: int
) -> None:
    """Win rates by seat and by place in the turn order, and the first player's advantage."""
    even = 1 / players
    seat_rates = stats.by_seat(rows)
    position = stats.by_position(rows)
    section.add("<h3>Win rate by seat and by place in the turn order</h3>")
    section.add(
        f'<p class="note">A shared win counts 1/k to each of its k winners. The dashed line is an even '
        f"share (1/{players}). Place 0 is the player who moved first (the first player), 1 the next "
        "seat round the table, and so on. When the line-up differs between seats, a seat's rate also "
        "measures its bot.</p>"
    )
    section.add(
        image(
            plots.rates(
                f"{base}-seats.png",
                [
                    ("by seat", "seat", seat_rates),
                    ("by place in turn order", "place (0 = first player)", position),
                ],
                even,
            ),
            "win rate by seat",
        )
    )
    first = stats.first_player_rate(rows)
    verdict = (
        "an advantage"
        if first.low > even
        else "a disadvantage"
        if first.high < even
        else "no significant advantage"
    )
    section.add(
        f"<p><b>First-player advantage:</b> the first player won {first.text()} of "
        f"{first.games} games against an even share of {even:.1%}: {verdict} at 95%.</p>"
    )
    section.add(table(["seat", *RATE_HEADER[1:]], rate_rows(seat_rates, "seat ")))
    section.add(table(["place", *RATE_HEADER[1:]], rate_rows(position, "place ")))


def _bot_rates(
    section: Section, rows: list[dict[str, Any]], plots: Plots, base: str, even: float
) -> dict[Hashable, Rate]:
    """Win rates by bot, best first (returned: the later sections list the bots in this order)."""
    bot_rates = dict(sorted(stats.by_bot(rows).items(), key=lambda kv: -kv[1].rate))
    section.add("<h3>Win rate by bot</h3>")
    section.add(
        '<p class="note">Per seat-game: a bot in two seats of a game plays two seat-games. Rotate the '
        "line-up across seats (<code>candlebox simulate --rotate</code>) so seat effects even out.</p>"
    )
    section.add(
        image(
            plots.rates(f"{base}-bots.png", [("by bot", "bot", bot_rates)], even), "win rate by bot"
        )
    )
    section.add(table(["bot", *RATE_HEADER[1:]], rate_rows(bot_rates)))

    return bot_rates


def _fact_rates(
    section: Section,
    rows: list[dict[str, Any]],
    plots: Plots,
    base: str,
    even: float,
    text_facts: Any,
) -> None:
    """Win rates by each of the seats' text facts, then the components' statistics."""
    for name in text_facts:
        rates = stats.by_seat_fact(rows, name)
        section.add(f"<h3>Win rate by {esc(name)}</h3>")
        if len(rates) <= 30:  # a plot of more values than that would not be read
            plot = plots.rates(f"{base}-{slug(name)}.png", [(f"by {name}", name, rates)], even)
            section.add(image(plot, f"win rate by {name}"))
        section.add(table([name, *RATE_HEADER[1:]], rate_rows(rates)))

    found_cards = cards.card_stats(rows, cards.component_names(rows[0]))
    if found_cards:
        section.add(cards_html(found_cards))


def _lengths_and_scores(
    section: Section,
    rows: list[dict[str, Any]],
    plots: Plots,
    base: str,
    players: int,
    bots: list[Hashable],
) -> None:
    section.add("<h3>Game length and scores</h3>")
    section.add(image(plots.lengths(f"{base}-length.png", rows), "game length"))
    section.add(image(plots.scores(f"{base}-scores.png", rows), "final scores"))
    score_rows = []
    for bot in bots:
        values = [row["scores"][s] for row in rows for s in range(players) if row["bots"][s] == bot]
        score_rows.append(
            [bot, len(values), f"{_mean(values):.2f}", f"{min(values):g}", f"{max(values):g}"]
        )
    section.add(table(["bot", "seat-games", "mean score", "min", "max"], score_rows))


def _actions_chosen(section: Section, rows: list[dict[str, Any]], plots: Plots, base: str) -> None:
    shares = stats.action_shares(rows)
    section.add("<h3>Actions chosen</h3>")
    section.add(
        '<p class="note">The kind of an action is its verb (with a keyword argument such as '
        "<code>draw pile</code>); every action counts, forced ones included.</p>"
    )
    section.add(image(plots.actions(f"{base}-actions.png", shares), "actions chosen"))
    kinds = sorted({kind for per in shares.values() for kind in per})
    section.add(
        table(
            ["kind", *shares],
            [[kind, *(f"{shares[b].get(kind, 0):.1%}" for b in shares)] for kind in kinds],
        )
    )


def _means_by_bot(section: Section, means: Any) -> None:
    names = sorted({name for per in means.values() for name in per})
    section.add("<h3>Seats at the end (means by bot)</h3>")
    section.add(
        table(
            ["bot", *names],
            [
                [bot, *(f"{per.get(n, float('nan')):.2f}" for n in names)]
                for bot, per in means.items()
            ],
        )
    )


def _ratings(section: Section, rows: list[dict[str, Any]], plots: Plots, base: str) -> None:
    section.add("<h3>Ratings</h3>")
    found = ratings.rate(rows)
    if found is None:
        section.add(
            "<p class=\"note\">Install openskill or trueskill for ratings: pip install -e '.[sim]'.</p>"
        )
    else:
        system, rated = found
        section.add(
            f'<p class="note">{esc(system)}, one rating event per game in seed order; winners ranked '
            "first, the others by score. Sorted by the ordinal mu − 3 sigma.</p>"
        )
        section.add(image(plots.ratings(f"{base}-ratings.png", rated, system), "ratings"))
        section.add(
            table(
                ["bot", "mu", "sigma", "ordinal", "games"],
                [
                    [r.bot, f"{r.mu:.2f}", f"{r.sigma:.2f}", f"{r.ordinal:.2f}", r.games]
                    for r in rated
                ],
            )
        )


def cards_html(found: list[cards.CardStat]) -> str:
    """Per component: the win rate of the seat-games that used it and its lift over their baseline,
    strongest first, with a sentence for each outlier."""
    tested = [card for card in found if card.tested]
    outliers = [card for card in tested if card.outlier]
    parts = [
        "<h3>Components: win rate when used, and lift</h3>",
        '<p class="note">For each component and way of using it (the game\'s words: played, '
        "bought, kept, held...), the seat-games in which the seat used it at least once: their win "
        "rate, and the <b>lift</b>, their mean win share minus the baseline of the same bot in the "
        "same seat, with its 95% interval. Sorted by lift, the tested first. "
        f"{len(tested)} components used in at least {cards.MIN_GAMES} seat-games are tested, "
        f"{cards.CORRECTION}-adjusted together (false discovery rate {compare.ALPHA:.0%}); an "
        "outlier (*) is one whose adjusted p-value is below that. Using a card goes with winning "
        "without always causing it: an experiment says what a change does.</p>",
    ]
    if outliers:
        parts.append(
            "<ul>" + "".join(f"<li>{esc(cards.sentence(c))}</li>" for c in outliers) + "</ul>"
        )
    elif tested:
        parts.append("<p>No component's lift differs significantly from zero.</p>")
    small = len(found) - len(tested)
    if small:
        parts.append(
            f'<p class="note">{small} of {len(found)} are used in fewer than {cards.MIN_GAMES} '
            "seat-games: listed, not tested (their intervals are wide); play more games to read "
            "them.</p>"
        )
    parts.append(
        table(
            ["component", "how", "seat-games", "win rate", "lift", "95% interval", "p"],
            [
                [
                    cards.label(card),
                    card.how,
                    card.rate.games,
                    f"{card.rate.rate:.1%}",
                    f"{card.lift * 100:+.1f} pts",
                    f"{card.low * 100:+.1f} – {card.high * 100:+.1f}",
                    (f"{card.adjusted:.3g}" + (" *" if card.outlier else ""))
                    if card.tested
                    else "—",
                ]
                for card in found
            ],
            numeric_from=2,
        )
    )
    return "".join(parts)


def findings_html(rows: list[dict[str, Any]], players: int) -> str:
    """A sentence for each group (seat, place, bot, house, house in a seat) whose win rate differs
    from the even share after Holm's correction; nothing for noise."""
    found = compare.groups(rows)
    sentences = [compare.group_sentence(g, players) for g in found if g.significant]
    note = compare.small_groups_note(found)
    parts = [
        '<p class="note">The win rate of each group is tested against the even share '
        f"(1/{players}); "
        f"{len(found)} groups, {compare.CORRECTION}-adjusted so that all of them together are wrong "
        f"less than {compare.ALPHA:.0%} of the time. A group with no sentence is within noise.</p>"
    ]
    if sentences:
        parts.append("<ul>" + "".join(f"<li>{esc(s)}</li>" for s in sentences) + "</ul>")
    else:
        parts.append("<p>No group's win rate differs significantly from the even share.</p>")
    if note:
        parts.append(f'<p class="note">{esc(note)}</p>')
    return "".join(parts)


def cell(rate: Rate | None) -> str:
    return rate.text() if rate else "—"


def experiment_section(key: tuple[str, str, int], arms: dict[str, list[dict[str, Any]]]) -> Section:
    """The arms side by side, their paired differences from the first arm, and the findings."""
    game, variant, players = key
    names = list(arms)
    first = arms[names[0]]
    section = Section(
        f"{title_of(game)} ({variant}), {players} players — experiment: {len(names)} arms"
    )
    varied = list(first[0].get("vary", {}))
    section.add(
        f'<p class="note">Every arm played the same seeds (common random numbers): game <i>s</i> of '
        f"two arms starts from the same shuffle, so each difference is measured on pairs of games. "
        f"Varied: {esc(', '.join(varied))}. The baseline is the first arm, "
        f"<b>{esc(names[0])}</b>.</p>"
    )
    stopping = first[0].get("stopping", "")
    if stopping:
        section.add(f"<p><b>Stopping rule:</b> {esc(stopping)}.</p>")
    section.add(
        table(
            ["arm", *varied, "content", "games", "seeds"],
            [
                [
                    name,
                    *(rows[0].get("vary", {}).get(k, "") for k in varied),
                    summary.pack_text(rows),
                    len(rows),
                    f"{min(r['seed'] for r in rows)}–{max(r['seed'] for r in rows)}",
                ]
                for name, rows in arms.items()
            ],
            numeric_from=2 + len(varied),
        )
    )
    section.add("<h3>The arms side by side</h3>")
    section.add(table(["", *names], side_by_side(arms, players), numeric_from=1))

    found = compare.arm_differences(arms)
    section.add("<h3>Differences from the baseline</h3>")
    section.add(
        f'<p class="note">Arm minus baseline, paired by seed: the mean of the per-seed differences '
        f"with its 95% interval (normal approximation); the unpaired interval is what the same games "
        f"would give without pairing (intervals are not adjusted). p-values are two-sided and "
        f"{compare.CORRECTION}-adjusted over "
        f"all {len(found)} differences; a difference is significant when its adjusted p is below "
        f"{compare.ALPHA:.0%}. Win rates in points (percentage points).</p>"
    )
    sentences = [compare.difference_sentence(d) for d in found if d.significant]
    if sentences:
        section.add("<ul>" + "".join(f"<li>{esc(s)}</li>" for s in sentences) + "</ul>")
    elif not found:
        section.add(
            "<p>The arms share fewer than two seeds, so nothing is compared: play every arm on "
            "the same seeds (<code>--seed</code>).</p>"
        )
    else:
        section.add("<p>No difference between the arms is significant.</p>")
    section.add(
        table(
            [
                "arm",
                "measure",
                "group",
                "baseline",
                "arm",
                "difference",
                "paired 95%",
                "unpaired 95%",
                f"p ({compare.CORRECTION})",
            ],
            [difference_row(d) for d in found],
            numeric_from=3,
        )
    )
    return section


def side_by_side(arms: dict[str, list[dict[str, Any]]], players: int) -> list[list[Any]]:
    """Win rates by seat, place, bot and house, mean length and scores: one column per arm."""
    per_arm = list(arms.values())
    lines: list[list[Any]] = []
    everything = [row for rows in per_arm for row in rows]
    groupings: list[tuple[str, Any]] = [("seat ", stats.by_seat), ("place ", stats.by_position)]
    if len({bot for row in everything for bot in row["bots"]}) > 1:  # one bot always has 1/n
        groupings.append(("", stats.by_bot))
    facts = compare.text_facts(everything)
    for fact in facts:
        groupings.append((f"{fact} ", lambda rows, fact=fact: stats.by_seat_fact(rows, fact)))
    for label, grouping in groupings:
        found = [grouping(rows) for rows in per_arm]
        keys = list(dict.fromkeys(k for rates in found for k in rates))
        for k in keys:
            lines.append([f"win rate: {label}{k}", *(cell(rates.get(k)) for rates in found)])
    lines.append(
        ["mean length (turns)", *(f"{_mean(r['turns'] for r in rows):.1f}" for rows in per_arm)]
    )
    for seat in range(players):
        lines.append(
            [
                f"mean score: seat {seat}",
                *(f"{_mean(r['scores'][seat] for r in rows):.2f}" for rows in per_arm),
            ]
        )
    return lines


def difference_row(d: compare.Difference) -> list[Any]:
    win = d.key.measure == compare.WIN

    def shown(value: float) -> str:
        return f"{value:.1%}" if win else f"{value:.2f}"

    def span(low: float, high: float) -> str:
        return f"{low * 100:+.1f} – {high * 100:+.1f}" if win else f"{low:+.2f} – {high:+.2f}"

    change = f"{d.difference * 100:+.1f} pts" if win else f"{d.difference:+.2f}"
    flag = " *" if d.significant else ""
    return [
        d.arm,
        d.key.measure,
        d.key.group,
        shown(d.base_value),
        shown(d.arm_value),
        change,
        span(d.low, d.high),
        span(d.unpaired_low, d.unpaired_high),
        f"{d.adjusted:.3g}{flag}",
    ]


def _mean(values: Any) -> float:
    items = list(values)
    return sum(items) / len(items) if items else 0.0


def build(
    rows: list[dict[str, Any]],
    folder: str | os.PathLike[str],
    sources: list[str],
    plots: bool = True,
) -> Path:
    """Write ``index.html`` and its PNGs into ``folder`` (a str or a path object); return the HTML
    file's path."""
    folder = Path(folder)
    if not rows:
        raise ValueError("the results hold no games")
    folder.mkdir(parents=True, exist_ok=True)
    drawer = Plots(folder, plots)
    sections = []
    for key, arms in summary.arms_of(rows).items():
        if len(arms) > 1:
            sections.append(experiment_section(key, arms))
        sections += [configuration_section(key, group, drawer, arm) for arm, group in arms.items()]
    notes = []
    if not drawer.enabled:
        notes.append(
            "<p class=\"note\">No plots: matplotlib is not installed (pip install -e '.[sim]').</p>"
        )
    contents = "".join(
        f'<li><a href="#s{i}">{esc(s.title)}</a></li>' for i, s in enumerate(sections)
    )
    body = "".join(
        f'<h2 id="s{i}">{esc(s.title)}</h2>' + "\n".join(s.parts) for i, s in enumerate(sections)
    )
    page = (
        "<!doctype html><html><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'><title>Candlebox balance report</title>"
        f"<style>{CSS}</style></head><body><h1>Candlebox balance report</h1>"
        f"<p>{len(rows)} games from {esc(', '.join(sources))}. Intervals are 95% (Wilson).</p>"
        f"{''.join(notes)}<ul>{contents}</ul>{body}</body></html>\n"
    )
    path = folder / "index.html"
    path.write_text(page, encoding="utf-8")
    return path
