"""Gachapon Trick in its rulebook: the tables only it has, and how its cards are captioned.

Hooks that the book builder looks up by name (gachapress.book.build.book_hook); they
build model nodes and import no publishing code.
"""

from __future__ import annotations

from typing import Any

from gachapress.book.build import (
    BookBuilder,
    CardLabel,
    GameTables,
    cell,
    default_label,
    swatch,
    table,
    text,
    yen,
)
from gachapress.data.model import Card


def card_label(page: BookBuilder, card: Card) -> CardLabel:
    if not hasattr(card, "color"):
        return default_label(page, card)
    deck = page.model.decks.toys  # type: ignore[attr-defined]
    colour = page.t(deck.color(card.color).name)  # type: ignore[attr-defined]
    cost = yen(card.cost)  # type: ignore[attr-defined]
    return CardLabel(
        f"{colour} {cost}", page.ui("toy_card_alt", toy=page.t(card.name), colour=colour, cost=cost)
    )


def tables(page: BookBuilder) -> GameTables:
    model: Any = page.model
    deck = model.decks.toys
    tables = GameTables()
    square = []
    for colour, row in zip(deck.colors, deck.square, strict=False):
        name = page.t(colour.name)
        cells = [cell(swatch(colour.hex, name), text(f"{colour.symbol} {name}"))]
        for cost, toy_id in zip(deck.costs, row, strict=False):
            toy = deck.toy(toy_id)
            toy_name = page.t(toy.name)
            label = page.ui("toy_card_alt", toy=toy_name, colour=name, cost=yen(cost))
            cells.append(
                cell(
                    page.art_icon(toy.art, label) or text(label, cls="toy-label"),
                    text(toy_name, cls="toy-name"),
                    bg=colour.hex,
                    cls="toy",
                )
            )
        square.append(cells)
    tables.decks["toys"] = [
        table(
            page.ui("latin_square", n=len(deck.toys)),
            [cell(text(page.ui("colour_cost"))), *(cell(text(yen(c))) for c in deck.costs)],
            square,
            cls="latin",
            note=page.ui("latin_square_note"),
        )
    ]
    points = model.scoring.set_points
    tables.scoring.append(
        table(
            page.ui("set_table"),
            [
                cell(text(page.ui("copies_of_one_toy"))),
                *(cell(text(i + 1)) for i in range(len(points))),
            ],
            [[cell(text(page.ui("points"))), *(cell(text(p)) for p in points)]],
            cls="numeric compact",
        )
    )
    return tables
