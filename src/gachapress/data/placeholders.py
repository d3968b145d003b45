"""Numbers in prose come from the model: ``{setup.3.money|yen}`` in a text is replaced by the
value at that data path (as written in the YAML), optionally formatted; a card's own texts may
also name its fields, ``{card.effect.count|plural:card}`` ("2 cards").

So a rulebook sentence never types a number twice: change the YAML and the prose follows.
Write a literal brace as ``{{`` or ``}}``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from gachapress.data.model import Card, Example, GameBase

PLACEHOLDER = re.compile(r"\{\{|\}\}|\{([a-z0-9_.-]+)(?:\|([a-z_]+)(?::([a-z ]+))?)?\}|[{}]")
"""A placeholder, a doubled brace, or a lone brace (which ``fill`` refuses: it would print as it
is, and is most often a placeholder mistyped)."""


def _signed_percent(value: int) -> str:
    """A change in percent with its sign, a true minus for a fall: "+10%", "−10%", "±0%"."""
    return f"+{value}%" if value > 0 else f"−{-value}%" if value < 0 else "±0%"


FORMATS: dict[str, Callable[[Any], str]] = {
    "yen": lambda v: f"¥{v:,}",
    "percent": lambda v: f"{v}%" if v >= 0 else f"−{-v}%",  # a true minus sign
    "count": lambda v: str(len(v)),
    "list": lambda v: ", ".join(map(str, v)),
    "ja_list": lambda v: "、".join(map(str, v)),  # a list in Japanese prose
    "number": lambda v: f"{v:,}",
    "signed": lambda v: f"{v:+,}",
    "signed_percent": _signed_percent,
    "icons": lambda v: _icons(v),
    "capital": lambda v: str(v)[:1].upper() + str(v)[1:],
    "times": lambda v: {1: "once", 2: "twice"}.get(int(v), f"{int(v)} times"),  # English
}
#: The format that prints a value as the game's word for it in the text's language
#: (``words:`` in the rules): ``{card.beats|word}`` is "チョキ" in a Japanese text.
WORD = "word"
#: Formats that take a word after a colon: ``{effect.count|plural:card}`` is "1 card" or
#: "2 cards" (English; Japanese prose writes the counter itself, ``{effect.count}枚``).
WORD_FORMATS: dict[str, Callable[[Any, str], str]] = {
    "plural": lambda v, word: f"{int(v)} {word}" + ("" if int(v) == 1 else "s"),
}


def _icons(value: Any) -> str:
    """Inline icons for a name, a list of names, or a mapping of names to how many."""
    if isinstance(value, str):
        return f":{value}:"
    if isinstance(value, dict):
        return " ".join(f":{name}:" for name, n in value.items() for _ in range(n))
    return " ".join(f":{name}:" for name in value)


class PlaceholderError(ValueError):
    """A placeholder names no value of the model, or an unknown format."""


def model_data(model: GameBase) -> dict[str, Any]:
    """The model as plain data with the YAML's own keys, for looking placeholders up, and the
    values worked out from it: ``deck_sizes`` and ``card_counts`` (copies of each card, by id)
    for every game, and what the game's ``derived_values`` adds."""
    data = model.model_dump(mode="python", by_alias=True)
    derived = {
        "deck_sizes": {deck_id: deck.size() for deck_id, deck in model.deck_items()},
        "card_counts": {
            card.id: card.count for _, deck in model.deck_items() for card in deck.faces()
        },
        **model.derived_values(),
    }
    for key, value in derived.items():
        if key in data:
            raise ValueError(f"the derived value {key!r} hides the game's own {key!r}")
        data[key] = value
    return data


def lookup(data: Any, path: str) -> Any:
    node = data
    for part in path.split("."):
        key: Any = int(part) if part.isdigit() else part
        if isinstance(node, dict) and key in node:
            node = node[key]
        elif isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and isinstance(key, int) and key < len(node):
            node = node[key]
        else:
            raise PlaceholderError(f"no value at {path!r}")
    return node


def fill(text: str, data: dict[str, Any], lang: str | None = None) -> str:
    """``text`` (written in ``lang``) with every placeholder replaced by its value."""

    def replace(match: re.Match[str]) -> str:
        whole, path, fmt, word = match.group(0), match.group(1), match.group(2), match.group(3)
        if whole == "{":
            raise PlaceholderError(
                "a '{' that opens no placeholder (one is written {path}, in lowercase, as "
                "{rounds}); write {{ for a brace itself"
            )
        if whole == "}":
            raise PlaceholderError("a '}' that closes no placeholder; write }} for a brace itself")
        if path is None:
            return whole[0]
        value = lookup(data, path)
        if fmt == WORD and word is None:
            return _word(data, value, lang)
        if fmt is None:
            if isinstance(value, dict | list):
                raise PlaceholderError(f"{path!r} is not a single value")
            return str(value)
        known = WORD_FORMATS if word is not None else FORMATS
        if fmt not in known:
            raise PlaceholderError(_format_help(fmt))
        try:
            return WORD_FORMATS[fmt](value, word) if word else FORMATS[fmt](value)
        except (TypeError, ValueError):
            raise PlaceholderError(f"{path!r} cannot be written as {fmt}") from None

    return PLACEHOLDER.sub(replace, text)


def _word(data: dict[str, Any], value: Any, lang: str | None) -> str:
    """The game's word for ``value`` in ``lang`` (``words:``)."""
    if lang is None:
        raise PlaceholderError(f"the format {WORD!r} is for a text in one of the game's languages")
    words = data.get("words", {})
    if not isinstance(value, str) or value not in words:
        known = ", ".join(words) or "none"
        raise PlaceholderError(f"no word for {value!r} under words: (words: {known})")
    if lang not in words[value]:
        raise PlaceholderError(f"the word for {value!r} has no {lang!r} text")
    return str(words[value][lang])


def _format_help(fmt: str) -> str:
    if fmt in WORD_FORMATS:
        return f"the format {fmt!r} needs a word: {{path|{fmt}:card}}"
    if fmt in FORMATS:
        return f"the format {fmt!r} takes no word after a colon"
    known = ", ".join([*FORMATS, WORD, *WORD_FORMATS])
    return f"unknown format {fmt!r} (formats: {known})"


def card_data(model: GameBase, data: dict[str, Any], card: Card) -> dict[str, Any]:
    """``data`` (see ``model_data``) with the card's own fields under ``card``, and what the
    game works out for it (``card_values``), for the texts on a card: ``{card.effect.count}``."""
    return {
        **data,
        "card": {**card.model_dump(mode="python", by_alias=True), **model.card_values(card)},
    }


def example_data(data: dict[str, Any], example: Example) -> dict[str, Any]:
    """``data`` with the example's own values, for its text: ``{given.players}`` and the checked
    answer ``{expect}`` (``{expect|list}`` for a list), so its prose cannot drift from them."""
    return {**data, "given": example.given, "expect": example.expect}


def printed(
    model: GameBase,
    text: dict[str, str] | None,
    card: Card | None = None,
    data: dict[str, Any] | None = None,
) -> dict[str, str]:
    """A text of the model in each language as printed: placeholders filled, ``{{`` as ``{``
    (``check`` verified them), with ``card``'s fields for a text on a card. Every text a face,
    a page or a book prints goes through here, names included, so they all print the same.
    ``data``: ``model_data(model)``, if the caller has it."""
    texts = dict(text or {})
    if any("{" in line or "}" in line for line in texts.values()):
        values = model_data(model) if data is None else data
        if card is not None:
            values = card_data(model, values, card)
        texts = {lang: fill(line, values, lang) for lang, line in texts.items()}
    return texts


def card_texts(model: GameBase, card: Card) -> dict[str, str]:
    """A card's text in each language as printed: placeholders filled (``check`` verified
    them)."""
    return printed(model, card.text, card)
