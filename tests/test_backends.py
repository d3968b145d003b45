"""The SVG and the PDF backend draw the same layout model: one card through both, box by box."""

from __future__ import annotations

import hashlib
import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from reportlab.graphics import renderPDF
from reportlab.pdfgen.canvas import Canvas

from gachapress.data.load import load_rules
from gachapress.render import art as artwork
from gachapress.render.faceforms import MM, art_operators, draw_face
from gachapress.render.faces import game_faces
from gachapress.render.layout import Art, Ellipse, Face, Rect, TextLine
from gachapress.render.metrics import Measure
from gachapress.render.pdf import FacePainter
from gachapress.render.pdfdraw import Ops
from gachapress.render.presets import load_presets
from gachapress.render.svg import face_svg, font_css
from tests.conftest import ROOT, TEMPLATES

SVG = "{http://www.w3.org/2000/svg}"


class RecordingOps(Ops):
    """Records what ``draw_face`` (both PDF backends' drawing of a face) draws, in points."""

    def __init__(self) -> None:
        super().__init__({})
        self.calls: list[tuple[str, tuple[float, ...]]] = []
        self.matrix = (1.0, 0.0, 0.0)  # scale, x, y

    def rect(self, x: float, y: float, w: float, h: float) -> None:
        self.calls.append(("rect", (x, y, w, h)))

    def round_rect(self, x: float, y: float, w: float, h: float, radius: float) -> None:
        self.calls.append(("rect", (x, y, w, h)))

    def ellipse(self, x: float, y: float, w: float, h: float) -> None:
        self.calls.append(("ellipse", (x, y, w, h)))

    def text(
        self, name: str, size: float, x: float, y: float, text: str, *, turned: bool = False
    ) -> None:
        self.calls.append(("text", (x, y, 180 if turned else 0)))

    def transform(self, a: float, b: float, c: float, d: float, e: float, f: float) -> None:
        self.matrix = (a, e, f)

    def place(self, name: str) -> None:
        if name.startswith("art-"):
            scale, x, y = self.matrix
            self.calls.append(("art", (x, y, scale)))


def svg_boxes(face: Face, css: str) -> list[tuple[str, tuple[float, ...]]]:
    """Boxes of the SVG's elements in face millimetres (after the full-bleed background)."""
    root = ET.fromstring(face_svg(face, css))
    boxes = []
    drawn = [e for e in root if e.tag.removeprefix(SVG) not in ("title", "desc", "defs")]
    for element in drawn[1:]:  # after the full-bleed background
        tag = element.tag.removeprefix(SVG)
        a = {k: float(v) for k, v in element.attrib.items() if _is_number(v)}
        if tag == "rect":
            boxes.append(("rect", (a["x"], a["y"], a["width"], a["height"])))
        elif tag == "ellipse":
            boxes.append(
                ("ellipse", (a["cx"] - a["rx"], a["cy"] - a["ry"], 2 * a["rx"], 2 * a["ry"]))
            )
        elif tag == "text":
            turned = 180 if element.get("transform", "").startswith("rotate(180") else 0
            boxes.append(("text", (a["x"], a["y"], turned)))
        elif tag == "svg":
            boxes.append(("art", (a["x"], a["y"], a["width"], a["height"])))
    return boxes


def pdf_boxes(face: Face) -> list[tuple[str, tuple[float, ...]]]:
    """The same boxes as the PDF backend draws them, turned back into face millimetres."""
    ops = RecordingOps()
    arts = {item.source: (72.0 / MM, 72.0 / MM) for item in face.items if isinstance(item, Art)}
    draw_face(face, ops, arts)  # art drawn as a 72 pt square
    shape, b = face.shape, face.shape.bleed
    top = shape.height + b
    boxes = []
    for kind, v in ops.calls[1:]:  # after the full-bleed background
        if kind in ("rect", "ellipse"):
            x, y, w, h = (n / MM for n in v)
            boxes.append((kind, (x - b, top - y - h, w, h)))
        elif kind == "text":
            boxes.append(("text", (v[0] / MM - b, top - v[1] / MM, v[2])))
        else:
            x, y, factor = v[0] / MM, v[1] / MM, v[2]
            side = 72.0 / MM * factor
            boxes.append(("art", (x - b, top - y - side, side, side)))
    return boxes


def _is_number(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True


@pytest.mark.parametrize("card", ["red-800", "refund"])
def test_both_backends_put_every_box_in_the_same_place(card: str) -> None:
    measure = Measure(ROOT / "build" / "fonts")
    decks = game_faces(
        load_rules("gachapon-trick"),
        TEMPLATES,
        load_presets(TEMPLATES.path("print.yaml")),
        measure,
    )
    face = next(f for d in decks for f, _ in d.fronts if f.key == card)
    kinds = [type(item) for item in face.items]
    assert {Rect, Ellipse, TextLine, Art} >= set(kinds) and TextLine in kinds and Art in kinds
    svg, pdf = svg_boxes(face, font_css([face], measure.fonts)), pdf_boxes(face)
    assert [kind for kind, _ in svg] == [kind for kind, _ in pdf]
    for (kind, a), (_, b) in zip(svg, pdf, strict=True):
        assert a == pytest.approx(b, abs=1e-3), kind


def _art_pdf(source: str) -> bytes:
    """A one-page PDF that defines ``source``'s art form through the PDF backend and shows it."""
    target = io.BytesIO()
    canvas = Canvas(target, invariant=1)
    painter = FacePainter(canvas)
    painter._art_form(source)
    canvas.doForm(painter._arts[source][0])
    canvas.showPage()
    canvas.save()
    return target.getvalue()


def _drawn_pdf(source: str) -> bytes:
    """The same PDF with the art drawn by renderPDF into its form, as every PDF once did."""
    target = io.BytesIO()
    canvas = Canvas(target, invariant=1)
    drawing = artwork.reportlab_drawing(source)
    name = "art-" + hashlib.sha256(source.encode()).hexdigest()[:16]
    canvas.beginForm(name, lowerx=0, lowery=0, upperx=drawing.width, uppery=drawing.height)
    renderPDF.draw(drawing, canvas, 0, 0)
    canvas.endForm()
    canvas.doForm(name)
    canvas.showPage()
    canvas.save()
    return target.getvalue()


def test_an_art_is_drawn_once_per_process_and_each_pdf_gets_the_same_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    source = "openmoji:1F381"  # a wrapped present
    expected = _drawn_pdf(source)
    draws = []
    original = renderPDF.draw
    monkeypatch.setattr(renderPDF, "draw", lambda *a, **k: draws.append(1) or original(*a, **k))
    assert _art_pdf(source) == expected
    assert _art_pdf(source) == expected
    assert len(draws) <= 1  # none when an earlier test drew it in this process


def test_an_art_that_leaves_transparency_in_the_document_is_drawn_in_each_pdf(
    tmp_path: Path,
) -> None:
    art = tmp_path / "glass.svg"
    art.write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 72 72" width="72" height="72">'
        '<rect x="8" y="8" width="56" height="56" fill="#3f7fbf" fill-opacity="0.5"/></svg>',
        encoding="utf-8",
    )
    source = f"file:{art}"
    assert art_operators(artwork.reportlab_drawing(source)) is None
    assert _art_pdf(source) == _drawn_pdf(source)
