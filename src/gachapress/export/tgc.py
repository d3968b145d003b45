"""`export --to tgc`: The Game Crafter's poker deck. Each card deck drawn at the inch size
(2.5 x 3.5 in trim, 1/8 in bleed: 825 x 1125 px at 300 dpi) from its own layout, one PNG per
distinct face and the back, with a quantities list per deck for TGC's bulk upload."""

from __future__ import annotations

from gachapress.data.sheets import write_csv
from gachapress.export import shops
from gachapress.export.common import DPI, Plan, Source, copies, face_png, text_file
from gachapress.render.layout import refit

SIZE = "inch"
SHOP = "The Game Crafter (poker deck)"
STEPS = [
    "Make a Poker Deck, upload `back.png` as its back, then bulk-upload the faces of the "
    "deck's folder; set each face's quantity from `quantities.csv`.",
    "Every image is 825 x 1125 px at 300 dpi: the 2.5 x 3.5 in card with 1/8 in bleed all "
    "round. Text and art lie inside the 1/8 in safe area.",
]


def plan(source: Source) -> Plan:
    out: Plan = {}
    lines = []
    for deck, shape in shops.card_decks(source, SIZE):
        rows: list[dict[str, object]] = []
        back = refit(deck.back, shape)
        for face, count in ((refit(f, shape), n) for f, n in deck.fronts):
            name = f"{deck.deck}/{face.key}.png"
            out[name] = (
                source.digest(face, "tgc", str(DPI), repr(source.options.text_as_paths)),
                lambda path, face=face: face_png(source, face, path),
            )
            rows.append({"file": f"{face.key}.png", "quantity": count})
        out[f"{deck.deck}/back.png"] = (
            source.digest(back, "tgc", str(DPI), repr(source.options.text_as_paths)),
            lambda path, back=back: face_png(source, back, path),
        )
        out[f"{deck.deck}/quantities.csv"] = text_file(write_csv(rows, ("file", "quantity")))
        lines.append(
            f"- `{deck.deck}/`: {len(deck.fronts)} faces, {copies(deck)} cards; "
            f"back `{deck.deck}/back.png`"
        )
    out["README.md"] = text_file(shops.readme(source, SHOP, lines, STEPS, SIZE))
    return out
