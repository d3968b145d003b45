"""Card fields declared in YAML: a game of data alone says what its cards carry.

```yaml
decks:
  main:
    name: {en: Harbor cards}
    fields:
      suit: {type: enum, values: [anchor, gull, lamp, rope]}
      value: {type: int, min: 1, max: 9}
      effect: {type: text, required: false}
    cards: {from: cards.csv}
```

Each deck's declaration becomes a card model, and the game a model like the five example
games' own (``declared_model``), so validation, located errors and the JSON Schema work the same
way for every game.
"""

from __future__ import annotations

import re
from typing import Annotated, Any, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    Field,
    StringConstraints,
    TypeAdapter,
    ValidationError,
    create_model,
    model_validator,
)

from gachapress.data.model import Card, Deck, Decks, GameBase, Strict, Text

FieldType = Literal["text", "int", "number", "bool", "enum", "colour"]
FieldName = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9_]*$", max_length=40)]
"""A field's name: what a layout or a placeholder writes, ``{value}``."""
DeckId = Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$", max_length=64)]
"""A deck's id: an id that starts with a letter."""
EnumValue = Annotated[str, StringConstraints(min_length=1, max_length=80)]
#: What every card has already: a declared field may not take these names.
BUILT_IN = ("id", "count", "name", "text", "art")
#: A colour as a layout takes it: ``#rrggbb``.
COLOUR = r"^#[0-9a-fA-F]{6}$"
#: Most fields a deck may declare.
MAX_FIELDS = 60
#: Most distinct faces a deck may have.
MAX_FACES = 5000


class FieldSpec(Strict):
    """One declared card field: its type, whether a card must give it, its default, bounds."""

    type: FieldType
    required: bool = True
    """A card must give it (unless it has a ``default``)."""
    default: bool | int | float | str | None = None
    min: int | float | None = None
    """The smallest ``int`` or ``number`` allowed."""
    max: int | float | None = None
    values: Annotated[list[EnumValue], Field(min_length=1, max_length=200)] | None = None
    """An ``enum``'s values, in the order the book lists them."""

    @model_validator(mode="after")
    def _consistent(self) -> FieldSpec:
        if self.type == "enum" and not self.values:
            raise ValueError("an enum field needs its 'values'")
        if self.type != "enum" and self.values is not None:
            raise ValueError(f"'values' are for enum fields, not {self.type}")
        if self.type not in ("int", "number") and (self.min, self.max) != (None, None):
            raise ValueError(f"'min' and 'max' are for int and number fields, not {self.type}")
        if self.min is not None and self.max is not None and self.min > self.max:
            raise ValueError("'min' must not be above 'max'")
        if self.values is not None and len(set(self.values)) != len(self.values):
            raise ValueError("an enum value is listed twice")
        return self


def field_type(spec: FieldSpec) -> Any:
    """The type a card's value of this field must have."""
    bounds = {"ge": spec.min, "le": spec.max}
    match spec.type:
        case "text":
            return Text
        case "int":
            return Annotated[int, Field(**bounds)]
        case "number":
            return Annotated[float, Field(**bounds)]  # strict, yet 3 is a number too
        case "bool":
            return bool
        case "enum":
            return Literal[tuple(spec.values or ())]
        case _:
            return Annotated[str, StringConstraints(pattern=COLOUR)]


def card_model(deck_id: str, fields: dict[str, FieldSpec]) -> type[Card]:
    """The card model of a deck with ``fields``: the built-in card plus each declared field."""
    members: dict[str, Any] = {}
    for name, spec in fields.items():
        kind = field_type(spec)
        if spec.default is not None:
            members[name] = (kind, spec.default)
        elif spec.required:
            members[name] = (kind, ...)
        else:
            members[name] = (kind | None, None)
    return create_model(_class_name(deck_id, "Card"), __base__=Card, **members)


class DeclaredDeck(Deck[Card]):
    """A deck whose card fields are declared in its YAML (the cards then follow them)."""

    fields: Annotated[dict[FieldName, FieldSpec], Field(max_length=MAX_FIELDS)] = {}

    def text_fields(self) -> list[str]:
        return [name for name, spec in self.fields.items() if spec.type == "text"]


def _check_fields(fields: dict[str, FieldSpec]) -> dict[str, FieldSpec]:
    for name, spec in fields.items():
        if name in BUILT_IN:
            raise ValueError(f"{name!r} is a field every card has; choose another name")
        if spec.default is not None:
            try:
                TypeAdapter(field_type(spec)).validate_python(spec.default)
            except ValidationError:
                raise ValueError(f"the default of {name!r} is no {spec.type} value") from None
    return fields


class _Declarations(BaseModel):
    """The decks of a game read for their field declarations alone (the rest of each deck is
    checked with the whole game, once its card models are made)."""

    class _Deck(BaseModel):
        model_config = {"extra": "ignore", "strict": True}
        fields: Annotated[
            dict[FieldName, FieldSpec], Field(max_length=MAX_FIELDS), AfterValidator(_check_fields)
        ] = {}

    model_config = {"extra": "ignore", "strict": True}
    decks: dict[DeckId, _Deck] = {}


def declared_fields(data: dict[str, Any]) -> dict[str, dict[str, FieldSpec]]:
    """The field declarations of each deck of a game's raw data, by deck id; ValidationError
    (its locations are paths of ``data``) when one is not valid."""
    found = _Declarations.model_validate({"decks": data.get("decks") or {}})
    return {deck_id: deck.fields for deck_id, deck in found.decks.items()}


def declared_model(game_id: str, decks: dict[str, dict[str, FieldSpec]]) -> type[GameBase]:
    """The model of a game of data alone whose decks declare ``decks`` (fields by deck id)."""
    deck_fields: dict[str, Any] = {}
    for deck_id, fields in decks.items():
        card = card_model(deck_id, fields)
        cards = Annotated[list[card], Field(min_length=1, max_length=MAX_FACES)]  # type: ignore[valid-type]
        deck = create_model(_class_name(deck_id, "Deck"), __base__=DeclaredDeck, cards=(cards, ...))
        deck_fields[deck_id.replace("-", "_")] = (deck, ...)
    decks_model = create_model(_class_name(game_id, "Decks"), __base__=Decks, **deck_fields)
    return create_model(_class_name(game_id, "Game"), __base__=GameBase, decks=(decks_model, ...))


class CardsFrom(Strict):
    """``cards: {from: FILE}``: the deck's cards are the rows of a spreadsheet of the game's
    folder (read by ``card_sheets`` before the model sees the deck)."""

    from_: Annotated[str, Field(alias="from", pattern=r"^[^/\\].*\.(csv|xlsx)$")]
    sheet: str | None = None


def sheets_allowed(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (a game of data alone's) letting each declared deck's ``cards`` be a list or
    ``{from: FILE}``, as an editor should accept them."""
    defs = schema.setdefault("$defs", {})
    defs["CardsFrom"] = CardsFrom.model_json_schema(by_alias=True)
    for definition in defs.values():
        properties = definition.get("properties", {})
        if "fields" in properties and "cards" in properties:
            listed = properties["cards"]
            properties["cards"] = {"anyOf": [listed, {"$ref": "#/$defs/CardsFrom"}]}
    return schema


def _class_name(name: str, kind: str) -> str:
    return "".join(part.capitalize() for part in re.split(r"[-_]", name)) + kind
