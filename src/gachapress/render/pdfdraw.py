"""Drawing operators for the PDF writer (see ``pdfobjects``): a page's or a form's content
stream in points (y up, from the lower-left corner), with the fonts and forms it uses, so that
whoever assembles the document gives it their objects.

Text is set by glyph ids of the original font (``pdffonts``): a stream never depends on which
other text shares its document."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from gachapress.render.colour import cmyk
from gachapress.render.pdffonts import glyph_ids, show
from gachapress.render.pdfobjects import number

#: A Bézier quarter circle's control points lie this far along the tangents (of the radius).
KAPPA = 0.5522847498


def _numbers(*values: float) -> bytes:
    return b" ".join(number(value) for value in values)


@dataclass
class Ops:
    """A content stream being written, and the resources it names: fonts (by their file, each
    with the glyph ids set and the character each was first set for) and forms or images (by
    name). ``files``: the font file of each font name text is set in."""

    files: Mapping[str, Path]
    cmyk: bool = False
    """Colours in CMYK under the shops' ink limit (else RGB)."""
    parts: list[bytes] = field(default_factory=list)
    fonts: dict[Path, dict[int, str]] = field(default_factory=dict)
    xobjects: set[str] = field(default_factory=set)

    def data(self) -> bytes:
        return b"\n".join(self.parts)

    def op(self, operator: bytes, *operands: float) -> None:
        self.parts.append(_numbers(*operands) + b" " + operator if operands else operator)

    # -- state -------------------------------------------------------------------------------
    def save(self) -> None:
        self.parts.append(b"q")

    def restore(self) -> None:
        self.parts.append(b"Q")

    def transform(self, a: float, b: float, c: float, d: float, e: float, f: float) -> None:
        self.op(b"cm", a, b, c, d, e, f)

    def translate(self, x: float, y: float) -> None:
        self.transform(1, 0, 0, 1, x, y)

    def fill_colour(self, hex_colour: str) -> None:
        self._colour(hex_colour, b"k" if self.cmyk else b"rg")

    def stroke_colour(self, hex_colour: str) -> None:
        self._colour(hex_colour, b"K" if self.cmyk else b"RG")

    def _colour(self, hex_colour: str, operator: bytes) -> None:
        if self.cmyk:
            self.op(operator, *cmyk(hex_colour))
        else:
            self.op(operator, *(int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5)))

    def line_width(self, width: float) -> None:
        self.op(b"w", width)

    # -- paths -------------------------------------------------------------------------------
    def rect(self, x: float, y: float, w: float, h: float) -> None:
        self.op(b"re", x, y, w, h)

    def round_rect(self, x: float, y: float, w: float, h: float, radius: float) -> None:
        r = min(radius, w / 2, h / 2)
        k = r * (1 - KAPPA)
        self.op(b"m", x + r, y)
        self.op(b"l", x + w - r, y)
        self.op(b"c", x + w - k, y, x + w, y + k, x + w, y + r)
        self.op(b"l", x + w, y + h - r)
        self.op(b"c", x + w, y + h - k, x + w - k, y + h, x + w - r, y + h)
        self.op(b"l", x + r, y + h)
        self.op(b"c", x + k, y + h, x, y + h - k, x, y + h - r)
        self.op(b"l", x, y + r)
        self.op(b"c", x, y + k, x + k, y, x + r, y)
        self.parts.append(b"h")

    def ellipse(self, x: float, y: float, w: float, h: float) -> None:
        """The ellipse inscribed in the box with lower-left corner (x, y)."""
        rx, ry = w / 2, h / 2
        cx, cy = x + rx, y + ry
        kx, ky = rx * KAPPA, ry * KAPPA
        self.op(b"m", cx + rx, cy)
        self.op(b"c", cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry)
        self.op(b"c", cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy)
        self.op(b"c", cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry)
        self.op(b"c", cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy)
        self.parts.append(b"h")

    def circle(self, cx: float, cy: float, radius: float) -> None:
        self.ellipse(cx - radius, cy - radius, 2 * radius, 2 * radius)

    def line(self, x0: float, y0: float, x1: float, y1: float) -> None:
        self.op(b"m", x0, y0)
        self.op(b"l", x1, y1)
        self.parts.append(b"S")

    def paint(self, *, fill: bool, stroke: bool) -> None:
        """Fill and/or stroke the path just drawn (neither: end it unpainted)."""
        self.parts.append({(1, 1): b"B", (1, 0): b"f", (0, 1): b"S", (0, 0): b"n"}[fill, stroke])

    def clip(self) -> None:
        """Clip to the path just drawn (nonzero winding), painting nothing."""
        self.parts.append(b"W n")

    # -- text and forms ----------------------------------------------------------------------
    def text(
        self, name: str, size: float, x: float, y: float, text: str, *, turned: bool = False
    ) -> None:
        """``text`` in the font ``name`` at ``size`` points, its baseline starting at (x, y);
        ``turned``: upside down, running leftwards."""
        font = self.files[name]
        gids = glyph_ids(font, text)
        used = self.fonts.setdefault(font, {})
        for gid, char in zip(gids, text, strict=True):
            if gid:  # .notdef stands for no character
                used.setdefault(gid, char)
        matrix = _numbers(-1, 0, 0, -1, x, y) + b" Tm" if turned else _numbers(x, y) + b" Td"
        self.parts.append(
            b"BT /" + name.encode("ascii") + b" " + number(size) + b" Tf " + matrix + b" "
            + show(gids) + b" Tj ET"
        )  # fmt: skip

    def place(self, name: str) -> None:
        """Draw the form or image ``name`` (in the current coordinates)."""
        self.xobjects.add(name)
        self.parts.append(b"/" + name.encode("ascii") + b" Do")

    def merge(self, other: Ops) -> None:
        """Take ``other``'s resources as used here too (a stream drawn with its help)."""
        for font, chars in other.fonts.items():
            used = self.fonts.setdefault(font, {})
            for gid, char in chars.items():
                used.setdefault(gid, char)
        self.xobjects |= other.xobjects
