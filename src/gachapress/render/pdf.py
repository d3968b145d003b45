"""Faces on reportlab's canvases (the rulebooks' pictures, the shop files): each distinct face
and each distinct art one form XObject, drawn once (by ``faceforms.draw_face``, as the
print-and-play writer draws it) and placed as often as the deck holds copies."""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from reportlab.graphics import renderPDF, shapes
from reportlab.graphics.shapes import Drawing, Group
from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from gachapress.render import art as artwork
from gachapress.render.colour import cmyk_image, to_cmyk
from gachapress.render.faceforms import (
    MM,
    art_name,
    art_operators,
    draw_face,
    face_name,
    place_face,
)
from gachapress.render.layout import Art, Face, TextLine
from gachapress.render.outline import glyph_segments, outline_font, set_glyphs
from gachapress.render.pdfdraw import Ops
from gachapress.render.pdfinfo import DocumentInfo, begin_pdfx_1a, end_pdfx_1a


class FacePainter:
    """Draws faces onto one reportlab canvas, defining each face and art form once.

    ``cmyk`` paints every colour (art included) in CMYK under the shops' ink limit;
    ``fonts`` (font name -> TrueType file) draws text as glyph outlines instead of text."""

    def __init__(
        self, canvas: Canvas, *, cmyk: bool = False, fonts: dict[str, Path] | None = None
    ) -> None:
        self.canvas = canvas
        self.cmyk = cmyk
        self.outline_fonts = fonts
        self._faces: set[str] = set()
        self._arts: dict[str, tuple[str, float, float]] = {}
        self._glyphs: dict[tuple[str, str], str] = {}

    def place(
        self, face: Face, x: float, y: float, clip: tuple[float, float, float, float]
    ) -> None:
        """Draw ``face`` with its trim's top-left corner at (x, y) mm from the page's top-left,
        clipped to ``clip`` = (left, top, right, bottom) mm around the trim (bleed kept there)."""
        ops = CanvasOps(self)
        place_face(ops, face.shape, self.form(face), (x, y), clip, self.canvas._pagesize[1] / MM)
        ops.flush()

    def form(self, face: Face) -> str:
        """The name of ``face``'s form (its trim and bleed), defined on the canvas on first use."""
        name = face_name(face)
        if name in self._faces:
            return name
        self._faces.add(name)
        shape = face.shape
        b = shape.bleed
        width, height = (shape.width + 2 * b) * MM, (shape.height + 2 * b) * MM
        for item in face.items:  # art forms must not be begun inside another form
            if isinstance(item, Art):
                self._art_form(item.source)
            elif isinstance(item, TextLine) and self.outline_fonts is not None:
                for glyph, _ in set_glyphs(self.outline_fonts[item.font], item.text):
                    self._glyph_form(item.font, glyph)
        c = self.canvas
        c.beginForm(name, lowerx=0, lowery=0, upperx=width, uppery=height)
        ops = CanvasOps(self)
        sizes = {source: (w, h) for source, (_, w, h) in self._arts.items()}
        draw_face(face, ops, sizes)
        ops.flush()
        c.endForm()
        return name

    def _art_form(self, source: str) -> None:
        if source in self._arts:
            return
        name = art_name(source)
        c = self.canvas
        if artwork.is_svg(source):
            drawing = artwork.reportlab_drawing(source)
            if self.cmyk:
                drawing = _cmyk_drawing(drawing)
            width, height = drawing.width, drawing.height
            c.beginForm(name, lowerx=0, lowery=0, upperx=width, uppery=height)
            recorded = None if self.cmyk else art_operators(drawing)
            if recorded is None:
                with _default_colours(self.cmyk):
                    renderPDF.draw(drawing, c, 0, 0)
            else:
                code, version = recorded
                c._code.extend(code)
                c._doc._pdfVersion = max(c._doc._pdfVersion, version)  # as opacity 1 raises it
        else:
            from reportlab.lib.utils import ImageReader

            path = artwork.source_path(source)
            image = ImageReader(cmyk_image(path) if self.cmyk else str(path))
            width, height = (float(v) for v in image.getSize())
            c.beginForm(name, lowerx=0, lowery=0, upperx=width, uppery=height)
            c.drawImage(image, 0, 0, width, height, mask=None if self.cmyk else "auto")
        c.endForm()
        self._arts[source] = (name, width / MM, height / MM)

    def _glyph_form(self, font: str, glyph: str) -> str:
        """A glyph's outline as a form in font units, filled with the current colour."""
        key = (font, glyph)
        if key in self._glyphs:
            return self._glyphs[key]
        assert self.outline_fonts is not None
        path = self.outline_fonts[font]
        name = f"glyph-{_safe(font)}-{len(self._glyphs)}"
        c = self.canvas
        x0, y0, x1, y1 = outline_font(path).bounds
        c.beginForm(name, lowerx=x0, lowery=y0, upperx=x1, uppery=y1)
        outline = c.beginPath()
        for op, points in glyph_segments(path, glyph):
            flat = [v for point in points for v in point]
            if op == "M":
                outline.moveTo(*flat)
            elif op == "L":
                outline.lineTo(*flat)
            elif op == "C":
                outline.curveTo(*flat)
            else:
                outline.close()
        c.drawPath(outline, stroke=0, fill=1, fillMode=0)  # nonzero winding, as fonts are
        c.endForm()
        self._glyphs[key] = name
        return name

    def outline(self, font: str, size: float, text: str, x: float, y: float) -> None:
        """Draw a text line as glyph outlines, its baseline starting at (x, y) points."""
        assert self.outline_fonts is not None
        path = self.outline_fonts[font]
        scale = size / outline_font(path).units
        for glyph, offset in set_glyphs(path, text):
            self.canvas.saveState()
            self.canvas.transform(scale, 0, 0, scale, x + offset * scale, y)
            self.canvas.doForm(self._glyphs[(font, glyph)])
            self.canvas.restoreState()


class CanvasOps(Ops):
    """``Ops`` onto a reportlab canvas (a face drawn by ``draw_face`` into a book or a print
    file): paths and colours go in as operators, text through reportlab's own fonts (or as
    the painter's glyph outlines), forms by reportlab's names for them."""

    def __init__(self, painter: FacePainter) -> None:
        super().__init__({}, cmyk=painter.cmyk)
        self.painter = painter

    def flush(self) -> None:
        """Hand the operators written so far to the canvas."""
        if self.parts:
            self.painter.canvas._code.append(self.data().decode("latin-1"))
            self.parts.clear()

    def text(
        self, name: str, size: float, x: float, y: float, text: str, *, turned: bool = False
    ) -> None:
        self.flush()
        c = self.painter.canvas
        if self.painter.outline_fonts is not None:
            if turned:
                c.saveState()
                c.transform(-1, 0, 0, -1, x, y)
                self.painter.outline(name, size, text, 0, 0)
                c.restoreState()
            else:
                self.painter.outline(name, size, text, x, y)
            return
        c.setFont(name, size)
        if turned:  # a half-turned text matrix, so extractors see where it is
            line = c.beginText()
            line.setTextTransform(-1, 0, 0, -1, x, y)
            line.setFont(name, size)
            line.textOut(text)
            c.drawText(line)
        else:
            c.drawString(x, y, text)

    def place(self, name: str) -> None:
        self.flush()
        self.painter.canvas.doForm(name)


def one_up(
    faces: list[Face],
    path: Path | BinaryIO,
    *,
    info: DocumentInfo,
    font_name: str,
    cmyk: bool = False,
    fonts: dict[str, Path] | None = None,
    pdfx: bool = False,
) -> None:
    """A PDF of one face per page, each page the face's trim plus bleed with its ``/TrimBox``
    and ``/BleedBox`` set: what a print shop takes, and what PNGs are rendered from.
    ``pdfx``: a PDF/X-1a:2001 file (CMYK, so ``cmyk`` must be set)."""
    if pdfx and not cmyk:
        raise ValueError("a PDF/X-1a file is drawn in CMYK")
    target = str(path) if isinstance(path, Path) else path
    canvas = Canvas(target, invariant=1, pageCompression=1, initialFontName=font_name)
    if pdfx:
        begin_pdfx_1a(canvas)
    info.write(canvas)
    painter = FacePainter(canvas, cmyk=cmyk, fonts=fonts)
    for face in faces:
        shape = face.shape
        b = shape.bleed
        width, height = (shape.width + 2 * b) * MM, (shape.height + 2 * b) * MM
        canvas.setPageSize((width, height))
        canvas.setBleedBox((0, 0, width, height))
        canvas.setTrimBox((b * MM, b * MM, width - b * MM, height - b * MM))
        painter.place(face, b, b, (b, b, b, b))
        canvas.showPage()
    if pdfx:
        end_pdfx_1a(canvas)
    canvas.save()


@contextlib.contextmanager
def _default_colours(cmyk: bool) -> Iterator[None]:
    """reportlab starts every drawing by setting its default colours (RGB black): in CMYK,
    make those CMYK too."""
    if not cmyk:
        yield
        return
    saved = {key: shapes.STATE_DEFAULTS[key] for key in ("fillColor", "strokeColor")}
    shapes.STATE_DEFAULTS.update({key: to_cmyk(value) for key, value in saved.items()})
    try:
        yield
    finally:
        shapes.STATE_DEFAULTS.update(saved)


def _cmyk_drawing(drawing: Drawing) -> Drawing:
    """A copy of an art drawing with every fill and stroke colour in CMYK, and without the
    opacities of 1 that SVG readers set (PDF 1.4's alpha, which print files leave out)."""
    converted = copy.deepcopy(drawing)

    def walk(node) -> None:
        for attribute in ("fillColor", "strokeColor"):
            value = getattr(node, attribute, None)
            if isinstance(value, Color):
                setattr(node, attribute, to_cmyk(value))
        for attribute in ("fillOpacity", "strokeOpacity"):
            if getattr(node, attribute, None) == 1:
                setattr(node, attribute, None)
        if isinstance(node, Group | Drawing):
            for child in node.contents:
                walk(child)

    walk(converted)
    return converted


def _safe(key: str) -> str:
    return "".join(ch if ch.isalnum() or ch == "-" else "_" for ch in key)


def edge_to_edge(
    faces: list[Face | None],
    columns: int,
    rows: int,
    cell: tuple[int, int],
    path: Path | BinaryIO,
    *,
    font_name: str,
) -> None:
    """One page of faces at trim size (no bleed), edge to edge, row by row (None leaves a cell
    empty): a sheet that a program cuts into equal cells, as Tabletop Simulator does. Each cell
    is ``cell`` points (whole pixels when rendered at 72 dpi), each face stretched to fill it
    exactly (by less than a pixel each way), so no cell shows a sliver of its neighbour."""
    shape = next(face for face in faces if face is not None).shape
    target = str(path) if isinstance(path, Path) else path
    width, height = cell
    canvas = Canvas(
        target,
        pagesize=(columns * width, rows * height),
        invariant=1,
        pageCompression=1,
        initialFontName=font_name,
    )
    canvas.setCreator("gachapress")
    painter = FacePainter(canvas)
    page_height = rows * height
    for index, face in enumerate(faces):
        if face is None:
            continue
        row, column = divmod(index, columns)
        canvas.saveState()
        canvas.translate(column * width, page_height - (row + 1) * height)
        canvas.scale(width / (shape.width * MM), height / (shape.height * MM))
        # ``place`` measures from the page's top: lift the trim's bottom onto the cell's
        canvas.translate(0, shape.height * MM - page_height)
        painter.place(face, 0, 0, (0, 0, 0, 0))
        canvas.restoreState()
    canvas.showPage()
    canvas.save()
