"""What every export target shares: the faces of a game, what each output is made from (its
hash, so unchanged faces are not rendered again) and rendering a face to PNG."""

from __future__ import annotations

import io
import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property
from importlib import metadata
from pathlib import Path
from urllib.parse import quote, urlsplit

from gachapress.assembly.builder import art_digests
from gachapress.assembly.manifest import code_version, hash_text
from gachapress.data.load import GameData
from gachapress.data.model import Card
from gachapress.data.placeholders import card_texts
from gachapress.data.project_file import Project, load_project
from gachapress.project import Templates
from gachapress.render.faces import DeckFaces
from gachapress.render.layout import Face, Shape
from gachapress.render.metrics import Measure
from gachapress.render.pdf import MM, one_up
from gachapress.render.pdfinfo import DocumentInfo
from gachapress.render.presets import PrintPresets

#: Print resolution of every PNG for printing (the shops' and Tabletop Simulator's tiles).
DPI = 300

Writer = Callable[[Path], None]
Plan = dict[str, tuple[str, Writer]]
"""Each output of a target: its name in the target folder -> (hash of its inputs, writer)."""


#: Characters a base URL keeps as written; any other is percent-encoded (quotes, <, >, `).
_URL_SAFE = ":/@!$&()*+,;=%~-._"


def web_base_url(text: str) -> str:
    """``--base-url`` as it goes into the exports: an http(s) URL with a host and neither query
    nor fragment (the image names are appended to it), any character outside the URL's own
    punctuation percent-encoded. ValueError, saying what is wanted, for anything else."""
    wanted = "give an http:// or https:// URL with a host, such as https://example.com/cards/"
    if any(c.isspace() or not c.isprintable() for c in text):
        raise ValueError(f"it holds spaces, line breaks or control characters; {wanted}")
    try:
        parts = urlsplit(text)
        host = parts.hostname
    except ValueError:
        host, parts = None, None
    if parts is None or parts.scheme.lower() not in ("http", "https") or not host:
        raise ValueError(f"{text!r} is not a web address; {wanted}")
    if parts.query or parts.fragment or "?" in text or "#" in text:
        raise ValueError(f"{text!r} has a query or fragment, to which no file name can be added")
    return quote(text, safe=_URL_SAFE)


@dataclass(frozen=True)
class ExportOptions:
    root: Path
    out: Path
    text_as_paths: bool = False
    base_url: str | None = None
    """Where Tabletop Simulator fetches the images from (default: the local files)."""
    lang: str | None = None
    """The card language (``--lang``); None: the game's first language."""
    repair_out: bool = False
    """``--repair-out``: take a folder whose marker is damaged as the tool's, listing nothing."""

    def __post_init__(self) -> None:
        if self.base_url is not None:
            object.__setattr__(self, "base_url", web_base_url(self.base_url))

    @property
    def templates(self) -> Templates:
        return Templates(self.root)


@dataclass
class Source:
    """One game's faces and what the targets need to draw them."""

    game: GameData
    decks: list[DeckFaces]
    measure: Measure
    presets: PrintPresets
    options: ExportOptions

    @property
    def lang(self) -> str:
        """The card language the faces were resolved in."""
        return self.decks[0].lang

    @cached_property
    def outline_fonts(self) -> dict[str, Path]:
        """Font name -> TrueType file: what drawing text as outlines reads."""
        return {font.name: font.path for font in self.measure.fonts.values()}

    @cached_property
    def cards(self) -> dict[str, Card]:
        """Every distinct card of the game by id."""
        return {card.id: card for _, deck in self.game.model.deck_items() for card in deck.faces()}

    @cached_property
    def project(self) -> Project:
        return load_project(self.game.root)

    def info(self, title: str, subject: str) -> DocumentInfo:
        """A PDF's document information: ``title`` and ``subject``, the project's author."""
        return DocumentInfo(
            title, self.project.author(self.lang), subject, self.lang, ("cards", self.game.id)
        )

    def card_text(self, card_id: str) -> str:
        return card_texts(self.game.model, self.cards[card_id]).get(self.lang, "")

    def shop_size(self, deck: DeckFaces, size: str) -> Shape | None:
        """The shape a shop cuts in place of the deck's (``sizes:`` of print.yaml), if any."""
        return self.presets.sizes.get(size, {}).get(deck.shape_id)

    def folder(self, target: str) -> Path:
        return self.options.out / self.game.id / "export" / target

    def digest(self, face: Face, *parts: str) -> str:
        """The hash of everything an output drawn from ``face`` is made from."""
        return hash_text(
            code_version(self.game.id),
            _raster_libraries(),
            repr(face),
            *art_digests(face),
            *parts,
        )


@cache
def _raster_libraries() -> str:
    return ",".join(f"{name}={metadata.version(name)}" for name in ("pypdfium2", "pillow"))


def copies(deck: DeckFaces) -> int:
    return sum(count for _, count in deck.fronts)


def render_page(pdf: bytes, index: int, px_per_mm: float):
    """Page ``index`` of a PDF as a PIL image, ``px_per_mm`` pixels per millimetre, by PDFium
    (the renderer of Chrome): the PNG shows exactly what the PDF does."""
    import pypdfium2

    document = pypdfium2.PdfDocument(pdf)
    try:
        page = document[index]
        width, height = (round(pt / MM * px_per_mm) for pt in page.get_size())
        # PDFium rounds the bitmap up, so aim a hair below the exact scale and cut the image
        # to the exact size (at most a fraction of a pixel row is lost).
        image = page.render(scale=(width - 1e-6) / page.get_width()).to_pil()
        return image.crop((0, 0, width, height)) if image.size != (width, height) else image
    finally:
        document.close()


def face_png(source: Source, face: Face, path: Path, *, dpi: int = DPI, cmyk: bool = False) -> None:
    """One face with its bleed as a PNG at ``dpi``, rendered from its own 1-up PDF page."""
    buffer = io.BytesIO()
    one_up(
        [face],
        buffer,
        info=source.info(face.title, "a card face"),
        font_name=source.measure.name("regular"),
        cmyk=cmyk,
        fonts=source.outline_fonts if source.options.text_as_paths else None,
    )
    image = render_page(buffer.getvalue(), 0, dpi / 25.4)
    image.save(path, dpi=(dpi, dpi), optimize=False)


def pixels(length_mm: float, dpi: int = DPI) -> int:
    return math.floor(length_mm / 25.4 * dpi + 0.5)


def text_file(text: str) -> tuple[str, Writer]:
    """A plan entry writing ``text`` (UTF-8), hashed by its content."""
    return hash_text(text), lambda path: path.write_text(text, encoding="utf-8")
