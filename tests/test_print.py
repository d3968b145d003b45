"""Card faces and print-and-play PDFs, checked as a reader (or a print shop) would check them."""

from __future__ import annotations

import math
import re
import shutil
import xml.etree.ElementTree as ET
from functools import partial
from pathlib import Path

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from gachapress.data.load import load_rules
from gachapress.publish.imposition import slots
from gachapress.render.faces import game_faces
from gachapress.render.metrics import Measure
from gachapress.render.presets import load_presets
from tests.conftest import ROOT, TEMPLATES, run_cli
from tests.pnp_reading import FACE

GAME = "gachapon-trick"
#: Book games per build: these tests read cards and sheets, never the statistics.
ENV = {"GACHAPRESS_BOOK_GAMES": "2"}
PT = 72 / 25.4
PRESETS = load_presets(TEMPLATES.path("print.yaml"))
SHEETS = {"a4": (841.8898, 595.2756), "letter": (792.0, 612.0)}  # landscape


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project copy with Gachapon Trick built into its out/."""
    root = tmp_path_factory.mktemp("project")
    for folder in ("rules", "templates"):
        shutil.copytree(ROOT / folder, root / folder)
    result = run_cli("build", GAME, cwd=root, env=ENV)
    assert result.code == 0, result.err
    return root / "out" / GAME


@pytest.fixture(scope="module")
def decks():
    game = load_rules(GAME)
    return game_faces(game, TEMPLATES, PRESETS, Measure(ROOT / "build" / "fonts"))


def test_one_svg_per_distinct_face_and_per_back(built: Path, decks) -> None:
    expected = {f.key for d in decks for f, _ in d.fronts} | {d.back.key for d in decks}
    assert {p.stem for p in (built / "cards").glob("*.svg")} == expected
    assert len(expected) == 49 + 1 + 2


@pytest.mark.parametrize("card", ["red-800", "refund", "back-toys"])
def test_svg_is_valid_sized_titled_and_self_contained(built: Path, card: str) -> None:
    text = (built / "cards" / f"{card}.svg").read_text(encoding="utf-8")
    root = ET.fromstring(text)
    assert root.get("width") == "69mm" and root.get("height") == "94mm"  # 63 x 88 + 2 x 3 bleed
    assert [float(v) for v in root.get("viewBox").split()] == [-3, -3, 69, 94]
    ns = {"s": "http://www.w3.org/2000/svg"}
    assert root.find("s:title", ns) is not None and root.find("s:title", ns).text
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids)), "duplicate ids in one file"
    assert "http://" not in text.replace("http://www.w3.org", "")  # nothing fetched from a network
    assert "@font-face" in text and "base64," in text


def test_art_ids_cannot_collide_between_arts(built: Path) -> None:
    text = (built / "cards" / "red-800.svg").read_text(encoding="utf-8")
    for ref in re.findall(r"url\(#([^)]+)\)", text):
        assert re.search(rf'id="{re.escape(ref)}"', text), f"dangling reference {ref}"
        assert ref.startswith("red-800-"), "art ids carry the face's prefix"


def _operations(reader: PdfReader, page_number: int) -> list[tuple[bytes, list]]:
    page = reader.pages[page_number]
    stream = ContentStream(page.get_contents(), reader)
    return [(op, list(operands)) for operands, op in stream.operations]


def _placements(reader: PdfReader, page_number: int) -> list[tuple[str, float, float]]:
    """(form name, x, y) of every face placed on a page, in points."""
    placed, last = [], None
    for op, operands in _operations(reader, page_number):
        if op == b"cm":
            last = (float(operands[4]), float(operands[5]))
        elif op == b"Do" and str(operands[0]).startswith(FACE) and last:
            placed.append((str(operands[0])[len(FACE) :], *last))
    return placed


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_pages_sizes_and_count(built: Path, paper: str) -> None:
    reader = PdfReader(built / f"{GAME}-pnp-{paper}.pdf")
    for page in reader.pages:
        assert (
            round(float(page.mediabox.width), 2),
            round(float(page.mediabox.height), 2),
        ) == tuple(round(v, 2) for v in SHEETS[paper])
    # the instructions and the alignment test, then 49 toys and the refund on 8-up sheets
    assert len(reader.pages) == 2 + 2 + 2 * math.ceil((49 + 1) / 8)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_cards_sit_on_the_grid_and_backs_behind_their_fronts(built: Path, paper: str) -> None:
    reader = PdfReader(built / f"{GAME}-pnp-{paper}.pdf")
    shape = PRESETS.shapes["poker"]
    sheet = PRESETS.sheets[paper]
    grid = sheet.grids["poker"]
    _, page_h = sheet.page
    expected = [
        ((s.x - shape.bleed) * PT, (page_h - s.y - shape.height - shape.bleed) * PT)
        for s in slots(sheet, grid, shape)
    ]
    fronts, backs = _placements(reader, 4), _placements(reader, 5)
    assert len(fronts) == len(backs) == 8
    for (_, x, y), (ex, ey) in zip(fronts, expected, strict=True):
        assert (round(x, 2), round(y, 2)) == (round(ex, 2), round(ey, 2))
    for (_, fx, fy), (name, bx, by) in zip(fronts, backs, strict=True):
        assert name == "back-toys"
        # a landscape sheet turns over on its long edge top over bottom: the back's trim is
        # the mirror image of its front's across the page's height
        front_bottom = fy / PT + shape.bleed
        back_bottom = by / PT + shape.bleed
        assert back_bottom == pytest.approx(page_h - front_bottom - shape.height, abs=1e-3)
        assert bx == pytest.approx(fx, abs=1e-3)
    if paper == "a4":
        assert grid.gutter >= 2 * shape.bleed  # room for each card's whole bleed
    else:
        assert grid.gutter == 0  # edge to edge: 4 x 69 mm and the marks would not fit


def _collect(texts: list, text: str, cm: list, tm: list, font: object, size: float) -> None:
    if text.strip():
        texts.append((text.strip(), tm, font, size))


def _fonts(obj, acc: set, seen: set) -> None:
    if id(obj) in seen or "/Resources" not in obj:
        return
    seen.add(id(obj))
    resources = obj["/Resources"].get_object()
    for font in resources.get("/Font", {}).values():
        font = font.get_object()
        if font.get("/Subtype") == "/Type0":  # its glyphs are its one descendant's
            font = font["/DescendantFonts"][0].get_object()
        descriptor = font.get("/FontDescriptor")
        embedded = bool(descriptor) and "/FontFile2" in descriptor.get_object()
        acc.add((str(font["/BaseFont"]), embedded))
    for xobject in resources.get("/XObject", {}).values():
        _fonts(xobject.get_object(), acc, seen)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_font_is_embedded_and_subset_with_metadata_set(built: Path, paper: str) -> None:
    reader = PdfReader(built / f"{GAME}-pnp-{paper}.pdf")
    fonts: set = set()
    for page in reader.pages:
        _fonts(page, fonts, set())
    assert fonts, "the PDF sets text"
    for name, embedded in fonts:
        assert embedded, f"{name} is not embedded"
        assert re.fullmatch(r"/[A-Z]{6}\+.+", name), f"{name} is not a subset"
    meta = reader.metadata
    assert meta.title and meta.author and meta.subject


def test_text_stays_in_the_safe_zone(decks) -> None:
    measure = Measure(ROOT / "build" / "fonts")
    from reportlab.pdfbase.pdfmetrics import stringWidth

    for deck in decks:
        shape = deck.shape
        for face in [f for f, _ in deck.fronts] + [deck.back]:
            for item in face.items:
                if not hasattr(item, "text"):
                    continue
                width = stringWidth(item.text, item.font, item.size) / PT
                height = item.size / PT
                # a turned text runs leftwards from its anchor, its letters below the baseline
                turn = -1 if item.turned else 1
                left, right = sorted((item.x, item.x + turn * width))
                top, bottom = sorted(
                    (item.baseline - turn * 0.8 * height, item.baseline + turn * 0.25 * height)
                )
                assert left >= shape.safe - 1e-6, (face.key, item.text)
                assert right <= shape.width - shape.safe + 1e-6, (face.key, item.text)
                assert top >= shape.safe - 1e-6, (face.key, item.text)
                assert bottom <= shape.height - shape.safe + 1e-6, (face.key, item.text)
    assert measure.fonts


def test_same_inputs_same_bytes(built: Path, tmp_path: Path) -> None:
    again = tmp_path / built.parents[1].name  # the same project name (the PDFs' author)
    for folder in ("rules", "templates"):
        shutil.copytree(ROOT / folder, again / folder)
    assert run_cli("build", GAME, cwd=again, env=ENV).code == 0
    for file in sorted(built.rglob("*")):
        if file.is_file():
            twin = again / "out" / GAME / file.relative_to(built)
            assert twin.read_bytes() == file.read_bytes(), file.name


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_text_object_in_the_pdf_lies_in_its_cards_safe_zone(built: Path, paper: str) -> None:
    """Read the sheets as a text extractor does, and put each piece of text on its card.

    Text lives in each face's form XObject; the extractor reports it in the form's own
    coordinates and in drawing order, so each text is matched to the placement of its form."""
    from reportlab.pdfbase.pdfmetrics import stringWidth

    Measure(ROOT / "build" / "fonts")  # registers the fonts for measuring
    reader = PdfReader(built / f"{GAME}-pnp-{paper}.pdf")
    shape = PRESETS.shapes["poker"]
    checked = 0
    for number in range(4, len(reader.pages)):  # the card sheets
        page = reader.pages[number]
        forms = page["/Resources"]["/XObject"]
        texts: list[tuple[str, list[float], object, float]] = []
        page.extract_text(visitor_text=partial(_collect, texts))
        queue = iter(texts)
        for face, x0, y0 in _placements(reader, number):
            form = forms[f"{FACE}{face}"].get_object()
            count = sum(
                1 for _, op in ContentStream(form, reader).operations if op in (b"Tj", b"TJ")
            )
            for _ in range(count):
                text, tm, font, size = next(queue)
                name = str(font["/BaseFont"]).split("+", 1)[-1]
                # form coordinates: points from the bleed box's bottom-left corner
                anchor = tm[4] / PT - shape.bleed
                width = stringWidth(text, name, size) / PT
                left, right = sorted((anchor, anchor + (width if tm[0] > 0 else -width)))
                baseline = shape.height + shape.bleed - tm[5] / PT
                assert left >= shape.safe - 0.01, (face, text)
                assert right <= shape.width - shape.safe + 0.01, (face, text)
                assert shape.safe <= baseline <= shape.height - shape.safe + 0.01, (face, text)
                checked += 1
            assert x0 >= 0 and y0 >= 0
    assert checked > 100


@pytest.mark.parametrize(
    "game_id", ["gotchacards", "gachapon-trick", "gotcha", "rps-fire", "gasha"]
)
def test_no_card_text_is_set_below_7_pt_nor_japanese_below_7_5(game_id: str) -> None:
    measure = Measure(ROOT / "build" / "fonts")
    decks = game_faces(load_rules(game_id), TEMPLATES, PRESETS, measure)
    for deck in decks:
        for face in [f for f, _ in deck.fronts] + [deck.back]:
            for item in face.items:
                if not hasattr(item, "text"):
                    continue
                japanese = any(ord(ch) > 0x2E80 for ch in item.text)
                assert item.size >= (7.5 if japanese else 7), (face.key, item.text, item.size)
