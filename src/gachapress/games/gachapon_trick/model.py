"""Gachapon Trick's data model: the Latin-square toy deck, the Refund card, setup and scoring."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, StringConstraints

from gachapress.data.model import (
    Art,
    Card,
    Count,
    Deck,
    DeckBase,
    Decks,
    GameBase,
    Id,
    PlayerCount,
    Strict,
    Text,
)

Yen = Annotated[int, Field(ge=0, le=1_000_000, multiple_of=100)]
"""An amount of money; the game counts in ¥100 steps."""


class ToyCard(Card):
    """A toy card: one cell of the Latin square (seed: "Components", "Deck Makeup")."""

    color: Id
    cost: Yen
    toy: Id


class RefundCard(Card):
    """The Refund card (seed: "Components", and its paragraph under "Game Play")."""


class Color(Strict):
    """A suit: a row of the Latin square."""

    id: Id
    name: Text
    hex: Annotated[str, StringConstraints(pattern=r"^#[0-9a-f]{6}$")]
    symbol: Annotated[str, StringConstraints(min_length=1, max_length=1)]
    """A shape of its own beside the cost, so a suit reads without its colour."""


class Toy(Strict):
    """One of the seven toys, with its picture."""

    id: Id
    name: Text
    art: Art


class ToyDeck(DeckBase):
    """The toy cards, declared as a Latin square: ``square[row][column]`` is the toy of the card
    whose colour is ``colors[row]`` and whose cost is ``costs[column]``."""

    colors: Annotated[list[Color], Field(min_length=1, max_length=12)]
    costs: Annotated[list[Yen], Field(min_length=1, max_length=12)]
    toys: Annotated[list[Toy], Field(min_length=1, max_length=12)]
    square: Annotated[list[list[Id]], Field(min_length=1, max_length=12)]

    def faces(self) -> list[ToyCard]:  # type: ignore[override]
        toys = {toy.id: toy for toy in self.toys}
        cards = []
        for color, row in zip(self.colors, self.square, strict=False):
            for cost, toy_id in zip(self.costs, row, strict=False):
                toy = toys.get(toy_id)
                if toy is None:
                    continue  # reported by the square-references check
                name = {lang: text for lang, text in toy.name.items()}
                cards.append(
                    ToyCard(
                        id=f"{color.id}-{cost}",
                        name=name,
                        art=toy.art,
                        color=color.id,
                        cost=cost,
                        toy=toy_id,
                    )
                )
        return cards

    def face_paths(self) -> list[tuple[str | int, ...]]:
        toys = {toy.id for toy in self.toys}
        return [
            ("square", r, c)
            for r, row in enumerate(self.square[: len(self.colors)])
            for c, toy_id in enumerate(row[: len(self.costs)])
            if toy_id in toys
        ]

    def color(self, color_id: str) -> Color:
        return next(c for c in self.colors if c.id == color_id)

    def toy(self, toy_id: str) -> Toy:
        return next(t for t in self.toys if t.id == toy_id)


class GachaponDecks(Decks):
    toys: ToyDeck
    refund: Deck[RefundCard]


class PlayerCountSetup(Strict):
    """Setup and trick parameters for one player count (seed: "Setup", "Changes for 2 Players")."""

    hand: Count
    """Cards dealt to each player's hand."""
    draw_pile: Annotated[int, Field(ge=0, le=100)] = 0
    """Cards dealt to each player's own face-down draw pile (2 players only)."""
    money: Yen
    """Starting money, given again at the start of every round."""
    trick_cards: Count | None = None
    """Cards in a trick when players alternate (2 players); None: one card per player in play."""
    draw_after_trick: Annotated[int, Field(ge=0, le=10)] = 0
    """Cards each player draws from their own pile after a trick."""
    lead: Literal["trick-winner", "alternate"]
    """Who leads the next trick."""


class Purchase(Strict):
    """What buying costs (seed: "Game Play")."""

    top_of_deck_price: Yen
    top_of_deck_per_trick: Annotated[int, Field(ge=0, le=10)]
    out_at_most: Yen
    """A player with this much money or less at the end of their turn is out of the round."""


class Scoring(Strict):
    """Round scoring (seed: "Set Collection Scoring", "Round End")."""

    set_points: Annotated[list[Annotated[int, Field(ge=0, le=1000)]], Field(min_length=1)]
    """Points for a set of 1, 2, 3, ... copies of the same toy."""
    yen_per_point: Annotated[int, Field(ge=1, le=100_000)]
    no_spend_bonus: Annotated[int, Field(ge=0, le=1000)]


class GachaponTrick(GameBase):
    """The whole of Gachapon Trick's rules data."""

    decks: GachaponDecks
    setup: dict[PlayerCount, PlayerCountSetup]
    purchase: Purchase
    scoring: Scoring
    rounds: Annotated[int, Field(ge=1, le=20)]
    ranking: Annotated[list[Literal["most-points", "most-money"]], Field(min_length=1)]
    """How the final standings are ordered; players still tied after all of these share."""
