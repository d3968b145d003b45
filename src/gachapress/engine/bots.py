"""Bots choose an action from what their seat may see; `random` works for every game."""

from __future__ import annotations

import random
from typing import Any, ClassVar, Protocol

from gachapress.engine.core import Action


class Bot(Protocol):
    """A player: decides from its observation and the legal actions, nothing else."""

    #: False when the bot never reads the observation (it is then not computed, for speed).
    needs_observation: ClassVar[bool]

    def choose(self, observation: dict[str, Any] | None, legal: list[Action]) -> Action: ...


class RandomBot:
    """Picks uniformly among the legal actions, with its own seeded generator."""

    needs_observation: ClassVar[bool] = False

    def __init__(self, seed: int | str) -> None:
        self.rng = random.Random(seed)

    def choose(self, observation: dict[str, Any] | None, legal: list[Action]) -> Action:
        return legal[int(self.rng.random() * len(legal))]
