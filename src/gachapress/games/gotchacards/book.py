"""GotchaCards in its rulebook: the tables only it has, and how its cards are captioned.

Hooks that the book builder looks up by name (gachapress.book.build.book_hook); they
build model nodes and import no publishing code.
"""

from __future__ import annotations

from typing import Any

from gachapress.book.build import BookBuilder, CardLabel, GameTables, cell, marker, table, text
from gachapress.book.prose import runs
from gachapress.data.model import Card


def card_label(page: BookBuilder, card: Card) -> CardLabel:
    name = page.t(card.name)
    kind = page.words.label("values", card.type)  # type: ignore[attr-defined]
    return CardLabel(name, f"{name} ({kind})")


def tables(page: BookBuilder) -> GameTables:
    model: Any = page.model
    tables = GameTables(no_gallery={"main"})
    rows = []
    for c in model.decks.main.cards:
        name = [text(page.t(c.name))]
        if c.advanced:
            name.append(marker(page.ui("advanced_mark"), dark=True))
        rows.append(
            [
                cell(page.card(c.id, size="s", caption="")),
                cell(*name),
                cell(text(page.words.label("values", c.type))),
                cell(text(c.count)),
                cell(*runs(page.t(c.text, card=c) if c.text else "")),
            ]
        )
    tables.decks["main"] = [
        table(
            page.ui("gotchacards_list"),
            [
                cell(),
                cell(text(page.ui("name"))),
                cell(text(page.ui("type"))),
                cell(text(page.ui("copies"))),
                cell(text(page.ui("card_text"))),
            ],
            rows,
            cls="cards-list",
            row_heads=False,
            foot=[
                cell(text(page.ui("total"))),
                cell(text(page.ui("beginner_total", n=model.deck_size(beginner=True)))),
                cell(text("")),
                cell(text(model.deck_size())),
                cell(text("")),
            ],
        )
    ]
    draft = model.competitive.draft
    tables.setup.append(
        table(
            page.ui("draft_table"),
            [cell(text(page.ui("step"))), cell(text(page.ui("cards")))],
            [
                [cell(text(page.words.label("fields", "draft_draw"))), cell(text(draft.draw))],
                [cell(text(page.words.label("fields", "draft_keep"))), cell(text(draft.keep))],
                [
                    cell(text(page.words.label("fields", "draft_first_pick"))),
                    cell(text(page.words.label("values", draft.first_pick))),
                ],
                [
                    cell(text(page.words.label("fields", "draft_player2_draw"))),
                    cell(text(draft.player2_draw)),
                ],
                [cell(text(page.words.label("fields", "draft_hand"))), cell(text(draft.hand))],
            ],
            cls="numeric",
        )
    )
    deal = model.party.deal
    tables.setup.append(
        table(
            page.ui("party_deal"),
            [cell(text(page.ui("per_player_count"))), *page.players_head(sorted(deal))],
            [
                [
                    cell(text(page.words.label("fields", "hand"))),
                    *(cell(text(deal[n])) for n in sorted(deal)),
                ]
            ],
            cls="numeric",
        )
    )
    tables.play.append(
        table(
            page.ui("turns_table"),
            [
                cell(text(page.ui("turn"))),
                cell(text(page.ui("places_first"))),
                cell(text(page.ui("cards_to_place"))),
            ],
            [
                [
                    cell(text(i + 1)),
                    cell(text(page.words.label("values", turn.first))),
                    cell(
                        text(
                            page.ui("place_all")
                            if turn.play_all
                            else page.ui("place_at_least", n=turn.min_cards)
                        )
                    ),
                ]
                for i, turn in enumerate(model.competitive.turns)
            ],
            cls="numeric",
        )
    )
    over = model.competitive.overtime
    tables.play.append(
        table(
            page.ui("overtime_table"),
            [cell(text(page.ui("overtime_turn"))), *(cell(text(i)) for i in range(1, 5))],
            [
                [
                    cell(text(page.ui("cards_drawn"))),
                    *(
                        cell(text(over.first_draw + (i - 1) * over.draw_increment))
                        for i in range(1, 5)
                    ),
                ]
            ],
            cls="numeric compact",
            note=page.ui("overtime_note"),
        )
    )
    tables.variants.append(
        table(
            page.t(model.beginner.name),
            [cell(text(page.ui("deck"))), cell(text(page.ui("cards")))],
            [
                [cell(text(page.ui("full_deck"))), cell(text(model.deck_size()))],
                [
                    cell(text(page.t(model.beginner.name))),
                    cell(text(model.deck_size(beginner=True))),
                ],
            ],
            cls="numeric",
            note=page.t(model.beginner.text),
        )
    )
    return tables
