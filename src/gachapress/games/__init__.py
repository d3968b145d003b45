"""The five games. Each lives in its own package here, shaped like its siblings."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the spec's model is pydantic: not loaded where only the ids are needed
    from gachapress.games.spec import GameSpec

GAME_IDS: tuple[str, ...] = ("gotchacards", "gachapon-trick", "gotcha", "rps-fire", "gasha")


def game_spec(game_id: str) -> GameSpec:
    """The spec of a game's package, by game id."""
    if game_id not in GAME_IDS:
        raise KeyError(game_id)
    module = importlib.import_module(f"gachapress.games.{game_id.replace('-', '_')}")
    return module.SPEC
