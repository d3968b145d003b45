"""`gachapress cards GAME`: every distinct face of every deck, for review in a spreadsheet."""

from __future__ import annotations

import json
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer

from gachapress.cli.common import RootOption, load_or_report, select_games
from gachapress.data.load import GameData
from gachapress.data.placeholders import card_texts
from gachapress.data.sheets import write_csv


class CardFormat(StrEnum):
    json = "json"
    csv = "csv"


def card_records(game: GameData) -> list[dict[str, Any]]:
    """One record per distinct face: id, deck, count, then the card's own fields (its text as
    printed, placeholders filled)."""
    records = []
    for deck_id, deck in game.model.deck_items():
        for card in deck.faces():
            fields = card.model_dump(mode="json", exclude_none=True)
            if "text" in fields:
                fields["text"] = card_texts(game.model, card)
            record = {"id": fields.pop("id"), "deck": deck_id, "count": fields.pop("count")}
            record.update(fields)
            records.append(record)
    return records


def _flatten(record: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    flat: dict[str, Any] = {}
    for key, value in record.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flatten(value, f"{name}."))
        elif isinstance(value, list):
            flat[name] = json.dumps(value, ensure_ascii=False)
        else:
            flat[name] = value
    return flat


def to_csv(records: list[dict[str, Any]]) -> str:
    """The records as CSV, a column per flattened key (``name.en``), safe to open in a
    spreadsheet; `read_sheet` reads it back cell for cell."""
    rows = [_flatten(r) for r in records]
    columns = list(dict.fromkeys(key for row in rows for key in row))
    return write_csv(rows, columns)


def cards(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="A game id.")],
    fmt: Annotated[CardFormat, typer.Option("--format", help="Output format.")] = CardFormat.json,
    root: RootOption = Path("."),
) -> None:
    """Print every card of every deck of a game, one record per distinct face."""
    select_games([game_id], root)
    game = load_or_report(game_id, root)
    if game is None:
        raise typer.Exit(1)
    records = card_records(game)
    if fmt is CardFormat.csv:
        typer.echo(to_csv(records), nl=False)
    else:
        typer.echo(json.dumps(records, ensure_ascii=False, indent=2))
