"""The card-layout model: what a face shows and where, as data, resolved per card into
primitives (rectangles, ellipses, text lines, art) that both backends draw the same way.

Layouts live in ``templates/cards/<game>.yaml``; shapes and sheets in ``print.yaml`` (the
package's, unless the project's ``templates/`` has its own).
All lengths are millimetres, measured from the top-left corner of the trim box (the bleed lies
at negative coordinates and beyond the trim size).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
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
from gachapress.render.text import PT, fit, is_cjk
from gachapress.render.wcag import COLOUR_FORMATS

Mm = Annotated[float, Field(ge=-20, le=400)]
Colour = Annotated[
    str, StringConstraints(pattern=r"^(#[0-9a-fA-F]{6}|\{[a-z0-9_.|-]+\}|[A-Za-z][A-Za-z0-9-]*)$")
]
"""A colour: ``#rrggbb``, a name from the layout's palette, or a placeholder naming either in
the card's data (``{color.hex}``, ``{ticket}``); for text, ``{color.hex|ink}`` is white or dark
ink, whichever reads on that colour, and ``{color.hex|deep}`` that colour deepened until it reads
on white paper."""
#: The smallest card text a home printer keeps readable, in points, by language.
READABLE = {"en": 7.0, "ja": 7.5}
HEX = re.compile(r"#[0-9a-fA-F]{6}")
#: A colour of the data turned into a text colour: ``{suit.hex|ink}``, ``{suit.hex|deep}``.
COLOUR_FORMAT = re.compile(r"\{([a-z0-9_.-]+)\|(" + "|".join(COLOUR_FORMATS) + r")\}")
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
    text: str | dict[Lang, str] | None = None
    """The text, or one text per language of the game (a label the layout itself writes):
    the card language's is drawn."""
    lang: Lang | None = None
    """The language of the text (default: the card language)."""
    langs: list[Lang] | None = None
    """Drawn only on cards printed in one of these languages (a second-language line that the
    card's own language makes redundant); default: in every language."""
    font: Literal["regular", "bold"] = "regular"
    size: Annotated[float, Field(gt=0, le=72)] = 9
    min_size: Annotated[float, Field(gt=0, le=72)] | None = None
    """The smallest size the text may shrink to (default, and at least: READABLE for its
    language)."""
    line_height: Annotated[float, Field(ge=0.8, le=3)] = 1.2
    align: Literal["left", "center", "right"] = "left"
    valign: Literal["top", "middle", "bottom"] = "top"
    color: Colour = "#222222"
    art: ArtRef | None = None
    turned: bool = False
    """Drawn turned half-way round the card's centre: the same box as an index in the top-left
    corner puts its twin, upside down, in the bottom-right one (read from either end)."""

    @model_validator(mode="after")
    def _content(self) -> Element:
        if self.turned and self.kind == "art":
            raise ValueError("art cannot be 'turned' (pictures stay upright)")
        if (self.kind == "text") != (self.text is not None):
            raise ValueError("'text' is for (and required by) text elements")
        if (self.kind == "art") != (self.art is not None):
            raise ValueError("'art' is for (and required by) art elements")
        if isinstance(self.text, dict) and self.lang is not None:
            raise ValueError("a text given in each language has no single 'lang'")
        return self

    def text_in(self, lang: str) -> str:
        """The element's text for cards printed in ``lang`` (KeyError when it has none)."""
        if isinstance(self.text, dict):
            return self.text[lang]
        return self.text or ""


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


class FaceError(Exception):
    """A face cannot be drawn as laid out; ``element`` is the index of the element at fault."""

    def __init__(self, element: int, message: str) -> None:
        super().__init__(message)
        self.element = element


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
    turned: bool = False  # upside down: the text runs leftwards from (x, baseline)


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
    origins: tuple[int, ...] = field(default=(), repr=False, compare=False)
    """The index of the layout element each item was drawn for (empty: not known)."""


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
    origins: list[int] = []

    def _colour(value: str | None) -> str | None:
        if not value:
            return None
        formatted = COLOUR_FORMAT.fullmatch(value)
        if formatted:  # a text colour chosen for legibility from a colour of the data
            path, name = formatted.groups()
            return COLOUR_FORMATS[name](_colour("{" + path + "}"))  # type: ignore[arg-type]
        resolved = fill(value, context)
        resolved = palette.get(resolved, resolved)
        if not HEX.fullmatch(resolved):
            raise PlaceholderError(
                f"colour {value!r} is {resolved!r}, not #rrggbb or a palette name"
            )
        return resolved

    for index, element in enumerate(layout.elements):
        try:
            if element.langs is not None and lang not in element.langs:
                continue
            if element.when and not _value(context, element.when):
                continue
            if element.unless and _value(context, element.unless):
                continue
            start = len(items)
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
                items.extend(_text(index, element, context, measure, lang, icons, colour))
            if element.turned:
                items[start:] = [_turn(item, shape) for item in items[start:]]
            origins += [index] * (len(items) - start)
        except (PlaceholderError, KeyError) as exc:  # located at the element that names it
            raise FaceError(index, str(exc).strip('"')) from None
    background = _colour(layout.background) or "#ffffff"
    return Face(key, title, shape, background, tuple(items), tuple(origins))


def _turn(item: Primitive, shape: Shape) -> Primitive:
    """``item`` turned half-way round the centre of the card's trim."""
    if isinstance(item, TextLine):
        return replace(
            item, x=shape.width - item.x, baseline=shape.height - item.baseline, turned=True
        )
    if isinstance(item, Rect | Ellipse):
        return replace(item, x=shape.width - item.x - item.w, y=shape.height - item.y - item.h)
    raise PlaceholderError("an inline icon cannot be turned")


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
    index: int,
    element: Element,
    context: dict[str, Any],
    measure: Measure,
    lang: str,
    icons: dict[str, str],
    colour: str,
) -> list[Primitive]:
    language = element.lang or lang
    text = fill(element.text_in(lang), context | {"lang": language}, language)
    if not text.strip():
        return []
    if language == "ja" and not any(is_cjk(char) for char in text):
        language = "en"  # a number or a Latin word on a Japanese card: set as Latin text
    role = role_for(element.font, language)
    if measure.missing(text, role):  # e.g. full-width punctuation in a Latin font: use the
        role = "ja"  # Japanese font, which also sets Latin text
    missing = measure.missing(text, role)
    if missing:
        raise PlaceholderError(f"no font has the characters {''.join(sorted(missing))!r}")
    x, y, w, h = element.box
    # A layout drawn for one language may print another whose type needs more: raise its sizes
    # to that language's floor (the layout check holds them to the layout's own language's).
    floor = READABLE.get(language, READABLE["en"])
    min_size = max(element.min_size or floor, floor)
    fitted = fit(
        measure,
        text,
        w,
        h,
        role=role,
        size=max(element.size, floor),
        min_size=min_size,
        align=element.align,
        valign=element.valign,
        line_height=element.line_height,
        japanese=language == "ja",
    )
    if fitted.overflow:
        raise FaceError(
            index,
            f"text {element.text!r} ({text!r}) does not fit its {w:g} x {h:g} mm box even at "
            f"{min_size:g} pt",
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


def refit_problem(design: Shape, target: Shape) -> str | None:
    """Why a layout made for ``design`` cannot be drawn at ``target`` (its safe zone, scaled,
    would leave the target's), or None."""
    scale = min(target.width / design.width, target.height / design.height)
    inset = min(target.width - design.width * scale, target.height - design.height * scale) / 2
    margin = inset + design.safe * scale
    if margin >= target.safe - 1e-9:
        return None
    return (
        f"text would lie {margin:.2f} mm inside the trim, less than the {target.safe:g} mm "
        f"safe zone of the {target.width:g} x {target.height:g} mm card"
    )


def refit(face: Face, target: Shape) -> Face:
    """The same face drawn at another size of its shape (a shop's inch card for the metric one):
    scaled evenly and centred, with every rectangle or ellipse that ran into the bleed reaching
    the target's bleed. Raises ValueError when the scaled safe zone leaves the target's."""
    design = face.shape
    problem = refit_problem(design, target)
    if problem:
        raise ValueError(f"{face.key}: {problem}")
    scale = min(target.width / design.width, target.height / design.height)
    dx = (target.width - design.width * scale) / 2
    dy = (target.height - design.height * scale) / 2

    def box(x: float, y: float, w: float, h: float) -> tuple[float, float, float, float]:
        left, top = dx + x * scale, dy + y * scale
        right, bottom = dx + (x + w) * scale, dy + (y + h) * scale
        if x < 0:
            left = -target.bleed
        if y < 0:
            top = -target.bleed
        if x + w > design.width:
            right = target.width + target.bleed
        if y + h > design.height:
            bottom = target.height + target.bleed
        return left, top, right - left, bottom - top

    items: list[Primitive] = []
    for item in face.items:
        if isinstance(item, Rect):
            x, y, w, h = box(item.x, item.y, item.w, item.h)
            items.append(
                Rect(
                    x,
                    y,
                    w,
                    h,
                    item.fill,
                    item.stroke,
                    item.stroke_width * scale,
                    item.radius * scale,
                )
            )
        elif isinstance(item, Ellipse):
            x, y, w, h = box(item.x, item.y, item.w, item.h)
            items.append(Ellipse(x, y, w, h, item.fill, item.stroke, item.stroke_width * scale))
        elif isinstance(item, TextLine):
            items.append(
                TextLine(
                    dx + item.x * scale,
                    dy + item.baseline * scale,
                    item.text,
                    item.font,
                    item.size * scale,
                    item.color,
                    item.turned,
                )
            )
        else:
            items.append(
                Art(
                    dx + item.x * scale,
                    dy + item.y * scale,
                    item.w * scale,
                    item.h * scale,
                    item.source,
                )
            )
    return Face(face.key, face.title, target, face.background, tuple(items), face.origins)
