"""The preview's card gallery: every face and back of a game with its id, count and text."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

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


#: Faces on one page of the gallery: a deck of thousands of faces opens and reloads at once.
PAGE_SIZE = 200


@dataclass(frozen=True)
class DeckGallery:
    id: str
    name: str
    cards: int
    faces: tuple[Face, ...]
    back: Face
    folder: str  # the folder in out/<game>/ of the faces drawn in the gallery's language
    lang: str
    distinct: int  # the deck's faces, all pages together


def page_language(languages: Sequence[str]) -> str:
    """The language of the preview's pages: English where the game has it."""
    return "en" if "en" in languages else languages[0]


@dataclass(frozen=True)
class GalleryPage:
    """One page of a game's gallery: the decks with the faces it shows, and where it is."""

    decks: list[DeckGallery]
    number: int  # from 1
    pages: int
    first: int  # the faces it shows, counted from 1 over the decks paged
    last: int
    faces: int  # over the decks paged
    deck: str  # the one deck paged, or "" for every deck
    every: tuple[tuple[str, str], ...]  # every deck of the game: its id and name


def gallery_page(
    decks: list[DeckGallery], number: int, size: int = PAGE_SIZE, deck: str = ""
) -> GalleryPage:
    """Page ``number`` (from 1; out of range: the nearest page) of the gallery of ``decks``, or
    of the deck ``deck`` alone (unknown or "": every deck): their faces in order, ``size`` to a
    page, each deck shown with its back on every page that shows any of its faces."""
    every = tuple((shown.id, shown.name) for shown in decks)
    if deck in dict(every):
        decks = [shown for shown in decks if shown.id == deck]
    else:
        deck = ""
    total = sum(len(paged.faces) for paged in decks)
    pages = max(1, -(-total // size))
    number = min(max(number, 1), pages)
    start, stop = (number - 1) * size, number * size
    shown, before = [], 0
    for paged in decks:
        faces = paged.faces[max(start - before, 0) : max(stop - before, 0)]
        if faces or (not paged.faces and before == start):
            shown.append(replace(paged, faces=faces))
        before += len(paged.faces)
    first, last = min(start + 1, total), min(stop, total)
    return GalleryPage(shown, number, pages, first, last, total, deck, every)


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
        name = deck.name.get(shown, deck_id)
        decks.append(
            DeckGallery(deck_id, name, deck.size(), faces, back, folder, shown, len(faces))
        )
    return decks
