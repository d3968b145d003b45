"""`export --to png`: every distinct face and every back as a PNG at 300 dpi with its bleed,
named by card id, and a manifest (CSV and JSON) saying how many copies of each to print.
With ``--text-as-paths``, also each face as an SVG (``svg/``) whose text is glyph outlines."""

from __future__ import annotations

import json

from gachapress.data.sheets import write_csv
from gachapress.export.common import DPI, Plan, Source, copies, face_png, pixels, text_file
from gachapress.render.faces import DeckFaces
from gachapress.render.layout import Face
from gachapress.render.svg import face_svg

FIELDS = (
    "file",
    "deck",
    "card",
    "side",
    "name",
    "copies",
    "width_px",
    "height_px",
    "dpi",
    "trim_mm",
    "bleed_mm",
)


def plan(source: Source) -> Plan:
    out: Plan = {}
    rows = []
    for deck in source.decks:
        for face, count in (*deck.fronts, (deck.back, copies(deck))):
            name = f"{face.key}.png"
            out[name] = (
                source.digest(face, str(DPI), repr(source.options.text_as_paths)),
                lambda path, face=face: face_png(source, face, path),
            )
            rows.append(_row(name, deck, face, count))
            if source.options.text_as_paths:
                out[f"svg/{face.key}.svg"] = (
                    source.digest(face, "svg-outlines"),
                    lambda path, face=face: path.write_text(
                        face_svg(face, "", source.outline_fonts), encoding="utf-8"
                    ),
                )
    table = write_csv(rows, FIELDS)
    listing = json.dumps({"game": source.game.id, "cards": rows}, indent=1, ensure_ascii=False)
    out["manifest.csv"] = text_file(table)
    out["manifest.json"] = text_file(listing + "\n")
    return out


def _row(name: str, deck: DeckFaces, face: Face, count: int) -> dict[str, object]:
    shape = face.shape
    back = face is deck.back
    return {
        "file": name,
        "deck": deck.deck,
        "card": "" if back else face.key,
        "side": "back" if back else "front",
        "name": face.title,
        "copies": count,
        "width_px": pixels(shape.width + 2 * shape.bleed),
        "height_px": pixels(shape.height + 2 * shape.bleed),
        "dpi": DPI,
        "trim_mm": f"{shape.width:g} x {shape.height:g}",
        "bleed_mm": shape.bleed,
    }
