"""Measuring text with the same fonts both backends embed (via reportlab's TrueType support)."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from reportlab.graphics import shapes
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont

from gachapress.render.fonts import FontFile, font_files


@cache
def registered_fonts(cache_dir: Path) -> dict[str, FontFile]:
    """Register every font with reportlab once per process; return them by role.

    svglib drawings fall back to reportlab's default font (Helvetica, never embedded) even
    when they hold no text, so the default is pointed at an embedded font too.
    """
    fonts = font_files(cache_dir)
    for font in fonts.values():
        if font.name not in pdfmetrics.getRegisteredFontNames():
            pdfmetrics.registerFont(TTFont(font.name, str(font.path)))
    shapes.STATE_DEFAULTS["fontName"] = fonts["regular"].name
    return fonts


class Measure:
    """Text widths in millimetres."""

    def __init__(self, cache_dir: Path) -> None:
        self.fonts = registered_fonts(cache_dir)

    def width(self, text: str, role: str, size_pt: float) -> float:
        points = pdfmetrics.stringWidth(text, self.fonts[role].name, size_pt)
        return points * 25.4 / 72

    def name(self, role: str) -> str:
        return self.fonts[role].name

    def missing(self, text: str, role: str) -> set[str]:
        """The characters of ``text`` the font of ``role`` has no glyph for."""
        covered = _characters(self.fonts[role].path)
        return {ch for ch in text if not ch.isspace() and ord(ch) not in covered}


@cache
def _characters(path: Path) -> frozenset[int]:
    from fontTools.ttLib import TTFont

    return frozenset(TTFont(path, lazy=True).getBestCmap())
