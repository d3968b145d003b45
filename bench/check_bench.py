"""Figures for the data layer: loading, checking and rule-function speed, and peak memory.

Run: python bench/check_bench.py [GAME ...]   (prints figures; it passes or fails nothing)
"""

from __future__ import annotations

import resource
import subprocess
import sys
import time
from collections.abc import Callable

from example_project import GAME_IDS
from gachapress.checks import run_checks
from gachapress.checks.examples import convert_arguments
from gachapress.data.load import load_rules


def best_of(repeats: int, action: Callable[[], object]) -> float:
    """The fastest of ``repeats`` runs, in seconds (the least disturbed by other load)."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return min(times)


def rule_calls_per_second(game_id: str) -> float:
    """Worked-example calls per second through the registered rule functions."""
    game = load_rules(game_id)
    calls = [
        (game.spec.rules[ex.rule], convert_arguments(game, ex.rule, ex.given))
        for ex in game.model.examples
    ]
    rounds = max(1, 20_000 // max(1, len(calls)))
    start = time.perf_counter()
    for _ in range(rounds):
        for function, kwargs in calls:
            function(game.model, **kwargs)
    return rounds * len(calls) / (time.perf_counter() - start)


def main(games: list[str]) -> None:
    print(f"{'game':16}{'load ms':>9}{'checks ms':>11}{'examples':>10}{'rule calls/s':>14}")
    for game_id in games:
        load = best_of(5, lambda g=game_id: load_rules(g))
        game = load_rules(game_id)
        check = best_of(5, lambda g=game: run_checks(g))
        rate = rule_calls_per_second(game_id)
        print(
            f"{game_id:16}{load * 1e3:9.1f}{check * 1e3:11.1f}"
            f"{len(game.model.examples):10d}{rate:14,.0f}"
        )
    start = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "gachapress.cli.main", "check", *games],
        capture_output=True,
        check=False,
    )
    print(
        f"`gachapress check` (cold process, {len(games)} games): "
        f"{time.perf_counter() - start:.2f} s"
    )
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak memory of this benchmark process: {peak_kib / 1024:.0f} MiB")


if __name__ == "__main__":
    main(sys.argv[1:] or list(GAME_IDS))
