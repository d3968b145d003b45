"""The registry of game packages: a game's Python package, where it has one, by game id.

Games themselves are found as folders of a project's ``rules/`` (``data.folders``); a package
adds rule functions, checks, an engine or book hooks to the game of its id. Packages register
through the entry-point group ``gachapress.games`` (name: the game id, value: the package's
``SPEC``), so an installable package adds itself; the five example games register the same way
(see pyproject.toml).
"""

from __future__ import annotations

from functools import cache
from importlib.metadata import EntryPoint, entry_points
from typing import TYPE_CHECKING

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


def has_engine(game_id: str) -> bool:
    """Whether the game has an engine to play it (simulations, statistics, the Play page)."""
    spec = game_spec(game_id)
    return spec is not None and spec.engine is not None
