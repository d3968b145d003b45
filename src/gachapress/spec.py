"""What a game package provides: its data model, its rule functions and its deck checks."""

from __future__ import annotations

import inspect
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from gachapress.data.model import GameBase

RuleFunction = Callable[..., Any]


class RuleSet:
    """The rule functions of one game, registered by name.

    A rule function is pure: its first parameter is the game's validated model, the others are
    the ``given`` values of a worked example, converted according to their type hints (a card
    type means a card id of this game is looked up).
    """

    def __init__(self) -> None:
        self._rules: dict[str, RuleFunction] = {}

    def rule(self, function: RuleFunction) -> RuleFunction:
        """Register ``function`` under its own name."""
        if function.__name__ in self._rules:
            raise ValueError(f"rule {function.__name__!r} registered twice")
        self._rules[function.__name__] = function
        return function

    def __contains__(self, name: object) -> bool:
        return name in self._rules

    def __getitem__(self, name: str) -> RuleFunction:
        return self._rules[name]

    def names(self) -> list[str]:
        return sorted(self._rules)

    def parameters(self, name: str) -> dict[str, Any]:
        """The ``given`` parameters of a rule and their type hints (not the model parameter)."""
        function = self._rules[name]
        hints = typing.get_type_hints(function)
        params = list(inspect.signature(function).parameters)[1:]
        return {p: hints.get(p, Any) for p in params}

    def optional(self, name: str) -> set[str]:
        """The parameters of a rule that have a default, so an example may leave them out."""
        params = list(inspect.signature(self._rules[name]).parameters.values())[1:]
        return {p.name for p in params if p.default is not inspect.Parameter.empty}


CheckFunction = Callable[..., Iterable[Any]]


@dataclass(frozen=True)
class EngineOption:
    """A switch ``new_game(options=...)`` and ``sim --option`` accept: a variant of the rules
    (a beginner deck...), off unless named."""

    name: str
    help: str
    """One line for ``list`` and ``--help``."""
    modes: tuple[str, ...]
    """The modes it may be used in."""


@dataclass
class EngineSpec:
    """How a game is played: its State class, the bots it defines beyond `random`, and the
    options its games may be started with."""

    state: Callable[..., Any]
    """Called as ``state(game, players, seed, mode, **{option: True ...})`` to start a game."""
    bots: dict[str, Callable[..., Any]] = field(default_factory=dict)
    """Bot factories by name, each called as ``factory(game, seat, seed)``."""
    options: Callable[[Any], list[EngineOption]] | None = None
    """The options, read from the game's validated model."""


@dataclass
class GameSpec:
    """Everything the shared core needs to know about one game's package.

    A package whose game declares its card fields in decks.yaml leaves ``model`` out (None):
    the model is then the one those declarations make, as for a game of data alone, and the
    package adds only what it names (an engine, rules, checks)."""

    model: type[GameBase] | None = None
    """The game's validated model; None for the model of the fields declared in decks.yaml."""
    rules: RuleSet = field(default_factory=RuleSet)
    checks: dict[str, CheckFunction] = field(default_factory=dict)
    """Game-specific consistency checks by id; each yields problems (see gachapress.checks)."""
    references: CheckFunction | None = None
    """Cross-references inside the game's data that must hold before the model can be used
    (e.g. a deck generated from a table naming unknown entries); run when loading."""
    engine: EngineSpec | None = None
    """The game's engine, once it has one."""
    face_context: Callable[..., dict[str, Any]] | None = None
    """Extra values a card layout may name, as ``face_context(model, deck_id, card)`` (e.g. the
    hex colour of a card's suit); the card's own fields are always there."""
