"""Engine cost that a busy machine cannot blur: Python bytecodes and calls per action.

Run: python bench/engine_bytecodes.py [--games N] [--top K] [GAME ...]
CPU-time rates (engine_bench.py) swing by half on a shared machine; the bytecodes a game runs
per action do not change from one run to the next, so they tell whether a change made the
engine do less. Each configuration plays seeds 0..N-1 once with random bots through the same
public-API loop as engine_bench.py, after one warm-up game of seed N, and counts them: as in the
bench, no game meets a memo that a replay of its own seed warmed, and per-load memos warm over
the run as they do in a sweep. ``--top K`` lists the K functions that run the most bytecodes.
Counting runs the games about fifty times slower than normal.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from types import CodeType, FrameType
from typing import Any

from engine_bench import chooser, ours
from example_project import GAME_IDS
from gachapress.engine import load_game
from gachapress.registry import game_spec


def count(game_id: str, players: int, mode: str, games: int) -> tuple[int, Counter[CodeType]]:
    """(actions, bytecodes run by each function) of the configuration's games."""
    contestant = ours(game_id, players, mode)
    contestant(games, chooser(games))  # the warm-up: a seed the count does not play
    choosers = [chooser(seed) for seed in range(games)]
    ops: Counter[CodeType] = Counter()

    def each_opcode(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "opcode":
            ops[frame.f_code] += 1
        return each_opcode

    def each_call(frame: FrameType, event: str, arg: Any) -> Any:
        frame.f_trace_opcodes = True
        return each_opcode

    sys.settrace(each_call)
    try:
        actions = sum(map(contestant, range(games), choosers))
    finally:
        sys.settrace(None)
    return actions, ops


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("games", nargs="*", default=list(GAME_IDS))
    parser.add_argument("--games", type=int, default=30, dest="count")
    parser.add_argument("--top", type=int, default=0)
    options = parser.parse_args()
    print(f"{'game':16}{'mode':12}{'players':>8}{'bytecodes/action':>18}")
    for game_id in options.games:
        if game_spec(game_id).engine is None:
            continue
        for mode, mode_data in load_game(game_id).model.modes.items():
            for players in mode_data.players:
                actions, ops = count(game_id, players, mode, options.count)
                print(f"{game_id:16}{mode:12}{players:8d}{sum(ops.values()) / actions:18.0f}")
                for code, n in ops.most_common(options.top):
                    where = f"{code.co_filename.rsplit('/', 1)[-1]}:{code.co_firstlineno}"
                    print(f"{'':36}{n / actions:8.1f}  {code.co_name} ({where})")


if __name__ == "__main__":
    main()
