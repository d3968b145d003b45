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
    """Picks uniformly among the legal actions with a seeded generator, which the random bots of
    one game may share (seeding a generator costs more than a short game's every choice)."""

    needs_observation: ClassVar[bool] = False

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, observation: dict[str, Any] | None, legal: list[Action]) -> Action:
        return legal[int(self.rng.random() * len(legal))]
