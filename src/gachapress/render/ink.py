"""Low-ink faces for home printers: backs and large colour fields become light tints, and any
text that a tint would leave faint on its field is set dark instead."""

from __future__ import annotations

from dataclasses import replace

from gachapress.render.layout import Ellipse, Face, Primitive, Rect, TextLine
from gachapress.render.legibility import beneath
from gachapress.render.wcag import DARK, contrast

#: How much of a colour a tint keeps (the rest is the paper's white).
TINT = 0.18
#: A front's filled shape at least this large (mm²) counts as a colour field.
FIELD = 600.0


def tint(colour: str) -> str:
    """``colour`` mixed with white, keeping TINT of it."""
    rgb = _rgb(colour)
    return "#" + "".join(f"{round(255 - (255 - v) * TINT):02x}" for v in rgb)


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


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)
