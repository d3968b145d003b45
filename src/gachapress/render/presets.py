"""Shapes and sheet geometries, as data (``print.yaml``), selectable by name."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

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
    margin: Annotated[float, Field(ge=0, le=30)] = 5
    """The paper's outer band that home printers leave blank: nothing is drawn in it."""
    crop_mark: Annotated[float, Field(ge=3, le=20)] = 4
    """Length of the crop marks drawn in the margin, outside the bleed."""
    rulers: list[Literal["mm", "inch"]] = ["mm"]
    """The scales page 1 draws to check that the printer printed at 100%."""

    @property
    def landscape(self) -> bool:
        return self.page[0] > self.page[1]


class PrintPresets(Strict):
    shapes: dict[Id, Shape]
    sheets: dict[Id, Sheet]
    """Sheet presets by name; `a4` and `letter` are what `build --paper` picks."""
    sizes: dict[Id, dict[Id, Shape]] = {}
    """Shop sizes by name: for each shape id, the shape a shop cuts in its place."""


#: The presets' file among the templates.
PRESETS = "print.yaml"
#: Space between a card's bleed and the start of its crop marks, in mm.
MARK_GAP = 1.0


def outer_margin(sheet: Sheet, shape: Shape) -> float:
    """What a grid needs beyond its outer trims: the bleed, the crop marks (cards; round pieces
    are cut on a drawn circle) and the printer's blank band."""
    marks = MARK_GAP + sheet.crop_mark if shape.kind == "card" else 0.0
    return shape.bleed + marks + sheet.margin


def fits(sheet: Sheet, grid: Grid, shape: Shape) -> bool:
    """Whether the grid with its bleed, crop marks and the printer's margin fits on the page."""
    outer = 2 * outer_margin(sheet, shape)
    need_w = grid.columns * shape.width + (grid.columns - 1) * grid.gutter + outer
    need_h = grid.rows * shape.height + (grid.rows - 1) * grid.gutter + outer
    return need_w <= sheet.page[0] + 1e-9 and need_h <= sheet.page[1] + 1e-9


def load_presets(file: Path) -> PrintPresets:
    """Read the presets; RulesError (located) when invalid or when a grid does not fit."""
    data, locations = load_yaml(file, inside=file.parent)
    try:
        presets = PrintPresets.model_validate(data)
    except ValidationError as exc:
        raise RulesError(located_problems(exc, data, locations)) from None
    problems = []
    for sheet_id, sheet in presets.sheets.items():
        for shape_id, grid in sheet.grids.items():
            where = locations.at(("sheets", sheet_id, "grids", shape_id))
            if shape_id not in presets.shapes:
                problems.append(where.problem(f"unknown shape {shape_id!r}"))
            elif not fits(sheet, grid, presets.shapes[shape_id]):
                problems.append(
                    where.problem(
                        f"{grid.columns} x {grid.rows} {shape_id} with a {grid.gutter} mm gutter, "
                        f"bleed, crop marks and a {sheet.margin} mm margin do not fit "
                        f"{sheet.page[0]} x {sheet.page[1]} mm"
                    )
                )
    if problems:
        raise RulesError(problems)
    return presets
