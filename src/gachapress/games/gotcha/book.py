"""GOTCHA! in its rulebook: the tables only it has, and how its cards are captioned.

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
    percent,
    signed_percent,
    table,
    text,
    yen,
)
from gachapress.data.model import Card


def card_label(page: BookBuilder, card: Card) -> CardLabel:
    name = page.t(card.name)
    if hasattr(card, "amount"):
        bonus = getattr(card, "rate_bonus", 0)
        caption = yen(card.amount) + (f" {signed_percent(bonus)}" if bonus else "")  # type: ignore[attr-defined]
        return CardLabel(caption, f"{name} {caption}")
    if hasattr(card, "rate"):
        alt = page.ui(
            "gacha_card_alt",
            name=name,
            rarity=card.rarity,  # type: ignore[attr-defined]
            rate=percent(card.rate),  # type: ignore[attr-defined]
            points=card.points,  # type: ignore[attr-defined]
        )
        return CardLabel(name, alt)
    return CardLabel(name, name)


def tables(page: BookBuilder) -> GameTables:
    model: Any = page.model
    tables = GameTables(no_gallery={"gacha", "ituned", "notices"})
    gacha_rows = [
        [
            cell(page.card(c.id, size="s", caption="")),
            cell(text(page.t(c.name))),
            cell(text(c.rarity)),
            cell(text(percent(c.rate))),
            cell(text(f"{c.points:,}")),
        ]
        for c in model.decks.gacha.cards
    ]
    tables.decks["gacha"] = [
        table(
            page.ui("gacha_list"),
            [
                cell(),
                cell(text(page.ui("name"))),
                cell(text(page.ui("rarity"))),
                cell(text(page.ui("rate"))),
                cell(text(page.ui("points"))),
            ],
            gacha_rows,
            cls="cards-list",
            row_heads=False,
        )
    ]
    ituned = model.decks.ituned.cards
    tables.decks["ituned"] = [
        table(
            page.ui("ituned_list"),
            [
                cell(),
                cell(text(page.ui("amount"))),
                cell(text(page.ui("rate_bonus"))),
                cell(text(page.ui("copies"))),
            ],
            [
                [
                    cell(page.card(c.id, size="s", caption="")),
                    cell(text(yen(c.amount))),
                    cell(text(signed_percent(c.rate_bonus) if c.rate_bonus else "—")),
                    cell(text(c.count)),
                ]
                for c in ituned
            ],
            cls="cards-list",
            row_heads=False,
            foot=[
                cell(text(page.ui("total"))),
                cell(text(yen(sum(c.amount * c.count for c in ituned)))),
                cell(text("")),
                cell(text(sum(c.count for c in ituned))),
            ],
        )
    ]
    notices = []
    for c in model.decks.notices.cards:
        if c.effect.kind == "rate":
            effect = page.ui("notice_rate", delta=signed_percent(c.effect.delta))
        else:
            effect = page.words.label("values", c.effect.move)
        notices.append(
            [
                cell(page.card(c.id, size="s", caption="")),
                cell(text(page.t(c.name))),
                cell(text(effect)),
            ]
        )
    tables.decks["notices"] = [
        table(
            page.ui("notice_list"),
            [cell(), cell(text(page.ui("name"))), cell(text(page.ui("effect")))],
            notices,
            cls="cards-list",
            row_heads=False,
        )
    ]
    draw = sum(model.deck(d).size() for d in model.draw_deck)
    counts = sorted(model.setup)
    tables.setup.append(
        table(
            page.ui("draw_deck_left"),
            [cell(text(page.ui("per_player_count"))), *page.players_head(counts)],
            [
                [
                    cell(text(page.ui("cards_left_to_draw"))),
                    *(cell(text(draw - n * model.setup[n].hand)) for n in counts),
                ]
            ],
            cls="numeric",
        )
    )
    # The die: which faces win at each total rate, computed by the engine's own rule.
    hit_faces = page.game.spec.rules["hit_faces"]
    step = model.die.percent_per_pip
    rows = []
    for rate in range(step, step * model.die.faces + 1, step):
        faces = hit_faces(model, rate)
        rows.append([cell(text(f"{rate}%")), cell(text(page.ui("list_sep").join(map(str, faces))))])
    tables.play.append(
        table(
            page.ui("die_table"),
            [cell(text(page.ui("total_rate"))), cell(text(page.ui("winning_faces")))],
            rows,
            cls="numeric compact-rows",
            note=page.ui("die_table_note", step=step, faces=model.die.faces),
        )
    )
    return tables
