"""Print-and-play PDFs that pair up when printed two-sided (pages 2k-1 and 2k are sheet k):

1. the instructions, with the list of sheets and the credits on its back, in the card language
   (their words are the ``pnp_*`` strings of ``strings.yaml``);
2. the alignment test, front and back, to print before anything else;
3. then every sheet of cards: a page of fronts with crop marks, and the page of their backs
   placed to land behind them when the sheet is turned over on its long edge.

Nothing is drawn in the sheet's outer margin, which home printers leave blank."""

from __future__ import annotations

import hashlib
import math
import unicodedata
import zlib
from dataclasses import replace
from pathlib import Path
from typing import Literal

from gachapress.book.words import StringTable, Words
from gachapress.data.load import GameData
from gachapress.data.placeholders import fill, model_data
from gachapress.data.project_file import load_project
from gachapress.publish.imposition import PaperSheet, Slot, impose, slots
from gachapress.render import art as artwork
from gachapress.render.faceforms import MM, FaceForms, place_face
from gachapress.render.faces import DeckFaces
from gachapress.render.fonts import FontFile, role_for
from gachapress.render.ink import low_ink
from gachapress.render.layout import Face, Shape
from gachapress.render.metrics import Measure
from gachapress.render.partstore import PartStore
from gachapress.render.pdfdraw import Ops
from gachapress.render.pdfinfo import DocumentInfo
from gachapress.render.pdfobjects import Name, PdfWriter, Ref, Stream
from gachapress.render.presets import MARK_GAP, Sheet
from gachapress.render.text import fit, is_cjk

#: Largest back offset, in mm: a printer shifting its back side further needs fixing, not this.
MAX_BACK_OFFSET = 10.0

INK = "#222222"
MARK = "#000000"
GREY = "#666666"
INCH = 25.4
Ink = Literal["normal", "low"]
#: Half the length of an alignment cross and of the scales on the back, in mm.
SCALE = 10
#: The sheets before the cards: the instructions and the alignment test (pages 2k-1 and 2k).
INSTRUCTIONS, ALIGNMENT = 1, 2


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


#: The cutting note for each kind of piece, for the games that have it.
PIECE_NOTES = (("card", "pnp_stock"), ("round", "pnp_round"))


class PnpDocument:
    """One print-and-play PDF being written: each page drawn as operators (``self.page``),
    the faces as forms kept between builds (``faceforms``)."""

    def __init__(
        self,
        path: Path,
        game: GameData,
        sheet: Sheet,
        measure: Measure,
        back_offset: tuple[float, float],
        ink: Ink,
        words: Words,
        store: PartStore | None = None,
    ) -> None:
        if not all(math.isfinite(v) and abs(v) <= MAX_BACK_OFFSET for v in back_offset):
            raise ValueError(f"back offset {back_offset} is not within {MAX_BACK_OFFSET:g} mm")
        self.game, self.sheet, self.measure, self.ink = game, sheet, measure, ink
        self.words, self.lang = words, words.lang  # the cards' language
        self.back_offset = back_offset
        self.path = path
        name = game.model.name[self.lang]
        self.info = DocumentInfo(
            title=words.ui("pnp_title", game=name, paper=sheet.name),
            author=load_project(game.root).author(self.lang),
            subject=words.ui("pnp_subject", game=name),
            lang=self.lang,
            keywords=("print and play", "cards", game.id),
        )
        self.writer = PdfWriter()
        self.files = {font.name: font.path for font in measure.fonts.values()}
        self.store = store or PartStore(None)
        self.forms = FaceForms(self.writer, self.files, self.store)
        self.sheets_drawn = 0
        """Sheets drawn by this document (not found kept)."""
        self.pages_ref = self.writer.reserve()
        self.page_refs: list[Ref] = []
        self.page = Ops(self.files)

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
        colour: str = INK,
    ) -> float:
        """Set ``text`` in a box (mm from the page's top-left); return the height used."""
        japanese = any(is_cjk(ch) for ch in text)
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
        self.page.fill_colour(colour)
        font = self.measure.fonts[role]
        for line in fitted.lines:
            for run in line.runs:
                self.page.text(
                    font.name, fitted.size, (x + run.x) * MM, (page_h - y - line.baseline) * MM,
                    run.text,
                )  # fmt: skip
        return len(fitted.lines) * fitted.size * 1.2 * 25.4 / 72

    # -- sheet 1: instructions -----------------------------------------------------------------
    def ui(self, key: str, **values: object) -> str:
        return self.words.ui(key, **values)

    def pages(self, sheet: int, last: int | None = None) -> str:
        """The pages of ``sheet`` (to sheet ``last``'s), as "3-4"."""
        return self.ui("pnp_pages", first=2 * sheet - 1, last=2 * (last or sheet))

    def instructions(self, plan: list[PaperSheet]) -> None:
        """Page 1: what to print and how, with the scale rulers."""
        model, lang = self.game.model, self.lang
        page_w, _ = self.sheet.page
        margin = self.sheet.margin + 9
        gap = 10
        column = (page_w - 2 * margin - gap) / 2
        y = margin
        title = model.name.get(lang, "")
        english = model.name.get("en", title)
        if unicodedata.normalize("NFKC", english) != unicodedata.normalize("NFKC", title):
            title = f"{title} ({english})"  # not "GOTCHA！ (GOTCHA!)"
        y += self.text(title, margin, y, page_w - 2 * margin, 12, size=20, bold=True) + 1
        orientation = self.ui("pnp_landscape" if self.sheet.landscape else "pnp_upright")
        subtitle = self.ui("pnp_subtitle", paper=self.sheet.name, orientation=orientation)
        y += self.text(subtitle, margin, y, page_w - 2 * margin, 6, size=11, colour=GREY) + 4
        top = y
        heading = self.ui("pnp_what_to_print")
        y += self.text(heading, margin, y, column, 6, size=12, bold=True) + 1
        for component in model.component_list():
            if component.deck:
                deck = model.deck(component.deck)
                counter = "unit_tokens" if deck.form == "token" else "unit_cards"
                count = self.ui(counter, n=deck.size())
                line = self.ui("pnp_deck", n=deck.size(), count=count, deck=deck.name[lang])
            else:
                line = fill((component.name or {}).get(lang, ""), model_data(model), lang)
                if component.provide_your_own:
                    line = self.ui("pnp_not_printed", name=line)
            y += self.text(f"• {line}", margin + 3, y, column - 3, 10, size=9) + 0.6
        y += 3
        y += self.text(self.ui("pnp_how_to_print"), margin, y, column, 6, size=12, bold=True) + 1
        cards = self.pages(ALIGNMENT + 1, ALIGNMENT + len(plan))
        steps = [
            self.ui("pnp_step_scale"),
            self.ui("pnp_step_alignment", pages=self.pages(ALIGNMENT)),
            self.ui("pnp_step_cards", pages=cards),
            self.ui("pnp_step_instructions", pages=self.pages(INSTRUCTIONS)),
        ]
        for number, step in enumerate(steps, 1):
            y += self.text(f"{number}. {step}", margin + 3, y, column - 3, 30, size=9) + 1.2
        x, y = margin + column + gap, top
        y += self.text(self.ui("pnp_check_scale"), x, y, column, 6, size=12, bold=True) + 3
        for unit in self.sheet.rulers:
            self._ruler(x + 2, y, unit)
            y += 14
        y += 2
        y += self.text(self.ui("pnp_cutting"), x, y, column, 6, size=12, bold=True) + 1
        kinds = {paper.shape.kind for paper in plan}  # say only what this game's pieces need
        notes = [self._layout_note(plan)]
        notes += [self.ui(key) for kind, key in PIECE_NOTES if kind in kinds]
        if self.ink == "low":
            notes.append(self.ui("pnp_low_ink"))
        for paragraph in notes:
            y += self.text(paragraph, x, y, column, 40, size=9) + 1.5
        self.show_page()

    def _layout_note(self, plan: list[PaperSheet]) -> str:
        """What the cut sheets look like and how to cut them, from the grid of the cards."""
        cards = next((p for p in plan if p.shape.kind == "card"), plan[0])
        grid, shape = cards.grid, cards.shape
        note = self.ui(
            "pnp_grid",
            cards=grid.columns * grid.rows,
            columns=grid.columns,
            rows=grid.rows,
            width=f"{shape.width:g}",
            height=f"{shape.height:g}",
        )
        if grid.gutter >= 2 * shape.bleed:
            return note + self.ui(
                "pnp_grid_bleed", gutter=f"{grid.gutter:g}", bleed=f"{shape.bleed:g}"
            )
        return note + self.ui("pnp_grid_edge", columns=grid.columns, bleed=f"{shape.bleed:g}")

    def label(self, paper: PaperSheet) -> str:
        """What a sheet holds, e.g. "Toy cards, sheet 2 of 7"."""
        names = [self.game.model.deck(deck).name[self.lang] for deck in paper.decks]
        joiner = self.ui("list_and") if len(names) <= 2 else self.ui("list_sep")
        return self.ui("pnp_deck_sheet", decks=joiner.join(names), n=paper.number, of=paper.of)

    def sheet_list(
        self, plan: list[PaperSheet], fonts: dict[str, FontFile], openmoji: bool
    ) -> None:
        """Page 2, the back of the instructions: which sheet holds what, and the credits (the
        OpenMoji attribution where the game draws OpenMoji art)."""
        page_w = self.sheet.page[0]
        margin = self.sheet.margin + 9
        width = page_w - 2 * margin
        y = margin
        y += self.text(self.ui("pnp_sheets"), margin, y, width, 6, size=12, bold=True) + 1
        holds = [self.ui("pnp_sheet_instructions"), self.ui("pnp_sheet_alignment")]
        holds += [self.label(paper) for paper in plan]
        rows = [
            self.ui("pnp_sheet_row", n=number, pages=self.pages(number), what=what)
            for number, what in enumerate(holds, INSTRUCTIONS)
        ]
        half = (len(rows) + 1) // 2
        column = (width - 10) / 2
        for index, row in enumerate(rows):
            x = margin + (0 if index < half else column + 10)
            self.text(row, x + 3, y + (index % half) * 4.2, column - 3, 4.2, size=8.5)
        y += half * 4.2 + 6
        y += self.text(self.ui("credits"), margin, y, width, 6, size=12, bold=True) + 1
        families = sorted({f"{f.family} ({f.license})" for f in fonts.values()})
        rules = self.ui("pnp_rules", game=self.game.model.name[self.lang])
        project = load_project(self.game.root)  # what every output of the project carries
        licence = project.text("licence", self.lang)
        credits = [
            *filter(None, [project.text("credits", self.lang)]),
            *([self.ui("credits_licence", licence=licence)] if licence else []),
            *([self.ui("credits_art", openmoji=artwork.ATTRIBUTION)] if openmoji else []),
            self.ui("pnp_fonts", fonts="; ".join(families)),
            *([rules] if self.game.model.seed else []),  # where its data names original rules
            self.ui("pnp_made_with"),
        ]
        for line in credits:
            y += self.text(line, margin + 3, y, width - 3, 14, size=8.5) + 1
        self.show_page()

    def _ruler(self, x: float, y: float, unit: str) -> None:
        """A 100 mm (or 4 inch) scale with its top at y."""
        c, page_h = self.page, self.sheet.page[1]
        step, count, every, name = (
            (1.0, 100, 10, "100 mm") if unit == "mm" else (INCH / 8, 32, 8, "4 in")
        )
        c.stroke_colour(MARK)
        c.line_width(0.25 * MM)
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
        c, page_h = self.page, self.sheet.page[1]
        top = self.sheet.margin + 1
        width = self.sheet.page[0] - 2 * top
        c.stroke_colour(MARK)
        c.line_width(0.2 * MM)
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
            )
            c.paint(fill=False, stroke=True)
        self.text(
            self.ui("pnp_alignment_front", pages=self.pages(ALIGNMENT)),
            top,
            top,
            width,
            4,
            size=8,
            align="center",
            colour=GREY,
        )
        self.show_page()
        x0, y0 = self.back_offset
        for slot in slots(self.sheet, grid, shape, back=True, offset=self.back_offset):
            self._scales(slot.x + shape.width / 2, slot.y + shape.height / 2)
        lines = (
            self.ui("pnp_alignment_back"),
            self.ui("pnp_alignment_fix", x=f"{x0:g}", y=f"{y0:g}"),
        )
        y = top
        for line in lines:
            y += self.text(line, top, y, width, 7, size=7.5, align="center", colour=GREY)
        self.show_page()

    def _scales(self, cx: float, cy: float) -> None:
        c, page_h = self.page, self.sheet.page[1]
        c.stroke_colour(MARK)
        c.line_width(0.15 * MM)
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
        """A page of fronts with crop marks, then the page of their backs: kept from an
        earlier build when they show the same faces (by name: what a face shows is its
        form's) in the same places with the same labels."""
        label = self.label(paper)
        labels = (self.ui("pnp_fronts", n=number, what=label),
                  self.ui("pnp_backs", n=number, what=label))  # fmt: skip
        fronts = [self.forms.name(face) for face in paper.fronts]
        backs = [self.forms.name(face) for face in paper.backs]
        made_from = (self.sheet, paper.shape, paper.grid, self.back_offset, fronts, backs, labels,
                     self.forms.fonts_digest)  # fmt: skip
        key = "sheet:" + hashlib.sha256(repr(made_from).encode()).hexdigest()
        pages = self.store.get(key)
        if pages is None:
            pages = self._draw_sheet(paper, labels)
            self.store.put(key, pages)
            self.sheets_drawn += 1
        for page in pages:
            self.add_page(page)

    def _draw_sheet(self, paper: PaperSheet, labels: tuple[str, str]) -> tuple[KeptPage, ...]:
        shape, grid = paper.shape, paper.grid
        fronts = slots(self.sheet, grid, shape)[: len(paper.fronts)]
        for face, slot in zip(paper.fronts, fronts, strict=True):
            self.place(face, slot.x, slot.y, slot.clip)
        if shape.kind == "round":
            self._cut_circles(fronts, shape)
        else:
            self._crop_marks(fronts, shape)
        self._label(labels[0], fronts, shape)
        front, self.page = _kept(self.page), Ops(self.files)
        backs = slots(self.sheet, grid, shape, back=True, offset=self.back_offset)
        backs = backs[: len(paper.backs)]
        for face, slot in zip(paper.backs, backs, strict=True):
            self.place(face, slot.x, slot.y, slot.clip)
        self._label(labels[1], backs, shape)
        back, self.page = _kept(self.page), Ops(self.files)
        return front, back

    def _label(self, label: str, places: list[Slot], shape: Shape) -> None:
        """Name the page up the left margin beside the first row, clear of the crop marks
        (which meet the margin only in line with the cuts)."""
        page_h = self.sheet.page[1]
        left = min(p.x for p in places) - shape.bleed - MARK_GAP
        row = min(p.y for p in places) + shape.height / 2
        c = self.page
        c.save()
        x = (self.sheet.margin + (left - self.sheet.margin) / 2) * MM
        c.transform(0, 1, -1, 0, x, (page_h - row) * MM)  # a quarter turn: reads upwards
        c.fill_colour(GREY)
        role = "ja" if self.measure.missing(label, "regular") else "regular"
        font = self.measure.fonts[role]
        width = self.measure.width(label, role, 7) * MM
        c.text(font.name, 7, -width / 2, -1 * MM, label)
        c.restore()

    def _crop_marks(self, places: list[Slot], shape: Shape) -> None:
        """Lines in the margin, in line with every cut, clear of the bleed."""
        c, page_h = self.page, self.sheet.page[1]
        length, gap = self.sheet.crop_mark, shape.bleed + MARK_GAP
        xs = sorted({round(p.x, 3) for p in places} | {round(p.x + shape.width, 3) for p in places})
        ys = sorted(
            {round(p.y, 3) for p in places} | {round(p.y + shape.height, 3) for p in places}
        )
        top, bottom, left, right = min(ys), max(ys), min(xs), max(xs)
        c.stroke_colour(MARK)
        c.line_width(0.2 * MM)
        for x in xs:
            for y0, y1 in ((top - gap - length, top - gap), (bottom + gap, bottom + gap + length)):
                c.line(x * MM, (page_h - y0) * MM, x * MM, (page_h - y1) * MM)
        for y in ys:
            for x0, x1 in ((left - gap - length, left - gap), (right + gap, right + gap + length)):
                c.line(x0 * MM, (page_h - y) * MM, x1 * MM, (page_h - y) * MM)

    def _cut_circles(self, places: list[Slot], shape: Shape) -> None:
        """Round pieces get a thin cut line on the trim circle instead of crop marks."""
        c, page_h = self.page, self.sheet.page[1]
        c.stroke_colour(GREY)
        c.line_width(0.15 * MM)
        for slot in places:
            c.circle(
                (slot.x + shape.width / 2) * MM,
                (page_h - slot.y - shape.height / 2) * MM,
                shape.width / 2 * MM,
            )
            c.paint(fill=False, stroke=True)

    def place(
        self, face: Face, x: float, y: float, clip: tuple[float, float, float, float]
    ) -> None:
        """Draw ``face`` with its trim's top-left corner at (x, y) mm from the page's top-left,
        clipped to ``clip`` = (left, top, right, bottom) mm around the trim (bleed kept there)."""
        place_face(self.page, face.shape, self.forms.name(face), (x, y), clip, self.sheet.page[1])

    def show_page(self) -> None:
        """End the page being drawn and begin the next."""
        self.add_page(_kept(self.page))
        self.page = Ops(self.files)

    def add_page(self, page: KeptPage) -> None:
        """A page of the document from its content (drawn now or kept)."""
        data, fonts, xobjects = page
        width, height = (side * MM for side in self.sheet.page)
        resources = self.forms.resources(
            {self.forms.font_file(path): dict(chars) for path, chars in fonts}, xobjects
        )
        self.page_refs.append(self.writer.add({
            "Type": Name("Page"),
            "Parent": self.pages_ref,
            "MediaBox": [0, 0, width, height],
            "Contents": self.writer.add(Stream({"Filter": Name("FlateDecode")}, data)),
            "Resources": resources,
        }))  # fmt: skip

    def save(self) -> None:
        """Write the document: its forms and fonts, pages, catalogue and information."""
        self.forms.finish()
        pages = self.page_refs
        self.writer.set(
            self.pages_ref, {"Type": Name("Pages"), "Kids": list(pages), "Count": len(pages)}
        )
        catalog = self.writer.add({
            "Type": Name("Catalog"),
            "Pages": self.pages_ref,
            "Lang": self.lang,
            # the print dialog's defaults: actual size, two-sided turning on the long edge
            "ViewerPreferences": {
                "PrintScaling": Name("None"), "Duplex": Name("DuplexFlipLongEdge"),
            },
        })  # fmt: skip
        info = self.writer.add(self.info.entries())
        with self.path.open("wb") as out:
            self.writer.write(out, root=catalog, info=info)


#: A page as kept between builds: its compressed content, the glyphs it sets (font file,
#: ((glyph id, character), ...)) and the forms it shows.
KeptPage = tuple[bytes, tuple[tuple[str, tuple[tuple[int, str], ...]], ...], tuple[str, ...]]


def _kept(ops: Ops) -> KeptPage:
    fonts = tuple((str(path), tuple(sorted(chars.items()))) for path, chars in ops.fonts.items())
    return zlib.compress(ops.data(), 6), fonts, tuple(sorted(ops.xobjects))


def write_pnp(
    path: Path,
    game: GameData,
    decks: list[DeckFaces],
    sheet: Sheet,
    measure: Measure,
    strings: StringTable,
    back_offset: tuple[float, float] = (0.0, 0.0),
    ink: Ink = "normal",
    store: PartStore | None = None,
    *,
    openmoji: bool = True,
) -> None:
    """Write the print-and-play PDF of ``game`` on ``sheet`` to ``path``, its instructions in
    the cards' language in the words of ``strings``; with ``ink="low"`` the backs and large
    colour fields are light tints. ``store``: the faces and sheets drawn by earlier builds (see
    ``partstore``): only those not found there are drawn. ``openmoji``: a face of the game
    draws OpenMoji art (in any language), so the credits print its attribution."""
    if ink == "low":
        decks = [
            replace(
                deck,
                fronts=tuple((low_ink(face, back=False), n) for face, n in deck.fronts),
                back=low_ink(deck.back, back=True),
            )
            for deck in decks
        ]
    plan = impose(decks, sheet)
    words = Words(strings, decks[0].lang, game.id)
    document = PnpDocument(path, game, sheet, measure, back_offset, ink, words, store)
    document.instructions(plan)
    document.sheet_list(plan, measure.fonts, openmoji)
    document.alignment(next((p for p in plan if p.shape.kind == "card"), plan[0]))
    for number, paper in enumerate(plan, ALIGNMENT + 1):
        document.paper_sheet(paper, number)
    document.save()
