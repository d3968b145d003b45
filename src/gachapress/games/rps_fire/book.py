"""Rock, Paper, Scissors, Fire in its rulebook: its own tables, and how its cards are captioned.

Hooks that the book builder looks up by name (gachapress.book.build.book_hook); they
build model nodes and import no publishing code.
"""

from __future__ import annotations

from typing import Any

from gachapress.book.build import BookBuilder, CardLabel, GameTables, cell, table, text
from gachapress.data.model import Card


def card_label(page: BookBuilder, card: Card) -> CardLabel:
    name = page.t(card.name)
    if getattr(card, "type", None) == "fire-alarm":
        return CardLabel(name, name)
    caption = f"{name} {card.value}"  # type: ignore[attr-defined]
    return CardLabel(caption, caption)


def tables(page: BookBuilder) -> GameTables:
    model: Any = page.model
    cards = model.decks.main.cards
    tables = GameTables()
    values = list(range(model.values.min, model.values.max + 1))
    types = list(model.type_beats)
    rows = []
    for kind in types:
        counts = {c.value: c.count for c in cards if c.type == kind}
        rows.append(
            [
                cell(text(page.words.label("values", kind))),
                *(cell(text(counts.get(v, 0))) for v in values),
            ]
        )
    alarms = [c for c in cards if c.type == "fire-alarm"]
    tables.decks["main"] = [
        table(
            page.ui("rps_makeup"),
            [cell(text(page.ui("type_value"))), *(cell(text(v)) for v in values)],
            rows,
            cls="numeric compact",
        ),
        table(
            page.ui("alarm_makeup"),
            [
                cell(),
                cell(text(page.ui("direction"))),
                cell(text(page.ui("copies"))),
                cell(text(page.ui("counts_as"))),
            ],
            [
                [
                    cell(page.card(c.id, size="s", caption="")),
                    cell(text(page.words.label("values", f"alarm-{c.direction}"))),
                    cell(text(c.count)),
                    cell(text(c.value)),
                ]
                for c in alarms
            ],
            cls="cards-list",
            row_heads=False,
        ),
    ]
    tables.play.append(
        table(
            page.ui("what_beats_what"),
            [cell(text(page.ui("card_played"))), cell(text(page.ui("beats_top")))],
            [
                *(
                    [
                        cell(text(page.words.label("values", a))),
                        cell(text(page.ui("beats_any", kind=page.words.label("values", b)))),
                    ]
                    for a, b in model.type_beats.items()
                ),
                *(
                    [
                        cell(text(page.words.label("values", a))),
                        cell(text(page.ui("beats_lower", kind=page.words.label("values", a)))),
                    ]
                    for a in model.type_beats
                ),
                [
                    cell(text(page.words.label("values", "fire-alarm"))),
                    cell(text(page.ui("beats_everything"))),
                ],
            ],
            cls="beats",
        )
    )
    deck = model.decks.main.size()
    counts = sorted(model.setup)
    tables.setup.append(
        table(
            page.ui("draw_deck_left"),
            [cell(text(page.ui("per_player_count"))), *page.players_head(counts)],
            [
                [
                    cell(text(page.ui("cards_left_to_draw"))),
                    *(
                        cell(text(deck - n * model.setup[n].hand - model.pile_start.cards))
                        for n in counts
                    ),
                ]
            ],
            cls="numeric",
        )
    )
    return tables
