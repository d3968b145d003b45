"""The registry of game packages: a game's Python package, where it has one, by game id.

Games themselves are found as folders of a project's ``rules/`` (``data.folders``); a package
adds rule functions, checks, an engine or book hooks to the game of its id. Packages register
through the entry-point group ``gachapress.games`` (name: the game id, value: the package's
``GameSpec``), so an installable package adds itself; the five example games register the same
way (see pyproject.toml). A package whose game declares its card fields in decks.yaml leaves
the spec's ``model`` out. A game may instead name an engine module of its own folder in
game.yaml (``gachapress.local_engine``); never both.
"""

from __future__ import annotations

import importlib.util
from functools import cache
from importlib.metadata import EntryPoint, entry_points
from pathlib import Path
from typing import TYPE_CHECKING

from gachapress.errors import RulesError

if TYPE_CHECKING:  # the spec's model is pydantic: not loaded where only the ids are needed
    from gachapress.spec import GameSpec

ENTRY_POINT_GROUP = "gachapress.games"


@cache
def registered() -> dict[str, EntryPoint]:
    """Every registered game package's entry point, by game id (read once per process)."""
    return {point.name: point for point in entry_points(group=ENTRY_POINT_GROUP)}


def game_spec(game_id: str) -> GameSpec | None:
    """The spec of the package registered for ``game_id``; None for a game of data alone."""
    point = registered().get(game_id)
    return None if point is None else point.load()


def registered_by(game_id: str) -> str:
    """The installed package that registers ``game_id``, as a message names it."""
    point = registered()[game_id]
    dist = point.dist.name if point.dist is not None else "?"
    return f"{dist} ({point.value})"


def package_files(game_id: str) -> list[Path]:
    """The Python files of the package registered for ``game_id`` when it is not gachapress's
    own (whose files are hashed with gachapress's code): what a change of its engine is seen by.
    Found without importing the package."""
    point = registered().get(game_id)
    top = point.module.partition(".")[0] if point is not None else "gachapress"
    found = None if top == "gachapress" else importlib.util.find_spec(top)
    if found is None:
        return []
    if found.submodule_search_locations:
        folders = [Path(folder) for folder in found.submodule_search_locations]
        return sorted(file for folder in folders for file in folder.rglob("*.py"))
    return [Path(found.origin)] if found.origin else []


def has_engine(game_id: str, folder: Path) -> bool:
    """Whether the game of ``folder`` has an engine to play it (simulations, statistics, the
    Play page): its registered package has one, or its game.yaml names an engine module
    (whether that loads, loading the game says)."""
    from gachapress.data.yamlsource import load_yaml

    spec = game_spec(game_id)
    if spec is not None:
        return spec.engine is not None
    try:
        content, _ = load_yaml(folder / "game.yaml")
    except RulesError:
        return False
    return isinstance(content, dict) and isinstance(content.get("engine"), dict)
