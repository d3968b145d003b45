"""The names of a game's outputs in ``out/<game>/``: one place, for the builder that writes
them and for the pages that link them."""

from __future__ import annotations

from collections.abc import Sequence

#: The folder of a game's card faces.
CARDS_DIR = "cards"


def cards_dir(lang: str, card_lang: str) -> str:
    """The folder of a game's faces drawn in ``lang``: ``cards/`` for the card language (the
    print-and-play language, ``build --lang``), ``cards/<lang>/`` for each other language the
    rulebooks and the preview show."""
    return CARDS_DIR if lang == card_lang else f"{CARDS_DIR}/{lang}"


#: The folder the exports write into (``export/<target>/``).
EXPORT_DIR = "export"


def rulebook_html(lang: str) -> str:
    return f"rulebook.{lang}.html"


#: The rulebook PDF every build makes: the A5 booklet, ready for a print shop.
BOOKLET = "a5"


def rulebook_pdf(lang: str, size: str = BOOKLET) -> str:
    """``rulebook.<lang>.pdf`` for the A5 booklet, ``rulebook.<lang>.<size>.pdf`` for a book
    laid out on a home printer's paper (``a4``, ``letter``)."""
    return f"rulebook.{lang}.pdf" if size == BOOKLET else f"rulebook.{lang}.{size}.pdf"


def rulebook_booklet_pdf(lang: str, paper: str) -> str:
    """The A5 booklet imposed two pages a side of ``paper``, to print at home."""
    return f"rulebook.{lang}.booklet-{paper}.pdf"


def rulebook_sizes(papers: Sequence[str]) -> tuple[str, ...]:
    """The page sizes of the rulebook PDFs a build makes: the booklet and each paper of the
    print-and-play sheets (``build --paper``)."""
    return (BOOKLET, *papers)


def rulebook_downloads(lang: str, papers: Sequence[str]) -> list[tuple[str, str]]:
    """The rulebook PDFs of ``lang`` a build makes for ``papers``, each with the UI string
    that names it: the book on each page size, then the booklet imposed on each paper."""
    books = [(rulebook_pdf(lang, size), f"rulebook_pdf_{size}") for size in rulebook_sizes(papers)]
    return books + [
        (rulebook_booklet_pdf(lang, paper), f"rulebook_booklet_{paper}") for paper in papers
    ]


def pnp_pdf(game_id: str, paper: str) -> str:
    return f"{game_id}-pnp-{paper}.pdf"


def export_dir(target: str) -> str:
    return f"{EXPORT_DIR}/{target}/"
