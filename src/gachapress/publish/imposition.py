"""Imposition: which card goes in which slot of which sheet of paper, and where the slot behind
it lies when the sheet is printed two-sided, flipping on its long edge."""

from __future__ import annotations

from dataclasses import dataclass

from gachapress.render.faces import DeckFaces
from gachapress.render.layout import Face, Shape
from gachapress.render.presets import Grid, Sheet


@dataclass(frozen=True)
class Slot:
    """Where a piece sits on a page: trim top-left (mm from the page's top-left) and how much
    of its bleed may be printed on each side (left, top, right, bottom)."""

    x: float
    y: float
    clip: tuple[float, float, float, float]


@dataclass(frozen=True)
class PaperSheet:
    """One sheet of paper: fronts on one side, and ``backs[i]`` behind ``fronts[i]``."""

    shape: Shape
    grid: Grid
    fronts: tuple[Face, ...]
    backs: tuple[Face, ...]
    decks: tuple[str, ...]
    """The ids of the decks whose cards it holds."""
    number: int
    """Which of the sheets of those decks it is, from 1 (sheet 2 of 7...)."""
    of: int


def slots(
    sheet: Sheet,
    grid: Grid,
    shape: Shape,
    *,
    back: bool = False,
    offset: tuple[float, float] = (0.0, 0.0),
) -> list[Slot]:
    """The grid's slots in reading order (row by row). With ``back``, index i is the slot behind
    front slot i once the sheet is turned over on its long edge: a landscape sheet turns top
    over bottom (rows swap), an upright one side over side (columns swap)."""
    page_w, page_h = sheet.page
    w, h, g = shape.width, shape.height, grid.gutter
    left = (page_w - (grid.columns * w + (grid.columns - 1) * g)) / 2
    top = (page_h - (grid.rows * h + (grid.rows - 1) * g)) / 2
    inner = min(shape.bleed, g / 2)
    out = []
    for row in range(grid.rows):
        for column in range(grid.columns):
            r = grid.rows - 1 - row if back and sheet.landscape else row
            c = grid.columns - 1 - column if back and not sheet.landscape else column
            clip = (
                shape.bleed if c == 0 else inner,
                shape.bleed if r == 0 else inner,
                shape.bleed if c == grid.columns - 1 else inner,
                shape.bleed if r == grid.rows - 1 else inner,
            )
            out.append(Slot(left + c * (w + g) + offset[0], top + r * (h + g) + offset[1], clip))
    return out


def impose(decks: list[DeckFaces], sheet: Sheet) -> list[PaperSheet]:
    """Every card copy on sheets of paper. Decks of one shape whose backs look the same share
    sheets (each card still gets its own deck's back), so no sheet is left half empty early."""
    groups: dict[tuple[object, ...], list[DeckFaces]] = {}
    for deck in decks:
        look = (deck.shape_id, deck.back.background, deck.back.items)
        groups.setdefault(look, []).append(deck)
    out = []
    for group in groups.values():
        grid = sheet.grids[group[0].shape_id]
        copies = [
            (face, deck.back) for deck in group for face, count in deck.fronts for _ in range(count)
        ]
        per_sheet = grid.columns * grid.rows
        chunks = [copies[i : i + per_sheet] for i in range(0, len(copies), per_sheet)]
        ids = tuple(deck.deck for deck in group)
        for number, chunk in enumerate(chunks, 1):
            out.append(
                PaperSheet(
                    group[0].shape,
                    grid,
                    tuple(front for front, _ in chunk),
                    tuple(back for _, back in chunk),
                    ids,
                    number,
                    len(chunks),
                )
            )
    return out
