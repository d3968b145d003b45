"""Sweep throughput: games/s of one sweep in this process, on a 1-worker and a 2-worker Dask
LocalCluster, and the scaling efficiency (2-worker rate / twice the 1-worker rate).

Run: python bench/sweep_bench.py [--games N] [GAME ...]
Each game gets a sweep of two variants (the rules as written, and one card count changed
where the game allows it simply) at two player counts, random bots. Rates are wall-clock
(cluster start excluded) and need a quiet machine: on a busy one, read them as a floor.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from gachapress.sweep import Store, load_sweep, run_sweep
from gachapress.sweep.run import dask_runner, in_process

ROOT = Path(__file__).resolve().parents[1]
#: Per game: two player counts and a variant's settings (empty: only the rules as written).
SWEEPS = {
    "rps-fire": ("[3, 5]", "{decks.main.cards.fire-alarm-both.count: 1, components.0.count: 55}"),
    "gachapon-trick": ("[3, 4]", "{setup.3.money: 4000, setup.4.money: 4000}"),
    "gasha": ("[2, 4]", "{turn.draw: 3}"),
    "gotcha": ("[3, 5]", "{decks.ituned.cards.ituned-1500-lucky.rate_bonus: 0}"),
    "gotchacards": ("[2, 3]", "{}"),
}


def sweep_file(folder: Path, game_id: str, games: int) -> Path:
    players, changes = SWEEPS[game_id]
    mode = "mode: party\n" if game_id == "gotchacards" else ""
    text = (
        f"game: {game_id}\n{mode}players: {players}\ngames: {games}\nseed: 1\nchunk: 100\n"
        f"variants:\n  - name: as-written\n  - name: changed\n    set: {changes}\n"
    )
    file = folder / f"{game_id}.yaml"
    file.write_text(text)
    return file


def rate(file: Path, store: Path, workers: int | None) -> float:
    """games/s of the sweep, with ``workers`` Dask workers (None: in this process)."""
    sweep = load_sweep(file, ROOT / "rules")
    if workers is None:
        start = time.perf_counter()
        run_sweep(sweep, Store(store), in_process)
        return sweep.total_games / (time.perf_counter() - start)
    with dask_runner(workers, None) as runner:
        start = time.perf_counter()
        run_sweep(sweep, Store(store), runner)
        return sweep.total_games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=list(SWEEPS))
    parser.add_argument("--games", type=int, default=500, dest="count", help="games per cell")
    options = parser.parse_args()
    print(
        f"{'game':16}{'cells':>6}{'games':>7}{'here':>9}{'1 worker':>10}{'2 workers':>11}"
        f"{'efficiency':>12}"
    )
    for game_id in options.games:
        with tempfile.TemporaryDirectory() as scratch:
            folder = Path(scratch)
            file = sweep_file(folder, game_id, options.count)
            here = rate(file, folder / "here", None)
            one = rate(file, folder / "one", 1)
            two = rate(file, folder / "two", 2)
        cells = 4
        print(
            f"{game_id:16}{cells:>6}{cells * options.count:>7}{here:>9.0f}{one:>10.0f}"
            f"{two:>11.0f}{two / (2 * one):>12.0%}"
        )


if __name__ == "__main__":
    main()
