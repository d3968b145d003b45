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
from gachapress.render.pdfinfo import OUTPUT_CONDITION, OUTPUT_CONDITION_NAME

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
        game = source.game.model.name.get(source.lang)
        info = source.info(
            f"{game}: {deck.deck} ({copies(deck)} cards)",
            f"{game}: print-ready cards (PDF/X-1a:2001), back and front of each card",
        )
        out[name] = (
            source.digest(
                back,
                "dtc",
                *(source.digest(f, str(n)) for f, n in deck.fronts),
                repr(shape),
                repr(info),
            ),
            lambda path, pages=pages, info=info: one_up(
                pages,
                path,
                info=info,
                font_name=source.measure.name("regular"),
                cmyk=True,
                fonts=source.outline_fonts,
                pdfx=True,
            ),
        )
        lines.append(f"- `{name}`: {copies(deck)} cards, {2 * copies(deck)} pages")
    steps = [
        "Each page is one side of one card: 2.5 x 3.5 in trim with 1/8 in bleed (the "
        "MediaBox and BleedBox; the TrimBox is the cut). Pages come as back, front, back, "
        "front: one pair per card to print, copies included.",
        f"Colours are CMYK with at most {TOTAL_INK:.0%} total ink: each sRGB colour's grey "
        "is printed in black alone and cyan, magenta and yellow are scaled down where they "
        "would pass the limit. Text is drawn as outlines, so no font can be substituted.",
        f"Each file is PDF/X-1a:2001, its output intent the registered printing condition "
        f"{OUTPUT_CONDITION} ({OUTPUT_CONDITION_NAME}); no ICC profile is embedded (the "
        "printer holds the registered one), and the colours were not converted through one: "
        "expect a proof to differ slightly from the screen.",
    ]
    out["README.md"] = text_file(
        shops.readme(source, "DriveThruCards (poker cards)", lines, steps, SIZE)
    )
    return out
