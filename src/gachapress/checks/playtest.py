"""`check` holds every game's engine to the engine contract (``gachapress.engine.contract``):
seeded random games of every mode, player count and option, checked as they are played."""

from __future__ import annotations

from collections.abc import Iterator

from gachapress.data.load import GameData
from gachapress.engine.contract import contract_failure
from gachapress.errors import Problem


def playtest(game: GameData) -> Iterator[Problem]:
    """The engine contract's first breach in ``game``, at the player counts of the mode it was
    found in. Its verdict is kept while the engine's code and the data it plays are unchanged
    (a preview's rebuild after an edit of text, art or colours, a `sim` after `check`, do not
    play the games again)."""
    if game.spec.engine is None:
        return
    failure = contract_failure(game)
    if failure is not None:
        path = ("modes", failure.mode, "players") if failure.mode is not None else ("id",)
        yield game.where(path).problem(str(failure))
