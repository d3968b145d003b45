"""Print-and-play PDFs that pair up when printed two-sided (pages 2k-1 and 2k are sheet k):

1. the instructions, with the list of sheets and the credits on its back;
2. the alignment test, front and back, to print before anything else;
3. then every sheet of cards: a page of fronts with crop marks, and the page of their backs
   placed to land behind them when the sheet is turned over on its long edge.

Nothing is drawn in the sheet's outer margin, which home printers leave blank."""

from __future__ import annotations

import math
from dataclasses import replace
from pathlib import Path
from typing import Literal

from reportlab.lib.colors import Color, HexColor
from reportlab.pdfbase.pdfdoc import PDFName
from reportlab.pdfgen.canvas import Canvas

from gachapress.data.load import GameData
from gachapress.data.placeholders import fill, model_data
from gachapress.publish.imposition import PaperSheet, Slot, impose, slots
from gachapress.render import art as artwork
from gachapress.render.faces import DeckFaces
from gachapress.render.fonts import FontFile, role_for
from gachapress.render.ink import low_ink
from gachapress.render.layout import Shape
from gachapress.render.metrics import Measure
from gachapress.render.pdf import MM, FacePainter
from gachapress.render.presets import MARK_GAP, Sheet
from gachapress.render.text import fit

#: Largest back offset, in mm: a printer shifting its back side further needs fixing, not this.
MAX_BACK_OFFSET = 10.0

INK = HexColor("#222222")
MARK = HexColor("#000000")
GREY = HexColor("#666666")
INCH = 25.4
Ink = Literal["normal", "low"]
#: Half the length of an alignment cross and of the scales on the back, in mm.
SCALE = 10


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


class PnpDocument:
    """One print-and-play PDF being written."""

    def __init__(
        self,
        path: Path,
        game: GameData,
        sheet: Sheet,
        measure: Measure,
        back_offset: tuple[float, float],
        ink: Ink,
        lang: str,
    ) -> None:
        if not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET for v in back_offset):
            raise ValueError(f"back offset {back_offset} is not within {MAX_BACK_OFFSET:g} mm")
        self.game, self.sheet, self.measure, self.ink = game, sheet, measure, ink
        self.lang = lang  # of the cards' texts; the instructions are in English
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
        # The print dialog's defaults: actual size, two-sided turning on the long edge.
        self.canvas.setViewerPreference("PrintScaling", PDFName("None"))
        self.canvas.setViewerPreference("Duplex", PDFName("DuplexFlipLongEdge"))
        self.canvas.setCatalogEntry("Lang", "en")  # the instructions; card texts are data
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
        colour: Color = INK,
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
            min_size=min(size, 7),
            align=align,  # type: ignore[arg-type]
            japanese=japanese,
        )
        page_h = self.sheet.page[1]
        self.canvas.setFillColor(colour)
        self.canvas.setFont(self.measure.name(role), fitted.size)
        for line in fitted.lines:
            for run in line.runs:
                self.canvas.drawString(
                    (x + run.x) * MM, (page_h - y - line.baseline) * MM, run.text
                )
        return len(fitted.lines) * fitted.size * 1.2 * 25.4 / 72

    # -- sheet 1: instructions -----------------------------------------------------------------
    def instructions(self, plan: list[PaperSheet]) -> None:
        """Page 1: what to print and how, with the scale rulers."""
        model, lang = self.game.model, self.lang
        page_w, _ = self.sheet.page
        margin = self.sheet.margin + 9
        gap = 10
        column = (page_w - 2 * margin - gap) / 2
        y = margin
        title = model.name.get(lang, "")
        if "en" in model.name and model.name["en"] != title:
            title = f"{title} ({model.name['en']})"
        y += self.text(title, margin, y, page_w - 2 * margin, 12, size=20, bold=True) + 1
        orientation = "landscape" if self.sheet.landscape else "upright"
        subtitle = f"Print and play on {self.sheet.name} paper, {orientation}"
        y += self.text(subtitle, margin, y, page_w - 2 * margin, 6, size=11, colour=GREY) + 4
        top = y
        y += self.text("What to print and cut", margin, y, column, 6, size=12, bold=True) + 1
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
            y += self.text(line, margin + 3, y, column - 3, 10, size=9) + 0.6
        y += 3
        y += self.text("How to print", margin, y, column, 6, size=12, bold=True) + 1
        last = 4 + 2 * len(plan)
        steps = [
            "Print at 100% (actual size): turn off any 'fit to page' or 'shrink' option. "
            "The scale on the right must measure exactly what it says.",
            "Print pages 3-4 first, on one sheet, two-sided, flipping on the long edge: the "
            "alignment test. Held against the light, the crosses of its front must sit on the "
            "0 of the scales on its back; if they do not, see that page.",
            f"Then print pages 5-{last} the same way, two-sided, flipping on the long edge. "
            "Each sheet has a page of fronts and, on its other side, the page of their backs, "
            "so every card gets its own back. No duplex printer? Print the odd pages, put the "
            "stack back in the tray as your printer's manual says for a second side, and print "
            "the even pages.",
            "Pages 1-2 (these instructions, with the list of sheets on the back) are one "
            "sheet too: print them two-sided as well, or not at all.",
        ]
        for number, step in enumerate(steps, 1):
            y += self.text(f"{number}. {step}", margin + 3, y, column - 3, 30, size=9) + 1.2
        x, y = margin + column + gap, top
        y += self.text("Check the scale", x, y, column, 6, size=12, bold=True) + 3
        for unit in self.sheet.rulers:
            self._ruler(x + 2, y, unit)
            y += 14
        y += 2
        y += self.text("Cutting", x, y, column, 6, size=12, bold=True) + 1
        notes = [self._layout_note(plan), self._stock_note()]
        if self.ink == "low":
            notes.append(
                "This is the low-ink version: the backs and the large colour fields of the "
                "fronts are printed as light tints, to spare a home printer's ink."
            )
        for paragraph in notes:
            y += self.text(paragraph, x, y, column, 40, size=9) + 1.5
        self.canvas.showPage()

    def _layout_note(self, plan: list[PaperSheet]) -> str:
        """What the cut sheets look like and how to cut them, from the grid of the cards."""
        cards = next((p for p in plan if p.shape.kind == "card"), plan[0])
        grid, shape = cards.grid, cards.shape
        note = (
            f"Each page holds {grid.columns * grid.rows} cards ({grid.columns} across, "
            f"{grid.rows} down) of {shape.width:g} x {shape.height:g} mm. "
        )
        if grid.gutter >= 2 * shape.bleed:
            return note + (
                f"Each card has {grid.gutter:g} mm of space around it, and its colour runs "
                f"{shape.bleed:g} mm past the cut line (bleed), so a slightly off cut leaves no "
                "white edge. Cut along the lines the crop marks in the margin point at."
            )
        return note + (
            f"The cards meet edge to edge ({grid.columns} across with gutters would not fit "
            "this paper with room for the marks): cut exactly along the lines the crop marks "
            f"point at; only the outer edges carry {shape.bleed:g} mm of colour past the cut line."
        )

    def _stock_note(self) -> str:
        return (
            "Card stock of 200-300 g/m², or sleeves with a playing card behind each card, make "
            "cards that shuffle well. Round pieces are cut along their printed circle."
        )

    def sheet_list(self, plan: list[PaperSheet], fonts: dict[str, FontFile]) -> None:
        """Page 2, the back of the instructions: which sheet holds what, and the credits."""
        page_w = self.sheet.page[0]
        margin = self.sheet.margin + 9
        width = page_w - 2 * margin
        y = margin
        y += self.text("The sheets of this file", margin, y, width, 6, size=12, bold=True) + 1
        rows = ["Sheet 1, pages 1-2: these instructions", "Sheet 2, pages 3-4: alignment test"]
        for number, paper in enumerate(plan, 3):
            first = 2 * number - 1
            rows.append(f"Sheet {number}, pages {first}-{first + 1}: {paper.label}")
        half = (len(rows) + 1) // 2
        column = (width - 10) / 2
        for index, row in enumerate(rows):
            x = margin + (0 if index < half else column + 10)
            self.text(row, x + 3, y + (index % half) * 4.2, column - 3, 4.2, size=8.5)
        y += half * 4.2 + 6
        y += self.text("Credits", margin, y, width, 6, size=12, bold=True) + 1
        model = self.game.model
        credits = [
            f"Card art: {artwork.ATTRIBUTION}",
            "Fonts: " + "; ".join(sorted({f"{f.family} ({f.license})" for f in fonts.values()})),
            f"Rules: based on the {model.name.get('en', model.name[self.lang])} rulebook; card "
            "lists marked as this project's design in the rulebook are gachapress's own.",
            "Made with gachapress from the game's rules data.",
        ]
        for line in credits:
            y += self.text(line, margin + 3, y, width - 3, 14, size=8.5) + 1
        self.canvas.showPage()

    def _ruler(self, x: float, y: float, unit: str) -> None:
        """A 100 mm (or 4 inch) scale with its top at y."""
        c, page_h = self.canvas, self.sheet.page[1]
        step, count, every, name = (
            (1.0, 100, 10, "100 mm") if unit == "mm" else (INCH / 8, 32, 8, "4 in")
        )
        c.setStrokeColor(MARK)
        c.setLineWidth(0.25 * MM)
        base = (page_h - y - 6) * MM
        c.line(x * MM, base, (x + step * count) * MM, base)
        for tick in range(count + 1):
            tall = 4 if tick % every == 0 else (2.5 if tick % (every // 2) == 0 else 1.5)
            c.line((x + tick * step) * MM, base, (x + tick * step) * MM, base + tall * MM)
        self.text("0", x - 1, y + 7, 6, 4, size=7)
        self.text(name, x + step * count - 10, y + 7, 14, 4, size=7, align="right")

    # -- sheet 2: alignment --------------------------------------------------------------------
    def alignment(self, paper: PaperSheet) -> None:
        """Crosses on the front; on the back, behind each cross, a millimetre scale on both axes
        so a shift reads off directly."""
        grid, shape = paper.grid, paper.shape
        c, page_h = self.canvas, self.sheet.page[1]
        top = self.sheet.margin + 1
        width = self.sheet.page[0] - 2 * top
        c.setStrokeColor(MARK)
        c.setLineWidth(0.2 * MM)
        for slot in slots(self.sheet, grid, shape):
            cx, cy = slot.x + shape.width / 2, slot.y + shape.height / 2
            c.line(
                (cx - SCALE - 4) * MM, (page_h - cy) * MM, (cx + SCALE + 4) * MM, (page_h - cy) * MM
            )
            c.line(cx * MM, (page_h - cy - SCALE - 4) * MM, cx * MM, (page_h - cy + SCALE + 4) * MM)
            c.rect(
                slot.x * MM,
                (page_h - slot.y - shape.height) * MM,
                shape.width * MM,
                shape.height * MM,
                stroke=1,
                fill=0,
            )
        self.text(
            "Alignment test, front. Print this sheet (pages 3-4) two-sided, flipping on the "
            "long edge, before the other sheets.",
            top,
            top,
            width,
            4,
            size=8,
            align="center",
            colour=GREY,
        )
        c.showPage()
        x0, y0 = self.back_offset
        for slot in slots(self.sheet, grid, shape, back=True, offset=self.back_offset):
            self._scales(slot.x + shape.width / 2, slot.y + shape.height / 2)
        lines = (
            "Alignment test, back. Hold the sheet against the light, this side towards you, and "
            "read in mm where the lines of each cross from the other side meet the scales: "
            "X on the scale across (right is +), Y on the scale down (down is +).",
            f"If they are not 0,0, rebuild with gachapress build --back-offset X,Y, adding them "
            f"to the offset this file was made with ({x0:g},{y0:g}). A positive X moves every "
            "back to the right and a positive Y moves it down, as seen on this side.",
        )
        y = top
        for line in lines:
            y += self.text(line, top, y, width, 7, size=7.5, align="center", colour=GREY)
        c.showPage()

    def _scales(self, cx: float, cy: float) -> None:
        c, page_h = self.canvas, self.sheet.page[1]
        c.setStrokeColor(MARK)
        c.setLineWidth(0.15 * MM)
        c.line((cx - SCALE) * MM, (page_h - cy) * MM, (cx + SCALE) * MM, (page_h - cy) * MM)
        c.line(cx * MM, (page_h - cy + SCALE) * MM, cx * MM, (page_h - cy - SCALE) * MM)
        for mm in range(-SCALE, SCALE + 1):
            tall = 2.5 if mm % 5 == 0 else 1.2
            x = cx + mm
            c.line(x * MM, (page_h - cy) * MM, x * MM, (page_h - cy - tall) * MM)
            c.line(cx * MM, (page_h - cy - mm) * MM, (cx + tall) * MM, (page_h - cy - mm) * MM)
        for end in (-SCALE, SCALE):  # the numbers at the ends, clear of each other
            label = f"{end:+d}"
            self.text(label, cx + end - 3, cy + 2.7, 6, 3, size=7, align="center")
            self.text(label, cx + 3, cy + end - 1.4, 6, 3, size=7)
        self.text("X", cx + SCALE + 1.5, cy - 1.5, 4, 3, size=7, bold=True)
        self.text("Y", cx - 1, cy + SCALE + 1.5, 4, 3, size=7, bold=True)

    # -- the cards -----------------------------------------------------------------------------
    def paper_sheet(self, paper: PaperSheet, number: int) -> None:
        """A page of fronts with crop marks, then the page of their backs."""
        shape, grid = paper.shape, paper.grid
        fronts = slots(self.sheet, grid, shape)[: len(paper.fronts)]
        for face, slot in zip(paper.fronts, fronts, strict=True):
            self.painter.place(face, slot.x, slot.y, slot.clip)
        if shape.kind == "round":
            self._cut_circles(fronts, shape)
        else:
            self._crop_marks(fronts, shape)
        self._label(f"Sheet {number}, fronts: {paper.label}", fronts, shape)
        self.canvas.showPage()
        backs = slots(self.sheet, grid, shape, back=True, offset=self.back_offset)
        backs = backs[: len(paper.backs)]
        for face, slot in zip(paper.backs, backs, strict=True):
            self.painter.place(face, slot.x, slot.y, slot.clip)
        self._label(f"Sheet {number}, backs: {paper.label}", backs, shape)
        self.canvas.showPage()

    def _label(self, label: str, places: list[Slot], shape: Shape) -> None:
        """Name the page up the left margin beside the first row, clear of the crop marks
        (which meet the margin only in line with the cuts)."""
        page_h = self.sheet.page[1]
        left = min(p.x for p in places) - shape.bleed - MARK_GAP
        row = min(p.y for p in places) + shape.height / 2
        c = self.canvas
        c.saveState()
        c.translate((self.sheet.margin + (left - self.sheet.margin) / 2) * MM, (page_h - row) * MM)
        c.rotate(90)
        c.setFillColor(GREY)
        font = self.measure.name("ja" if self.measure.missing(label, "regular") else "regular")
        c.setFont(font, 7)
        c.drawCentredString(0, -1 * MM, label)
        c.restoreState()

    def _crop_marks(self, places: list[Slot], shape: Shape) -> None:
        """Lines in the margin, in line with every cut, clear of the bleed."""
        c, page_h = self.canvas, self.sheet.page[1]
        length, gap = self.sheet.crop_mark, shape.bleed + MARK_GAP
        xs = sorted({round(p.x, 3) for p in places} | {round(p.x + shape.width, 3) for p in places})
        ys = sorted(
            {round(p.y, 3) for p in places} | {round(p.y + shape.height, 3) for p in places}
        )
        top, bottom, left, right = min(ys), max(ys), min(xs), max(xs)
        c.setStrokeColor(MARK)
        c.setLineWidth(0.2 * MM)
        for x in xs:
            for y0, y1 in ((top - gap - length, top - gap), (bottom + gap, bottom + gap + length)):
                c.line(x * MM, (page_h - y0) * MM, x * MM, (page_h - y1) * MM)
        for y in ys:
            for x0, x1 in ((left - gap - length, left - gap), (right + gap, right + gap + length)):
                c.line(x0 * MM, (page_h - y) * MM, x1 * MM, (page_h - y) * MM)

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

    def save(self) -> None:
        self.canvas.save()


def write_pnp(
    path: Path,
    game: GameData,
    decks: list[DeckFaces],
    sheet: Sheet,
    measure: Measure,
    back_offset: tuple[float, float] = (0.0, 0.0),
    ink: Ink = "normal",
) -> None:
    """Write the print-and-play PDF of ``game`` on ``sheet`` to ``path``; with ``ink="low"``
    the backs and large colour fields are light tints."""
    if ink == "low":
        decks = [
            replace(
                deck,
                fronts=tuple((low_ink(face, back=False), n) for face, n in deck.fronts),
                back=low_ink(deck.back, back=True),
            )
            for deck in decks
        ]
    plan = impose(game, decks, sheet)
    document = PnpDocument(path, game, sheet, measure, back_offset, ink, decks[0].lang)
    document.instructions(plan)
    document.sheet_list(plan, measure.fonts)
    document.alignment(next((p for p in plan if p.shape.kind == "card"), plan[0]))
    for number, paper in enumerate(plan, 3):
        document.paper_sheet(paper, number)
    document.save()
