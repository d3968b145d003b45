"""`export --to tts`: Tabletop Simulator. Per card deck, face sheets of at most 10 x 7 cards
and 4096 x 4096 px (the last slot of each the hidden-card image: the back) and a back image;
round tokens as tiles in a bag; one saved-object JSON holding every deck, with one card per
copy named from the card data; a README saying how to import it and which slot each card takes.
"""

from __future__ import annotations

import io
import json
import math
import re
from dataclasses import dataclass
from typing import Any

from gachapress.assembly.manifest import hash_text
from gachapress.export.common import DPI, Plan, Source, copies, render_page, text_file
from gachapress.render.faces import DeckFaces
from gachapress.render.layout import Face, Shape
from gachapress.render.pdf import MM, edge_to_edge

#: Tabletop Simulator's limits for one deck sheet.
MAX_COLUMNS, MAX_ROWS, MAX_PIXELS = 10, 7, 4096
#: The cards a sheet holds: its last slot is the image of a hidden card.
PER_SHEET = MAX_COLUMNS * MAX_ROWS - 1


def sheet_grid(slots: int, shape: Shape) -> tuple[int, int]:
    """Columns and rows (at most 10 x 7) of a sheet of at least ``slots`` cells that gives the
    cards the most pixels within 4096 px (fewest cells on a tie)."""
    grids = [
        (columns, rows)
        for columns in range(1, MAX_COLUMNS + 1)
        for rows in range(1, MAX_ROWS + 1)
        if columns * rows >= slots
    ]
    return max(grids, key=lambda g: (_px_per_mm(shape, *g), -g[0] * g[1]))


def _px_per_mm(shape: Shape, columns: int, rows: int) -> float:
    """The resolution of a sheet's cards: within 4096 px both ways, at most 300 dpi."""
    return min(MAX_PIXELS / (columns * shape.width), MAX_PIXELS / (rows * shape.height), DPI / 25.4)


def cell_pixels(shape: Shape, columns: int, rows: int) -> tuple[int, int]:
    """A sheet's cell in whole pixels: the trim at the sheet's resolution, rounded down. The
    sheet is exactly columns x rows cells (within 4096 px), so Tabletop Simulator's equal
    cuts fall on the cards' edges."""
    scale = _px_per_mm(shape, columns, rows)
    return math.floor(shape.width * scale + 1e-9), math.floor(shape.height * scale + 1e-9)


@dataclass(frozen=True)
class Sheet:
    """One face sheet of a deck: its file, its number (the key of ``CustomDeck``, the hundreds
    of its cards' ids) and grid, and which of the deck's distinct fronts it holds."""

    name: str
    number: int
    columns: int
    rows: int
    first: int
    count: int

    def card_id(self, slot: int) -> int:
        return self.number * 100 + slot


def deck_sheets(deck: str, fronts: int, shape: Shape, first_number: int) -> list[Sheet]:
    """The sheets of a deck of ``fronts`` distinct fronts: 69 a sheet (the 70th slot shows a
    hidden card), numbered from ``first_number``, their files numbered with the same count of
    digits (at least two) so that they list in order."""
    starts = range(0, fronts, PER_SHEET)
    digits = max(2, len(str(len(starts))))
    sheets = []
    for index, start in enumerate(starts):
        count = min(PER_SHEET, fronts - start)
        columns, rows = sheet_grid(count + 1, shape)
        name = f"{deck}-faces-{index + 1:0{digits}d}.png"
        sheets.append(Sheet(name, first_number + index, columns, rows, start, count))
    return sheets


def plan(source: Source) -> Plan:
    out: Plan = {}
    objects: list[dict[str, Any]] = []
    slot_lines: list[str] = []
    number = 1
    for place, deck in enumerate(source.decks):
        position = _transform(place)
        if deck.shape.kind == "round":
            objects.append(_bag(source, deck, out, position))
            continue
        back_name = f"{deck.deck}-back.png"
        _image(source, out, back_name, [deck.back], 1, 1)
        fronts = list(deck.fronts)
        cards: list[dict[str, Any]] = []
        custom: dict[str, dict[str, Any]] = {}
        sheets = deck_sheets(deck.deck, len(fronts), deck.shape, number)
        for sheet in sheets:
            chunk = fronts[sheet.first : sheet.first + sheet.count]
            columns, rows = sheet.columns, sheet.rows
            cells: list[Face | None] = [face for face, _ in chunk]
            cells += [None] * (columns * rows - 1 - len(chunk)) + [deck.back]  # hidden: last
            _image(source, out, sheet.name, cells, columns, rows)
            entry = {
                "FaceURL": _url(source, sheet.name),
                "BackURL": _url(source, back_name),
                "NumWidth": columns,
                "NumHeight": rows,
                "BackIsHidden": False,  # the hidden image is the sheet's last slot
                "UniqueBack": False,
                "Type": 0,
            }
            custom[str(sheet.number)] = entry
            for slot, (face, count) in enumerate(chunk):
                card_id = sheet.card_id(slot)
                slot_lines.append(
                    f"| {markdown_text(deck.deck)} | {markdown_text(face.key)} "
                    f"| {markdown_text(sheet.name)} | {slot} "
                    f"(row {slot // columns + 1}, column {slot % columns + 1}) | {card_id} "
                    f"| {count} |"
                )
                card = _card(source, face, card_id, {str(sheet.number): entry}, position)
                cards += [card] * count
        number += len(sheets)
        objects.append(_deck(source, deck, cards, custom, position))
    saved = {"SaveName": source.game.id, "ObjectStates": objects}
    text = json.dumps(saved, indent=1, ensure_ascii=False) + "\n"
    out[f"{source.game.id}.json"] = text_file(text)
    out["README.md"] = text_file(_readme(source, slot_lines))
    return out


def _image(
    source: Source,
    out: Plan,
    name: str,
    faces: list[Face | None],
    columns: int,
    rows: int,
) -> None:
    """Plan one PNG of ``faces`` (None: an empty cell) at trim size on a columns x rows grid of
    whole-pixel cells, within 4096 px."""
    shape = next(face for face in faces if face is not None).shape
    cell = cell_pixels(shape, columns, rows)

    def write(path, faces=faces) -> None:
        buffer = io.BytesIO()
        edge_to_edge(faces, columns, rows, cell, buffer, font_name=source.measure.name("regular"))
        render_page(buffer.getvalue(), 0, MM).save(path)  # one point a pixel

    out[name] = (
        hash_text(
            *(source.digest(face) if face else "-" for face in faces),
            f"{columns}x{rows}",
            f"{cell[0]}x{cell[1]}",
        ),
        write,
    )


def _url(source: Source, name: str) -> str:
    if source.options.base_url:
        return source.options.base_url.rstrip("/") + "/" + name
    return (source.folder("tts").resolve() / name).as_uri()


def _transform(place: int) -> dict[str, float]:
    return {
        "posX": place * 3.0, "posY": 1.0, "posZ": 0.0,
        "rotX": 0.0, "rotY": 180.0, "rotZ": 180.0,
        "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0,
    }  # fmt: skip


def _names(source: Source, card_id: str) -> tuple[str, str]:
    """A card's nickname (its name in each language) and description (its text)."""
    card = source.cards[card_id]
    names = list(dict.fromkeys(card.name.get(lang, "") for lang in source.game.model.languages))
    return " / ".join(n for n in names if n), source.card_text(card_id)


def _card(
    source: Source, face: Face, card_id: int, custom: dict[str, Any], position: dict[str, float]
) -> dict[str, Any]:
    nickname, description = _names(source, face.key)
    return {
        "Name": "Card",
        "Nickname": nickname,
        "Description": description,
        "GMNotes": face.key,
        "CardID": card_id,
        "CustomDeck": custom,
        "Transform": position,
    }


def _deck(
    source: Source,
    deck: DeckFaces,
    cards: list[dict[str, Any]],
    custom: dict[str, Any],
    position: dict[str, float],
) -> dict[str, Any]:
    if len(cards) == 1:
        return cards[0]  # Tabletop Simulator has no deck of one card
    return {
        "Name": "Deck",
        "Nickname": _deck_name(source, deck),
        "Description": "",
        "Transform": position,
        "DeckIDs": [card["CardID"] for card in cards],
        "CustomDeck": custom,
        "ContainedObjects": cards,
    }


def _deck_name(source: Source, deck: DeckFaces) -> str:
    names = source.game.model.deck(deck.deck).name
    return names.get("en", names.get(source.lang, deck.deck))


def _bag(source: Source, deck: DeckFaces, out: Plan, position: dict[str, float]) -> dict[str, Any]:
    """Round tokens: a bag holding one circular tile per token, face and back images."""
    back_name = f"{deck.deck}-back.png"
    _image(source, out, back_name, [deck.back], 1, 1)
    tiles = []
    for face, count in deck.fronts:
        name = f"{deck.deck}-{face.key}.png"
        _image(source, out, name, [face], 1, 1)
        nickname, description = _names(source, face.key)
        tile = {
            "Name": "Custom_Tile",
            "Nickname": nickname,
            "Description": description,
            "GMNotes": face.key,
            "Transform": position,
            "CustomImage": {
                "ImageURL": _url(source, name),
                "ImageSecondaryURL": _url(source, back_name),
                "ImageScalar": 1.0,
                "WidthScale": 0.0,
                "CustomTile": {"Type": 2, "Thickness": 0.2, "Stackable": True, "Stretch": True},
            },
        }
        tiles += [tile] * count
    return {
        "Name": "Bag",
        "Nickname": _deck_name(source, deck),
        "Description": f"{copies(deck)} tokens",
        "Transform": position,
        "ContainedObjects": tiles,
    }


def markdown_text(text: str) -> str:
    """``text`` as plain words in Markdown: on one line, with HTML and Markdown's own
    punctuation escaped, so a name never adds markup, a link or a script to the README."""
    text = " ".join(text.split())
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return re.sub(r"([\\`*_\[\]|~])", r"\\\1", text)


def _readme(source: Source, slot_lines: list[str]) -> str:
    name = markdown_text(source.game.model.name.get("en", source.game.model.name[source.lang]))
    file = f"{source.game.id}.json"
    where = (
        f"from `{source.options.base_url}`"
        if source.options.base_url
        else "from this folder (file URLs: they work on this computer only)"
    )
    return "\n".join(
        [
            f"# {name} for Tabletop Simulator",
            "",
            f"`{file}` is a saved object holding every deck of the game (round tokens as "
            f"tiles in a bag); its images are read {where}.",
            "",
            "1. Copy `" + file + "` into Tabletop Simulator's saved objects folder "
            "(`Documents/My Games/Tabletop Simulator/Saves/Saved Objects/`).",
            "2. In a game: Objects > Saved Objects > " + source.game.id + ".",
            "3. To play online, put the PNG files of this folder on a web host (or Tabletop "
            "Simulator's Cloud Manager) and export again with `--base-url URL`, so that every "
            "player's game can fetch them.",
            "",
            "Each face sheet holds at most 10 x 7 cards within 4096 x 4096 px; its last slot is "
            "the image shown for a hidden card (the back).",
            "",
            "| deck | card | sheet | slot | card id | copies |",
            "|---|---|---|---|---|---|",
            *slot_lines,
            "",
        ]
    )
