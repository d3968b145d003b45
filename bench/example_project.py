"""The example project the benchmarks measure (this repository's rules/ and its games), and
running `gachapress` as a user does."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from gachapress.data.folders import find_games

ROOT = Path(__file__).resolve().parents[1]
#: The example project's games, found as every project's are.
GAME_IDS = tuple(find_games(ROOT / "rules"))


def gachapress(project: Path, *args: str, env: dict[str, str] | None = None) -> None:
    """Run `gachapress ARGS` in ``project``; stop the benchmark, saying why, if it fails."""
    done = subprocess.run(
        [sys.executable, "-m", "gachapress.cli.main", *args],
        cwd=project,
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, **(env or {})},
    )
    if done.returncode != 0:
        raise SystemExit(f"gachapress {' '.join(args)} failed:\n{done.stderr}{done.stdout}")
