"""The PDF backend of the books: a print-ready rulebook, ``rulebook.<lang>.pdf``.

A :class:`~gachapress.book.model.Book` set with reportlab's platypus on A5 pages (the size a
publisher folds from A4/Letter sheets into a booklet), in the fonts the cards use, all embedded:
Noto Sans for Latin text and IPAexGothic for Japanese (and for any character Noto Sans lacks).
Every page is numbered; the contents list the sections and their parts with page numbers, and
the PDF's outline (bookmarks) has every heading. Headings stay with what follows them, tables
split between rows and repeat their header row, worked examples are not split, and the cards
are drawn by the print-and-play's own painter (one PDF form per face, placed as often as shown).
"""

from __future__ import annotations

import copy
import io
import itertools
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
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
from reportlab.platypus.tableofcontents import TableOfContents

from gachapress.book import model as m
from gachapress.render.fonts import FontFile
from gachapress.render.layout import Face
from gachapress.render.pdf import MM, FacePainter

PAGE_SIZES = {"a5": A5, "a4": A4, "letter": LETTER}
#: The page size of the books: A5, two to a side of an A4 sheet folded into a booklet.
DEFAULT_SIZE = "a5"
MARGIN = 13 * mm
BOTTOM = 15 * mm
#: The width of a card in a worked example, a card list, a gallery.
CARD_WIDTHS = {"xs": 11 * mm, "s": 12 * mm, "m": 17 * mm}
INK = colors.HexColor("#222222")
MUTED = colors.HexColor("#5a5a66")
ACCENT = colors.HexColor("#8a2be2")
RULE = colors.HexColor("#c9c9d6")
#: The room a table needs below its heading: its header row and its first rows.
TABLE_START = 90
SOFT = colors.HexColor("#f3f1f8")
#: The passes that only lay the book out (see ``_Document.lay_out``); at most this many more.
LAYOUT_PASSES = 2
MAX_PASSES = 10


@dataclass(frozen=True)
class Placed:
    """A flowable as laid out: its page, and whether it is a heading (for the tests)."""

    page: int
    heading: bool


class Paragraph(PlatypusParagraph):
    """A paragraph that breaks its lines once per width: platypus wraps every paragraph again
    on each pass, and again for each measure of the table, list or kept group it is in."""

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


class _Frame(Frame):
    """A frame that, in a layout pass (``dry``), places flowables without drawing them: what a
    flowable draws never moves what follows it."""

    dry = False

    def __deepcopy__(self, memo: dict[int, Any]) -> _Frame:
        """A deep copy that copies only what is not a number or a string: platypus copies the
        frame each time it measures a list or a kept group, and nearly all it holds is numbers."""
        twin = copy.copy(self)
        for name, value in vars(self).items():
            if not isinstance(value, int | float | str | None):
                setattr(twin, name, copy.deepcopy(value, memo))
        return twin

    def add(self, flowable: Flowable, canv: Any, trySplit: int = 0) -> int:
        if not self.dry:
            return self._add(flowable, canv, trySplit)
        flowable.drawOn = _undrawn  # shadows the method for this one placing
        try:
            return self._add(flowable, canv, trySplit)
        finally:
            del flowable.drawOn


def _undrawn(*_args: Any, **_kw: Any) -> None:
    """What a flowable draws in a layout pass: nothing."""


class _Document(BaseDocTemplate):
    def __init__(self, target: io.BytesIO, book: m.Book, size: tuple[float, float], font: str):
        super().__init__(
            target,
            pagesize=size,
            leftMargin=MARGIN,
            rightMargin=MARGIN,
            topMargin=MARGIN,
            bottomMargin=BOTTOM,
            title=book.title,
            author="gachapress",
            subject=book.ui.get("rulebook", ""),
            lang=book.lang,
            invariant=1,
            initialFontName=font,
        )
        self.font = font
        self.frame_ = _Frame(
            MARGIN, BOTTOM, size[0] - 2 * MARGIN, size[1] - MARGIN - BOTTOM, 0, 0, 0, 0, id="body"
        )
        self.addPageTemplates([PageTemplate("page", [self.frame_], onPage=self._folio)])
        self.placed: list[Placed] = []

    def lay_out(self, story: list[Flowable]) -> None:
        """``multiBuild``'s passes until the contents' page numbers hold, the first two only
        laying the pages out (the contents are empty, then their numbers are those of a book
        without contents, so neither pass can be the last), the rest drawn: the last pass, the
        one saved, is the pass ``multiBuild`` would save."""
        self._indexingFlowables = [thing for thing in story if thing.isIndexing()]
        self._doSave = 0
        edits: list[tuple[Any, ...]] = []
        self._multiBuildEdits = edits.append
        for passes in itertools.count(1):
            self.frame_.dry = passes <= LAYOUT_PASSES
            for indexing in self._indexingFlowables:
                indexing.beforeBuild()
            self.build(story[:])
            for indexing in self._indexingFlowables:
                indexing.afterBuild()
            if self._allSatisfied() and not self.frame_.dry:
                self.canv.save()
                break
            if passes > MAX_PASSES:
                raise IndexError(f"the contents did not settle in {MAX_PASSES} passes")
            while edits:
                edit = edits.pop(0)
                edit[0](*edit[1:])
        del self._multiBuildEdits

    def beforeDocument(self) -> None:
        self.placed = []

    def _folio(self, canvas: Any, document: Any) -> None:
        canvas.saveState()
        canvas.setFont(self.font, 8)
        canvas.setFillColor(MUTED)
        canvas.drawCentredString(self.pagesize[0] / 2, BOTTOM / 2, str(document.page))
        canvas.restoreState()

    def afterFlowable(self, flowable: Flowable) -> None:
        heading = isinstance(flowable, Heading)
        if not isinstance(flowable, Spacer | ActionFlowable):  # page breaks are not blocks
            self.placed.append(Placed(self.page, heading))
        if heading:
            self.canv.bookmarkPage(flowable.key)
            self.canv.addOutlineEntry(flowable.plain, flowable.key, flowable.level, closed=True)
            if flowable.toc:
                self.notify("TOCEntry", (flowable.level, flowable.plain, self.page, flowable.key))


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


@cache
def _covered(path: Path) -> frozenset[int]:
    return frozenset(FontToolsFont(path, lazy=True).getBestCmap())


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
        self.size = PAGE_SIZES[size]
        self.width = self.size[0] - 2 * MARGIN
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
        parts = []
        for chunk in re.split(r"(\s+)", value):
            if all(ord(ch) in self.latin for ch in chunk):
                parts.append(escape(chunk))
            else:
                parts.append(f'<font name="{self.japanese}">{escape(chunk)}</font>')
        return "".join(parts)

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
            return f" <b>[{self.run(node.text)}]</b>"
        if isinstance(node, m.Icon):
            return ""  # a picture beside its name: the name says it (the HTML draws the emoji)
        if isinstance(node, m.CardPicture):
            return f"<b>{self.run(node.caption or node.alt)}</b>"
        if isinstance(node, m.CardRow):
            return ", ".join(
                (f"#{i} " if node.indexed else "") + self.inline(c)
                for i, c in enumerate(node.cards)
            )
        if isinstance(node, m.ValueRows):
            return "<br/>".join(f"#{r.index} {self.markup(r.nodes)}" for r in node.rows)
        if isinstance(node, m.Pairs):
            return "<br/>".join(
                f"{self.run(p.key)}{self.colon}{self.markup(p.nodes)}" for p in node.pairs
            )
        star = f'<font name="{self.japanese}">★</font> ' if node.wild else ""
        return f"{node.n}× {star}{self.run(node.label)} "

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
        return FacePicture(face, CARD_WIDTHS.get(card.size, CARD_WIDTHS["s"]))

    def card_grid(self, cards: Sequence[m.CardPicture], *, captions: bool) -> Flowable | None:
        """Cards side by side, as many to a row as fit, each with its caption under it."""
        cells = []
        for card in cards:
            drawing = self.picture(card)
            if drawing is None:
                continue
            label = card.caption or ""
            if card.count:
                label += f" ×{card.count}"
            cells.append([drawing, self.text(label, "card")] if captions and label else [drawing])
        if not cells:
            return None
        width = max(CARD_WIDTHS.get(c.size, CARD_WIDTHS["s"]) for c in cards) + 8 * mm
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
                ("RIGHTPADDING", (0, 0), (-1, -1), 2 * mm),
                ("TOPPADDING", (0, 0), (-1, -1), 1),
                ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ],
            colWidths=[width] * len(rows[0]),
        )

    # -- tables ------------------------------------------------------------------------------
    def cell(self, cell: m.Cell, head: bool) -> Any:
        if cell.nodes and all(isinstance(n, m.CardPicture) for n in cell.nodes):
            drawings = [self.picture(n) for n in cell.nodes]  # type: ignore[arg-type]
            if all(d is not None for d in drawings):
                return drawings
        return self.para(cell.nodes, "head" if head else "cell")

    def widths(self, cell: m.Cell, bold: bool) -> tuple[float, float]:
        """A cell's narrowest width (its longest word) and its width on one line, in points."""
        pad = 6 + (9 if self.cjk else 0) + 2  # the padding, the room kept for a hanging glyph
        if cell.nodes and all(isinstance(n, m.CardPicture) for n in cell.nodes):
            width = sum(CARD_WIDTHS.get(n.size, CARD_WIDTHS["s"]) for n in cell.nodes) + pad
            return width, width
        font = self.bold if bold else self.font
        lines = _plain(cell.nodes).split("\n")
        words = [w for line in lines for w in (line if self.cjk else line.split())] or [" "]
        narrow = max(stringWidth(w, font, 7.5) for w in words)
        return narrow + pad, max(stringWidth(line, font, 7.5) for line in lines) + pad

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

    def table(self, table: m.Table) -> list[Flowable]:
        grid = [table.head, *table.rows, *([table.foot] if table.foot else [])]
        widths = self.column_widths(table, grid)
        data = [
            [self.cell(c, head=r == 0 or (table.row_heads and i == 0)) for i, c in enumerate(row)]
            for r, row in enumerate(grid)
        ]
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
        toc = TableOfContents(
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
            out += self.subsections(s.children, toc)
            out += self.tables(s.tables)
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
            lines = [s.based_on, s.project, s.openmoji, s.fonts, s.generated]
            out += [self.text(line, "small") for line in lines]
        return out

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
            line = (f"{item.count} " if item.count else "") + self.run(item.name)
            if item.note:
                line += f" ({self.run(item.note)})"
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
            out += self.tables(deck.tables)
        return out

    def examples(self, s: m.ExamplesSection) -> list[Flowable]:
        ui = self.book.ui
        out: list[Flowable] = [self.text(s.intro, "small")]
        for group in s.groups:
            out.append(self.heading(group.title, 1, group.id, False))
            for ex in group.items:
                out.append(KeepTogether(self.example(ex)))
        if s.playthroughs:
            out.append(self.heading(ui.get("playthroughs", ""), 1, "playthroughs", False))
        for p in s.playthroughs:
            moves = ListFlowable(
                [ListItem(self.para(move, "cell")) for move in p.moves],
                bulletType="1",
                bulletFontName=self.font,
                bulletFontSize=7,
                leftIndent=14,
            )
            out += [*self.blocks(p.text), self.text(p.setup, "h4"), moves]
            out.append(self.text(f"✓ {ui.get('playthrough_agrees', '')}", "verdict"))
            out.append(Spacer(1, 6))
        return out

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
                Paragraph(
                    f"{self.run(given.label)}{self.colon}{self.markup(given.value)}",
                    self.styles["cell"],
                )
            )
        answer = f"<b>{self.run(ui.get('expected', ''))}{self.colon}{self.markup(ex.expect)}</b>"
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
        return _keep_with_next(story, self.width)

    def render(self) -> tuple[bytes, list[Placed]]:
        """The PDF's bytes, and where each flowable went (page, heading or not)."""
        target = io.BytesIO()
        document = _Document(target, self.book, self.size, self.font)
        document.lay_out(self.story())
        return target.getvalue(), document.placed


def _table(data: list[list[Any]], font: str, style: list[tuple[Any, ...]], **kw: Any) -> PdfTable:
    """A platypus table in ``font`` (a table's own default is Helvetica, never embedded)."""
    table = PdfTable(data, hAlign="LEFT", **kw)
    table.setStyle([("FONTNAME", (0, 0), (-1, -1), font), *style])
    return table


def _keep_with_next(story: list[Flowable], width: float) -> list[Flowable]:
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
            need = sum(f.wrap(width, 1e6)[1] for f in pending) + TABLE_START
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
