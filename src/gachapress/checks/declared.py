"""The deck checks a game declares in its data (``checks:`` on a deck), each failure located.

```yaml
checks:
  total: 40                       # cards in the deck, copies counted
  per_value: {suit: 10}           # cards of each suit (or `equal`: as many of each)
  unique: [[suit, value]]         # no two faces share a suit and a value
  latin_square: {field: toy, across: [color, cost]}
  sums: [{field: value, per: suit, total: 45}]
```
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from gachapress.data.load import GameData
from gachapress.data.model import Card, DeckBase, DeckChecks
from gachapress.data.yamlsource import PathKey
from gachapress.errors import Problem

DeckCheck = Callable[[GameData, str, DeckBase, DeckChecks], Iterator[Problem]]


def _said(value: Any) -> str:
    """A field's value as a message shows it (a text: in the game's first language)."""
    if isinstance(value, dict):
        return repr(next(iter(value.values()), ""))
    return repr(value)


def _key(value: Any) -> Any:
    return tuple(sorted(value.items())) if isinstance(value, dict) else value


def _unknown_fields(
    game: GameData, deck_id: str, deck: DeckBase, names: Iterable[str], at: PathKey
) -> list[Problem]:
    faces = deck.faces()
    known = set(type(faces[0]).model_fields) if faces else set()
    return [
        game.where(("decks", deck_id, "checks", *at)).problem(
            f"deck {deck_id!r} has no field {name!r}"
        )
        for name in dict.fromkeys(names)
        if name not in known
    ]


def _card_at(game: GameData, card: Card, field: str) -> PathKey:
    return (*game.card_path(card.id), field)


def total(game: GameData, deck_id: str, deck: DeckBase, checks: DeckChecks) -> Iterator[Problem]:
    """The deck holds ``total`` cards, copies counted."""
    if checks.total is not None and deck.size() != checks.total:
        yield game.where(("decks", deck_id, "checks", "total")).problem(
            f"deck {deck_id!r} should hold {checks.total} cards, but holds {deck.size()}"
        )


def per_value(
    game: GameData, deck_id: str, deck: DeckBase, checks: DeckChecks
) -> Iterator[Problem]:
    """Each value of a field is on as many cards (copies counted) as declared."""
    for field, wanted in checks.per_value.items():
        at = ("decks", deck_id, "checks", "per_value", field)
        unknown = _unknown_fields(game, deck_id, deck, [field], ("per_value", field))
        if unknown:
            yield from unknown
            continue
        counts: Counter[Any] = Counter()
        shown: dict[Any, Any] = {}
        for card in deck.faces():
            value = getattr(card, field)
            counts[_key(value)] += card.count
            shown[_key(value)] = value
        if wanted == "equal":
            if len(set(counts.values())) > 1:
                said = ", ".join(f"{_said(shown[k])} {n}" for k, n in counts.items())
                yield game.where(at).problem(f"the {field} values are not equally common: {said}")
            continue
        for key, n in counts.items():
            if n != wanted:
                yield game.where(at).problem(
                    f"{field} {_said(shown[key])} is on {n} cards, not {wanted}"
                )


def unique(game: GameData, deck_id: str, deck: DeckBase, checks: DeckChecks) -> Iterator[Problem]:
    """No two faces share the values of each listed combination of fields."""
    for i, fields in enumerate(checks.unique):
        unknown = _unknown_fields(game, deck_id, deck, fields, ("unique", i))
        if unknown:
            yield from unknown
            continue
        seen: dict[tuple[Any, ...], Card] = {}
        for card in deck.faces():
            values = tuple(_key(getattr(card, f)) for f in fields)
            if values in seen:
                said = ", ".join(f"{f} {_said(getattr(card, f))}" for f in fields)
                yield game.where(_card_at(game, card, fields[0])).problem(
                    f"card {card.id!r} has the {said} of card {seen[values].id!r}"
                )
            else:
                seen[values] = card


def latin_square(
    game: GameData, deck_id: str, deck: DeckBase, checks: DeckChecks
) -> Iterator[Problem]:
    """Each value of the field is on exactly one face for each value of each ``across`` field."""
    square = checks.latin_square
    if square is None:
        return
    names = [square.field, *square.across]
    unknown = _unknown_fields(game, deck_id, deck, names, ("latin_square",))
    if unknown:
        yield from unknown
        return
    faces = deck.faces()
    values = {_key(getattr(card, square.field)): getattr(card, square.field) for card in faces}
    for across in square.across:
        groups: dict[Any, list[Card]] = defaultdict(list)
        for card in faces:
            groups[_key(getattr(card, across))].append(card)
        for cards in groups.values():
            group = f"{across} {_said(getattr(cards[0], across))}"
            seen: set[Any] = set()
            for card in cards:
                value = _key(getattr(card, square.field))
                if value in seen:
                    yield game.where(_card_at(game, card, square.field)).problem(
                        f"{square.field} {_said(getattr(card, square.field))} appears twice "
                        f"with {group}"
                    )
                seen.add(value)
            for key in values.keys() - seen:
                yield game.where(("decks", deck_id, "checks", "latin_square")).problem(
                    f"no card has {square.field} {_said(values[key])} with {group}"
                )


def sums(game: GameData, deck_id: str, deck: DeckBase, checks: DeckChecks) -> Iterator[Problem]:
    """A field's values add up to the total, over the deck or for each value of ``per``."""
    for i, rule in enumerate(checks.sums):
        fields = [rule.field, *([rule.per] if rule.per else [])]
        unknown = _unknown_fields(game, deck_id, deck, fields, ("sums", i))
        if unknown:
            yield from unknown
            continue
        added: dict[Any, float] = defaultdict(float)
        shown: dict[Any, Any] = {}
        for card in deck.faces():
            group = _key(getattr(card, rule.per)) if rule.per else None
            shown[group] = getattr(card, rule.per) if rule.per else None
            added[group] += (getattr(card, rule.field) or 0) * card.count
        for group, value in added.items():
            if value != rule.total:
                where = f" for {rule.per} {_said(shown[group])}" if rule.per else ""
                yield game.where(("decks", deck_id, "checks", "sums", i)).problem(
                    f"the {rule.field} values add up to {value:g}{where}, not {rule.total:g}"
                )


#: Each kind of declared check, by the name `check` reports it under.
DECK_CHECKS: dict[str, tuple[str, DeckCheck]] = {
    "total": ("total", total),
    "per-value": ("per_value", per_value),
    "unique": ("unique", unique),
    "latin-square": ("latin_square", latin_square),
    "sums": ("sums", sums),
}


def declared_checks(game: GameData) -> dict[str, Callable[[GameData], Iterable[Problem]]]:
    """The kinds of check the game's decks declare, each as a check of the whole game."""
    found: dict[str, Callable[[GameData], Iterable[Problem]]] = {}
    for name, (key, check) in DECK_CHECKS.items():
        decks = [
            (deck_id, deck, deck.checks)
            for deck_id, deck in game.model.deck_items()
            if deck.checks is not None and getattr(deck.checks, key)
        ]
        if decks:
            found[name] = _over(check, decks)
    return found


def _over(
    check: DeckCheck, decks: list[tuple[str, DeckBase, DeckChecks | None]]
) -> Callable[[GameData], Iterator[Problem]]:
    def run(game: GameData) -> Iterator[Problem]:
        for deck_id, deck, checks in decks:
            assert checks is not None
            yield from check(game, deck_id, deck, checks)

    return run
