"""The card-layout model: what a face shows and where, as data, resolved per card into
primitives (rectangles, ellipses, text lines, art) that both backends draw the same way.

Layouts live in ``templates/cards/<game>.yaml``; shapes and sheets in ``templates/print.yaml``.
All lengths are millimetres, measured from the top-left corner of the trim box (the bleed lies
at negative coordinates and beyond the trim size).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import Field, StringConstraints, ValidationError, model_validator

from gachapress.data.model import Id, Lang, Strict
from gachapress.data.placeholders import PlaceholderError, fill, lookup
from gachapress.data.validate import located_problems
from gachapress.data.yamlsource import Locations, load_yaml
from gachapress.errors import RulesError
from gachapress.render.fonts import role_for
from gachapress.render.metrics import Measure
from gachapress.render.text import PT, fit

Mm = Annotated[float, Field(ge=-20, le=400)]
Colour = Annotated[
    str, StringConstraints(pattern=r"^(#[0-9a-fA-F]{6}|\{[a-z0-9_.|-]+\}|[A-Za-z][A-Za-z0-9-]*)$")
]
"""A colour: ``#rrggbb``, a name from the layout's palette, or a placeholder naming either in
the card's data (``{color.hex}``, ``{ticket}``)."""
HEX = re.compile(r"#[0-9a-fA-F]{6}")
ArtRef = Annotated[
    str, StringConstraints(pattern=r"^(card|icon:[a-z][a-z0-9-]*|openmoji:[0-9A-F-]+)$")
]


class Shape(Strict):
    """The cut shape of a component."""

    kind: Literal["card", "round"]
    width: Mm
    height: Mm
    bleed: Annotated[float, Field(ge=0, le=10)]
    safe: Annotated[float, Field(ge=0, le=20)]
    """Margin inside the trim that text must stay within."""
    corner: Annotated[float, Field(ge=0, le=20)] = 0


class Element(Strict):
    """One thing drawn on a face. Text and colours may hold ``{placeholders}`` of the card's data;
    ``when``/``unless`` name a value of the card's data that must be (or not be) set."""

    kind: Literal["rect", "ellipse", "text", "art"]
    box: Annotated[list[Mm], Field(min_length=4, max_length=4)]
    """[x, y, width, height]."""
    when: str | None = None
    unless: str | None = None
    fill: Colour | None = None
    stroke: Colour | None = None
    stroke_width: Annotated[float, Field(ge=0, le=5)] = 0.35
    radius: Annotated[float, Field(ge=0, le=50)] = 0
    bleed: bool = False
    """A rect or ellipse that touches the trim edge is extended into the bleed there."""
    text: str | None = None
    lang: Lang | None = None
    """The language of the text (default: the game's first language)."""
    font: Literal["regular", "bold"] = "regular"
    size: Annotated[float, Field(gt=0, le=72)] = 9
    min_size: Annotated[float, Field(gt=0, le=72)] = 5
    line_height: Annotated[float, Field(ge=0.8, le=3)] = 1.2
    align: Literal["left", "center", "right"] = "left"
    valign: Literal["top", "middle", "bottom"] = "top"
    color: Colour = "#222222"
    art: ArtRef | None = None

    @model_validator(mode="after")
    def _content(self) -> Element:
        if (self.kind == "text") != (self.text is not None):
            raise ValueError("'text' is for (and required by) text elements")
        if (self.kind == "art") != (self.art is not None):
            raise ValueError("'art' is for (and required by) art elements")
        return self


class FaceLayout(Strict):
    background: Colour = "#ffffff"
    elements: list[Element]


class DeckLayout(Strict):
    shape: Id
    front: FaceLayout
    back: FaceLayout


class LayoutFile(Strict):
    """``templates/cards/<game>.yaml``."""

    game: Id
    icons: dict[
        Annotated[str, StringConstraints(pattern=r"^[a-z][a-z0-9-]*$")],
        Annotated[str, StringConstraints(pattern=r"^[0-9A-F]{4,6}(-[0-9A-F]{4,6})*$")],
    ] = {}
    """Inline icons by name (``:rock:`` in a text), as OpenMoji hexcodes."""
    palette: dict[
        Annotated[str, StringConstraints(pattern=r"^[A-Za-z][A-Za-z0-9-]*$")],
        Annotated[str, StringConstraints(pattern=r"^#[0-9a-fA-F]{6}$")],
    ] = {}
    """Named colours, so a card's data (a ticket colour, a type) can pick its colour."""
    decks: dict[Id, DeckLayout]


def load_layout(file: Path) -> tuple[LayoutFile, Locations]:
    """Read and validate a layout file; RulesError with located problems when it is wrong."""
    data, locations = load_yaml(file, inside=file.parent.parent)  # templates/cards/GAME.yaml
    try:
        return LayoutFile.model_validate(data), locations
    except ValidationError as exc:
        raise RulesError(located_problems(exc, data, locations)) from None


# -- resolved faces: what the backends draw ---------------------------------------------------
@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str | None
    stroke: str | None
    stroke_width: float
    radius: float


@dataclass(frozen=True)
class Ellipse:
    x: float
    y: float
    w: float
    h: float
    fill: str | None
    stroke: str | None
    stroke_width: float


@dataclass(frozen=True)
class TextLine:
    x: float
    baseline: float
    text: str
    font: str  # a registered font name
    size: float  # points
    color: str


@dataclass(frozen=True)
class Art:
    x: float
    y: float
    w: float
    h: float
    source: str  # "openmoji:HEX" or "file:/absolute/path"


Primitive = Rect | Ellipse | TextLine | Art


@dataclass(frozen=True)
class Face:
    """One resolved face: its shape, a title, and what to draw, in order."""

    key: str  # the card id, or back-<deck>
    title: str
    shape: Shape
    background: str
    items: tuple[Primitive, ...]


def resolve_face(
    key: str,
    title: str,
    layout: FaceLayout,
    shape: Shape,
    context: dict[str, Any],
    *,
    measure: Measure,
    lang: str,
    icons: dict[str, str],
    palette: dict[str, str],
    card_art: str | None,
) -> Face:
    """Turn a face layout and a card's data into primitives."""
    items: list[Primitive] = []

    def _colour(value: str | None) -> str | None:
        if not value:
            return None
        resolved = fill(value, context)
        resolved = palette.get(resolved, resolved)
        if not HEX.fullmatch(resolved):
            raise PlaceholderError(
                f"colour {value!r} is {resolved!r}, not #rrggbb or a palette name"
            )
        return resolved

    for element in layout.elements:
        if element.when and not _value(context, element.when):
            continue
        if element.unless and _value(context, element.unless):
            continue
        x, y, w, h = element.box
        if element.kind in ("rect", "ellipse"):
            if element.bleed:
                x, y, w, h = _into_bleed(x, y, w, h, shape)
            colour = {
                "fill": _colour(element.fill),
                "stroke": _colour(element.stroke),
            }
            if element.kind == "rect":
                items.append(
                    Rect(
                        x,
                        y,
                        w,
                        h,
                        **colour,
                        stroke_width=element.stroke_width,
                        radius=element.radius,
                    )
                )
            else:
                items.append(Ellipse(x, y, w, h, **colour, stroke_width=element.stroke_width))
        elif element.kind == "art":
            source = _art(element.art, icons, card_art)  # type: ignore[arg-type]
            if source:
                items.append(Art(x, y, w, h, source))
        else:
            colour = _colour(element.color) or "#222222"
            items.extend(_text(element, context, measure, lang, icons, colour))
    return Face(key, title, shape, _colour(layout.background) or "#ffffff", tuple(items))


def _value(context: dict[str, Any], path: str) -> Any:
    try:
        return lookup(context, path)
    except ValueError:
        return None


def _into_bleed(x: float, y: float, w: float, h: float, shape: Shape) -> tuple[float, ...]:
    b = shape.bleed
    left = x - b if x <= 0 else x
    top = y - b if y <= 0 else y
    right = x + w + b if x + w >= shape.width else x + w
    bottom = y + h + b if y + h >= shape.height else y + h
    return left, top, right - left, bottom - top


def _art(ref: str, icons: dict[str, str], card_art: str | None) -> str | None:
    if ref == "card":
        return card_art
    kind, _, name = ref.partition(":")
    return f"openmoji:{icons[name]}" if kind == "icon" else ref


def _text(
    element: Element,
    context: dict[str, Any],
    measure: Measure,
    lang: str,
    icons: dict[str, str],
    colour: str,
) -> list[Primitive]:
    language = element.lang or lang
    text = fill(element.text or "", context | {"lang": language})
    if not text.strip():
        return []
    role = role_for(element.font, language)
    if measure.missing(text, role):  # e.g. full-width punctuation in a Latin font: use the
        role = "ja"  # Japanese font, which also sets Latin text
    missing = measure.missing(text, role)
    if missing:
        raise PlaceholderError(f"no font has the characters {''.join(sorted(missing))!r}")
    x, y, w, h = element.box
    fitted = fit(
        measure,
        text,
        w,
        h,
        role=role,
        size=element.size,
        min_size=element.min_size,
        align=element.align,
        valign=element.valign,
        line_height=element.line_height,
        japanese=language == "ja",
    )
    out: list[Primitive] = []
    for line in fitted.lines:
        for run in line.runs:
            if run.icon is not None:
                side = fitted.size * PT * 1.05
                out.append(
                    Art(
                        x + run.x,
                        y + line.baseline - side * 0.85,
                        side,
                        side,
                        f"openmoji:{icons[run.icon]}",
                    )
                )
            else:
                out.append(
                    TextLine(
                        x + run.x,
                        y + line.baseline,
                        run.text,
                        measure.name(role),
                        fitted.size,
                        colour,
                    )
                )
    return out
