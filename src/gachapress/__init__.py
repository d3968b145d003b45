"""gachapress: card games specified once as YAML, published as engine, cards and rulebooks.

The names below are loaded on first use, so that a command with nothing to do (a no-op build)
starts without importing the validation and engine code."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from gachapress.errors import GachapressError, Problem, RulesError

if TYPE_CHECKING:
    from gachapress.data.load import GameData, load_rules
    from gachapress.engine import Action, Game, IllegalAction, ReplayError, State, load_game, replay

#: Where each lazily loaded name lives.
_LAZY = {
    "GameData": "gachapress.data.load",
    "load_rules": "gachapress.data.load",
    **dict.fromkeys(
        ("Action", "Game", "IllegalAction", "ReplayError", "State", "load_game", "replay"),
        "gachapress.engine",
    ),
}

__all__ = [
    "Action",
    "GachapressError",
    "Game",
    "GameData",
    "IllegalAction",
    "Problem",
    "ReplayError",
    "RulesError",
    "State",
    "load_game",
    "load_rules",
    "replay",
]


def __getattr__(name: str) -> Any:
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'gachapress' has no attribute {name!r}")
