"""What a broken engine contract raises: a plain sentence, and the step it was found at."""

from __future__ import annotations

from gachapress.errors import GachapressError


class Breach(GachapressError, AssertionError):
    """The engine broke its contract: ``message`` says how, in one plain sentence (without the
    game, seed and step, which ``run_contract`` adds); ``step`` is the count of actions played
    when it showed, where the check that found it knows better than its caller."""

    def __init__(self, message: str, step: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.step = step
