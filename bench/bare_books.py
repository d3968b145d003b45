"""The rulebooks' part of the bare reportlab loop of ``build_bench.py``: the same books typeset
by plain platypus, and their A5 layouts imposed as booklets by plain PDFium.

The words come from the book model (``gachapress.book``), built from the project's rules as the
build builds them, so the bare loop sets the same text: every paragraph, heading and table cell
of every language's book as a plain ``Paragraph`` (a table as a plain ``Table`` of them), in the
books' fonts, type sizes and page setups, in a ``SimpleDocTemplate``; every card picture the
books show (galleries, examples, tables of cards, setup diagrams) is the card's art, parsed
beforehand and drawn once per PDF as a form, placed with ``doForm``. None of the book's own
work is here: no contents, outline, kept groups, column fitting, charts, notes pages or faces.
"""

from __future__ import annotations

import dataclasses
import io
import time
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import pypdfium2
import pypdfium2.raw as pdfium_c
from reportlab.graphics import renderPDF
from reportlab.graphics.shapes import Drawing
from reportlab.lib.styles import ParagraphStyle
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate, Table

from example_project import GAME_IDS
from gachapress.assembly import names
from gachapress.book import model as m
from gachapress.book.build import build_books
from gachapress.book.words import StringTable
from gachapress.data.load import load_rules
from gachapress.project import Templates
from gachapress.publish.book_pdf import CARD_WIDTHS, PAGE_SETUPS
from gachapress.publish.booklet import PAPERS, booklet_order
from gachapress.publish.stats import book_statistics
from gachapress.render import art as artwork
from gachapress.render.fonts import cache_dir
from gachapress.render.metrics import registered_fonts

#: Fields of the model that name or point, and are never printed.
UNPRINTED = frozenset(
    {"id", "card_id", "hex", "cls", "lang", "href", "source", "kind", "t", "description", "axis"}
)
#: Nodes whose words are prose: a card named there is a word, not a picture.
PROSE = (m.Paragraph, m.ListBlock)


@dataclasses.dataclass(frozen=True)
class BareBook:
    """One book to typeset: its words as flowables' specs, and its fonts."""

    lang: str
    flow: tuple[tuple[str, Any], ...]
    """("heading" | "text", words), ("table", rows of words) or ("card", card id)."""
    regular: str
    bold: str


def _words(node: Any) -> Iterator[str]:
    """Every printed string under ``node``."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, tuple | list):
        for item in node:
            yield from _words(item)
    elif dataclasses.is_dataclass(node):
        for f in dataclasses.fields(node):
            if f.name not in UNPRINTED:
                yield from _words(getattr(node, f.name))


def _cards(node: Any) -> Iterator[str]:
    """The card pictures under ``node`` that a book draws (not those named in prose)."""
    if isinstance(node, m.CardPicture):
        yield node.card_id
    elif isinstance(node, tuple | list):
        for item in node:
            yield from _cards(item)
    elif dataclasses.is_dataclass(node) and not isinstance(node, PROSE):
        for f in dataclasses.fields(node):
            yield from _cards(getattr(node, f.name))


def _flow(node: Any) -> Iterator[tuple[str, Any]]:
    """The book's words, tables and pictures in order."""
    if isinstance(node, m.Table):
        rows = [node.head, *node.rows, *([node.foot] if node.foot else [])]
        yield "text", node.caption
        yield "table", tuple(tuple(" ".join(_words(c)) for c in row) for row in rows)
        if node.note:
            yield "text", node.note
    elif isinstance(node, PROSE) or (isinstance(node, tuple) and node and _inline(node[0])):
        yield "text", " ".join(_words(node))
        yield from (("card", card) for card in _cards(node))
    elif isinstance(node, tuple | list):
        for item in node:
            yield from _flow(item)
    elif isinstance(node, str):
        yield "text", node
    elif isinstance(node, m.CardPicture):
        yield "text", node.caption or node.alt
        yield "card", node.card_id
    elif dataclasses.is_dataclass(node):
        for f in dataclasses.fields(node):
            if f.name == "title":
                yield "heading", getattr(node, f.name)
            elif f.name not in UNPRINTED:
                yield from _flow(getattr(node, f.name))


def _inline(node: Any) -> bool:
    return isinstance(node, m.Text | m.Strong | m.Code | m.Swatch | m.Marker | m.Icon
                      | m.CardPicture | m.CardRow | m.ValueRows | m.Pairs | m.Need)


def load_books(project: Path) -> tuple[list[BareBook], dict[str, tuple[str, Drawing]]]:
    """Every game's books (with the statistics a one-game cold build cached in ``project``),
    and each card's art (by card id): its form's name and its drawing, parsed once per art."""
    rules, build = project / "rules", project / "build"
    fonts = registered_fonts(cache_dir(build))
    strings = StringTable.load(Templates(project))
    books: list[BareBook] = []
    arts: dict[str, str] = {}
    for game_id in GAME_IDS:
        game = load_rules(game_id, rules)
        stats = book_statistics(game_id, rules, build / "stats", games=1, game=game)
        for book in build_books(game, strings, stats).values():
            regular, bold = ("ja", "ja") if book.lang == "ja" else ("regular", "bold")
            flow = (("heading", book.title), *_flow(book.header), *_flow(book.sections))
            books.append(BareBook(book.lang, flow, fonts[regular].name, fonts[bold].name))
        for _, deck in game.model.deck_items():
            for card in deck.faces():
                if card.art.openmoji:
                    arts[card.id] = card.art.openmoji
    drawings = {hexcode: artwork.reportlab_drawing(f"openmoji:{hexcode}")
                for hexcode in set(arts.values())}
    return books, {card: (f"art-{hexcode}", drawings[hexcode]) for card, hexcode in arts.items()}


class _Form(Flowable):
    """A card's art, defined as a form on the canvas's first use, placed with ``doForm``."""

    def __init__(self, name: str, drawing: Drawing, width: float) -> None:
        super().__init__()
        self.name, self.drawing = name, drawing
        self.scale = width / max(drawing.width, 1)
        self.width, self.height = width, drawing.height * self.scale

    def draw(self) -> None:
        canvas = self.canv
        defined = canvas.__dict__.setdefault("_bare_forms", set())
        if self.name not in defined:
            defined.add(self.name)
            canvas.beginForm(self.name)
            renderPDF.draw(self.drawing, canvas, 0, 0)
            canvas.endForm()
        canvas.scale(self.scale, self.scale)
        canvas.doForm(self.name)


def typeset(book: BareBook, size: str, arts: Mapping[str, tuple[str, Drawing]]) -> bytes:
    """The book set as plain platypus on ``size``'s page."""
    setup = PAGE_SETUPS[size]
    k = setup.scale
    wrap = "CJK" if book.lang == "ja" else None
    body = ParagraphStyle("body", fontName=book.regular, fontSize=9 * k, leading=12.5 * k,
                          spaceAfter=4 * k, wordWrap=wrap)
    heading = ParagraphStyle("h", parent=body, fontName=book.bold, fontSize=14 * k, leading=17 * k)
    cell = ParagraphStyle("cell", parent=body, fontSize=7.5 * k, leading=9.5 * k, spaceAfter=0)
    card = CARD_WIDTHS["s"] * k
    story: list[Flowable] = []
    for kind, value in book.flow:
        if kind == "table":
            rows = [[Paragraph(escape(text), cell) for text in row] for row in value]
            story.append(Table(rows, repeatRows=1, hAlign="LEFT"))
        elif kind == "card":
            if value in arts:
                story.append(_Form(*arts[value], card))
        elif value:
            story.append(Paragraph(escape(value), heading if kind == "heading" else body))
    target = io.BytesIO()
    SimpleDocTemplate(target, pagesize=setup.size, leftMargin=setup.margin,
                      rightMargin=setup.margin, topMargin=setup.top, bottomMargin=setup.bottom,
                      invariant=1).build(story)
    return target.getvalue()


def impose(book: bytes, paper: str) -> bytes:
    """An A5 PDF two pages a side of landscape ``paper`` (blank pages pad it to fours)."""
    source = pypdfium2.PdfDocument(book)
    pages = len(source)
    order = [p - 1 for side in booklet_order(-(-pages // 4) * 4) for p in side]
    ordered = pypdfium2.PdfDocument.new()
    ordered.import_pages(source, [min(p, pages - 1) for p in order])
    width, height = PAPERS[paper]
    sheets = pypdfium2.PdfDocument(
        pdfium_c.FPDF_ImportNPagesToOne(ordered.raw, width, height, 2, 1)
    )
    out = io.BytesIO()
    sheets.save(out)
    return out.getvalue()


def bare_books(project: Path, papers: tuple[str, ...]) -> tuple[float, float, int]:
    """CPU seconds of typesetting every book on every size, and of imposing the A5 ones as
    booklets on every paper; and how many PDFs that made."""
    books, arts = load_books(project)
    sizes = names.rulebook_sizes(papers)
    start = time.process_time()
    a5 = [typeset(book, size, arts) for book in books for size in sizes]
    typeset_cpu = time.process_time() - start
    a5 = a5[sizes.index(names.BOOKLET) :: len(sizes)]
    start = time.process_time()
    booklets = [impose(pdf, paper) for pdf in a5 for paper in papers]
    return typeset_cpu, time.process_time() - start, len(books) * len(sizes) + len(booklets)
