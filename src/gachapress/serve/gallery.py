"""The preview's card gallery: every face and back of a game with its id, count and text."""

from __future__ import annotations

from dataclasses import dataclass, replace

from gachapress.data.load import GameData
from gachapress.data.placeholders import card_texts


@dataclass(frozen=True)
class Face:
    key: str  # the SVG's name in out/<game>/cards/
    id: str
    count: int
    name: str
    text: str


#: Faces on one page of the gallery: a deck of thousands of faces opens and reloads at once.
PAGE_SIZE = 200


@dataclass(frozen=True)
class DeckGallery:
    id: str
    name: str
    cards: int
    faces: tuple[Face, ...]
    back: Face
    distinct: int  # the deck's faces, all pages together


@dataclass(frozen=True)
class GalleryPage:
    """One page of a game's gallery: the decks with the faces it shows, and where it is."""

    decks: list[DeckGallery]
    number: int  # from 1
    pages: int
    first: int  # the faces it shows, counted from 1 over every deck
    last: int
    faces: int  # over every deck


def gallery_page(decks: list[DeckGallery], number: int, size: int = PAGE_SIZE) -> GalleryPage:
    """Page ``number`` (from 1; out of range: the nearest page) of the gallery of ``decks``:
    their faces in order, ``size`` to a page, each deck shown with its back on every page that
    shows any of its faces."""
    total = sum(len(deck.faces) for deck in decks)
    pages = max(1, -(-total // size))
    number = min(max(number, 1), pages)
    start, stop = (number - 1) * size, number * size
    shown, before = [], 0
    for deck in decks:
        faces = deck.faces[max(start - before, 0) : max(stop - before, 0)]
        if faces or (not deck.faces and before == start):
            shown.append(replace(deck, faces=faces))
        before += len(deck.faces)
    return GalleryPage(shown, number, pages, min(start + 1, total), min(stop, total), total)


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
        name = deck.name.get(lang, deck_id)
        decks.append(DeckGallery(deck_id, name, deck.size(), faces, back, len(faces)))
    return decks
