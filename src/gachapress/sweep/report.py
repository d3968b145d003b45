"""A sweep's report: per variant and player count, who wins (with 95 % Wilson intervals), how
long games run, how spread the scores are and how games end; as JSON and as an HTML page."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from gachapress.project import Templates
from gachapress.publish.charts import Bar, bar_chart
from gachapress.publish.templating import environment, render
from gachapress.sim import Summary
from gachapress.sweep.file import Sweep

#: A seat's win rate is fair within this many percentage points of an equal share (1/n).
FAIR_BAND_POINTS = 5
TEMPLATE = "sweep.html.j2"


def sweep_report(sweep: Sweep, summaries: Sequence[Summary]) -> dict[str, Any]:
    """The JSON-ready report: the same counts always give the same bytes."""
    spec = sweep.spec
    return {
        "sweep": sweep.name,
        "game": spec.game,
        "mode": sweep.mode,
        "options": sorted(spec.options),
        "bots": spec.bots,
        "games_per_cell": spec.games,
        "seed": spec.seed,
        "fair_band_points": FAIR_BAND_POINTS,
        "cells": [
            _cell(cell.variant.name, cell.variant.settings(), cell.players, summary)
            for cell, summary in zip(sweep.cells, summaries, strict=True)
        ],
    }


def _cell(name: str, settings: dict[str, Any], players: int, summary: Summary) -> dict[str, Any]:
    stats = summary.report()
    fair = 1 / players
    low, high = fair - FAIR_BAND_POINTS / 100, fair + FAIR_BAND_POINTS / 100
    rates = [seat["rate"] for seat in stats["win_rate"]]

    def short(distribution: dict[str, Any]) -> dict[str, Any]:
        return {k: distribution[k] for k in ("mean", "p50", "p90") if k in distribution}

    return {
        "variant": name,
        "set": settings,
        "players": players,
        "games": stats["games"],
        "win_rate": stats["win_rate"],
        "first_seat_advantage": round(rates[0] - fair, 4),
        "fair_band": [round(max(0.0, low), 4), round(high, 4)],
        "unfair_seats": [seat for seat, rate in enumerate(rates) if not low <= rate <= high],
        "length": {
            "actions": short(stats["length"]["actions"]),
            "rounds": short(stats["length"]["rounds"]),
        },
        "score_spread": {k: stats["scores"]["all"][k] for k in ("mean", "stdev", "p10", "p90")},
        "end_conditions": stats["end_conditions"],
    }


def write_page(report: dict[str, Any], title: str, templates: Templates, target: Path) -> None:
    """The report as a self-contained HTML page with a win-rate chart per cell."""
    cells = []
    for number, cell in enumerate(report["cells"]):
        bars = [
            Bar(
                f"Player {seat['seat'] + 1}",
                seat["rate"],
                f"{seat['rate']:.1%} ({seat['ci95'][0]:.1%}-{seat['ci95'][1]:.1%})",
                *seat["ci95"],
            )
            for seat in cell["win_rate"]
        ]
        top = max(1.0 / cell["players"] * 2, *(seat["ci95"][1] for seat in cell["win_rate"]))
        chart = bar_chart(
            f"cell-{number}",
            f"Win rate by player, {cell['variant']}, {cell['players']} players",
            bars,
            maximum=min(1.0, top),
            axis=("0%", f"{min(1.0, top):.0%}"),
            reference=1 / cell["players"],
            reference_label="equal share",
        )
        cells.append({**cell, "number": number, "chart": chart})
    page = render(
        environment(templates),
        TEMPLATE,
        {"report": report, "title": title, "cells": cells},
    )
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.partial")
    partial.write_text(page, encoding="utf-8")
    partial.replace(target)
