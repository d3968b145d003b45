"""Decks whose cards are a spreadsheet: ``cards: {from: cards.csv}`` (or ``.xlsx``, with an
optional ``sheet:``) in a deck that declares its fields.

A row is a distinct face: ``id``, ``count``, the deck's fields, ``name.en`` (or ``name`` in a
game of one language), ``text.*`` and ``art.*``, as ``gachapress cards GAME --format csv``
prints them, so an exported sheet reads back. A ``deck`` column, where there is one, names the
deck of each row: every deck reading the file takes its own rows. Each cell is turned into its
field's type before the game's model checks it, and every problem is located at its cell.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from gachapress.data.declared import BUILT_IN, declared_fields
from gachapress.data.sheets import Sheet, read_sheet
from gachapress.data.yamlsource import Locations, PathKey
from gachapress.errors import Problem, RulesError

#: The column that names a row's deck, as `cards --format csv` writes it.
DECK_COLUMN = "deck"
_INT = re.compile(r"[+-]?[0-9]{1,18}")
_NUMBER = re.compile(r"[+-]?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][+-]?[0-9]{1,3})?")
_BOOLS = {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}


def expand_sheets(folder: Path, data: dict[str, Any], locations: Locations) -> None:
    """Replace each deck's ``cards: {from: FILE}`` in ``data`` by the rows of that file, and
    record where each cell is in ``locations``; RulesError with every problem found."""
    decks = data.get("decks")
    if not isinstance(decks, dict):
        return
    problems: list[Problem] = []
    for deck_id, deck in decks.items():
        if not isinstance(deck, dict) or not isinstance(deck.get("cards"), dict):
            continue
        source = deck["cards"]
        where = ("decks", deck_id, "cards")
        name, sheet_name = source.get("from"), source.get("sheet")
        unknown = sorted(set(source) - {"from", "sheet"})
        if unknown or not isinstance(name, str) or not isinstance(sheet_name, str | None):
            message = "cards: {from: FILE} names a .csv or .xlsx file of this game's folder"
            problems.append(locations.at(where).problem(message))
            continue
        try:
            sheet = read_sheet(folder / name, sheet=sheet_name, inside=folder)
        except RulesError as exc:
            problems.extend(exc.problems)
            continue
        fields = _field_types(str(deck_id), deck)
        cards, found = _cards(sheet, str(deck_id), fields, where, locations)
        problems.extend(found)
        deck["cards"] = cards
    if problems:
        raise RulesError(problems)


def _field_types(deck_id: str, deck: dict[str, Any]) -> dict[str, str] | None:
    """The declared type of each field; None when the declarations do not hold (the game's
    model reports them, and the cells are read as text meanwhile)."""
    try:
        declared = declared_fields({"decks": {deck_id: deck}})
    except (ValidationError, ValueError):
        return None
    return {name: spec.type for name, spec in declared[deck_id].items()}


def _cards(
    sheet: Sheet,
    deck_id: str,
    fields: dict[str, str] | None,
    where: PathKey,
    locations: Locations,
) -> tuple[list[dict[str, Any]], list[Problem]]:
    """The deck's cards from the sheet's rows (``fields``: the declared types, None when they
    are not known), or the problems of its columns."""
    problems = []
    known = {*BUILT_IN, *(fields or {}), DECK_COLUMN}
    for header in sheet.headers:
        top = header.split(".")[0]
        if fields is not None and top not in known:
            declared = ", ".join(fields) or "none declared"
            message = f"unknown column {header!r} (the fields of deck {deck_id!r}: {declared})"
            problems.append(sheet.mark(sheet.header_row, header).problem(message))
    if problems:
        return [], problems
    by_row = _marks_by_row(sheet.locations(where), len(where))
    cards = []
    for sheet_index, row in enumerate(sheet.rows):
        if row.cells.get(DECK_COLUMN, "") not in ("", deck_id):
            continue  # another deck's row
        card = row.nested()
        card.pop(DECK_COLUMN, None)
        for name, value in card.items():
            if isinstance(value, str):
                kind = "int" if name == "count" else (fields or {}).get(name, "text")
                card[name] = _typed(kind, value)
        _relocate(by_row.get(sheet_index, {}), locations, where, len(cards), sheet, row.row)
        cards.append(card)
    return cards, []


Marks = dict[str, list[tuple[PathKey, Any]]]


def _marks_by_row(marks: Locations, depth: int) -> dict[int, Marks]:
    """The marks of the sheet (numbered by its rows under a path ``depth`` long), by row: for
    each of its stores, the path below the row and the mark."""
    by_row: dict[int, Marks] = {}
    for store, kind in ((marks.values, "values"), (marks.keys, "keys")):
        for path, mark in store.items():
            if len(path) > depth and isinstance(path[depth], int):
                row = by_row.setdefault(path[depth], {"values": [], "keys": []})
                row[kind].append((path[depth + 1 :], mark))
    return by_row


def _relocate(
    marks: Marks, locations: Locations, where: PathKey, index: int, sheet: Sheet, row: int
) -> None:
    """Copy the marks of a row of the sheet to card ``index`` of the deck."""
    for kind, target in (("values", locations.values), ("keys", locations.keys)):
        for rest, mark in marks.get(kind, ()):
            target[(*where, index, *rest)] = mark
    locations.names[(*where, index)] = f"{sheet.file.name} row {row}"
    for header in sheet.headers:
        locations.names[(*where, index, *header.split("."))] = header


def _typed(kind: str, text: str) -> Any:
    """A cell's text as a value of its field's type; text that is not one is left as it is,
    for the model to say what it should be."""
    if kind == "int" and _INT.fullmatch(text):
        return int(text)
    if kind == "number" and _NUMBER.fullmatch(text):
        number = float(text)
        return int(number) if number.is_integer() and "." not in text else number
    if kind == "bool" and text.lower() in _BOOLS:
        return _BOOLS[text.lower()]
    return text
