"""Print-and-play PDFs: a first page that says how to print, then each deck's fronts on cut
sheets with crop marks, each fronts page followed by its backs mirrored for long-edge duplex,
and an alignment page to measure a printer's back-side shift."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

from reportlab.lib.colors import HexColor
from reportlab.pdfgen.canvas import Canvas

from gachapress.data.load import GameData
from gachapress.data.placeholders import fill, model_data
from gachapress.render import art as artwork
from gachapress.render.faces import DeckFaces
from gachapress.render.fonts import FontFile, role_for
from gachapress.render.layout import Face, Shape
from gachapress.render.metrics import Measure
from gachapress.render.pdf import MM, FacePainter
from gachapress.render.presets import Grid, Sheet
from gachapress.render.text import fit

#: Largest back offset, in mm: a printer shifting its back side further needs fixing, not this.
MAX_BACK_OFFSET = 10.0

INK = HexColor("#222222")
MARK = HexColor("#000000")
GREY = HexColor("#777777")


def parse_back_offset(text: str) -> tuple[float, float]:
    """``X,Y`` in millimetres as two finite numbers within MAX_BACK_OFFSET; else ValueError
    with the message to show (``nan``, ``inf`` and ``1e999`` included)."""
    try:
        x, y = (float(part) for part in text.split(","))
    except ValueError:
        raise ValueError("give the back offset as X,Y in millimetres, e.g. 0.5,-1") from None
    if not (math.isfinite(x) and math.isfinite(y)):
        raise ValueError("the back offset must be two finite numbers of millimetres")
    if abs(x) > MAX_BACK_OFFSET or abs(y) > MAX_BACK_OFFSET:
        raise ValueError(f"a back offset of more than {MAX_BACK_OFFSET:g} mm is a printer problem")
    return x, y


@dataclass(frozen=True)
class Slot:
    """Where a piece sits on a sheet: trim top-left (mm from the page's top-left) and how much
    of its bleed may be printed on each side (left, top, right, bottom)."""

    x: float
    y: float
    clip: tuple[float, float, float, float]


def slots(
    sheet: Sheet,
    grid: Grid,
    shape: Shape,
    *,
    mirrored: bool = False,
    offset: tuple[float, float] = (0.0, 0.0),
) -> list[Slot]:
    """The grid's slots in reading order (row by row). ``mirrored`` gives, at index i, the slot
    behind front slot i when the sheet is flipped on its long edge."""
    page_w, page_h = sheet.page
    w, h, g = shape.width, shape.height, grid.gutter
    left = (page_w - (grid.columns * w + (grid.columns - 1) * g)) / 2
    top = (page_h - (grid.rows * h + (grid.rows - 1) * g)) / 2
    inner = min(shape.bleed, g / 2)
    out = []
    for row in range(grid.rows):
        for column in range(grid.columns):
            col = grid.columns - 1 - column if mirrored else column
            clip = (
                shape.bleed if col == 0 else inner,
                shape.bleed if row == 0 else inner,
                shape.bleed if col == grid.columns - 1 else inner,
                shape.bleed if row == grid.rows - 1 else inner,
            )
            out.append(
                Slot(left + col * (w + g) + offset[0], top + row * (h + g) + offset[1], clip)
            )
    return out


def fits(sheet: Sheet, grid: Grid, shape: Shape) -> bool:
    """Whether the grid, its outer bleed and crop marks fit on the page."""
    need_w = grid.columns * shape.width + (grid.columns - 1) * grid.gutter + 2 * shape.bleed
    need_h = grid.rows * shape.height + (grid.rows - 1) * grid.gutter + 2 * shape.bleed
    return need_w <= sheet.page[0] and need_h <= sheet.page[1]


class PnpDocument:
    """One print-and-play PDF being written."""

    def __init__(
        self,
        path: Path,
        game: GameData,
        sheet: Sheet,
        measure: Measure,
        back_offset: tuple[float, float],
    ) -> None:
        if not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET for v in back_offset):
            raise ValueError(f"back offset {back_offset} is not within {MAX_BACK_OFFSET:g} mm")
        self.game, self.sheet, self.measure = game, sheet, measure
        self.lang = game.model.languages[0]
        self.back_offset = back_offset
        self.canvas = Canvas(
            str(path),
            pagesize=(sheet.page[0] * MM, sheet.page[1] * MM),
            invariant=1,
            pageCompression=1,
            initialFontName=measure.name("regular"),  # never the unembedded Helvetica
        )
        name = game.model.name.get("en", game.model.name[self.lang])
        self.canvas.setTitle(f"{name}: print and play ({sheet.name})")
        self.canvas.setAuthor("gachapress")
        self.canvas.setSubject(f"Cut sheets of every card of {name}, fronts and duplex backs")
        self.canvas.setCreator("gachapress")
        self.canvas.setKeywords(["print and play", "cards", game.id])
        self.painter = FacePainter(self.canvas)

    # -- text ----------------------------------------------------------------------------------
    def text(
        self,
        text: str,
        x: float,
        y: float,
        w: float,
        h: float,
        *,
        size: float = 10,
        bold: bool = False,
        align: str = "left",
        colour: HexColor = INK,
    ) -> float:
        """Set ``text`` in a box (mm from the page's top-left); return the height used."""
        japanese = any(ord(ch) > 0x2E80 for ch in text)
        role = role_for("bold" if bold else "regular", "ja" if japanese else "en")
        fitted = fit(
            self.measure,
            text,
            w,
            h,
            role=role,
            size=size,
            min_size=size * 0.6,
            align=align,
            japanese=japanese,
        )  # type: ignore[arg-type]
        page_h = self.sheet.page[1]
        self.canvas.setFillColor(colour)
        self.canvas.setFont(self.measure.name(role), fitted.size)
        for line in fitted.lines:
            for run in line.runs:
                self.canvas.drawString(
                    (x + run.x) * MM, (page_h - y - line.baseline) * MM, run.text
                )
        return len(fitted.lines) * fitted.size * 1.2 * 25.4 / 72

    # -- pages ---------------------------------------------------------------------------------
    def first_page(self, decks: list[DeckFaces], fonts: dict[str, FontFile]) -> None:
        model, lang = self.game.model, self.lang
        page_w, _ = self.sheet.page
        margin, width = 18.0, page_w - 36
        y = margin
        title = model.name.get(lang, "")
        if "en" in model.name and model.name["en"] != title:
            title = f"{title} ({model.name['en']})"
        y += self.text(title, margin, y, width, 14, size=22, bold=True) + 2
        y += (
            self.text(
                f"Print and play on {self.sheet.name} paper",
                margin,
                y,
                width,
                8,
                size=12,
                colour=GREY,
            )
            + 6
        )
        y += self.text("What to print and cut", margin, y, width, 8, size=13, bold=True) + 1
        for component in model.components:
            if component.deck:
                deck = model.deck(component.deck)
                line = f"• {deck.size()} × {deck.name.get('en', deck.name[lang])}"
            else:
                label = (component.name or {}).get("en") or (component.name or {}).get(lang, "")
                label = fill(label, model_data(model))
                line = f"• {label}" + (
                    " (not printed: provide your own)" if component.provide_your_own else ""
                )
            y += self.text(line, margin + 3, y, width - 3, 12, size=10) + 0.8
        y += 5
        y += self.text("How to print", margin, y, width, 8, size=13, bold=True) + 1
        steps = [
            "Print at 100% (actual size): turn off any 'fit to page' or 'shrink' option. "
            "Check the ruler below: it must measure exactly 100 mm.",
            "Print two-sided, flipping on the long edge: every page of fronts is followed by "
            "the page of backs that belongs behind it (mirrored so each back lands behind its "
            "front). No duplex printer? Print the odd pages, put the stack back in the tray "
            "and print the even pages.",
            "The last page is an alignment test: if its crosses do not meet when held against "
            "the light, rebuild with a back offset (gachapress build --back-offset X,Y in mm).",
            "Cut along the crop marks in the margins; the colour runs past the cut line "
            "(bleed) so a slightly off cut leaves no white edge. Card stock of 200-300 g/m² or "
            "sleeves with a playing card behind each sheet make cards that shuffle well.",
        ]
        for number, step in enumerate(steps, 1):
            y += self.text(f"{number}. {step}", margin + 3, y, width - 3, 30, size=10) + 1.5
        y += 4
        self._ruler(margin, y)
        y += 18
        y += self.text("Credits", margin, y, width, 8, size=13, bold=True) + 1
        credits = [
            f"Card art: {artwork.ATTRIBUTION}",
            "Fonts: " + "; ".join(sorted({f"{f.family} ({f.license})" for f in fonts.values()})),
            f"Rules: based on the {model.name.get('en', title)} rulebook; card lists marked as "
            "this project's design in the rulebook are gachapress's own.",
            "Made with gachapress from the game's rules data.",
        ]
        for line in credits:
            y += self.text(line, margin + 3, y, width - 3, 14, size=8.5) + 1
        self.canvas.showPage()

    def _ruler(self, x: float, y: float) -> None:
        c, page_h = self.canvas, self.sheet.page[1]
        c.setStrokeColor(MARK)
        c.setLineWidth(0.25 * MM)
        base = (page_h - y - 8) * MM
        c.line(x * MM, base, (x + 100) * MM, base)
        for mm in range(0, 101):
            tall = 4 if mm % 10 == 0 else (2.5 if mm % 5 == 0 else 1.5)
            c.line((x + mm) * MM, base, (x + mm) * MM, base + tall * MM)
        self.text("0", x - 1, y - 1, 6, 4, size=7)
        self.text("100 mm", x + 96, y - 1, 20, 4, size=7)

    def deck_pages(self, deck: DeckFaces) -> None:
        grid = self.sheet.grids[deck.shape_id]
        copies = [face for face, count in deck.fronts for _ in range(count)]
        per_page = grid.columns * grid.rows
        pages = [copies[i : i + per_page] for i in range(0, len(copies), per_page)]
        deck_name = self.game.model.deck(deck.deck).name
        label = deck_name.get("en", deck_name[self.lang])
        for number, faces in enumerate(pages, 1):
            front_slots = slots(self.sheet, grid, deck.shape)
            self._sheet(
                faces,
                front_slots,
                deck.shape,
                grid,
                f"{label}: fronts, sheet {number} of {len(pages)}",
            )
            back_slots = slots(self.sheet, grid, deck.shape, mirrored=True, offset=self.back_offset)
            self._sheet(
                [deck.back] * len(faces),
                back_slots,
                deck.shape,
                grid,
                f"{label}: backs of sheet {number} (print on the reverse)",
            )

    def _sheet(
        self, faces: list[Face], places: list[Slot], shape: Shape, grid: Grid, label: str
    ) -> None:
        for face, slot in zip(faces, places, strict=False):
            self.painter.place(face, slot.x, slot.y, slot.clip)
        if shape.kind == "round":
            self._cut_circles(places[: len(faces)], shape)
        else:
            self._crop_marks(places[: len(faces)], shape)
        self._label(label, places, shape)
        self.canvas.showPage()

    def _label(self, label: str, places: list[Slot], shape: Shape) -> None:
        """Name the sheet in the widest margin, clear of the bleed and the crop marks."""
        page_h = self.sheet.page[1]
        below = page_h - max(p.y for p in places) - shape.height - shape.bleed
        beside = min(p.x for p in places) - shape.bleed
        if below >= 6:  # under the middle column, between its crop marks
            middle = sorted({p.x for p in places})[len({p.x for p in places}) // 2]
            self.text(
                label,
                middle + 2,
                page_h - below / 2 - 1.5,
                shape.width - 4,
                3.5,
                size=6,
                align="center",
                colour=GREY,
            )
            return
        c = self.canvas  # else up the left margin, reading bottom to top
        c.saveState()
        c.translate((beside / 2 + 1) * MM, page_h / 2 * MM)
        c.rotate(90)
        c.setFillColor(GREY)
        c.setFont(
            self.measure.name("ja" if self.measure.missing(label, "regular") else "regular"), 6
        )
        c.drawCentredString(0, 0, label)
        c.restoreState()

    def _crop_marks(self, places: list[Slot], shape: Shape) -> None:
        """Short lines in the margin, in line with every cut, clear of the bleed."""
        c, (page_w, page_h) = self.canvas, self.sheet.page
        length = self.sheet.crop_mark
        gap = shape.bleed + 1
        xs = sorted({round(p.x, 3) for p in places} | {round(p.x + shape.width, 3) for p in places})
        ys = sorted(
            {round(p.y, 3) for p in places} | {round(p.y + shape.height, 3) for p in places}
        )
        top, bottom = min(ys), max(ys)
        left, right = min(xs), max(xs)
        c.setStrokeColor(MARK)
        c.setLineWidth(0.2 * MM)
        for x in xs:
            for y0, y1 in ((top - gap - length, top - gap), (bottom + gap, bottom + gap + length)):
                c.line(x * MM, (page_h - max(y0, 0)) * MM, x * MM, (page_h - min(y1, page_h)) * MM)
        for y in ys:
            for x0, x1 in ((left - gap - length, left - gap), (right + gap, right + gap + length)):
                c.line(max(x0, 0) * MM, (page_h - y) * MM, min(x1, page_w) * MM, (page_h - y) * MM)

    def _cut_circles(self, places: list[Slot], shape: Shape) -> None:
        """Round pieces get a thin cut line on the trim circle instead of crop marks."""
        c, page_h = self.canvas, self.sheet.page[1]
        c.setStrokeColor(GREY)
        c.setLineWidth(0.15 * MM)
        for slot in places:
            c.circle(
                (slot.x + shape.width / 2) * MM,
                (page_h - slot.y - shape.height / 2) * MM,
                shape.width / 2 * MM,
                stroke=1,
                fill=0,
            )

    def alignment_pages(self, deck: DeckFaces) -> None:
        """A page of crosses and its mirrored back: held to the light, they should meet."""
        grid, shape = self.sheet.grids[deck.shape_id], deck.shape
        page_h = self.sheet.page[1]
        for mirrored, label in (
            (False, "Alignment test: front"),
            (True, "Alignment test: back (print on the reverse)"),
        ):
            offset = self.back_offset if mirrored else (0.0, 0.0)
            c = self.canvas
            c.setStrokeColor(MARK)
            c.setLineWidth(0.2 * MM)
            for slot in slots(self.sheet, grid, shape, mirrored=mirrored, offset=offset):
                cx, cy = slot.x + shape.width / 2, slot.y + shape.height / 2
                c.line((cx - 8) * MM, (page_h - cy) * MM, (cx + 8) * MM, (page_h - cy) * MM)
                c.line(cx * MM, (page_h - cy - 8) * MM, cx * MM, (page_h - cy + 8) * MM)
                c.circle(cx * MM, (page_h - cy) * MM, 4 * MM, stroke=1, fill=0)
                c.rect(
                    slot.x * MM,
                    (page_h - slot.y - shape.height) * MM,
                    shape.width * MM,
                    shape.height * MM,
                    stroke=1,
                    fill=0,
                )
            self.text(
                label,
                10,
                page_h - 9,
                self.sheet.page[0] - 20,
                5,
                size=7,
                align="center",
                colour=GREY,
            )
            c.showPage()

    def save(self) -> None:
        self.canvas.save()


def write_pnp(
    path: Path,
    game: GameData,
    decks: list[DeckFaces],
    sheet: Sheet,
    measure: Measure,
    back_offset: tuple[float, float] = (0.0, 0.0),
) -> None:
    """Write the print-and-play PDF of ``game`` on ``sheet`` to ``path``."""
    document = PnpDocument(path, game, sheet, measure, back_offset)
    document.first_page(decks, measure.fonts)
    for deck in decks:
        document.deck_pages(deck)
    document.alignment_pages(decks[0])
    document.save()
