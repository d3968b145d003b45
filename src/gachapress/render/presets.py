"""Shapes and sheet geometries, as data (``templates/print.yaml``), selectable by name."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

from pydantic import Field, ValidationError

from gachapress.data.model import Id, Strict
from gachapress.data.validate import located_problems
from gachapress.data.yamlsource import load_yaml
from gachapress.errors import RulesError
from gachapress.render.layout import Shape


class Grid(Strict):
    """How one shape is laid out on a sheet: a centred grid."""

    columns: Annotated[int, Field(ge=1, le=20)]
    rows: Annotated[int, Field(ge=1, le=20)]
    gutter: Annotated[float, Field(ge=0, le=30)]
    """Space between neighbouring pieces; each piece's bleed is printed into up to half of it."""


class Sheet(Strict):
    """A paper size and how each shape is placed on it, with crop marks in the margin."""

    name: str
    page: Annotated[
        list[Annotated[float, Field(gt=50, le=1000)]], Field(min_length=2, max_length=2)
    ]
    """Width and height in mm."""
    grids: dict[Id, Grid]
    """The grid of each shape (by shape id)."""
    crop_mark: Annotated[float, Field(ge=0, le=20)] = 5
    """Length of the crop marks drawn in the margin."""


class PrintPresets(Strict):
    shapes: dict[Id, Shape]
    sheets: dict[Id, Sheet]
    """Sheet presets by name; `a4` and `letter` are what `build --paper` picks."""


def load_presets(file: Path) -> PrintPresets:
    data, locations = load_yaml(file, inside=file.parent)
    try:
        return PrintPresets.model_validate(data)
    except ValidationError as exc:
        raise RulesError(located_problems(exc, data, locations)) from None
