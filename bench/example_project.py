"""The example project the benchmarks measure (this repository's rules/ and its games), and
running `gachapress` as a user does."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from gachapress.data.folders import find_games

ROOT = Path(__file__).resolve().parents[1]
#: The example project's games, found as every project's are.
GAME_IDS = tuple(find_games(ROOT / "rules"))


@dataclass(frozen=True)
class Usage:
    """What one command took: wall and CPU seconds, and its peak memory (MiB), its own
    processes' only."""

    wall: float
    cpu: float
    peak: float


def gachapress(project: Path, *args: str, env: dict[str, str] | None = None) -> Usage:
    """Run `gachapress ARGS` in ``project``; stop the benchmark, saying why, if it fails."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "gachapress.cli.main", *args],
        cwd=project,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, **(env or {})},
    )
    assert process.stdout is not None
    output = process.stdout.read()
    _, status, usage = os.wait4(process.pid, 0)  # this command's figures, not the others'
    process.returncode = os.waitstatus_to_exitcode(status)
    if process.returncode != 0:
        raise SystemExit(f"gachapress {' '.join(args)} failed:\n{output}")
    return Usage(
        time.perf_counter() - started, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024
    )
