"""The report's figures as plain data: each arm's win rates, lengths and scores, the paired
differences between arms, and the findings in words. ``candlebox report --json`` prints them; the HTML
report shows the same figures.

A table without arms (a plain ``candlebox simulate``) is one arm per configuration, named "".
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from candlebox.sim import cards, compare, stats
from candlebox.sim.stats import Rate

Row = dict[str, Any]
Configuration = tuple[str, str, int]  # game, variant, players


def arms_of(rows: list[Row]) -> dict[Configuration, dict[str, list[Row]]]:
    """Rows grouped by configuration, then by arm, both in order of first appearance."""
    found: dict[Configuration, dict[str, list[Row]]] = {}
    for key, group in stats.configurations(rows).items():
        arms: dict[str, list[Row]] = {}
        for row in group:
            arms.setdefault(row.get("arm", ""), []).append(row)
        found[key] = arms
    return found


def rates_json(rates: dict[Hashable, Rate], label: str = "") -> list[dict[str, Any]]:
    return [
        {
            "group": f"{label}{key}",
            "wins": r.wins,
            "games": r.games,
            "rate": r.rate,
            "ci": [r.low, r.high],
        }
        for key, r in rates.items()
    ]


def pack_text(rows: list[Row]) -> str:
    """The content the rows played: 'the shipped content', 'pack sha256:…' or 'design pack sha256:…'
    (a design pack's printed values were changed), several joined by '; '."""
    texts: list[str] = []
    for row in rows:
        pack = row.get("pack") or {}
        if not pack.get("hash"):
            text = "the shipped content"
        else:
            text = f"{'design pack' if pack.get('design') else 'pack'} {pack['hash']}"
        if text not in texts:
            texts.append(text)
    return "; ".join(texts)


def mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def arm_json(key: Configuration, name: str, rows: list[Row]) -> dict[str, Any]:
    """One arm's figures, its groups against the even share and its findings."""
    game, variant, players = key
    found = compare.groups(rows)
    by_fact = {
        fact: rates_json(stats.by_seat_fact(rows, fact), f"{fact} ")
        for fact in compare.text_facts(rows)
    }
    note = compare.small_groups_note(found)
    return {
        "game": game,
        "variant": variant,
        "players": players,
        "arm": name,
        "vary": rows[0].get("vary", {}),
        "games": len(rows),
        "seeds": [min(r["seed"] for r in rows), max(r["seed"] for r in rows)],
        "stopping": rows[0].get("stopping", ""),
        "content": pack_text(rows),
        "win_rate_by_seat": rates_json(stats.by_seat(rows), "seat "),
        "win_rate_by_place": rates_json(stats.by_position(rows), "place "),
        "win_rate_by_bot": rates_json(stats.by_bot(rows)),
        "win_rate_by_fact": by_fact,
        "mean_turns": mean([float(r["turns"]) for r in rows]),
        "mean_steps": mean([float(r["steps"]) for r in rows]),
        "mean_score_by_seat": [mean([float(r["scores"][s]) for r in rows]) for s in range(players)],
        "groups": [compare.group_json(g) for g in found],
        "findings": [compare.group_sentence(g, players) for g in found if g.significant],
        "small_groups": note or "",
    }


def differences_of(arms: dict[str, list[Row]]) -> list[compare.Difference]:
    return compare.arm_differences(arms)


def report_json(rows: list[Row], sources: list[str]) -> dict[str, Any]:
    """Every arm of every configuration, and every arm's paired differences from its baseline."""
    arms: list[dict[str, Any]] = []
    differences: list[dict[str, Any]] = []
    found_cards: list[dict[str, Any]] = []
    for key, by_arm in arms_of(rows).items():
        arms += [arm_json(key, name, arm_rows) for name, arm_rows in by_arm.items()]
        game, variant, players = key
        for name, arm_rows in by_arm.items():
            where = {"game": game, "variant": variant, "players": players, "arm": name}
            for card in cards.card_stats(arm_rows, cards.component_names(arm_rows[0])):
                finding = cards.sentence(card) if card.outlier else ""
                found_cards.append({**where, **cards.card_json(card), "finding": finding})
        for d in differences_of(by_arm):
            entry = compare.difference_json(d)
            entry["finding"] = compare.difference_sentence(d) if d.significant else ""
            differences.append({"game": game, "variant": variant, "players": players, **entry})
    return {
        "sources": sources,
        "games": len(rows),
        "correction": compare.CORRECTION,
        "alpha": compare.ALPHA,
        "arms": arms,
        "differences": differences,
        "card_correction": cards.CORRECTION,
        "cards": found_cards,
    }
