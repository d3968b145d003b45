"""Peak memory of `gachapress sim` against the number of games: it should stay flat.

Run: python bench/sim_memory.py [--game rps-fire] [--players 2] [--jobs 1] [COUNT ...]
(default counts 10^4, 10^5, 10^6; 10^6 takes a while). Each count runs `sim` in a fresh process
and prints that process's peak resident set size (its own and its workers', from wait4).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time


def peak_rss(args: list[str]) -> tuple[float, float]:
    """(peak RSS in MiB, wall seconds) of one `gachapress` run with ``args``."""
    start = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "gachapress.cli.main", *args], stdout=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(process.pid, 0)
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode:
        raise SystemExit(f"sim failed with exit {process.returncode}")
    return usage.ru_maxrss / 1024, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("counts", nargs="*", type=int, default=[10**4, 10**5, 10**6])
    parser.add_argument("--game", default="rps-fire")
    parser.add_argument("--players", default="2")
    parser.add_argument("--jobs", default="1")
    options = parser.parse_args()
    print(f"sim {options.game} --players {options.players} --jobs {options.jobs}")
    print(f"{'games':>10}  {'peak RSS':>10}  {'time':>8}")
    for count in options.counts:
        args = ["sim", options.game, "--players", options.players, "--games", str(count)]
        mib, seconds = peak_rss([*args, "--jobs", options.jobs, "--seed", "1"])
        print(f"{count:>10,}  {mib:>7.1f} MiB  {seconds:>7.0f} s", flush=True)


if __name__ == "__main__":
    main()
