"""`export --to dtc`: DriveThruCards and other print-on-demand shops. One PDF per card deck,
one card per page at 2.5 x 3.5 in + 1/8 in bleed with ``/TrimBox`` and ``/BleedBox``, a back
then its front for every card printed, in CMYK under 240 % total ink (see render/colour.py),
text drawn as outlines so no font is ever substituted."""

from __future__ import annotations

from gachapress.export import shops
from gachapress.export.common import Plan, Source, copies, text_file
from gachapress.render.colour import TOTAL_INK
from gachapress.render.layout import refit
from gachapress.render.pdf import one_up

SIZE = "inch"


def plan(source: Source) -> Plan:
    out: Plan = {}
    lines = []
    for deck, shape in shops.card_decks(source, SIZE):
        back = refit(deck.back, shape)
        pages = []
        for face, count in deck.fronts:
            pages += [back, refit(face, shape)] * count
        name = f"{source.game.id}-{deck.deck}.pdf"
        title = f"{source.game.model.name.get(source.lang)}: {deck.deck} ({copies(deck)} cards)"
        out[name] = (
            source.digest(
                back, "dtc", *(source.digest(f, str(n)) for f, n in deck.fronts), repr(shape)
            ),
            lambda path, pages=pages, title=title: one_up(
                pages,
                path,
                title=title,
                font_name=source.measure.name("regular"),
                cmyk=True,
                fonts=source.outline_fonts,
            ),
        )
        lines.append(f"- `{name}`: {copies(deck)} cards, {2 * copies(deck)} pages")
    steps = [
        "Each page is one side of one card: 2.5 x 3.5 in trim with 1/8 in bleed (the "
        "MediaBox and BleedBox; the TrimBox is the cut). Pages come as back, front, back, "
        "front: one pair per card to print, copies included.",
        f"Colours are CMYK with at most {TOTAL_INK:.0%} total ink: each sRGB colour's grey "
        "is printed in black alone and cyan, magenta and yellow are scaled down where they "
        "would pass the limit (no ICC profile: expect a proof to differ slightly from the "
        "screen). Text is drawn as outlines, so no font can be substituted.",
    ]
    out["README.md"] = text_file(
        shops.readme(source, "DriveThruCards (poker cards)", lines, steps, SIZE)
    )
    return out
