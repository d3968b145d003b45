"""The games of a project: every folder of its ``rules/`` holding a ``game.yaml``.

Light (no pydantic, no game package): a build with nothing to do finds its games too.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from gachapress.errors import Problem

GAME_FILE = "game.yaml"
#: The YAML files a game's folder may hold (see ``load.RULES_FILES`` for what each holds).
RULES_FILE_NAMES = ("game.yaml", "decks.yaml", "examples.yaml", "clarifications.yaml", "book.yaml")
_ID = re.compile(r"^[a-z0-9]+(-[a-z0-9]+)*$")


def is_game_id(name: str) -> bool:
    """Whether ``name`` can be a game id (lowercase letters, digits, single hyphens)."""
    return len(name) <= 64 and _ID.match(name) is not None


def find_games(rules_dir: Path) -> list[str]:
    """The ids of the games in ``rules_dir``: its folders named as ids that hold a
    ``game.yaml`` (whatever it is: loading says what is wrong with it), sorted."""
    return [name for name in _folders(rules_dir) if _has_game_file(rules_dir / name)]


def unknown_folders(rules_dir: Path) -> list[Problem]:
    """A warning for each folder of ``rules/`` that is no game's (it would be silently ignored)."""
    problems = []
    for name in _folders(rules_dir, ids_only=False):
        folder = rules_dir / name
        if not is_game_id(name):
            why = "its name is no game id (lowercase letters, digits and hyphens)"
        elif not _has_game_file(folder):
            why = f"it holds no {GAME_FILE}"
        else:
            continue
        problems.append(
            Problem(folder, 1, 1, f"folder {name!r} in rules/ is ignored: {why}", "warning")
        )
    return problems


def _folders(rules_dir: Path, *, ids_only: bool = True) -> list[str]:
    try:
        entries = sorted(os.scandir(rules_dir), key=lambda entry: entry.name)
    except OSError:
        return []
    return [
        entry.name
        for entry in entries
        if not entry.name.startswith(".")
        and _is_dir(entry)
        and (is_game_id(entry.name) or not ids_only)
    ]


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:  # a symlink loop
        return False


def meant_name(name: str) -> str | None:
    """The rules file that a file named ``name`` was surely meant to be, when it is not named
    exactly so (``GAME.YAML``, ``decks.yml``, ``Book.Yaml``: only ``game.yaml`` and its like are
    read, on every system); None when it is a rules file's name or no rules file's."""
    stem, dot, suffix = name.rpartition(".")
    if not dot or suffix.lower() not in ("yaml", "yml"):
        return None
    meant = f"{stem.lower()}.yaml"
    return meant if meant in RULES_FILE_NAMES and meant != name else None


def _has_game_file(folder: Path) -> bool:
    """Whether the folder holds a ``game.yaml``, or a file meant as one (``GAME.YAML``, found
    so that loading the game says what it should be called)."""
    if os.path.lexists(folder / GAME_FILE):
        return True
    try:
        return any(meant_name(name) == GAME_FILE for name in os.listdir(folder))
    except OSError:
        return False
