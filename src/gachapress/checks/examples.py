"""Run worked examples through the game's rule functions."""

from __future__ import annotations

import types
import typing
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pydantic import TypeAdapter, ValidationError

from gachapress.data.load import GameData
from gachapress.data.model import Card, Example
from gachapress.data.yamlsource import Locations, PathKey
from gachapress.errors import Problem


class ExampleInputError(ValueError):
    """A ``given`` value of an example does not fit the rule's parameter."""

    def __init__(
        self, key: str, message: str, index: int | None = None, *, at_key: bool = False
    ) -> None:
        super().__init__(message)
        self.key = key
        self.index = index
        self.at_key = at_key


@dataclass(frozen=True)
class Verdict:
    """What the engine said about one example."""

    example: Example
    result: Any
    passed: bool
    problem: Problem | None


def evaluate(
    game: GameData, example: Example, path: PathKey, locations: Locations | None = None
) -> Verdict:
    """Call the example's rule with its ``given`` values and compare with ``expect``.

    ``path`` is where the example sits in ``locations`` (the game's own files by default).
    """
    rules = game.spec.rules
    where = (locations or game.locations).at
    if example.rule not in rules:
        problem = where((*path, "rule")).problem(f"unknown rule {example.rule!r}")
        return Verdict(example, None, False, problem)
    try:
        kwargs = convert_arguments(game, example.rule, example.given)
    except ExampleInputError as exc:
        spot = (*path, "given", exc.key) + ((exc.index,) if exc.index is not None else ())
        problem = where(spot, key=exc.at_key).problem(f"example {example.id!r}: {exc}")
        return Verdict(example, None, False, problem)
    try:
        result = _plain(rules[example.rule](game.model, **kwargs))
    except Exception as exc:  # a rule refusing its input is the example's failure, not a crash
        problem = where(path).problem(
            f"example {example.id!r}: {example.rule} raised {type(exc).__name__}: {exc}"
        )
        return Verdict(example, None, False, problem)
    if result == example.expect and type(result) is type(example.expect):
        return Verdict(example, result, True, None)
    problem = where((*path, "expect")).problem(
        f"example {example.id!r}: {example.rule} returned {_show(result)}, "
        f"expected {_show(example.expect)}"
    )
    return Verdict(example, result, False, problem)


def run_examples(
    game: GameData, examples: Sequence[Example], path: PathKey, locations: Locations | None = None
) -> list[Verdict]:
    """The verdict on each example of ``examples``, a list found at ``path`` in ``locations``."""
    return [evaluate(game, ex, (*path, i), locations) for i, ex in enumerate(examples)]


def convert_arguments(game: GameData, rule: str, given: dict[str, Any]) -> dict[str, Any]:
    """Turn an example's ``given`` values into the rule's arguments (card ids become cards)."""
    params = game.spec.rules.parameters(rule)
    for key in given:
        if key not in params:
            message = f"{rule} takes no {key!r} (it takes: {', '.join(params)})"
            raise ExampleInputError(key, message, at_key=True)
    optional = game.spec.rules.optional(rule)
    missing = [name for name in params if name not in given and name not in optional]
    if missing:
        raise ExampleInputError(missing[0], f"missing given value {missing[0]!r} for {rule}")
    cards = game.model.cards()
    return {
        name: _convert(cards, name, hint, given[name])
        for name, hint in params.items()
        if name in given
    }


def _convert(cards: dict[str, Card], key: str, hint: Any, value: Any) -> Any:
    """Convert ``value`` to ``hint``: card types (also inside lists and optionals) take ids."""
    if not _mentions_card(hint):
        try:
            return TypeAdapter(hint).validate_python(value, strict=True)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            index = next((p for p in first["loc"] if isinstance(p, int)), None)
            raise ExampleInputError(key, f"{key!r}: {first['msg']}", index) from None
    return _convert_cards(cards, key, hint, value, None)


def _convert_cards(
    cards: dict[str, Card], key: str, hint: Any, value: Any, index: int | None
) -> Any:
    card_type = _card_type(hint)
    if card_type is not None:
        return _card(cards, key, card_type, value, index)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is list:
        if not isinstance(value, list):
            raise ExampleInputError(key, f"{key!r} must be a list", index)
        return [
            _convert_cards(cards, key, args[0], item, i if index is None else index)
            for i, item in enumerate(value)
        ]
    if origin in (typing.Union, types.UnionType) and type(None) in args:
        if value is None:
            return None
        (inner,) = [a for a in args if a is not type(None)]
        return _convert_cards(cards, key, inner, value, index)
    raise ExampleInputError(key, f"{key!r}: cannot read a value of type {hint}", index)


def _mentions_card(hint: Any) -> bool:
    return _card_type(hint) is not None or any(_mentions_card(a) for a in typing.get_args(hint))


def _card_type(hint: Any) -> type[Card] | None:
    return hint if isinstance(hint, type) and issubclass(hint, Card) else None


def _card(
    cards: dict[str, Card], key: str, kind: type[Card], value: Any, index: int | None
) -> Card:
    card = cards.get(value) if isinstance(value, str) else None
    if card is None:
        raise ExampleInputError(key, f"unknown card {value!r}", index)
    if not isinstance(card, kind):
        raise ExampleInputError(key, f"card {value!r} is not a {kind.__name__}", index)
    return card


def _plain(value: Any) -> Any:
    """Results compared with YAML data: tuples become lists, sets sorted lists."""
    if isinstance(value, tuple | list):
        return [_plain(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted(_plain(v) for v in value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _show(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return str(value).lower() if value is not None else "null"
    return repr(value)
