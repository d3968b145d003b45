"""What the engine reads of a game's model: the part of the data that a change of text, art or
colour leaves alone, so that what was played from it (book statistics, the playtest of
``check``) need not be played again."""

from __future__ import annotations

import json
from typing import Any

from gachapress.data.load import GameData

#: Top-level parts of a game's model that no simulation reads: its title, what to put on the
#: table, the book, its examples and clarifications.
NOT_PLAYED = frozenset(
    {"name", "languages", "play_time", "components", "examples", "playthroughs"}
    | {"clarifications", "book"}
)
#: Keys anywhere in the model that only shape how a thing looks or is explained.
LOOKS = frozenset({"art", "hex", "provenance", "clarification"})


def play_data(game: GameData) -> str:
    """A canonical dump of what the engine reads from a game's model: every number, id, list
    and rule, without text in any language, art, colours or the book."""
    languages = set(game.model.languages)

    def played(value: Any) -> Any:
        if isinstance(value, dict):
            texts = all(isinstance(v, str) for v in value.values())
            if value and set(value) <= languages and texts:
                return None  # text shown to players
            return {k: played(v) for k, v in value.items() if k not in LOOKS}
        if isinstance(value, list):
            return [played(v) for v in value]
        return value

    data = game.model.model_dump(mode="json", exclude=set(NOT_PLAYED))
    return json.dumps(played(data), sort_keys=True, separators=(",", ":"))
