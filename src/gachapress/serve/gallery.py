"""The preview's card gallery: every face and back of a game with its id, count and text."""

from __future__ import annotations

from dataclasses import dataclass

from gachapress.data.load import GameData
from gachapress.data.placeholders import card_texts


@dataclass(frozen=True)
class Face:
    key: str  # the SVG's name in out/<game>/cards/
    id: str
    count: int
    name: str
    text: str


@dataclass(frozen=True)
class DeckGallery:
    id: str
    name: str
    cards: int
    faces: tuple[Face, ...]
    back: Face


def game_gallery(game: GameData, lang: str | None = None) -> list[DeckGallery]:
    """Each deck's faces and back, named and explained in the card language (``lang``, by
    default the game's first)."""
    lang = game.model.card_language(lang)
    decks = []
    for deck_id, deck in game.model.deck_items():
        faces = tuple(
            Face(
                card.id,
                card.id,
                card.count,
                card.name.get(lang, ""),
                card_texts(game.model, card).get(lang, ""),
            )
            for card in deck.faces()
        )
        back = Face(f"back-{deck_id}", f"back-{deck_id}", deck.size(), "", "")
        decks.append(DeckGallery(deck_id, deck.name.get(lang, deck_id), deck.size(), faces, back))
    return decks
