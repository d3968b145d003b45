"""Colours for print shops: sRGB hex to CMYK with a total-ink limit.

No ICC profile ships with the tool's libraries (Pillow's littleCMS builds sRGB, Lab and XYZ
only), so the conversion is the plain device formula with full grey-component replacement: the
grey in a colour is printed with black alone (so black text is 100 % K, never a four-colour
registration black), and where cyan, magenta and yellow would still bring the total above the
limit they are scaled down together, which keeps the hue and darkens nothing.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from reportlab.lib.colors import CMYKColor, Color, HexColor

if TYPE_CHECKING:
    from PIL import Image

#: The most ink a shop accepts on any spot, as a fraction (2.4 = 240 %).
TOTAL_INK = 2.4


def cmyk(hex_colour: str, limit: float = TOTAL_INK) -> tuple[float, float, float, float]:
    """``#rrggbb`` as (c, m, y, k), each 0 to 1, with c + m + y + k at most ``limit``."""
    red, green, blue = (int(hex_colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    return rgb_to_cmyk(red, green, blue, limit)


def rgb_to_cmyk(
    red: float, green: float, blue: float, limit: float = TOTAL_INK
) -> tuple[float, float, float, float]:
    """Channels 0 to 1 as (c, m, y, k) under the ink ``limit``."""
    k = 1 - max(red, green, blue)
    if k >= 1:
        return 0.0, 0.0, 0.0, 1.0
    c, m, y = ((1 - v - k) / (1 - k) for v in (red, green, blue))
    room = limit - k
    if c + m + y > room:
        c, m, y = (v * room / (c + m + y) for v in (c, m, y))
    return round(c, 4), round(m, 4), round(y, 4), round(k, 4)


def cmyk_image(path: Path) -> Image.Image:
    """A raster picture as an opaque CMYK image under the ink limit, as ``to_cmyk`` paints a
    colour: transparent parts laid on white (a print shop's PDF/X-1a allows no transparency),
    every pixel through ``rgb_to_cmyk`` (by a 17-step lookup table, interpolated)."""
    from PIL import Image, ImageFilter

    with Image.open(path) as opened:
        picture = opened.convert("RGBA")
    white = Image.new("RGBA", picture.size, (255, 255, 255, 255))
    flat = Image.alpha_composite(white, picture).convert("RGB")
    table = ImageFilter.Color3DLUT.generate(17, rgb_to_cmyk, channels=4, target_mode="CMYK")
    return flat.filter(table)


def to_cmyk(colour: Color) -> CMYKColor:
    """A reportlab colour as CMYK under the ink limit (alpha kept)."""
    if isinstance(colour, CMYKColor):
        return colour
    c, m, y, k = rgb_to_cmyk(colour.red, colour.green, colour.blue)
    return CMYKColor(c, m, y, k, alpha=colour.alpha)


def reportlab_colour(hex_colour: str, *, cmyk_mode: bool) -> Color:
    colour = HexColor(hex_colour)
    return to_cmyk(colour) if cmyk_mode else colour
