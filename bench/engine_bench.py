"""Engine figures: actions/s and games/s with random bots, one process and two; peak memory.

Run: python bench/engine_bench.py [--games-per-run N] [--long] [GAME ...]
Single-process rates use CPU time; the --jobs rates are wall-clock and need a quiet machine.
Only games that have an engine are measured. --long adds a 100,000-game `sim` to show that
memory stays flat (streaming statistics).
"""

from __future__ import annotations

import argparse
import resource
import time

from gachapress.engine import load_game
from gachapress.engine.play import play_game
from gachapress.games import GAME_IDS, game_spec
from gachapress.sim import SimSpec, run_sim


def single_process(game_id: str, players: int, mode: str, games: int) -> tuple[float, float]:
    """(actions/s, games/s) of random-bot games played in this process, on CPU time (the
    process's own seconds, so other work on the machine does not count), best of three."""
    game = load_game(game_id)
    best = float("inf")
    for _ in range(3):
        actions = 0
        start = time.process_time()
        for seed in range(games):
            _, result = play_game(game, players, seed, mode)
            actions += result.actions
        best = min(best, time.process_time() - start)
    return actions / best, games / best


def with_jobs(game_id: str, players: int, mode: str, games: int, jobs: int) -> float:
    """games/s of `sim` with ``jobs`` processes."""
    spec = SimSpec(game_id, players, games, seed=1, mode=mode)
    start = time.perf_counter()
    run_sim(spec, jobs=jobs)
    return games / (time.perf_counter() - start)


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=list(GAME_IDS))
    parser.add_argument("--games-per-run", type=int, default=1000, dest="count")
    parser.add_argument("--long", action="store_true")
    options = parser.parse_args()
    print(
        f"{'game':16}{'mode':12}{'players':>8}{'actions/s':>12}{'games/s':>10}"
        f"{'games/s -j1':>13}{'games/s -j2':>13}{'j2/j1':>7}"
    )
    for game_id in options.games:
        if game_spec(game_id).engine is None:
            print(f"{game_id:16}(no engine yet)")
            continue
        for mode, mode_data in load_game(game_id).model.modes.items():
            for players in mode_data.players:
                rate, games_rate = single_process(game_id, players, mode, options.count)
                j1 = with_jobs(game_id, players, mode, options.count, 1)
                j2 = with_jobs(game_id, players, mode, options.count, 2)
                print(
                    f"{game_id:16}{mode:12}{players:8d}{rate:12,.0f}{games_rate:10,.0f}"
                    f"{j1:13,.0f}{j2:13,.0f}{j2 / j1:7.2f}"
                )
    print(f"peak memory: {peak_mib():.0f} MiB")
    if options.long:
        for game_id in options.games:
            if game_spec(game_id).engine is None:
                continue
            start = time.perf_counter()
            players = load_game(game_id).model.player_counts()[-1]
            run_sim(SimSpec(game_id, players, 100_000, seed=1), jobs=2)
            print(
                f"{game_id}: 100,000 games ({players}p, 2 jobs) in "
                f"{time.perf_counter() - start:.0f} s; peak memory {peak_mib():.0f} MiB"
            )


if __name__ == "__main__":
    main()
