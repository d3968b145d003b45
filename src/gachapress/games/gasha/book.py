"""Gasha in its rulebook: the tables only it has, and how its cards are captioned.

Hooks that the book builder looks up by name (gachapress.book.build.book_hook); they
build model nodes and import no publishing code.
"""

from __future__ import annotations

from typing import Any

from gachapress.book.build import BookBuilder, GameTables, cell, marker, swatch, table, text
from gachapress.book.model import Inline, Need, Table
from gachapress.book.prose import runs


def named_value(page: BookBuilder, value: str) -> list[Inline]:
    model: Any = page.model
    for kind in model.kinds:
        if kind.id == value:
            name = page.t(kind.name)
            icon = page.art_icon(kind.art, name, decorative=True)
            return [icon, text(name)] if icon else [text(name)]
    for colour in model.ticket_colours:
        if colour.id == value:
            name = page.t(colour.name)
            return [swatch(colour.hex, name), text(name)]
    return []


def tables(page: BookBuilder) -> GameTables:
    model: Any = page.model
    tables = GameTables(no_gallery={"set-rewards", "bonus-tokens"})
    kinds = {k.id: k for k in model.kinds}
    colours = {c.id: c for c in model.ticket_colours}

    def needs(reward: Any) -> list[Inline]:
        nodes: list[Inline] = []
        if reward.identical:
            nodes.append(text(page.ui("identical", n=reward.identical)))
            return nodes
        for kind_id, n in reward.needs.items():
            kind = kinds[kind_id]
            name = page.t(kind.name)
            nodes.append(Need(n, name, page.art_icon(kind.art, name)))
        if reward.wild:
            nodes.append(Need(reward.wild, page.ui("wild_gasha"), wild=True))
        return nodes

    rows = []
    for reward in model.decks.set_rewards.cards:
        ticket = (
            [
                swatch(colours[reward.ticket].hex, page.t(colours[reward.ticket].name)),
                text(page.t(colours[reward.ticket].name)),
            ]
            if reward.ticket
            else [text("—")]
        )
        name = [text(page.t(reward.name))]
        if reward.count > 1:
            name.append(text(f" ×{reward.count}", cls="count"))
        if reward.marker:
            name.append(marker(reward.marker))
        rows.append(
            [
                cell(page.card(reward.id, size="s", caption="")),
                cell(*name),
                cell(*needs(reward)),
                cell(text(reward.points)),
                cell(*ticket),
            ]
        )
    tables.decks["set-rewards"] = [
        table(
            page.ui("reward_list"),
            [
                cell(),
                cell(text(page.ui("name"))),
                cell(text(page.ui("trade_in"))),
                cell(text(page.ui("points"))),
                cell(text(page.ui("ticket_half"))),
            ],
            rows,
            cls="cards-list rewards",
            row_heads=False,
            note=page.ui("reward_list_note"),
        )
    ]
    tables.decks["bonus-tokens"] = [
        table(
            page.ui("token_list"),
            [
                cell(),
                cell(text(page.ui("name"))),
                cell(text(page.ui("effect"))),
                cell(text(page.ui("copies"))),
            ],
            [
                [
                    cell(page.card(t.id, size="s", caption="")),
                    cell(text(page.t(t.name))),
                    cell(*runs(page.t(t.text, card=t) if t.text else "")),
                    cell(text(t.count)),
                ]
                for t in model.decks.bonus_tokens.cards
            ],
            cls="cards-list",
            row_heads=False,
        )
    ]
    counts = sorted(model.setup)
    rewards = model.decks.set_rewards.cards
    gasha_total = model.decks.gasha.size()

    def in_play(n: int) -> list[Any]:
        markers = set(model.setup[n].markers)
        return [r for r in rewards if r.marker is None or r.marker in markers]

    ticket_rows = []
    for colour in model.ticket_colours:
        ticket_rows.append(
            [
                cell(swatch(colour.hex, page.t(colour.name)), text(page.t(colour.name))),
                *(
                    cell(text(sum(r.count for r in in_play(n) if r.ticket == colour.id)))
                    for n in counts
                ),
            ]
        )
    tables.setup.append(
        table(
            page.ui("setup_derived"),
            [cell(text(page.ui("per_player_count"))), *page.players_head(counts)],
            [
                [
                    cell(text(page.ui("rewards_in_play"))),
                    *(cell(text(sum(r.count for r in in_play(n)))) for n in counts),
                ],
                [
                    cell(text(page.ui("gasha_in_decks"))),
                    *(cell(text(gasha_total - n * model.setup[n].hand)) for n in counts),
                ],
            ],
            cls="numeric",
        )
    )
    tables.setup.append(
        table(
            page.ui("ticket_halves"),
            [cell(text(page.ui("colour"))), *page.players_head(counts)],
            ticket_rows,
            cls="numeric",
        )
    )
    tables.variants.extend(_token_choices(page, counts))
    tables.end.extend(_endings(page, counts))
    return tables


def _token_choices(page: BookBuilder, counts: list[int]) -> list[Table]:
    """One table per token choice: how many of each Bonus token go face down, by player count."""
    model: Any = page.model
    return [
        table(
            page.ui("token_choice", name=page.t(choice.name)),
            [cell(text(page.ui("bonus_token"))), *page.players_head(counts)],
            [
                [
                    cell(text(page.t(token.name))),
                    *(cell(text(choice.tokens[n].get(token.id, 0))) for n in counts),
                ]
                for token in model.decks.bonus_tokens.cards
            ],
            cls="numeric",
            note=page.t(choice.text),
        )
        for choice in model.token_choices.values()
    ]


def _endings(page: BookBuilder, counts: list[int]) -> list[Table]:
    """How often each end trigger came first in the book's simulations, for every bot and
    player count (the book statistics, when the book has them)."""
    model: Any = page.model
    stats = page.stats
    by_count = (stats or {}).get("modes", {}).get(next(iter(model.modes)))
    if not by_count:
        return []
    rows = []
    for bot in stats["bots"]:  # type: ignore[index]
        for trigger in model.end.triggers:
            label = page.words.label("values", f"end-{trigger}")
            rows.append(
                [
                    cell(text(page.ui("ending_bot", ending=label, bot=page.bot(bot)))),
                    *(
                        cell(text(_share(by_count[str(n)][bot]["end_conditions"].get(trigger))))
                        for n in counts
                    ),
                ]
            )
    return [
        table(
            page.ui("endings_measured", games=stats["games"]),  # type: ignore[index]
            [cell(text(page.ui("ending"))), *page.players_head(counts)],
            rows,
            cls="numeric",
        )
    ]


def _share(share: float | None) -> str:
    return f"{(share or 0) * 100:.0f}%"
