"""How legible a face's text is: the WCAG contrast of each text line against what lies under
it (the background, and the panels and discs drawn before it), read along the whole line."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from gachapress.data.yamlsource import Locations
from gachapress.errors import Problem
from gachapress.render.faces import DeckFaces
from gachapress.render.layout import Ellipse, Face, Primitive, Rect, TextLine
from gachapress.render.metrics import Measure
from gachapress.render.text import PT
from gachapress.render.wcag import contrast

#: WCAG 2 level AA: normal text, and large text (14 pt bold or 18 pt).
NORMAL, LARGE = 4.5, 3.0
LARGE_BOLD_PT, LARGE_PT = 14.0, 18.0
#: Points of a line where its ground is read, as fractions of its width.
SAMPLES = (0.02, 0.25, 0.5, 0.75, 0.98)


def ground_at(items: Sequence[Primitive], x: float, y: float, background: str) -> str:
    """The fill of the topmost shape of ``items`` at (x, y) mm, else the background."""
    for item in reversed(items):
        if isinstance(item, Rect | Ellipse) and item.fill and _inside(item, x, y):
            return item.fill
    return background


def beneath(items: list[Primitive], text: TextLine, background: str) -> str:
    """The ground under the middle of the first letter of ``text``."""
    x, y = _point(text, text.size * PT * 0.3)
    return ground_at(items, x, y, background)


@dataclass(frozen=True)
class LowContrast:
    """A text line whose contrast with its ground is below what its size needs."""

    element: int
    """The index of the layout element that drew it (-1: not known)."""
    text: str
    colour: str
    ground: str
    ratio: float
    needed: float


def low_contrast(face: Face, measure: Measure) -> Iterator[LowContrast]:
    """Every text line of ``face`` below WCAG AA contrast (4.5:1, or 3:1 for large text) with
    the ground at its worst point along the line."""
    roles = {font.name: role for role, font in measure.fonts.items()}
    for index, item in enumerate(face.items):
        if not isinstance(item, TextLine):
            continue
        role = roles.get(item.font, "regular")
        width = measure.width(item.text, role, item.size)
        grounds = {
            ground_at(face.items[:index], *_point(item, width * share), face.background)
            for share in SAMPLES
        }
        ratio, ground = min((contrast(item.color, g), g) for g in grounds)
        large = item.size >= LARGE_PT or (role == "bold" and item.size >= LARGE_BOLD_PT)
        needed = LARGE if large else NORMAL
        if ratio < needed:
            origin = face.origins[index] if index < len(face.origins) else -1
            yield LowContrast(origin, item.text, item.color, ground, ratio, needed)


def _point(text: TextLine, along: float) -> tuple[float, float]:
    """The point ``along`` mm into a line, half an x-height above its baseline (turned text
    runs leftwards, upside down)."""
    rise = text.size * PT * 0.35
    if text.turned:
        return text.x - along, text.baseline + rise
    return text.x + along, text.baseline - rise


def _inside(shape: Rect | Ellipse, x: float, y: float) -> bool:
    if isinstance(shape, Rect):
        return shape.x <= x <= shape.x + shape.w and shape.y <= y <= shape.y + shape.h
    rx, ry = shape.w / 2, shape.h / 2
    return ((x - shape.x - rx) / rx) ** 2 + ((y - shape.y - ry) / ry) ** 2 <= 1


def contrast_problems(
    decks: Iterable[DeckFaces], where: Locations, measure: Measure
) -> Iterator[Problem]:
    """One located problem (at the layout element) for each text of a layout, colour and
    ground whose contrast is too low, naming the first card it is on and how many more."""
    found: dict[tuple[str, str, int, str, str, float], list[tuple[str, LowContrast]]] = {}
    for deck in decks:
        sides = [*(("front", face) for face, _ in deck.fronts), ("back", deck.back)]
        for side, face in sides:
            for low in low_contrast(face, measure):
                key = (deck.deck, side, low.element, low.colour, low.ground, round(low.ratio, 2))
                cards = found.setdefault(key, [])
                if face.key not in (card for card, _ in cards):
                    cards.append((face.key, low))
    for (deck_id, side, element, colour, ground, ratio), cards in found.items():
        path: tuple[str | int, ...] = ("decks", deck_id, side, "elements", element)
        first, low = cards[0]
        more = f" (and {len(cards) - 1} more)" if len(cards) > 1 else ""
        yield where.at(path if element >= 0 else path[:3]).problem(
            f"card {first!r}{more}: text {low.text!r} in {colour} on {ground} has a contrast of "
            f"{ratio:.2f}:1, below the {low.needed:g}:1 that text of its size needs (WCAG AA): "
            "choose a darker or lighter colour, such as {...|ink} on a colour of the data"
        )
