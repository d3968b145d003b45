"""The preview's card gallery: every face and back of a game with its id, count and text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gachapress.assembly import names
from gachapress.data.load import GameData
from gachapress.data.placeholders import card_texts


@dataclass(frozen=True)
class Face:
    key: str  # the SVG's name, without its folder
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
    folder: str  # the folder in out/<game>/ of the faces drawn in the gallery's language
    lang: str


def page_language(languages: Sequence[str]) -> str:
    """The language of the preview's pages: English where the game has it."""
    return "en" if "en" in languages else languages[0]


def game_gallery(game: GameData, lang: str | None = None) -> list[DeckGallery]:
    """Each deck's faces and back, drawn, named and explained in one language: ``lang`` (the
    cards' language, ``serve --lang``), else the page's."""
    card_lang = game.model.card_language(lang)
    shown = lang or page_language(game.model.languages)
    folder = names.cards_dir(shown, card_lang)
    decks = []
    for deck_id, deck in game.model.deck_items():
        faces = tuple(
            Face(
                card.id,
                card.id,
                card.count,
                card.name.get(shown, ""),
                card_texts(game.model, card).get(shown, ""),
            )
            for card in deck.faces()
        )
        back = Face(f"back-{deck_id}", f"back-{deck_id}", deck.size(), "", "")
        decks.append(
            DeckGallery(
                deck_id, deck.name.get(shown, deck_id), deck.size(), faces, back, folder, shown
            )
        )
    return decks
