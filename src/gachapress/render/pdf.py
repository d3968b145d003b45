"""The PDF backend: draws resolved faces with reportlab. Each distinct face and each distinct art
becomes one form XObject, drawn once and placed as often as the deck holds copies."""

from __future__ import annotations

import contextlib
import copy
import hashlib
import io
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import BinaryIO

from reportlab.graphics import renderPDF, shapes
from reportlab.graphics.shapes import Drawing, Group
from reportlab.lib.colors import Color
from reportlab.pdfgen.canvas import Canvas

from gachapress.render import art as artwork
from gachapress.render.colour import cmyk_image, reportlab_colour, to_cmyk
from gachapress.render.layout import Art, Ellipse, Face, Rect, TextLine
from gachapress.render.outline import glyph_segments, outline_font, set_glyphs
from gachapress.render.pdfinfo import DocumentInfo, begin_pdfx_1a, end_pdfx_1a

MM = 72 / 25.4  # points per millimetre


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

    def colour(self, hex_colour: str) -> Color:
        return reportlab_colour(hex_colour, cmyk_mode=self.cmyk)

    def place(
        self, face: Face, x: float, y: float, clip: tuple[float, float, float, float]
    ) -> None:
        """Draw ``face`` with its trim's top-left corner at (x, y) mm from the page's top-left,
        clipped to ``clip`` = (left, top, right, bottom) mm around the trim (bleed kept there)."""
        name = self.form(face)
        shape = face.shape
        page_height = self.canvas._pagesize[1] / MM
        c = self.canvas
        c.saveState()
        left, top, right, bottom = clip
        path = c.beginPath()
        if shape.kind == "round":  # a round piece keeps its bleed all round, cut on the circle
            radius = shape.width / 2 + min(clip)
            path.circle(
                (x + shape.width / 2) * MM, (page_height - y - shape.height / 2) * MM, radius * MM
            )
        else:
            path.rect(
                (x - left) * MM,
                (page_height - y - shape.height - bottom) * MM,
                (shape.width + left + right) * MM,
                (shape.height + top + bottom) * MM,
            )
        c.clipPath(path, stroke=0, fill=0)
        c.translate((x - shape.bleed) * MM, (page_height - y - shape.height - shape.bleed) * MM)
        c.doForm(name)
        c.restoreState()

    def form(self, face: Face) -> str:
        """The name of ``face``'s form (its trim and bleed), defined on the canvas on first use."""
        name = "face-" + _safe(face.key)
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
        c.setFillColor(self.colour(face.background))
        if shape.kind == "round":
            c.ellipse(0, 0, width, height, stroke=0, fill=1)
        else:
            c.rect(0, 0, width, height, stroke=0, fill=1)

        def px(x: float) -> float:
            return (x + b) * MM

        def py(y: float) -> float:  # face y (down from the trim top) to form y (up)
            return (shape.height + b - y) * MM

        for item in face.items:
            if isinstance(item, Rect | Ellipse):
                self._paint(item.fill, item.stroke, item.stroke_width)
                args = (px(item.x), py(item.y + item.h), item.w * MM, item.h * MM)
                fill, stroke = int(item.fill is not None), int(item.stroke is not None)
                if isinstance(item, Ellipse):
                    c.ellipse(
                        args[0],
                        args[1],
                        args[0] + args[2],
                        args[1] + args[3],
                        stroke=stroke,
                        fill=fill,
                    )
                elif item.radius:
                    c.roundRect(*args, item.radius * MM, stroke=stroke, fill=fill)
                else:
                    c.rect(*args, stroke=stroke, fill=fill)
            elif isinstance(item, TextLine):
                c.setFillColor(self.colour(item.color))
                if self.outline_fonts is None:
                    c.setFont(item.font, item.size)
                if item.turned:  # a half-turned text matrix, so extractors see where it is
                    if self.outline_fonts is None:
                        turned = c.beginText()
                        turned.setTextTransform(-1, 0, 0, -1, px(item.x), py(item.baseline))
                        turned.setFont(item.font, item.size)
                        turned.textOut(item.text)
                        c.drawText(turned)
                    else:
                        c.saveState()
                        c.transform(-1, 0, 0, -1, px(item.x), py(item.baseline))
                        self._outline(item, 0, 0)
                        c.restoreState()
                elif self.outline_fonts is None:
                    c.drawString(px(item.x), py(item.baseline), item.text)
                else:
                    self._outline(item, px(item.x), py(item.baseline))
            elif isinstance(item, Art):
                form, art_width, art_height = self._arts[item.source]
                scale = min(item.w / art_width, item.h / art_height)  # fit, centred, as in SVG
                dx, dy = (item.w - art_width * scale) / 2, (item.h - art_height * scale) / 2
                c.saveState()
                c.translate(px(item.x + dx), py(item.y + item.h - dy))
                c.scale(scale, scale)
                c.doForm(form)
                c.restoreState()
        c.endForm()
        return name

    def _art_form(self, source: str) -> None:
        if source in self._arts:
            return
        name = "art-" + hashlib.sha256(source.encode()).hexdigest()[:16]
        c = self.canvas
        if artwork.is_svg(source):
            drawing = artwork.reportlab_drawing(source)
            if self.cmyk:
                drawing = _cmyk_drawing(drawing)
            width, height = drawing.width, drawing.height
            c.beginForm(name, lowerx=0, lowery=0, upperx=width, uppery=height)
            recorded = None if self.cmyk else _art_code(drawing)
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

    def _paint(self, fill: str | None, stroke: str | None, width: float) -> None:
        if fill:
            self.canvas.setFillColor(self.colour(fill))
        if stroke:
            self.canvas.setStrokeColor(self.colour(stroke))
            self.canvas.setLineWidth(width * MM)

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

    def _outline(self, item: TextLine, x: float, y: float) -> None:
        """Draw a text line as glyph outlines, its baseline starting at (x, y) points."""
        assert self.outline_fonts is not None
        path = self.outline_fonts[item.font]
        scale = item.size / outline_font(path).units
        for glyph, offset in set_glyphs(path, item.text):
            self.canvas.saveState()
            self.canvas.transform(scale, 0, 0, scale, x + offset * scale, y)
            self.canvas.doForm(self._glyphs[(item.font, glyph)])
            self.canvas.restoreState()


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


@cache
def _art_code(drawing: Drawing) -> tuple[tuple[str, ...], tuple[int, int]] | None:
    """The operators of an art's form, drawn once per drawing (one per art and process, see
    ``artwork.reportlab_drawing``) and written into each PDF's form as they are, with the PDF
    version they need: what renderPDF writes in a form depends only on the drawing, as long as
    it leaves nothing else in the document (no font, transparency, colour space, image or
    form: then None, and it is drawn in each PDF)."""
    scratch = Canvas(io.BytesIO(), invariant=1)
    fonts = dict(scratch._doc.fontMapping)
    scratch.beginForm("art")
    renderPDF.draw(drawing, scratch, 0, 0)
    alone = (
        scratch._extgstate.getState() is None
        and not scratch._colorsUsed
        and not scratch._formsinuse
        and not scratch._shadingUsed
        and scratch._doc.fontMapping == fonts
    )
    return (tuple(scratch._code), scratch._doc._pdfVersion) if alone else None


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
