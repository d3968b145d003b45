"""Engine cost against hearts in machine instructions, which a busy machine cannot blur.

Run: python bench/engine_instructions.py [--games N] [GAME ...]   (needs valgrind)
engine_bench.py's CPU-time rates swing by a factor of two on a shared virtual machine, even a
quiet one: hearts alone reads 160k-330k actions/s within one run. callgrind counts the
instructions a run executes, which repeat to the instruction whatever else the machine does. Each
configuration plays seeds 0..N-1 with random bots through engine_bench.py's public-API loop, and
OpenSpiel's C++ hearts is driven by the same loop; ``x hearts`` is hearts' instructions per action
over the game's (so 0.5 means the game needs twice the instructions for one action). Startup,
imports, loading the rules and making the random numbers that pick the actions are counted in a
run that plays no game, and subtracted. Each run is
about fifty times slower than normal.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

from engine_bench import chooser, hearts_actions, ours
from example_project import GAME_IDS
from gachapress.engine import load_game
from gachapress.registry import game_spec

HEARTS = "hearts"


def play(game_id: str, mode: str, players: int, games: int, fixed: bool) -> int:
    """Play seeds 0..games-1 (after one warm-up game of another seed); the actions taken.
    ``fixed`` does all but play: it loads the game and makes the random numbers that pick the
    actions."""
    contestant = hearts_actions if game_id == HEARTS else ours(game_id, players, mode)
    contestant(games, chooser(games))  # a seed the run does not play: no memo is warm for it
    choosers = [chooser(seed) for seed in range(games)]
    return 0 if fixed else sum(map(contestant, range(games), choosers))


def instructions(
    game_id: str, mode: str, players: int, games: int, fixed: bool = False
) -> tuple[int, int]:
    """(instructions, actions) of one run of ``play`` under callgrind."""
    result = subprocess.run(
        [
            "valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
            __file__, "--inner", game_id, mode, str(players), str(games), str(int(fixed)),
        ],
        capture_output=True, text=True, check=True, cwd=Path(__file__).parent,
    )
    collected = re.search(r"Collected : (\d+)", result.stderr)
    actions = re.search(r"^actions (\d+)$", result.stdout, re.MULTILINE)
    if collected is None or actions is None:
        raise RuntimeError(f"callgrind gave no count:\n{result.stderr[-2000:]}")
    return int(collected.group(1)), int(actions.group(1))


def per_action(game_id: str, mode: str, players: int, games: int) -> float:
    """Instructions per action, the fixed cost of a run with no games taken away."""
    total, actions = instructions(game_id, mode, players, games)
    fixed, _ = instructions(game_id, mode, players, games, fixed=True)
    return (total - fixed) / actions


def main() -> None:
    if sys.argv[1:2] == ["--inner"]:
        game_id, mode, players, games, fixed = sys.argv[2:7]
        print(f"actions {play(game_id, mode, int(players), int(games), fixed == '1')}")
        return
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=list(GAME_IDS))
    parser.add_argument("--games", type=int, default=100, dest="count")
    options = parser.parse_args()
    reference = per_action(HEARTS, "", 4, options.count)
    print(f"hearts: {reference:,.0f} instructions/action")
    print(f"{'game':16}{'mode':12}{'players':>8}{'instructions/action':>21}{'x hearts':>9}")
    ratios: list[float] = []
    for game_id in options.games:
        if game_spec(game_id).engine is None:
            continue
        for mode, mode_data in load_game(game_id).model.modes.items():
            for players in mode_data.players:
                cost = per_action(game_id, mode, players, options.count)
                ratios.append(reference / cost)
                print(f"{game_id:16}{mode:12}{players:8d}{cost:21,.0f}{reference / cost:9.2f}",
                      flush=True)
    if ratios:
        print(f"x hearts: lowest {min(ratios):.2f}, highest {max(ratios):.2f}")


if __name__ == "__main__":
    main()
