"""A designer's spreadsheet deck: `check` (the first in a new project, then again), a cold
`build` and a build with nothing to do, for decks of 50 and 500 distinct faces (or --faces N
...), in a scratch project made by `gachapress new`, with four fields, a text that wraps, art on
half the cards, and counts that add up to about twice the faces. Prints seconds in all and per
face, and the peak memory of the commands (the cold build's).

Run: python bench/designer_bench.py [--faces 50 500]   (figures only)
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

from designer_deck import GAME, designer_project
from example_project import gachapress


def run(*args: str, cwd: Path) -> tuple[float, int]:
    """Seconds a `gachapress` command takes, and the peak memory (KiB) of the commands so far."""
    started = time.perf_counter()
    gachapress(cwd, *args)
    took = time.perf_counter() - started
    return took, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss


def measure(faces: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch)
        designer_project(root, faces)
        first, _ = run("check", GAME, cwd=root)  # in a new project: its font metrics made once
        check, _ = run("check", GAME, cwd=root)
        cold, peak = run("build", GAME, "--jobs", str(os.cpu_count() or 1), cwd=root)
        noop, _ = run("build", GAME, cwd=root)
        return {"first": first, "check": check, "build": cold, "no-op": noop, "peak": peak / 1024}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--faces", type=int, nargs="+", default=[50, 500])
    sizes = parser.parse_args().faces
    print(f"{'faces':>6} {'1st check s':>12} {'check s':>8} {'/face ms':>9} {'build s':>8} "
          f"{'/face ms':>9} {'no-op s':>8} {'peak MiB':>9}")  # fmt: skip
    for faces in sizes:
        f = measure(faces)
        print(
            f"{faces:>6} {f['first']:>12.2f} {f['check']:>8.2f} {1000 * f['check'] / faces:>9.1f} "
            f"{f['build']:>8.2f} {1000 * f['build'] / faces:>9.1f} {f['no-op']:>8.2f} "
            f"{f['peak']:>9.0f}"
        )


if __name__ == "__main__":
    main()
