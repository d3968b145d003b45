"""Card faces as PDF forms for the PDF writer, each drawn once and kept (``partstore``): a
face's stream depends only on the face (its text set by glyph ids of the original fonts, its
art named by source), so an edited card redraws that face alone and every other face is
written as it was. Fonts are embedded once per document with exactly the glyphs it sets; each
art once, as a form (an image inside it for raster art)."""

from __future__ import annotations

import hashlib
import io
import re
import zlib
from collections.abc import Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from reportlab.graphics import renderPDF, shapes
from reportlab.pdfgen.canvas import Canvas

from gachapress.render import art as artwork
from gachapress.render.fonts import file_digest
from gachapress.render.layout import Art, Ellipse, Face, Rect, Shape, TextLine
from gachapress.render.partstore import PartStore
from gachapress.render.pdfdraw import Ops
from gachapress.render.pdffonts import add_font
from gachapress.render.pdfobjects import Name, PdfWriter, Ref, Stream, Value, copy_object

MM = 72 / 25.4  # points per millimetre

# A kept part, as marshal stores it:
#   face: (data, bbox, ((font path, ((gid, character), ...)), ...), (art source, ...))
#   art:  (width mm, height mm, kind, payload): kind "form" (data), "image" (width px,
#         height px, rgb data, alpha data or b""), "pdf" (a one-page PDF whose page draws it)


def face_name(face: Face) -> str:
    """A face's form's name in its documents' resources: by the face's key, so a page that
    shows it is the same whatever the face shows."""
    return "face-" + "".join(ch if ch.isalnum() or ch == "-" else "_" for ch in face.key)


def art_name(source: str) -> str:
    return "art-" + hashlib.sha256(source.encode()).hexdigest()[:16]


def draw_face(face: Face, ops: Ops, art_size: Mapping[str, tuple[float, float]]) -> None:
    """Draw ``face`` as a form: its trim plus bleed, from (0, 0); each art is the form named
    ``art_name(source)``, of the size ``art_size`` gives (mm). Both PDF backends draw faces
    so: this writer's documents, and reportlab's through ``pdf.CanvasOps``."""
    shape = face.shape
    b = shape.bleed
    width, height = (shape.width + 2 * b) * MM, (shape.height + 2 * b) * MM
    ops.fill_colour(face.background)
    if shape.kind == "round":
        ops.ellipse(0, 0, width, height)
    else:
        ops.rect(0, 0, width, height)
    ops.paint(fill=True, stroke=False)

    def px(x: float) -> float:
        return (x + b) * MM

    def py(y: float) -> float:  # face y (down from the trim top) to form y (up)
        return (shape.height + b - y) * MM

    for item in face.items:
        if isinstance(item, Rect | Ellipse):
            if item.fill:
                ops.fill_colour(item.fill)
            if item.stroke:
                ops.stroke_colour(item.stroke)
                ops.line_width(item.stroke_width * MM)
            box = (px(item.x), py(item.y + item.h), item.w * MM, item.h * MM)
            if isinstance(item, Ellipse):
                ops.ellipse(*box)
            elif item.radius:
                ops.round_rect(*box, item.radius * MM)
            else:
                ops.rect(*box)
            ops.paint(fill=item.fill is not None, stroke=item.stroke is not None)
        elif isinstance(item, TextLine):
            ops.fill_colour(item.color)
            ops.text(
                item.font, item.size, px(item.x), py(item.baseline), item.text, turned=item.turned
            )
        elif isinstance(item, Art):
            art_width, art_height = art_size[item.source]
            scale = min(item.w / art_width, item.h / art_height)  # fit, centred, as in SVG
            dx, dy = (item.w - art_width * scale) / 2, (item.h - art_height * scale) / 2
            ops.save()
            ops.transform(scale, 0, 0, scale, px(item.x + dx), py(item.y + item.h - dy))
            ops.place(art_name(item.source))
            ops.restore()


def place_face(
    ops: Ops,
    shape: Shape,
    name: str,
    at: tuple[float, float],
    clip: tuple[float, float, float, float],
    page_height: float,
) -> None:
    """Show the face form ``name`` with its trim's top-left corner ``at`` (x, y) mm from the
    page's top-left, clipped to ``clip`` = (left, top, right, bottom) mm around the trim (the
    bleed kept there); a round piece keeps its bleed all round, cut on the circle."""
    x, y = at
    ops.save()
    left, top, right, bottom = clip
    if shape.kind == "round":
        radius = shape.width / 2 + min(clip)
        ops.circle(
            (x + shape.width / 2) * MM, (page_height - y - shape.height / 2) * MM, radius * MM
        )
    else:
        ops.rect(
            (x - left) * MM,
            (page_height - y - shape.height - bottom) * MM,
            (shape.width + left + right) * MM,
            (shape.height + top + bottom) * MM,
        )
    ops.clip()
    ops.translate((x - shape.bleed) * MM, (page_height - y - shape.height - shape.bleed) * MM)
    ops.place(name)
    ops.restore()


@cache
def art_operators(drawing: Any) -> tuple[tuple[str, ...], tuple[int, int]] | None:
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


def _art_part(source: str) -> tuple[Any, ...]:
    """An art drawn as a form: SVG art as its own operators where it needs no resources of
    the document, raster art as an image, anything else through reportlab's drawing."""
    if artwork.is_svg(source):
        drawing = artwork.reportlab_drawing(source)
        width, height = float(drawing.width), float(drawing.height)
        recorded = art_operators(drawing)
        if recorded is not None:
            data = zlib.compress("\n".join(recorded[0]).encode("latin-1"), 6)
            return (width / MM, height / MM, "form", data)
        return (width / MM, height / MM, "pdf", _drawn_by_reportlab(drawing, width, height))
    from PIL import Image

    with Image.open(artwork.source_path(source)) as opened:
        picture = opened.convert("RGBA")
    alpha = picture.getchannel("A")
    rgb = zlib.compress(picture.convert("RGB").tobytes(), 6)
    mask = zlib.compress(alpha.tobytes(), 6) if alpha.getextrema()[0] < 255 else b""
    width, height = picture.size
    return (width / MM, height / MM, "image", (width, height, rgb, mask))


#: A text block that only sets a font (what reportlab begins pages and drawings with).
_EMPTY_TEXT = re.compile(rb"BT /F\d+ [0-9.]+ Tf [0-9.]+ TL ET\n?")


def _drawn_by_reportlab(drawing: Any, width: float, height: float) -> bytes:
    """A one-page PDF whose page is the drawing (what reportlab makes of an SVG that needs
    resources: opacity, gradients, text)."""
    out = io.BytesIO()
    canvas = Canvas(  # text of the drawing, if any, set in an embedded font
        out, pagesize=(width, height), invariant=1, pageCompression=1,
        initialFontName=shapes.STATE_DEFAULTS["fontName"],
    )  # fmt: skip
    renderPDF.draw(drawing, canvas, 0, 0)
    canvas.showPage()
    canvas.save()
    return out.getvalue()


#: Digests of the faces drawn lately, by the face object (kept with it): the papers of a
#: build draw the same faces.
_DIGESTS: dict[int, tuple[Face, str]] = {}


def _digest(face: Face) -> str:
    """A digest of what ``face`` draws."""
    kept = _DIGESTS.get(id(face))
    if kept is not None and kept[0] is face:
        return kept[1]
    if len(_DIGESTS) > 20_000:  # faces of earlier builds of a long preview
        _DIGESTS.clear()
    digest = hashlib.sha256(repr((face.shape, face.background, face.items)).encode()).hexdigest()
    _DIGESTS[id(face)] = (face, digest)
    return digest


class FaceForms:
    """The faces, arts and fonts of one document being written: ``name`` gives a face's form
    name (its part fetched or drawn), ``resources`` a stream's resource dictionary, and
    ``finish`` writes the forms and fonts once every page is written."""

    def __init__(
        self, writer: PdfWriter, fonts: Mapping[str, Path], store: PartStore | None = None
    ) -> None:
        self.writer = writer
        self.fonts = dict(fonts)
        self.store = store or PartStore(None)
        self._font_names = {path: name for name, path in self.fonts.items()}
        self._font_files = {str(path): path for path in self.fonts.values()}
        # by path too: kept parts name the files (a font cache moved elsewhere draws anew)
        self.fonts_digest = repr(sorted((n, str(p), file_digest(p)) for n, p in self.fonts.items()))
        self._font_refs: dict[Path, Ref] = {}
        self._glyphs: dict[Path, dict[int, str]] = {}
        self._faces: dict[str, tuple[Ref, tuple[Any, ...]]] = {}
        self._arts: dict[str, tuple[Ref, tuple[Any, ...]]] = {}
        self.drawn = 0
        """Faces drawn by this document (not found kept)."""

    def name(self, face: Face) -> str:
        """The form of ``face`` (drawn now unless kept)."""
        name = face_name(face)
        if name in self._faces:
            return name
        sizes = {item.source: self._art(item.source)[:2] for item in face.items
                 if isinstance(item, Art)}  # fmt: skip
        key = hashlib.sha256(
            f"{self.fonts_digest} {_digest(face)} {sorted(sizes.items())}".encode()
        ).hexdigest()
        part = self.store.get("face:" + key)
        if part is None:
            ops = Ops(self.fonts)
            draw_face(face, ops, sizes)
            shape = face.shape
            bbox = (0, 0, (shape.width + 2 * shape.bleed) * MM,
                    (shape.height + 2 * shape.bleed) * MM)  # fmt: skip
            glyphs = tuple((str(path), tuple(sorted(g.items()))) for path, g in ops.fonts.items())
            part = (zlib.compress(ops.data(), 6), bbox, glyphs, tuple(sorted(sizes)))
            self.store.put("face:" + key, part)
            self.drawn += 1
        for path, chars in part[2]:
            self._use(self.font_file(path), dict(chars))
        self._faces[name] = (self.writer.reserve(), part)
        return name

    def _art(self, source: str) -> tuple[Any, ...]:
        if source not in self._arts:
            data = artwork.source_path(source).read_bytes()
            key = "art:" + hashlib.sha256(source.encode() + b"\0" + data).hexdigest()
            part = self.store.get(key)
            if part is None:
                part = _art_part(source)
                self.store.put(key, part)
            self._arts[source] = (self.writer.reserve(), part)
        return self._arts[source][1]

    def font_file(self, kept: str) -> Path:
        """A font file named in a kept part (as text), as this document's fonts name it."""
        return self._font_files[kept]

    def font_ref(self, path: Path) -> Ref:
        if path not in self._font_refs:
            self._font_refs[path] = self.writer.reserve()
        return self._font_refs[path]

    def resources(
        self, fonts: Mapping[Path, Mapping[int, str]], xobjects: Iterable[str]
    ) -> dict[str, Value]:
        """The resource dictionary of a stream that sets ``fonts``' glyphs and shows the forms
        ``xobjects`` (as an ``Ops`` records them)."""
        for path, chars in fonts.items():
            self._use(path, chars)
        resources: dict[str, Value] = {}
        if fonts:
            resources["Font"] = {self._font_names[p]: self.font_ref(p) for p in sorted(fonts)}
        if xobjects:
            resources["XObject"] = {name: self._xobject(name) for name in sorted(xobjects)}
        return resources

    def _use(self, path: Path, chars: Mapping[int, str]) -> None:
        used = self._glyphs.setdefault(path, {})
        for gid, char in chars.items():
            used.setdefault(gid, char)

    def _xobject(self, name: str) -> Ref:
        if name in self._faces:
            return self._faces[name][0]
        source = next(s for s in self._arts if art_name(s) == name)
        return self._arts[source][0]

    def finish(self) -> None:
        """Write every face's and art's form and the fonts (the glyphs all streams set)."""
        for ref, (data, bbox, glyphs, arts) in self._faces.values():
            fonts = {self._font_names[self.font_file(p)]: self.font_ref(self.font_file(p))
                     for p, _ in glyphs}  # fmt: skip
            resources: dict[str, Value] = {}
            if fonts:
                resources["Font"] = fonts
            if arts:
                resources["XObject"] = {art_name(s): self._arts[s][0] for s in arts}
            self.writer.set(ref, _form(bbox, resources, data))
        for ref, part in self._arts.values():
            self._write_art(ref, part)
        for path, ref in self._font_refs.items():
            add_font(self.writer, path, self._glyphs.get(path, {}), ref=ref)

    def _write_art(self, ref: Ref, part: tuple[Any, ...]) -> None:
        width, height = part[0] * MM, part[1] * MM
        kind, payload = part[2], part[3]
        bbox = (0, 0, width, height)
        if kind == "form":
            self.writer.set(ref, _form(bbox, {}, payload))
        elif kind == "image":
            pixels_w, pixels_h, rgb, mask = payload
            image: dict[str, Value] = {
                "Type": Name("XObject"), "Subtype": Name("Image"), "Width": pixels_w,
                "Height": pixels_h, "ColorSpace": Name("DeviceRGB"), "BitsPerComponent": 8,
                "Filter": Name("FlateDecode"),
            }  # fmt: skip
            if mask:
                image["SMask"] = self.writer.add(Stream(
                    {**image, "ColorSpace": Name("DeviceGray")}, mask))  # fmt: skip
            picture = self.writer.add(Stream(image, rgb))
            data = zlib.compress(b"q %g 0 0 %g 0 0 cm /picture Do Q" % (width, height), 6)
            self.writer.set(ref, _form(bbox, {"XObject": {"picture": picture}}, data))
        else:
            from pypdf import PdfReader

            page = PdfReader(io.BytesIO(payload)).pages[0]
            content = page.get_contents()
            assert content is not None
            # reportlab sets its default font in empty text blocks: with no text left, the
            # form names no font (and embeds none twice)
            operators = _EMPTY_TEXT.sub(b"", content.get_data())
            kept = page["/Resources"]
            if b" Tf" not in operators:
                kept = {key: value for key, value in kept.items() if key != "/Font"}
            resources = {str(key)[1:]: copy_object(self.writer, value, {})
                         for key, value in kept.items()}  # fmt: skip
            self.writer.set(ref, _form(bbox, resources, zlib.compress(operators, 6)))


def _form(bbox: tuple[float, ...], resources: Mapping[str, Value], data: bytes) -> Stream:
    return Stream(
        {"Type": Name("XObject"), "Subtype": Name("Form"), "BBox": list(bbox),
         "Resources": dict(resources), "Filter": Name("FlateDecode")},
        data,
    )  # fmt: skip
