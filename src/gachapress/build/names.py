"""The names of a game's outputs in ``out/<game>/``: one place, for the builder that writes
them and for the pages that link them."""

from __future__ import annotations

#: The folder of a game's card faces.
CARDS_DIR = "cards"
#: The folder the exports write into (``export/<target>/``).
EXPORT_DIR = "export"


def rulebook_html(lang: str) -> str:
    return f"rulebook.{lang}.html"


def rulebook_pdf(lang: str) -> str:
    return f"rulebook.{lang}.pdf"


def pnp_pdf(game_id: str, paper: str) -> str:
    return f"{game_id}-pnp-{paper}.pdf"


def export_dir(target: str) -> str:
    return f"{EXPORT_DIR}/{target}/"
