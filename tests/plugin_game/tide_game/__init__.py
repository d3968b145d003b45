"""Tide as an installable game package: its engine and rule functions, registered for the game
id ``tide``. The cards' fields are declared in the game's decks.yaml, so the spec leaves the
model out."""

from gachapress.spec import GameSpec
from tide_game.engine import ENGINE, RULES

SPEC = GameSpec(rules=RULES, engine=ENGINE)
