"""The SVG backend: a resolved face as a standalone SVG file, sized in mm with its bleed, fonts
embedded (subset) and art inlined under ids that cannot collide."""

from __future__ import annotations

import base64
import io
import re
import xml.etree.ElementTree as ET
from collections import defaultdict
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

import svgwrite
from fontTools import subset
from fontTools.ttLib import TTFont
from svgwrite.base import BaseElement

from gachapress.render import art as artwork
from gachapress.render.fonts import ASCII, FontFile, cached_subset
from gachapress.render.layout import Art, Ellipse, Face, Rect, TextLine
from gachapress.render.outline import outline_font, svg_path_data


class _Raw(BaseElement):
    """An element copied from an art file, written as it is."""

    def __init__(self, tag: str, attributes: dict[str, str], text: str | None) -> None:
        self.elementname = tag
        super().__init__(debug=False)
        self.attribs.update(attributes)
        self.text = text

    def get_xml(self) -> ET.Element:
        xml = super().get_xml()
        if self.text and self.text.strip():
            xml.text = self.text
        return xml


def face_svg(face: Face, css: str, outline_fonts: dict[str, Path] | None = None) -> str:
    """The SVG text of one face; ``css`` embeds its fonts (see ``font_css``). With
    ``outline_fonts`` (font name -> TrueType file) text is drawn as glyph outlines instead, so
    an editor that ignores the embedded fonts still shows it (``css`` may then be empty)."""
    shape = face.shape
    b = shape.bleed
    width, height = shape.width + 2 * b, shape.height + 2 * b
    drawing = svgwrite.Drawing(size=(f"{width:g}mm", f"{height:g}mm"), profile="full", debug=False)
    drawing.attribs["viewBox"] = f"{-b:g} {-b:g} {width:g} {height:g}"
    drawing.set_desc(title=face.title)
    if css:
        drawing.defs.add(drawing.style(css))
    if shape.kind == "round":
        drawing.add(
            drawing.ellipse(
                (shape.width / 2, shape.height / 2), (width / 2, height / 2), fill=face.background
            )
        )
    else:
        drawing.add(drawing.rect((-b, -b), (width, height), fill=face.background))
    for number, item in enumerate(face.items):
        if isinstance(item, Rect):
            drawing.add(
                drawing.rect(
                    (item.x, item.y),
                    (item.w, item.h),
                    rx=item.radius or None,
                    **_paint(item.fill, item.stroke, item.stroke_width),
                )
            )
        elif isinstance(item, Ellipse):
            drawing.add(
                drawing.ellipse(
                    (item.x + item.w / 2, item.y + item.h / 2),
                    (item.w / 2, item.h / 2),
                    **_paint(item.fill, item.stroke, item.stroke_width),
                )
            )
        elif isinstance(item, TextLine) and outline_fonts is not None:
            font = outline_fonts[item.font]
            k = item.size * 25.4 / 72 / outline_font(font).units  # mm per font unit
            drawing.add(
                drawing.path(
                    d=svg_path_data(font, item.text),
                    fill=item.color,
                    transform=f"translate({item.x:.4f} {item.baseline:.4f}) "
                    f"scale({k:.6g} {-k:.6g})",
                )
            )
        elif isinstance(item, TextLine):
            turn = {"transform": f"rotate(180 {item.x:.4f} {item.baseline:.4f})"}
            drawing.add(
                drawing.text(
                    item.text,
                    insert=(item.x, item.baseline),
                    # the embedded font first; a close fallback for viewers that ignore it
                    font_family=f"{item.font}, sans-serif",
                    font_weight="bold" if item.font.endswith("-Bold") else "normal",
                    font_size=f"{item.size * 25.4 / 72:.4f}",
                    fill=item.color,
                    **(turn if item.turned else {}),
                )
            )
        elif isinstance(item, Art):
            drawing.add(_art(drawing, item, f"{face.key}-a{number}"))
    return drawing.tostring()


def _paint(fill: str | None, stroke: str | None, width: float) -> dict[str, object]:
    return {
        "fill": fill or "none",
        "stroke": stroke or "none",
        "stroke_width": width if stroke else 0,
    }


def _art(drawing: svgwrite.Drawing, item: Art, prefix: str) -> BaseElement:
    if not artwork.is_svg(item.source):
        return drawing.image(
            artwork.png_data_uri(item.source), insert=(item.x, item.y), size=(item.w, item.h)
        )
    view_box, children = artwork.svg_art(item.source)
    holder = _Raw(
        "svg",
        {
            "x": f"{item.x:.4f}",
            "y": f"{item.y:.4f}",
            "width": f"{item.w:.4f}",
            "height": f"{item.h:.4f}",
            "viewBox": view_box,
        },
        None,
    )
    for child in children:
        holder.add(_copy(child, prefix))
    return holder


_URL = re.compile(r"url\(#([^)]+)\)")


def _copy(element: ET.Element, prefix: str) -> _Raw:
    """Copy an art element, prefixing its ids and references so two arts never collide."""
    attributes = {}
    for key, value in element.attrib.items():
        if key == "id":
            value = f"{prefix}-{value}"
        elif key == "href" and value.startswith("#"):
            value = f"#{prefix}-{value[1:]}"
        else:
            value = _URL.sub(lambda m: f"url(#{prefix}-{m.group(1)})", value)
        attributes[key] = value
    copy = _Raw(element.tag, attributes, element.text)
    for child in element:
        copy.add(_copy(child, prefix))
    return copy


#: From how many faces a game's subsets keep printable ASCII whatever its cards say: a card's
#: text edited then re-renders that face alone, not every face for a new letter. (A smaller
#: game's subsets stay as small as its text: rewriting its few faces costs little.)
STABLE_SUBSET_FACES = 100


def font_css(faces: Sequence[Face], fonts: dict[str, FontFile]) -> str:
    """@font-face rules embedding each font used, subset to the characters the faces use (one
    subset serves a whole game, so each SVG stands alone without subsetting per file), and to
    printable ASCII in a game of STABLE_SUBSET_FACES faces or more."""
    used: dict[str, set[str]] = defaultdict(set)
    for face in faces:
        for item in face.items:
            if isinstance(item, TextLine):
                used[item.font].update(item.text)
    if len(faces) >= STABLE_SUBSET_FACES:
        for characters in used.values():
            characters.update(ASCII)
    by_name = {font.name: font for font in fonts.values()}
    rules = []
    for name in sorted(used):
        data = _subset(str(by_name[name].path), "".join(sorted(used[name])))
        rules.append(
            f"@font-face{{font-family:'{name}';"
            f"src:url(data:font/ttf;base64,{data}) format('truetype');}}"
        )
    return "".join(rules)


@lru_cache(maxsize=64)  # a preview rebuilds a game whose characters seldom change
def _subset(path: str, characters: str) -> str:
    data = cached_subset(Path(path), _RECIPE, characters, lambda: _make_subset(path, characters))
    return base64.b64encode(data).decode()


#: How the cards' font subsets are made (part of their cache key).
_RECIPE = "ttf kern,liga notdef names1,2,4,6"


def _make_subset(path: str, characters: str) -> bytes:
    options = subset.Options()
    options.layout_features = ["kern", "liga"]
    options.name_IDs = [1, 2, 4, 6]
    options.notdef_outline = True
    font = TTFont(path, lazy=True, recalcTimestamp=False)  # lazy: only the used glyphs are read
    subsetter = subset.Subsetter(options)
    subsetter.populate(text=characters)
    subsetter.subset(font)
    buffer = io.BytesIO()
    font.save(buffer)
    return buffer.getvalue()
