"""Low-ink faces for home printers: backs and large colour fields become light tints, and any
text that a tint would leave faint on its field is set dark instead."""

from __future__ import annotations

from dataclasses import replace

from gachapress.render.layout import Ellipse, Face, Primitive, Rect, TextLine
from gachapress.render.text import PT

#: How much of a colour a tint keeps (the rest is the paper's white).
TINT = 0.18
#: A front's filled shape at least this large (mm²) counts as a colour field.
FIELD = 600.0
DARK = "#222222"


def tint(colour: str) -> str:
    """``colour`` mixed with white, keeping TINT of it."""
    rgb = _rgb(colour)
    return "#" + "".join(f"{round(255 - (255 - v) * TINT):02x}" for v in rgb)


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two colours (1 to 21)."""
    high, low = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def low_ink(face: Face, *, back: bool) -> Face:
    """The face with its background and colour fields tinted (every fill, on a back)."""
    items: list[Primitive] = []
    for item in face.items:
        if isinstance(item, Rect | Ellipse) and item.fill and (back or item.w * item.h >= FIELD):
            item = replace(item, fill=tint(item.fill))
        elif isinstance(item, TextLine):
            ground = beneath(items, item, tint(face.background))
            if contrast(item.color, ground) < 3 and contrast(DARK, ground) > contrast(
                item.color, ground
            ):
                item = replace(item, color=DARK)
        items.append(item)
    return replace(face, background=tint(face.background), items=tuple(items))


def beneath(items: list[Primitive], text: TextLine, background: str) -> str:
    """The fill of the topmost shape drawn before ``text`` under the middle of its first
    letter, else the background."""
    x, y = text.x + text.size * PT * 0.3, text.baseline - text.size * PT * 0.35
    for item in reversed(items):
        if isinstance(item, Rect | Ellipse) and item.fill and _inside(item, x, y):
            return item.fill
    return background


def _inside(shape: Rect | Ellipse, x: float, y: float) -> bool:
    if isinstance(shape, Rect):
        return shape.x <= x <= shape.x + shape.w and shape.y <= y <= shape.y + shape.h
    rx, ry = shape.w / 2, shape.h / 2
    return ((x - shape.x - rx) / rx) ** 2 + ((y - shape.y - ry) / ry) ** 2 <= 1


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _luminance(colour: str) -> float:
    def linear(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (linear(v) for v in _rgb(colour))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
