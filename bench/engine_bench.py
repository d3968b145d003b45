"""Engine figures: actions/s and games/s with random bots, one process and two; peak memory.

Run: python bench/engine_bench.py [--games-per-run N] [--no-jobs] [--long] [GAME ...]
Single-process rates use CPU time (games/s per core) and drive each game through the public API
with the very loop that drives OpenSpiel's C++ hearts (``pip install -e '.[bench]'``): a
uniformly random legal action, applied, until the game is over. ``x hearts`` is a game's
actions/s over those of hearts, the two played in turns (hearts counts its players' actions;
its dealing, chance nodes, is timed as our games' deals are, inside the game). The --jobs
rates are wall-clock `sim` runs and need a quiet machine. --long adds a 100,000-game `sim` to
show that memory stays flat.
"""

from __future__ import annotations

import argparse
import functools
import random
import resource
import time
from collections.abc import Callable
from typing import Any

from example_project import GAME_IDS
from gachapress.engine import load_game
from gachapress.registry import game_spec
from gachapress.sim import SimSpec, run_sim

Play = Callable[[int, Callable[[], float]], int]
"""``play(seed, choose)`` plays one game, picking its random actions with ``choose``; the actions
it took."""


def chooser(seed: int) -> Callable[[], float]:
    """The random numbers that pick the actions of game ``seed``, the same for every contestant.

    They are made before the clock starts: seeding a Mersenne Twister costs as much as several
    actions, is the bench's work and not an engine's, and would weigh on a game of 11 actions
    five times more than on hearts' 52."""
    return random.Random(2 * seed + 1).random


def interleaved(plays: list[Play], games: int) -> list[tuple[float, float]]:
    """(actions/s, games/s) of each contestant over seeds 0..games-1, on CPU time (the process's
    own seconds, so other work on the machine does not count).

    The seeds go in chunks of CHUNK, and each chunk is played by every contestant in turn: a
    virtual machine's speed drifts by a factor of two over seconds even when it is quiet, and
    taking turns every few milliseconds makes a game and hearts meet the same drift. Each seed
    is played once: a game that remembers what it worked out (a resolved turn, a hand's
    rewards) would play a seed it has seen faster than a new one, so a best of several runs of
    the same seeds would flatter it."""
    actions, seconds = [0] * len(plays), [0.0] * len(plays)
    for first in range(0, games, CHUNK):
        seeds = range(first, min(first + CHUNK, games))
        for index, play in enumerate(plays):
            choosers = [chooser(seed) for seed in seeds]
            start = time.process_time()
            actions[index] += sum(map(play, seeds, choosers))
            seconds[index] += time.process_time() - start
    return [(actions[i] / seconds[i], games / seconds[i]) for i in range(len(plays))]


CHUNK = 10


def random_loop(state: Any, choose: Callable[[], float]) -> int:
    """Play ``state`` to its end through the public API, a random legal action at a time."""
    actions = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply(legal[int(choose() * len(legal))])
        actions += 1
    return actions


def ours(game_id: str, players: int, mode: str) -> Play:
    """One random game of ours through the public API."""
    game = load_game(game_id)
    return lambda seed, choose: random_loop(game.new_game(players, seed, mode), choose)


@functools.cache
def _hearts_game() -> Any:
    import pyspiel  # type: ignore[import-not-found]

    return pyspiel.load_game("hearts")


def hearts_actions(seed: int, choose: Callable[[], float]) -> int:
    """Play one game of OpenSpiel's C++ hearts in the same loop; its players' actions.

    The deal (chance nodes) is played in the loop too, as our games deal inside theirs, but
    not counted as actions."""
    state, actions = _hearts_game().new_initial_state(), 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(choose() * len(outcomes))][0])
            continue
        legal = state.legal_actions()
        state.apply_action(legal[int(choose() * len(legal))])
        actions += 1
    return actions


def has_hearts() -> bool:
    try:
        import pyspiel  # type: ignore[import-not-found]  # noqa: F401
    except ImportError:
        return False
    return True


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
    parser.add_argument("--no-jobs", action="store_true", help="skip the wall-clock sim runs")
    parser.add_argument("--long", action="store_true")
    options = parser.parse_args()
    reference = has_hearts()
    if not reference:
        print("open-spiel is not installed (pip install -e '.[bench]'): no hearts reference")
    print(
        f"{'game':16}{'mode':12}{'players':>8}{'actions/s':>12}{'hearts':>10}{'x hearts':>9}"
        f"{'games/s':>10}"
        + ("" if options.no_jobs else f"{'games/s -j1':>13}{'games/s -j2':>13}{'j2/j1':>7}")
    )
    ratios: list[float] = []
    for game_id in options.games:
        if game_spec(game_id).engine is None:
            print(f"{game_id:16}(no engine yet)")
            continue
        for mode, mode_data in load_game(game_id).model.modes.items():
            for players in mode_data.players:
                play = ours(game_id, players, mode)
                if reference:
                    (rate, games_rate), (hearts, _) = interleaved(
                        [play, hearts_actions], options.count
                    )
                else:
                    ((rate, games_rate),) = interleaved([play], options.count)
                line = f"{game_id:16}{mode:12}{players:8d}{rate:12,.0f}"
                if reference:
                    ratios.append(rate / hearts)
                    line += f"{hearts:10,.0f}{rate / hearts:9.2f}"
                else:
                    line += f"{'-':>10}{'-':>9}"
                line += f"{games_rate:10,.0f}"
                if not options.no_jobs:
                    j1 = with_jobs(game_id, players, mode, options.count, 1)
                    j2 = with_jobs(game_id, players, mode, options.count, 2)
                    line += f"{j1:13,.0f}{j2:13,.0f}{j2 / j1:7.2f}"
                print(line, flush=True)
    if ratios:
        print(f"x hearts: lowest {min(ratios):.2f}, highest {max(ratios):.2f}")
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
