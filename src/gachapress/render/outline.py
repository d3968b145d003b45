"""Text as outlines: the glyphs of the embedded fonts drawn as paths, so a renderer that
ignores or lacks the font still shows the same letters."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTFont


@dataclass(frozen=True)
class OutlineFont:
    """A TrueType font read for its outlines: cmap, advance widths, units per em, bounds."""

    cmap: dict[int, str]
    advances: dict[str, tuple[int, int]]
    units: int
    bounds: tuple[int, int, int, int]
    glyphs: Any


@cache
def outline_font(path: Path) -> OutlineFont:
    font = TTFont(path, lazy=True)
    head = font["head"]
    return OutlineFont(
        font.getBestCmap(),
        font["hmtx"].metrics,
        head.unitsPerEm,
        (head.xMin, head.yMin, head.xMax, head.yMax),
        font.getGlyphSet(),
    )


Segment = tuple[str, tuple[tuple[float, float], ...]]


class _Collect(BasePen):
    """Records outline segments as (op, points) in font units; quadratic curves become cubic."""

    def __init__(self, glyph_set) -> None:
        super().__init__(glyph_set)
        self.ops: list[Segment] = []

    def _moveTo(self, pt):
        self.ops.append(("M", (pt,)))

    def _lineTo(self, pt):
        self.ops.append(("L", (pt,)))

    def _curveToOne(self, pt1, pt2, pt3):
        self.ops.append(("C", (pt1, pt2, pt3)))

    def _closePath(self):
        self.ops.append(("Z", ()))

    _endPath = _closePath


@cache
def glyph_segments(path: Path, name: str) -> tuple[Segment, ...]:
    """One glyph's outline in font units, y up."""
    glyphs = outline_font(path).glyphs
    pen = _Collect(glyphs)
    glyphs[name].draw(pen)
    return tuple(pen.ops)


def set_glyphs(path: Path, text: str) -> list[tuple[str, float]]:
    """The glyphs that set ``text``, each with its x offset from the start in font units
    (advance widths only: the backends set text without kerning)."""
    font = outline_font(path)
    out = []
    x = 0.0
    for char in text:
        name = font.cmap.get(ord(char), ".notdef")
        out.append((name, x))
        x += font.advances[name][0]
    return out


def svg_path_data(path: Path, text: str) -> str:
    """The outline of ``text`` as SVG path data in font units (y up, origin at the start of
    the baseline); the caller scales it and flips y."""
    parts = []
    for glyph, offset in set_glyphs(path, text):
        for op, points in glyph_segments(path, glyph):
            parts.append(op + " ".join(f"{x + offset:g} {y:g}" for x, y in points))
    return "".join(parts)
