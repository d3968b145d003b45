"""The folders of rules/: which are no game's (light: a build with nothing to do says it too)."""

from __future__ import annotations

from pathlib import Path

from gachapress.errors import Problem
from gachapress.games import GAME_IDS


def unknown_folders(rules_dir: Path) -> list[Problem]:
    """A warning for each folder of ``rules/`` that is no game's (it would be silently ignored)."""
    if not rules_dir.is_dir():
        return []
    return [
        Problem(
            path,
            1,
            1,
            f"folder {path.name!r} in rules/ is no game's and is ignored "
            f"(games: {', '.join(GAME_IDS)})",
            "warning",
        )
        for path in sorted(rules_dir.iterdir())
        if path.is_dir() and path.name not in GAME_IDS and not path.name.startswith(".")
    ]


__all__ = ["unknown_folders"]
