"""The example project the benchmarks measure: this repository's rules/ and its games."""

from __future__ import annotations

from pathlib import Path

from gachapress.data.folders import find_games

ROOT = Path(__file__).resolve().parents[1]
#: The example project's games, found as every project's are.
GAME_IDS = tuple(find_games(ROOT / "rules"))
