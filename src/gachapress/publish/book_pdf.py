"""The PDF backend of the books: a print-ready rulebook for each page size (see
``assembly/names.py`` for the file names).

A :class:`~gachapress.book.model.Book` set with reportlab's platypus, in one of the
:data:`PAGE_SETUPS`: A5 (the size a publisher folds from A4/Letter sheets into a booklet, its
pages padded with notes pages to a multiple of four, so that it saddle-stitches), or A4 and US
Letter laid out at full size for home printers (larger type, margins a home printer can reach).
The fonts are the ones the cards use, all embedded:
Noto Sans for Latin text and IPAexGothic for Japanese (and for any character Noto Sans lacks).
Every page is numbered; the contents list the sections and their parts with page numbers, and
the PDF's outline (bookmarks) has every heading. A book is laid out in one pass: the contents
know their entries beforehand, and their page numbers are forms filled in at the end.
Headings stay with what follows them, tables split between rows and repeat their header row,
worked examples are not split, and the cards are drawn by the print-and-play's own painter
(one PDF form per face, placed as often as shown).
"""

from __future__ import annotations

import copy
import io
import re
import weakref
from ast import literal_eval
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import zip_longest
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from fontTools.ttLib import TTFont as FontToolsFont
from reportlab.graphics.shapes import Drawing, Line, Rect
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.pagesizes import A4, A5, LETTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import registerFontFamily, stringWidth
from reportlab.platypus import (
    ActionFlowable,
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    KeepTogether,
    ListFlowable,
    ListItem,
    PageTemplate,
    Spacer,
)
from reportlab.platypus import Paragraph as PlatypusParagraph
from reportlab.platypus import Table as PdfTable
from reportlab.platypus.tableofcontents import TableOfContents, drawPageNumbers

from gachapress.book import model as m
from gachapress.render.fonts import FontFile
from gachapress.render.layout import Face
from gachapress.render.pdf import MM, FacePainter
from gachapress.render.pdfinfo import DocumentInfo


@dataclass(frozen=True)
class PageSetup:
    """A book's page: its size, its margins (``bottom`` holds the page number, set halfway
    down it), the scale of its type and pictures against A5's, and the multiple its page count
    is padded to (a saddle-stitched booklet's four pages a sheet)."""

    size: tuple[float, float]
    margin: float
    top: float
    bottom: float
    scale: float = 1.0
    pages_multiple: int = 1


#: The page setups by name. A5 is the print shop's booklet page; A4 and US Letter are printed
#: at home: every mark 10 mm or more from the paper's edge (a home printer leaves 4 to 5 mm
#: blank), and type a size up so that a line is not too long for its page.
PAGE_SETUPS = {
    "a5": PageSetup(A5, 13 * mm, 13 * mm, 15 * mm, pages_multiple=4),
    "a4": PageSetup(A4, 20 * mm, 18 * mm, 24 * mm, scale=1.2),
    "letter": PageSetup(LETTER, 20 * mm, 18 * mm, 24 * mm, scale=1.2),
}
#: The book every build makes: the A5 booklet.
DEFAULT_SIZE = "a5"
#: The width of a card in a worked example, a card list, a gallery (on A5).
CARD_WIDTHS = {"xs": 11 * mm, "s": 12 * mm, "m": 17 * mm}
INK = colors.HexColor("#222222")
MUTED = colors.HexColor("#5a5a66")
ACCENT = colors.HexColor("#8a2be2")
RULE = colors.HexColor("#c9c9d6")
#: The room a table needs below its heading: its header row and its first rows.
TABLE_START = 90
#: A page whose text is at least this wide (A4, Letter) sets the worked examples two abreast.
TWO_EXAMPLES = 150 * mm
#: The gap between two examples abreast.
EXAMPLE_GAP = 7 * mm
SOFT = colors.HexColor("#f3f1f8")


@dataclass(frozen=True)
class Placed:
    """A flowable as laid out: its page, and whether it is a heading (for the tests)."""

    page: int
    heading: bool


#: Each paragraph's text as parsed, by its markup and its style's settings: the A4 and the US
#: Letter book set the same text in the same type (see ``Paragraph._setup``).
_PARSED: dict[tuple[str, str, Any], tuple[Any, list[Any], Any]] = {}
#: The most parses kept: more than a book's paragraphs on two page sizes.
_PARSED_MAX = 8192
#: Each style's settings (all but its parent), as part of the key of ``_PARSED``.
_STYLE_KEYS: weakref.WeakKeyDictionary[ParagraphStyle, str] = weakref.WeakKeyDictionary()


class Paragraph(PlatypusParagraph):
    """A paragraph that parses its markup once per text and type, and breaks its lines once
    per width: platypus wraps every paragraph again on each pass, and again for each measure
    of the table, list or kept group it is in."""

    def _setup(self, text: str, style: Any, bulletText: Any, frags: Any, cleaner: Any) -> None:
        """Platypus's setup, from the parse of the same text in a style of the same settings
        when there is one (its fragments copied: a paragraph's own never reach another)."""
        plain = isinstance(style, ParagraphStyle) and isinstance(bulletText, str | None)
        if frags is not None or not plain:
            super()._setup(text, style, bulletText, frags, cleaner)
            return
        if style not in _STYLE_KEYS:
            settings = sorted((k, v) for k, v in vars(style).items() if k != "parent")
            _STYLE_KEYS[style] = repr(settings)
        key = (text, _STYLE_KEYS[style], bulletText)
        parsed = _PARSED.get(key)
        if parsed is None:
            super()._setup(text, style, bulletText, None, cleaner)
            if self.style is not style:  # the markup set its own style (<para>): not kept
                return
            if len(_PARSED) >= _PARSED_MAX:
                _PARSED.clear()
            _PARSED[key] = (self.text, [copy.copy(f) for f in self.frags], self.bulletText)
            return
        cleaned, parsed_frags, bullet = parsed
        super()._setup(cleaned, style, bullet, [copy.copy(f) for f in parsed_frags], cleaner)

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        wraps = self.__dict__.setdefault("_wraps", {})
        if availWidth in wraps:
            self.width, self.height, self.blPara, self._wrapWidths = wraps[availWidth]
            return self.width, self.height
        size = super().wrap(availWidth, availHeight)
        if hasattr(self, "blPara"):  # else the width could hold nothing: nothing was broken
            wraps[availWidth] = (self.width, self.height, self.blPara, self._wrapWidths)
        return size

    def split(self, availWidth: float, availHeight: float) -> list[Flowable]:
        """Platypus's split, from lines broken afresh: a split edits the lines it cuts (a space
        after the last word of each), which must not reach a later wrap."""
        if self.__dict__.pop("_wraps", None) and hasattr(self, "blPara"):
            super().wrap(self.width, availHeight)
        return super().split(availWidth, availHeight)


class Heading(Paragraph):
    """A heading: kept with what follows, listed in the outline (and at ``toc`` levels in the
    contents), an anchor for links to ``key``."""

    def __init__(self, text: str, style: ParagraphStyle, level: int, key: str, toc: bool) -> None:
        super().__init__(f'<a name="{key}"/>{text}', style)
        self.plain = text
        self.level = level
        self.key = key
        self.toc = toc


class PadPages(ActionFlowable):
    """The end of a book whose page count is padded to a multiple: as many notes pages as
    that takes follow the last page."""

    def __init__(self, multiple: int) -> None:
        super().__init__()
        self.multiple = multiple

    def apply(self, document: Any) -> None:
        for _ in range(-document.page % self.multiple):
            document.handle_nextPageTemplate("notes")
            document.handle_pageBreak()
            document.clean_hanging()  # begin the page now: it holds no flowable


class _Frame(Frame):
    """A frame whose deep copy copies only what is not a number or a string: platypus copies
    the frame each time it measures a list or a kept group, and nearly all it holds is numbers."""

    def __deepcopy__(self, memo: dict[int, Any]) -> _Frame:
        twin = copy.copy(self)
        for name, value in vars(self).items():
            if not isinstance(value, int | float | str | None):
                setattr(twin, name, copy.deepcopy(value, memo))
        return twin


class _Document(BaseDocTemplate):
    def __init__(
        self, target: io.BytesIO, book: m.Book, setup: PageSetup, font: str, bold: str
    ) -> None:
        size = setup.size
        super().__init__(
            target,
            pagesize=size,
            leftMargin=setup.margin,
            rightMargin=setup.margin,
            topMargin=setup.top,
            bottomMargin=setup.bottom,
            **DocumentInfo(
                title=book.title,
                author=book.author,
                subject=book.ui.get("rulebook", ""),
                lang=book.lang,
                keywords=("rulebook", book.game_id),
            ).template_arguments(),
            invariant=1,
            initialFontName=font,
        )
        self.font = font
        self.bold = bold
        self.setup = setup
        self.notes = book.ui.get("notes", "")
        frame = _Frame(
            setup.margin,
            setup.bottom,
            size[0] - 2 * setup.margin,
            size[1] - setup.top - setup.bottom,
            0,
            0,
            0,
            0,
            id="body",
        )
        self.addPageTemplates(
            [
                PageTemplate("page", [frame], onPage=self._folio),
                PageTemplate("notes", [frame], onPage=self._notes_page),
            ]
        )
        self.placed: list[Placed] = []
        self.pages: dict[str, int] = {}  # each heading's page, by its key

    def beforeDocument(self) -> None:
        self.placed = []
        self.pages = {}

    def _folio(self, canvas: Any, document: Any) -> None:
        canvas.saveState()
        canvas.setFont(self.font, 8)
        canvas.setFillColor(MUTED)
        canvas.drawCentredString(self.pagesize[0] / 2, self.setup.bottom / 2, str(document.page))
        canvas.restoreState()

    def _notes_page(self, canvas: Any, document: Any) -> None:
        """A page that pads the book: a small "Notes" heading over faint ruled lines."""
        setup, (width, height) = self.setup, self.pagesize
        canvas.saveState()
        top = height - setup.top - 11 * setup.scale
        canvas.setFont(self.bold, 10.5 * setup.scale)
        canvas.setFillColor(ACCENT)
        canvas.drawString(setup.margin, top, self.notes)
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.4)
        step = 8 * mm * setup.scale
        y = top - step
        while y > setup.bottom:
            canvas.line(setup.margin, y, width - setup.margin, y)
            y -= step
        canvas.restoreState()
        self._folio(canvas, document)

    def afterFlowable(self, flowable: Flowable) -> None:
        heading = isinstance(flowable, Heading)
        if not isinstance(flowable, Spacer | ActionFlowable):  # page breaks are not blocks
            self.placed.append(Placed(self.page, heading))
        if heading:
            self.canv.bookmarkPage(flowable.key)
            self.canv.addOutlineEntry(flowable.plain, flowable.key, flowable.level, closed=True)
            self.pages[flowable.key] = self.page


class Contents(TableOfContents):
    """The contents, laid out in one pass: their entries are known before the book is (the
    headings marked for them), and each entry's dots and page number are a form drawn where
    they go and defined once the book is laid out (:meth:`finish`)."""

    def __init__(self, **style: Any) -> None:
        super().__init__(**style)
        self.ends: dict[str, tuple[float, float, ParagraphStyle, float]] = {}

    def set_entries(self, entries: Iterable[tuple[int, str, str]]) -> None:
        """The entries (level, text, key), in order, before the book is laid out."""
        self._lastEntries = [(level, text, 0, key) for level, text, key in entries]

    def wrap(self, availWidth: float, availHeight: float) -> tuple[float, float]:
        size = super().wrap(availWidth, availHeight)

        def entry_end(canvas: Any, kind: str, label: str) -> None:
            _, level, key = label.split(",")
            key = literal_eval(key)
            x, y = canvas._curr_tx_info["cur_x"], canvas._curr_tx_info["cur_y"]
            style = self.getLevelStyle(int(level))
            self.ends[key] = (x, y, style, availWidth)
            canvas.doForm(f"contents-{key}")
            # the dots and the number link to the heading, as the entry's text does
            canvas.linkRect("", key, (x, y, availWidth, y + style.leading), relative=1)

        self.canv.setNamedCB("drawTOCEntryEnd", entry_end)
        return size

    def finish(self, canvas: Any, pages: Mapping[str, int]) -> None:
        """Define each entry's form: dots, then the page its heading went to."""
        for key, (x, y, style, width) in self.ends.items():
            canvas.beginForm(f"contents-{key}", -1e4, -1e4, 1e4, 1e4)
            canvas._curr_tx_info = {"cur_x": x, "cur_y": y}
            drawPageNumbers(canvas, style, [(pages[key], None)], width, 0, " . ")
            canvas.endForm()


class FacePicture(Flowable):
    """A card or token face, trimmed, ``width`` points wide: the face's form, defined once per
    document by the painter the print-and-play PDFs use."""

    def __init__(self, face: Face, width: float) -> None:
        super().__init__()
        self.face = face
        self.scale = width / (face.shape.width * MM)
        self.width = width
        self.height = face.shape.height * MM * self.scale

    def draw(self) -> None:
        canvas = self.canv
        painter = getattr(canvas, "_face_painter", None)
        if painter is None:
            painter = canvas._face_painter = FacePainter(canvas)
        name = painter.form(self.face)
        round_shape = self.face.shape.kind == "round"
        canvas.saveState()
        path = canvas.beginPath()
        if round_shape:
            path.circle(self.width / 2, self.height / 2, self.width / 2)
        else:
            path.roundRect(0, 0, self.width, self.height, self.face.shape.corner * MM * self.scale)
        canvas.clipPath(path, stroke=0, fill=0)
        canvas.scale(self.scale, self.scale)
        bleed = self.face.shape.bleed * MM
        canvas.translate(-bleed, -bleed)
        canvas.doForm(name)
        canvas.restoreState()
        canvas.saveState()
        canvas.setStrokeColor(RULE)
        canvas.setLineWidth(0.4)
        if round_shape:
            canvas.circle(self.width / 2, self.height / 2, self.width / 2)
        else:
            canvas.roundRect(
                0, 0, self.width, self.height, self.face.shape.corner * MM * self.scale
            )
        canvas.restoreState()


class DiagramPicture(Flowable):
    """A setup diagram drawn on the page: its areas, empty places, text (in the book's
    fonts, so it stays text) and cards (by the same painter as :class:`FacePicture`),
    scaled down to ``width`` when it is wider."""

    def __init__(
        self,
        diagram: m.SetupDiagram,
        faces: Mapping[str, Face],
        width: float,
        fonts: tuple[str, str],
    ) -> None:
        super().__init__()
        self.diagram = diagram
        self.faces = faces
        self.scale = min(1.0, width / (diagram.width * mm)) * mm
        self.width = diagram.width * self.scale
        self.height = diagram.height * self.scale
        self.fonts = fonts

    def draw(self) -> None:
        canvas, k = self.canv, self.scale
        for shape in self.diagram.shapes:
            x, top = shape.x * k, self.height - shape.y * k
            w, h = shape.w * k, shape.h * k
            canvas.saveState()
            if shape.kind == "area":
                canvas.setFillColor(SOFT)
                canvas.setStrokeColor(RULE)
                canvas.setLineWidth(0.5)
                canvas.roundRect(x, top - h, w, h, 2 * k, stroke=1, fill=1)
            elif shape.kind == "slot":
                canvas.setStrokeColor(MUTED)
                canvas.setFillColor(colors.white)
                canvas.setLineWidth(0.4)
                canvas.setDash(1.5, 1.2)
                if shape.round:
                    canvas.circle(x + w / 2, top - h / 2, w / 2, stroke=1, fill=1)
                else:
                    canvas.roundRect(x, top - h, w, h, 1 * k, stroke=1, fill=1)
            elif shape.kind == "card" and shape.card is not None:
                face = self.faces.get(shape.card.card_id)
                if face is not None:
                    FacePicture(face, w).drawOn(canvas, x, top - h)
            elif shape.kind == "text":
                canvas.setFillColor(INK)
                canvas.setFont(self.fonts[1] if shape.bold else self.fonts[0], h)
                canvas.drawString(x, top - h * 0.82, shape.text)
            canvas.restoreState()


@cache
def _covered(path: Path) -> frozenset[int]:
    return frozenset(FontToolsFont(path, lazy=True).getBestCmap())


@lru_cache(maxsize=1 << 14)  # bounded: a server lays out books after every edit
def _latin_run(value: str, latin: frozenset[int], japanese: str) -> str:
    """``value`` as markup, its words with a character outside ``latin`` set in ``japanese``:
    once per text, though each page size sets the book again."""
    parts = []
    for chunk in re.split(r"(\s+)", value):
        if latin.issuperset(map(ord, chunk)):
            parts.append(escape(chunk))
        else:
            parts.append(f'<font name="{japanese}">{escape(chunk)}</font>')
    return "".join(parts)


class BookPdf:
    """Lays one book out as platypus flowables."""

    def __init__(
        self,
        book: m.Book,
        fonts: Mapping[str, FontFile],
        faces: Mapping[str, Face],
        size: str = DEFAULT_SIZE,
    ) -> None:
        self.book = book
        self.setup = PAGE_SETUPS[size]
        self.width = self.setup.size[0] - 2 * self.setup.margin
        self.faces = faces
        self.japanese = fonts["ja"].name
        self.latin = _covered(fonts["regular"].path)
        if book.lang == "ja":
            regular = bold = self.japanese
        else:
            regular, bold = fonts["regular"].name, fonts["bold"].name
        for family, heavy in ((regular, bold), (self.japanese, self.japanese)):
            registerFontFamily(family, normal=family, bold=heavy, italic=family, boldItalic=heavy)
        self.font = regular
        self.bold = bold
        self.cjk = book.lang in {"ja", "zh"}
        self.colon = "：" if self.cjk else ": "
        self.styles = self._styles(regular, bold)
        for style in self.styles.values():  # A4 and Letter: the A5 type a size up
            for name in ("fontSize", "leading", "spaceBefore", "spaceAfter", "rightIndent"):
                setattr(style, name, getattr(style, name) * self.setup.scale)
        self.toc: TableOfContents | None = None

    # -- styles -----------------------------------------------------------------------------
    def _styles(self, regular: str, bold: str) -> dict[str, ParagraphStyle]:
        wrap = "CJK" if self.cjk else None
        body = ParagraphStyle(
            "body",
            fontName=regular,
            fontSize=9,
            leading=12.5,
            textColor=INK,
            spaceAfter=4,
            wordWrap=wrap,
            # Japanese lines may hang a character that cannot begin a line (ー, 。) past the
            # measure: keep room for it inside the margin
            rightIndent=9 if self.cjk else 0,
        )

        def like(name: str, **changes: Any) -> ParagraphStyle:
            return ParagraphStyle(name, parent=body, **changes)

        return {
            "body": body,
            "title": like("title", fontName=bold, fontSize=22, leading=26, spaceAfter=8),
            "kicker": like("kicker", textColor=ACCENT, fontName=bold, fontSize=9),
            "h2": like(
                "h2",
                fontName=bold,
                fontSize=14,
                leading=17,
                spaceBefore=10,
                spaceAfter=5,
                textColor=ACCENT,
                keepWithNext=1,
            ),
            "h3": like(
                "h3",
                fontName=bold,
                fontSize=10.5,
                leading=13,
                spaceBefore=7,
                spaceAfter=3,
                keepWithNext=1,
            ),
            "h4": like("h4", fontName=bold, fontSize=9, spaceBefore=4, keepWithNext=1),
            "caption": like("caption", fontName=bold, fontSize=8, leading=10, keepWithNext=1),
            "cell": like("cell", fontSize=7.5, leading=9.5, spaceAfter=0),
            "head": like("head", fontName=bold, fontSize=7.5, leading=9.5, spaceAfter=0),
            "note": like("note", fontSize=7.5, leading=9.5, textColor=MUTED),
            "small": like("small", fontSize=7.5, leading=9.5, textColor=MUTED),
            "verdict": like("verdict", fontSize=7.5, leading=9.5, textColor=MUTED, spaceAfter=0),
            "card": like(
                "card", fontSize=6.5, leading=8, alignment=TA_CENTER, spaceAfter=0, rightIndent=0
            ),
            "contents": like("contents", fontName=bold, fontSize=10.5, spaceBefore=7),
            "toc0": like("toc0", fontName=bold, fontSize=8.5, leading=11.5),
            "toc1": like("toc1", fontSize=8, leading=10, leftIndent=10),
        }

    # -- text --------------------------------------------------------------------------------
    def run(self, value: str) -> str:
        """Plain text as paragraph markup: escaped, and characters Noto Sans lacks set in
        IPAexGothic (a Japanese name in an English book, a symbol)."""
        if self.book.lang == "ja":
            return escape(value)
        return _latin_run(value, self.latin, self.japanese)

    def markup(self, nodes: Iterable[m.Inline]) -> str:
        return "".join(self.inline(n) for n in nodes)

    def inline(self, node: m.Inline) -> str:
        if isinstance(node, m.Text):
            return self.run(node.text)
        if isinstance(node, m.Strong):
            return f"<b>{self.run(node.text)}</b>"
        if isinstance(node, m.Code):
            return self.run(node.text)
        if isinstance(node, m.Swatch):
            return f'<font name="{self.japanese}" color="{node.hex}">■</font> '
        if isinstance(node, m.Marker):
            if self.cjk:  # full-width brackets, which a Japanese line does not break inside
                return f"<b>［{self.run(node.text)}］</b>"
            return f" <b>[{self.run(node.text)}]</b>"
        if isinstance(node, m.Icon):
            return ""  # a picture beside its name: the name says it (the HTML draws the emoji)
        if isinstance(node, m.CardPicture):
            return f"<b>{self.run(node.caption or node.alt)}</b>"
        if isinstance(node, m.CardRow):
            return self.run(self.book.ui.get("list_sep", ", ")).join(
                (f"{self.run(place)} " if place else "") + self.inline(c)
                for place, c in zip_longest(node.places, node.cards, fillvalue="")
            )
        if isinstance(node, m.ValueRows):
            return "<br/>".join(f"{self.run(r.place)} {self.markup(r.nodes)}" for r in node.rows)
        if isinstance(node, m.Pairs):
            return "<br/>".join(
                f"{self.run(p.key)}{self.colon}{self.markup(p.nodes)}" for p in node.pairs
            )
        star = f'<font name="{self.japanese}">★</font> ' if node.wild else ""
        return f"{node.n}× {star}{self.run(node.label)} "

    def labelled_value(self, label: str, nodes: m.Inlines) -> str:
        """ "Label: value"; a value of one line per player starts on the next line, so that
        "Out of the round: Player 1: no" does not read as one pair (rows of "1st ..." say
        what they are and stay on the label's line: a long book stays as long)."""
        rows = bool(nodes) and isinstance(nodes[0], m.Pairs)
        return f"{self.run(label)}{self.colon}{'<br/>' if rows else ''}{self.markup(nodes)}"

    def para(self, nodes: Iterable[m.Inline], style: str = "body") -> Paragraph:
        return Paragraph(self.markup(nodes), self.styles[style])

    def text(self, value: str, style: str = "body") -> Paragraph:
        return Paragraph(self.run(value), self.styles[style])

    def blocks(self, blocks: m.Blocks, style: str = "body") -> list[Flowable]:
        out: list[Flowable] = []
        for block in blocks:
            if isinstance(block, m.Paragraph):
                out.append(self.para(block.runs, style))
                continue
            items = [ListItem(self.para(item, style)) for item in block.items]
            out.append(
                ListFlowable(
                    items,
                    bulletType="1" if block.kind == "ol" else "bullet",
                    start=None if block.kind == "ol" else "•",
                    bulletFontName=self.font,
                    bulletFontSize=8,
                    leftIndent=12,
                    spaceAfter=4,
                )
            )
        return out

    def heading(self, title: str, level: int, key: str, toc: bool) -> Heading:
        return Heading(self.run(title), self.styles[f"h{level + 2}"], level, key, toc)

    # -- cards -------------------------------------------------------------------------------
    def picture(self, card: m.CardPicture) -> Flowable | None:
        """The card's face drawn at its book size, or None when its face is not at hand."""
        face = self.faces.get(card.card_id)
        if face is None:
            return None
        return FacePicture(face, self.card_width(card.size))

    def card_width(self, size: str) -> float:
        return CARD_WIDTHS.get(size, CARD_WIDTHS["s"]) * self.setup.scale

    def card_grid(self, cards: Sequence[m.CardPicture], *, captions: bool) -> Flowable | None:
        """Cards side by side, as many to a row as fit, each with its caption under it."""
        width = max((self.card_width(c.size) for c in cards), default=0) + 8 * mm
        gap = 2 * mm  # right of each card and its caption
        cells = []
        for card in cards:
            drawing = self.picture(card)
            if drawing is None:
                continue
            label = (
                self.card_label(card.caption or "", card.count, width - gap) if captions else None
            )
            cells.append([drawing] if label is None else [drawing, label])
        if not cells:
            return None
        per_row = max(1, int(self.width // width))
        rows = [cells[i : i + per_row] for i in range(0, len(cells), per_row)]
        if len(rows) > 1:
            rows[-1] += [""] * (per_row - len(rows[-1]))
        return _table(
            rows,
            self.font,
            [
                ("VALIGN", (0, 0), (-1, -1), "TOP"),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), gap),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ],
            colWidths=[width] * len(rows[0]),
        )

    def card_label(self, caption: str, count: int | None, width: float) -> Paragraph | None:
        """A card's caption and its count (``×3``) under it, ``width`` wide: the count is never
        broken nor left alone on a line. Where the two do not fit on one line, the caption is
        broken into lines short enough for the count to follow the last."""
        style = self.styles["card"]
        counted = f" ×{count}" if count else ""
        label = f"{caption}{counted}".strip()
        if not label:
            return None
        if not (caption and counted) or _width(label, style) <= width:
            return self.text(label, "card")
        head, bracket, tail = caption.rpartition("（")
        if head and all(_width(line, style) <= width for line in (head, bracket + tail + counted)):
            lines = [head, bracket + tail]  # 火災報知器 / （両隣） ×3: the bracket kept whole
        else:
            lines = _lines_before(caption, counted, style, width)
        lines[-1] += counted
        return Paragraph("<br/>".join(map(self.run, lines)), style)

    # -- tables ------------------------------------------------------------------------------
    def cell(self, cell: m.Cell, head: bool) -> Any:
        if cell.nodes and all(isinstance(n, m.CardPicture) for n in cell.nodes):
            drawings = [self.picture(n) for n in cell.nodes]  # type: ignore[arg-type]
            if all(d is not None for d in drawings):
                return drawings
        return self.para(cell.nodes, "head" if head else "cell")

    def cell_pad(self) -> float:
        """A cell's padding and the room kept for a hanging glyph, in points."""
        return 6 + (self.styles["body"].rightIndent if self.cjk else 0) + 2

    def widths(self, cell: m.Cell, bold: bool) -> tuple[float, float]:
        """A cell's narrowest width (its longest word) and its width on one line, in points."""
        pad = self.cell_pad()
        if cell.nodes and all(isinstance(n, m.CardPicture) for n in cell.nodes):
            width = sum(self.card_width(n.size) for n in cell.nodes) + pad
            return width, width
        font, size = self.bold if bold else self.font, self.styles["cell"].fontSize
        narrow, full = _text_widths(cell.nodes, font, size, self.cjk)
        # a swatch is drawn in the Japanese font (see inline), wider than the text's own square
        swatches = sum(isinstance(n, m.Swatch) for n in cell.nodes)
        wider = swatches * (stringWidth("■", self.japanese, size) - stringWidth("■", font, size))
        return narrow + pad + max(0.0, wider), full + pad + max(0.0, wider)

    def column_widths(self, table: m.Table, grid: list[tuple[m.Cell, ...]]) -> list[float]:
        """Each column as wide as its longest line, or, when the table would be wider than
        the page, its longest word plus a share of the room left, by how much more it wants."""
        columns = max(len(row) for row in grid)
        narrow, full = [0.0] * columns, [0.0] * columns
        for r, row in enumerate(grid):
            for i, cell in enumerate(row):
                low, high = self.widths(cell, r == 0 or (table.row_heads and i == 0))
                narrow[i], full[i] = max(narrow[i], low), max(full[i], high)
        if sum(full) <= self.width:
            return full
        spare = max(0.0, self.width - sum(narrow))
        wants = [f - n for f, n in zip(full, narrow, strict=True)]
        total = sum(wants) or 1
        widths = [n + spare * w / total for n, w in zip(narrow, wants, strict=True)]
        if sum(widths) > self.width:  # even the words do not fit: shrink all alike
            widths = [w * self.width / sum(widths) for w in widths]
        return widths

    def table_type(self, table: m.Table, grid: list[tuple[m.Cell, ...]]) -> float:
        """The size of a table's type relative to the book's: smaller (down to a floor) when
        its longest words do not fit the page side by side, so that none is broken."""
        columns = max(len(row) for row in grid)
        narrow = [0.0] * columns
        for r, row in enumerate(grid):
            for i, cell in enumerate(row):
                low, _ = self.widths(cell, r == 0 or (table.row_heads and i == 0))
                narrow[i] = max(narrow[i], low)
        pads = columns * self.cell_pad()
        return max(MIN_TABLE_TYPE, min(1.0, (self.width - pads) / (sum(narrow) - pads)))

    def table(self, table: m.Table) -> list[Flowable]:
        grid = [table.head, *table.rows, *([table.foot] if table.foot else [])]
        scale = self.table_type(table, grid)
        saved = {k: self.styles[k] for k in ("cell", "head")}
        if scale < 1:
            for key, style in saved.items():
                self.styles[key] = ParagraphStyle(
                    f"{key}-small",
                    parent=style,
                    fontSize=style.fontSize * scale,
                    leading=style.leading * scale,
                )
        try:
            widths = self.column_widths(table, grid)
            data = [
                [
                    self.cell(c, head=r == 0 or (table.row_heads and i == 0))
                    for i, c in enumerate(row)
                ]
                for r, row in enumerate(grid)
            ]
        finally:
            self.styles.update(saved)
        style: list[tuple[Any, ...]] = [
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("LINEBELOW", (0, 0), (-1, 0), 0.8, ACCENT),
            ("LINEBELOW", (0, 1), (-1, -1), 0.3, RULE),
            ("LEFTPADDING", (0, 0), (-1, -1), 3),
            ("RIGHTPADDING", (0, 0), (-1, -1), 3),
            ("TOPPADDING", (0, 0), (-1, -1), 2),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 2),
        ]
        for r, row in enumerate(grid):
            for i, c in enumerate(row):
                if c.bg:
                    style.append(("BACKGROUND", (i, r), (i, r), _tint(c.bg)))
        if table.foot:
            style.append(("LINEABOVE", (0, -1), (-1, -1), 0.8, INK))
        pdf = _table(data, self.font, style, colWidths=widths, repeatRows=1, splitByRow=1)
        out: list[Flowable] = [self.text(table.caption, "caption"), pdf]
        if table.note:
            out.append(self.text(table.note, "note"))
        out.append(Spacer(1, 5))
        return out

    def tables(self, tables: Iterable[m.Table]) -> list[Flowable]:
        return [f for t in tables for f in self.table(t)]

    # -- charts ------------------------------------------------------------------------------
    def chart(self, chart: m.Chart) -> Flowable:
        """A chart as rows of label, bar (or range) and number."""
        bar_width = self.width * 0.4
        rows = []
        if isinstance(chart, m.BarChart):
            for bar in chart.bars:
                drawing = Drawing(bar_width, 8)
                drawing.add(Rect(0, 1, bar_width, 6, fillColor=SOFT, strokeColor=None))
                share = min(1.0, bar.value / chart.maximum) if chart.maximum else 0
                drawing.add(Rect(0, 1, bar_width * share, 6, fillColor=ACCENT, strokeColor=None))
                if chart.reference is not None and chart.maximum:
                    x = bar_width * min(1.0, chart.reference / chart.maximum)
                    drawing.add(Line(x, 0, x, 8, strokeColor=INK, strokeWidth=0.6))
                rows.append([self.text(bar.label, "cell"), drawing, self.text(bar.text, "cell")])
        else:
            span_range = (chart.maximum - chart.minimum) or 1

            def x(value: float) -> float:
                return bar_width * max(0.0, min(1.0, (value - chart.minimum) / span_range))

            for span in chart.spans:
                drawing = Drawing(bar_width, 8)
                drawing.add(Rect(0, 1, bar_width, 6, fillColor=SOFT, strokeColor=None))
                drawing.add(
                    Line(x(span.low), 4, x(span.high), 4, strokeColor=ACCENT, strokeWidth=2)
                )
                drawing.add(Rect(x(span.mid) - 1, 1, 2, 6, fillColor=INK, strokeColor=None))
                rows.append([self.text(span.label, "cell"), drawing, self.text(span.text, "cell")])
        label = self.width * 0.25
        return _table(
            rows,
            self.font,
            [("VALIGN", (0, 0), (-1, -1), "MIDDLE"), ("LEFTPADDING", (0, 0), (-1, -1), 0)],
            colWidths=[label, bar_width + 6, self.width - label - bar_width - 6],
        )

    # -- sections ----------------------------------------------------------------------------
    def front(self) -> list[Flowable]:
        book = self.book
        out: list[Flowable] = [
            self.text(book.ui.get("rulebook", ""), "kicker"),
            self.text(book.title, "title"),
        ]
        out += [
            Paragraph(f"<b>{self.run(k)}</b>{self.colon}{self.run(v)}", self.styles["body"])
            for k, v in book.header.facts
        ]
        if book.header.summary:
            out.append(self.text(book.header.summary))
        toc = self.toc = Contents(
            levelStyles=[self.styles["toc0"], self.styles["toc1"]],
            dotsMinLevel=0,
            tableStyle=[  # no padding: the page numbers end at the frame's right edge
                ("FONTNAME", (0, 0), (-1, -1), self.font),
                ("LEFTPADDING", (0, 0), (-1, -1), 0),
                ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ],
        )
        # not a sticky heading: platypus finds the contents only at the story's top level
        out += [Spacer(1, 8), self.text(book.ui.get("contents", ""), "contents"), toc]
        return out

    def section(self, s: m.AnySection, toc: set[str]) -> list[Flowable]:
        out: list[Flowable] = [self.heading(s.title, 0, s.id, True)]
        if isinstance(s, m.OverviewSection):
            out += self.blocks(s.blocks)
            out += [self.heading(s.goal_title, 1, "goal", False), *self.blocks(s.goal)]
        elif isinstance(s, m.ComponentsSection):
            out += self.components(s, toc)
        elif isinstance(s, m.PlainSection):
            out += self.blocks(s.blocks)
            out += [self.summary(t) for t in s.summaries]
            out += self.subsections(s.children, toc)
            out += self.tables(s.tables)
            out += [self.diagram(d) for d in s.diagrams]
        elif isinstance(s, m.ModesSection):
            for mode in s.modes:
                out.append(self.heading(f"{mode.title} · {mode.players}", 1, mode.id, True))
                out.append(self.text(mode.text))
            out += self.subsections(s.children, toc)
            out += self.tables(s.tables)
        elif isinstance(s, m.ExamplesSection):
            out += self.examples(s)
        elif isinstance(s, m.ClarificationsSection):
            out.append(self.text(s.intro, "small"))
            for c in s.items:
                question = " ".join(self.markup(b.items[0]) for b in c.question)
                out.append(Heading(question, self.styles["h3"], 1, c.id, False))
                out += self.labelled(self.book.ui.get("decision", ""), c.decision)
                out += self.labelled(self.book.ui.get("reason", ""), c.reason)
        elif isinstance(s, m.NumbersSection):
            out += self.numbers(s)
        elif isinstance(s, m.QuickRefSection):
            out.append(
                ListFlowable(
                    [ListItem(f) for item in s.items for f in self.blocks(item)],
                    bulletType="bullet",
                    start="•",
                    bulletFontName=self.font,
                    leftIndent=12,
                )
            )
        else:
            lines = [s.based_on, s.project, s.licence, s.openmoji, s.fonts, s.generated]
            # One block: a few stray lines of credits would make a nearly empty last page.
            out.append(KeepTogether([self.text(line, "small") for line in lines if line]))
        return out

    def summary(self, summary: m.TurnSummary) -> Flowable:
        """A turn summary: a tinted box holding its title and numbered steps."""
        steps = ListFlowable(
            [ListItem(self.para(step)) for step in summary.steps],
            bulletType="1",
            bulletFontName=self.font,
            bulletFontSize=8,
            leftIndent=12,
        )
        heading = Paragraph(self.run(summary.title), self.styles["h4"])
        box = _table(
            [[[heading, steps]]],
            self.font,
            [
                ("BACKGROUND", (0, 0), (-1, -1), SOFT),
                ("LINEBEFORE", (0, 0), (0, -1), 2, ACCENT),
                ("LEFTPADDING", (0, 0), (-1, -1), 6),
                ("RIGHTPADDING", (0, 0), (-1, -1), 6),
                ("TOPPADDING", (0, 0), (-1, -1), 4),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 6),
            ],
            colWidths=[self.width],
        )
        return KeepTogether([box])  # so the heading over it moves with it (_keep_with_next)

    def diagram(self, diagram: m.SetupDiagram) -> Flowable:
        """A setup diagram with its title over it and its note under it, on one page."""
        return KeepTogether(
            [
                Spacer(1, 4),
                self.text(diagram.title, "caption"),
                DiagramPicture(diagram, self.faces, self.width, (self.font, self.bold)),
                self.text(self.book.ui.get("diagram_note", ""), "note"),
            ]
        )

    def labelled(self, label: str, blocks: m.Blocks) -> list[Flowable]:
        out = self.blocks(blocks)
        if out and isinstance(out[0], Paragraph) and isinstance(blocks[0], m.Paragraph):
            first = f"<b>{self.run(label)}</b> {self.markup(blocks[0].runs)}"
            out[0] = Paragraph(first, self.styles["body"])
        return out

    def subsections(self, children: Iterable[m.Subsection], toc: set[str]) -> list[Flowable]:
        out: list[Flowable] = []
        for child in children:
            out.append(self.heading(child.title, 1, child.id, child.id in toc))
            out += self.blocks(child.blocks)
        return out

    def components(self, s: m.ComponentsSection, toc: set[str]) -> list[Flowable]:
        items = []
        for item in s.items:
            count = self.run(item.count) if item.count else ""
            line = (
                f"{count} {self.run(item.name)}".lstrip()
                if s.count_first
                else self.run(item.name) + count
            )
            if item.note:
                line += f" {self.run(item.note)}"  # the note brings its own brackets
            items.append(ListItem(Paragraph(line, self.styles["body"])))
        out: list[Flowable] = [
            ListFlowable(
                items,
                bulletType="bullet",
                start="•",
                bulletFontName=self.font,
                leftIndent=12,
                spaceAfter=4,
            )
        ]
        for deck in s.decks:
            out.append(self.heading(deck.title, 1, deck.id, deck.id in toc))
            out.append(self.text(deck.summary))
            if deck.provenance:
                out.append(self.text(deck.provenance.text, "small"))
            grid = self.card_grid([deck.back, *deck.gallery], captions=True)
            if grid is not None:
                out.append(grid)
            if deck.more:
                out.append(self.text(deck.more, "small"))
            out += self.tables(deck.tables)
        return out

    def examples(self, s: m.ExamplesSection) -> list[Flowable]:
        ui = self.book.ui
        out: list[Flowable] = [self.text(s.intro, "small")]
        for group in s.groups:
            out.append(self.heading(group.title, 1, group.id, False))
            out += self.example_rows(group.items)
        if s.playthroughs:
            out.append(self.heading(ui.get("playthroughs", ""), 1, "playthroughs", False))
        for p in s.playthroughs:
            out += self.blocks(p.text)
            out.append(self.text(f"{ui.get('playthrough_table', '')} ({p.setup})", "h4"))
            out += [self.para((m.Text(f"{row.key}: "), *row.nodes), "cell") for row in p.table]
            for turn in p.turns:
                steps = [
                    ListItem(
                        [self.para(step.move, "cell")]
                        + [self.para((m.Text("→ "), *note), "cell") for note in step.notes]
                    )
                    for step in turn.steps
                ]
                out.append(
                    KeepTogether(
                        [
                            self.text(turn.title, "h4"),
                            ListFlowable(
                                steps,
                                bulletType="bullet",
                                start="•",
                                bulletFontName=self.font,
                                bulletFontSize=7,
                                leftIndent=14,
                            ),
                        ]
                    )
                )
            out += [self.para(line, "cell") for line in p.result]
            out.append(self.text(f"✓ {ui.get('playthrough_agrees', '')}", "verdict"))
            out.append(Spacer(1, 6))
        return out

    def example_rows(self, examples: Sequence[m.Example]) -> list[Flowable]:
        """The examples one under another, or on a wide page two abreast, each pair a row
        that is not split (a column of short examples would leave half of each page empty)."""
        if self.width < TWO_EXAMPLES:
            return [KeepTogether(self.example(ex)) for ex in examples]
        page_width, column = self.width, (self.width - EXAMPLE_GAP) / 2
        self.width = column  # each example's cards as many to a row as fit its column
        try:
            built: list[Any] = [self.example(ex) for ex in examples]
        finally:
            self.width = page_width
        if len(built) % 2:
            built.append("")
        style = [
            ("VALIGN", (0, 0), (-1, -1), "TOP"),
            ("LEFTPADDING", (0, 0), (-1, -1), 0),
            ("RIGHTPADDING", (0, 0), (-1, -1), 0),
            ("TOPPADDING", (0, 0), (-1, -1), 0),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 0),
        ]
        widths = [column + EXAMPLE_GAP, column]
        return [  # kept together as a whole: a heading above goes with the whole row
            KeepTogether([_table([built[i : i + 2]], self.font, style, colWidths=widths)])
            for i in range(0, len(built), 2)
        ]

    def example(self, ex: m.Example) -> list[Flowable]:
        ui = self.book.ui
        cards = [c for value in (*(g.value for g in ex.given), ex.expect) for c in _cards(value)]
        out: list[Flowable] = []
        grid = self.card_grid(list(dict.fromkeys(cards)), captions=True)
        if grid is not None:
            out.append(grid)
        out += self.blocks(ex.text)
        for given in ex.given:
            out.append(
                Paragraph(self.labelled_value(given.label, given.value), self.styles["cell"])
            )
        answer = f"<b>{self.labelled_value(ui.get('expected', ''), ex.expect)}</b>"
        out.append(Paragraph(answer, self.styles["cell"]))
        verdict = self.run(f"✓ {ui.get('engine_agrees', '')} · {ex.provenance.text}")
        if ex.provenance.href and ex.provenance.link:
            link = self.run(ex.provenance.link)
            verdict += f' · <a href="{ex.provenance.href}" color="#8a2be2">{link}</a>'
        out += [Paragraph(verdict, self.styles["verdict"]), Spacer(1, 7)]
        return out

    def numbers(self, s: m.NumbersSection) -> list[Flowable]:
        out: list[Flowable] = [self.text(s.intro, "small")]
        for mode in s.modes:
            if mode.title:
                out.append(self.heading(mode.title, 1, mode.id, False))
            for group in mode.charts:
                out.append(self.text(group.title, "h4"))
                for figure in group.figures:
                    if figure.caption:
                        out.append(self.text(figure.caption, "caption"))
                    out += [self.chart(figure.chart), Spacer(1, 4)]
            for table in (mode.endings, mode.rare):
                if table is not None:
                    out += self.table(table)
        return out

    # -- the document ------------------------------------------------------------------------
    def story(self) -> list[Flowable]:
        toc = {child.id for entry in self.book.toc for child in entry.children}
        story = self.front()
        for section in self.book.sections:
            story += self.section(section, toc)
        if self.setup.pages_multiple > 1:
            story.append(PadPages(self.setup.pages_multiple))
        return _keep_with_next(story, self.width, self.setup.scale)

    def render(self) -> tuple[bytes, list[Placed]]:
        """The PDF's bytes, and where each flowable went (page, heading or not)."""
        target = io.BytesIO()
        document = _Document(target, self.book, self.setup, self.font, self.bold)
        story = self.story()
        assert self.toc is not None
        self.toc.set_entries(_toc_entries(story))
        document._doSave = 0  # one pass (the contents know their entries), saved below
        document.build(story)
        self.toc.finish(document.canv, document.pages)
        document.canv.save()
        return target.getvalue(), document.placed


def _table(data: list[list[Any]], font: str, style: list[tuple[Any, ...]], **kw: Any) -> PdfTable:
    """A platypus table in ``font`` (a table's own default is Helvetica, never embedded)."""
    table = PdfTable(data, hAlign="LEFT", **kw)
    table.setStyle([("FONTNAME", (0, 0), (-1, -1), font), *style])
    return table


def _keep_with_next(story: list[Flowable], width: float, scale: float) -> list[Flowable]:
    """Headings and captions (styles that keep with the next) bound to what follows them, so
    that no page ends on one."""
    out: list[Flowable] = []
    pending: list[Flowable] = []
    for flowable in story:
        if isinstance(flowable, Paragraph) and getattr(flowable.style, "keepWithNext", 0):
            pending.append(flowable)
            continue
        if pending and isinstance(flowable, PdfTable):
            # a long table may start low on a page: the heading only needs its first rows
            need = sum(f.wrap(width, 1e6)[1] for f in pending) + TABLE_START * scale
            for f in pending:  # or platypus binds them to the whole table itself
                f.keepWithNext = 0
            out += [CondPageBreak(need), *pending, flowable]
            pending = []
        elif pending:
            rest = flowable._content if isinstance(flowable, KeepTogether) else [flowable]
            out.append(KeepTogether([*pending, *rest]))
            pending = []
        else:
            out.append(flowable)
    return out + pending


def _toc_entries(story: Iterable[Flowable]) -> Iterable[tuple[int, str, str]]:
    """The contents' entries of the story's headings (level, text, key), in order."""
    for flowable in story:
        if isinstance(flowable, KeepTogether):
            yield from _toc_entries(flowable._content)
        elif isinstance(flowable, Heading) and flowable.toc:
            yield flowable.level, flowable.plain, flowable.key


def _cards(nodes: Iterable[m.Inline]) -> Iterable[m.CardPicture]:
    """The card pictures among an example's values, in order."""
    for node in nodes:
        if isinstance(node, m.CardPicture):
            yield node
        elif isinstance(node, m.CardRow):
            yield from node.cards
        elif isinstance(node, m.ValueRows):
            for row in node.rows:
                yield from _cards(row.nodes)
        elif isinstance(node, m.Pairs):
            for pair in node.pairs:
                yield from _cards(pair.nodes)


#: The smallest a table's type is set, relative to the book's (7.5 pt -> 5.6 pt).
MIN_TABLE_TYPE = 0.75

# what a Japanese line keeps whole: a number or Latin word ("¥8,000"), a katakana word; else a glyph
_CJK_WORD = re.compile(r"[^\s\u3000-\u30ff\u3400-\u9fff\uff00-\uffef]+|[\u30a0-\u30ff]+|\S")


#: A Japanese label this short ("枚数", "タイプ") is kept on one line.
_CJK_SHORT = 4


def _words(line: str, cjk: bool) -> list[str]:
    """The pieces of a line a column must be wide enough for (not broken inside)."""
    if not cjk:
        return line.split()
    return [line.strip()] if len(line.strip()) <= _CJK_SHORT else _CJK_WORD.findall(line)


@lru_cache(maxsize=1 << 14)
def _text_widths(nodes: m.Inlines, font: str, size: float, cjk: bool) -> tuple[float, float]:
    """The width of the longest word of a cell's text and of its longest line, in points: once
    per text and type, though a table is measured twice and each page size sets it again."""
    lines = _plain(nodes).split("\n")
    words = [w for line in lines for w in _words(line, cjk)] or [" "]
    narrow = max(stringWidth(w, font, size) for w in words)
    return narrow, max(stringWidth(line, font, size) for line in lines)


def _width(text: str, style: ParagraphStyle) -> float:
    return stringWidth(text, style.fontName, style.fontSize)


def _lines(text: str, style: ParagraphStyle, width: float) -> list[str]:
    """``text`` in the lines a paragraph of ``style`` breaks it into, ``width`` wide."""
    paragraph = PlatypusParagraph(escape(text), style)
    paragraph.wrap(width, 1e6)
    joint = "" if style.wordWrap == "CJK" else " "
    return [joint.join(words) for _, words in paragraph.blPara.lines]


def _lines_before(text: str, after: str, style: ParagraphStyle, width: float) -> list[str]:
    """``text`` in lines ``width`` wide that leave room for ``after`` at the end of the last."""
    room = width - _width(after, style)
    lines = _lines(text, style, room)
    # a Japanese line may hang its closing bracket past the measure: narrower, until it fits
    while _width(lines[-1] + after, style) > width and room > style.fontSize:
        room -= style.fontSize
        lines = _lines(text, style, room)
    return lines


def _plain(nodes: Iterable[m.Inline]) -> str:
    """A cell's text, one line per row of a list (to measure a column)."""
    parts = []
    for node in nodes:
        if isinstance(node, m.Text | m.Strong | m.Code | m.Marker):
            parts.append(node.text)
        elif isinstance(node, m.CardPicture):
            parts.append(node.caption or node.alt)
        elif isinstance(node, m.Icon):
            continue  # not printed (see BookPdf.inline)
        elif isinstance(node, m.Need):
            parts.append(f"{node.n}× {node.label} ")
        elif isinstance(node, m.ValueRows):
            parts.append("\n".join(_plain(r.nodes) for r in node.rows))
        elif isinstance(node, m.Pairs):
            parts.append("\n".join(f"{p.key}: {_plain(p.nodes)}" for p in node.pairs))
        elif isinstance(node, m.CardRow):
            parts.append(", ".join(c.caption or c.alt for c in node.cards))
        else:
            parts.append("■ ")
    return "".join(parts) or " "


def _tint(hex_colour: str, share: float = 0.3) -> colors.Color:
    """A table cell's colour, lightened so that black text stays readable on it."""
    base = colors.HexColor(hex_colour)
    return colors.Color(*(1 - share * (1 - c) for c in (base.red, base.green, base.blue)))


def render_book_pdf(
    book: m.Book,
    fonts: Mapping[str, FontFile],
    faces: Mapping[str, Face],
    size: str = DEFAULT_SIZE,
) -> bytes:
    """The PDF of ``book``; ``faces``: each card's and back's face by its key (a card's id)."""
    return BookPdf(book, fonts, faces, size).render()[0]
