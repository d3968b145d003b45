"""Text as outlines: the glyphs of the embedded fonts drawn as paths, so a renderer that
ignores or lacks the font still shows the same letters."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from fontTools.pens.basePen import BasePen
from fontTools.ttLib import TTFont


@cache
def _font(path: Path) -> TTFont:
    return TTFont(path, lazy=True)


class _Collect(BasePen):
    """Records outline segments as (op, points) in font units; quadratic curves become cubic."""

    def __init__(self, glyph_set) -> None:
        super().__init__(glyph_set)
        self.ops: list[tuple[str, tuple[tuple[float, float], ...]]] = []

    def _moveTo(self, pt):
        self.ops.append(("M", (pt,)))

    def _lineTo(self, pt):
        self.ops.append(("L", (pt,)))

    def _curveToOne(self, pt1, pt2, pt3):
        self.ops.append(("C", (pt1, pt2, pt3)))

    def _closePath(self):
        self.ops.append(("Z", ()))

    _endPath = _closePath


Segment = tuple[str, tuple[tuple[float, float], ...]]


def glyph_runs(path: Path, text: str, size: float) -> list[Segment]:
    """The outline of ``text`` set at ``size`` points, origin at the start of the baseline,
    y up, in points (advance widths only: the backends set text without kerning)."""
    font = _font(path)
    cmap = font.getBestCmap()
    glyphs = font.getGlyphSet()
    advances = font["hmtx"].metrics
    scale = size / font["head"].unitsPerEm
    out: list[Segment] = []
    x = 0.0
    for char in text:
        name = cmap.get(ord(char), ".notdef")
        pen = _Collect(glyphs)
        glyphs[name].draw(pen)
        for op, points in pen.ops:
            out.append((op, tuple((x + px * scale, py * scale) for px, py in points)))
        x += advances[name][0] * scale
    return out
