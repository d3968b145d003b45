"""What the print-shop targets (tgc, dtc) share: which decks a shop's size covers, and the
README that says what the folder holds and what it leaves out."""

from __future__ import annotations

from collections.abc import Iterator

from gachapress.export.common import Source
from gachapress.render.faces import DeckFaces
from gachapress.render.layout import Shape


def card_decks(source: Source, size: str) -> Iterator[tuple[DeckFaces, Shape]]:
    """Each deck the shop size has a shape for, with that shape."""
    for deck in source.decks:
        shape = source.shop_size(deck, size)
        if shape is not None:
            yield deck, shape


def left_out(source: Source, size: str) -> list[DeckFaces]:
    return [deck for deck in source.decks if source.shop_size(deck, size) is None]


def readme(source: Source, shop: str, contents: list[str], steps: list[str], size: str) -> str:
    """The folder's README: the game, what is here, how to upload it, what is not here."""
    name = source.game.model.name.get("en", source.game.model.name[source.lang])
    text = [f"# {name}: files for {shop}", "", *contents]
    for step in steps:
        text += ["", step]
    missing = left_out(source, size)
    if missing:
        text += [
            "",
            "Not here: "
            + ", ".join(f"{d.deck} ({d.shape_id}, {len(d.fronts)} faces)" for d in missing)
            + ". This shop's card size has no counterpart for them; print them from "
            "`export --to png` (300 dpi, with bleed) or the print-and-play PDF.",
        ]
    return "\n".join(text) + "\n"
