"""The print-and-play PDFs as a home printer prints them: two-sided (pages 2k-1 and 2k are sheet
k, turned over on its long edge), nothing in the outer 5 mm, crop marks at every cut.

Everything is read back from the PDFs themselves (where each face's form is placed, the lines
drawn, the pixels of each page), not from the code that laid them out."""

from __future__ import annotations

import re
import subprocess
from itertools import pairwise
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream

from gachapress.book.words import StringTable
from gachapress.data.load import load_rules
from gachapress.errors import RulesError
from gachapress.publish.pnp import write_pnp
from gachapress.render.art import ATTRIBUTION
from gachapress.render.faces import game_faces
from gachapress.render.metrics import Measure
from gachapress.render.presets import load_presets
from tests.conftest import GAME_IDS, ROOT, TEMPLATES, run_cli
from tests.pnp_reading import PT, placements, printed_two_sided

PAPERS = ("a4", "letter")
CASES = [(game, paper) for game in GAME_IDS for paper in PAPERS]
PRESETS = load_presets(TEMPLATES.path("print.yaml"))
STRINGS = StringTable.load(TEMPLATES)
#: How the alignment test's two sides begin, in each card language.
ALIGNMENT_TITLES = {
    "en": ("Alignment test, front", "Alignment test, back"),
    "ja": ("位置合わせテスト（表）", "位置合わせテスト（裏）"),
}


@pytest.fixture(scope="module")
def pdfs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Path]:
    folder = tmp_path_factory.mktemp("pnp")
    measure = Measure(ROOT / "build" / "fonts")
    out = {}
    for game_id in GAME_IDS:
        game = load_rules(game_id)
        decks = game_faces(game, TEMPLATES, PRESETS, measure)
        for paper in PAPERS:
            path = folder / f"{game_id}-{paper}.pdf"
            write_pnp(path, game, decks, PRESETS.sheets[paper], measure, STRINGS)
            out[game_id, paper] = path
    return out


def _decks(game_id: str) -> dict[str, tuple[str, int]]:
    """Each card face's key -> (its deck's back key, copies), from the rules."""
    decks = game_faces(load_rules(game_id), TEMPLATES, PRESETS, Measure(ROOT / "build" / "fonts"))
    return {face.key: (deck.back.key, count) for deck in decks for face, count in deck.fronts}


@pytest.mark.parametrize(("game_id", "paper"), CASES)
def test_printed_two_sided_every_card_has_its_own_back(pdfs, game_id: str, paper: str) -> None:
    reader = PdfReader(pdfs[game_id, paper])
    decks = _decks(game_id)
    pages = len(reader.pages)
    assert pages % 2 == 0, "an odd page count leaves the last sheet's back to the next print"
    assert not placements(reader, 0) and not placements(reader, 1), "sheet 1: instructions"
    front, back = ALIGNMENT_TITLES[load_rules(game_id).model.card_language()]
    assert front in reader.pages[2].extract_text()
    assert back in reader.pages[3].extract_text()
    printed = printed_two_sided(reader, {key: deck_back for key, (deck_back, _) in decks.items()})
    assert printed == {key: count for key, (_, count) in decks.items()}


def test_decks_that_share_a_back_share_sheets(pdfs) -> None:
    """Gachapon Trick's Refund card goes on the last toy sheet, not a sheet of its own."""
    reader = PdfReader(pdfs["gachapon-trick", "a4"])
    sheets = [placements(reader, n) for n in range(4, len(reader.pages), 2)]
    cards = 49 + 1
    assert len(sheets) == -(-cards // 8)
    assert "refund" in {p.key for p in sheets[-1]} and len(sheets[-1]) == cards - 8 * 6


def _band_ink(png: Path, band: int) -> float:
    pixels = np.asarray(Image.open(png).convert("L"))
    edges = [pixels[:band], pixels[-band:], pixels[:, :band], pixels[:, -band:]]
    return max(float(255 - edge.min()) for edge in edges)


@pytest.mark.parametrize(("game_id", "paper"), CASES)
def test_nothing_is_printed_in_the_outer_5_mm(pdfs, game_id: str, paper: str, tmp_path) -> None:
    dpi = 72
    band = int(5 / 25.4 * dpi)  # whole pixels inside the 5 mm band
    subprocess.run(
        [
            "pdftoppm",
            "-r",
            str(dpi),
            "-gray",
            "-png",
            str(pdfs[game_id, paper]),
            str(tmp_path / "p"),
        ],
        check=True,
    )
    pngs = sorted(tmp_path.glob("p-*.png"))
    assert len(pngs) == len(PdfReader(pdfs[game_id, paper]).pages)
    for png in pngs:
        assert _band_ink(png, band) <= 3, f"{png.name} prints within 5 mm of the paper edge"


def _lines(reader: PdfReader, number: int) -> list[tuple[float, float, float, float]]:
    """Straight segments (m ... l) stroked on a page, mm from the page's top-left."""
    page = reader.pages[number]
    height = float(page.mediabox.height) / PT
    out, start = [], None
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"m":
            start = (float(operands[0]) / PT, height - float(operands[1]) / PT)
        elif op == b"l" and start:
            end = (float(operands[0]) / PT, height - float(operands[1]) / PT)
            out.append((*start, *end))
            start = end
    return out


@pytest.mark.parametrize(("game_id", "paper"), CASES)
def test_crop_marks_at_every_cut_outside_the_bleed(pdfs, game_id: str, paper: str) -> None:
    reader = PdfReader(pdfs[game_id, paper])
    shapes = {(s.width + 2 * s.bleed, s.height + 2 * s.bleed): s for s in PRESETS.shapes.values()}
    checked = 0
    for number in range(4, len(reader.pages), 2):
        placed = placements(reader, number)
        shape = shapes[round(placed[0].width, 3), round(placed[0].height, 3)]
        if shape.kind == "round":
            continue
        b = shape.bleed
        lines = _lines(reader, number)
        boxes = [(p.left, p.top, p.left + p.width, p.top + p.height) for p in placed]
        for x0, y0, x1, y1 in lines:  # no mark reaches into a card or its bleed
            for left, top, right, bottom in boxes:
                assert (
                    max(x0, x1) < left
                    or min(x0, x1) > right
                    or max(y0, y1) < top
                    or (min(y0, y1) > bottom)
                ), f"page {number + 1}: a mark crosses a card's bleed"
        vertical = [
            (x0, min(y0, y1), max(y0, y1)) for x0, y0, x1, y1 in lines if abs(x0 - x1) < 1e-6
        ]
        horizontal = [
            (y0, min(x0, x1), max(x0, x1)) for x0, y0, x1, y1 in lines if abs(y0 - y1) < 1e-6
        ]
        top = min(p.top for p in placed) + b
        bottom = max(p.top + p.height for p in placed) - b
        left = min(p.left for p in placed) + b
        right = max(p.left + p.width for p in placed) - b
        for cut in {round(p.left + b, 3) for p in placed} | {
            round(p.left + p.width - b, 3) for p in placed
        }:
            ends = [(a, z) for x, a, z in vertical if abs(x - cut) < 0.01 and z - a >= 3]
            assert any(z <= top - b for _, z in ends) and any(a >= bottom + b for a, _ in ends), (
                f"page {number + 1}: the cut at x = {cut} mm lacks a mark above or below"
            )
        for cut in {round(p.top + b, 3) for p in placed} | {
            round(p.top + p.height - b, 3) for p in placed
        }:
            ends = [(a, z) for y, a, z in horizontal if abs(y - cut) < 0.01 and z - a >= 3]
            assert any(z <= left - b for _, z in ends) and any(a >= right + b for a, _ in ends), (
                f"page {number + 1}: the cut at y = {cut} mm lacks a mark left or right"
            )
        checked += 1
    assert checked


@pytest.mark.parametrize("paper", PAPERS)
def test_the_pdf_asks_for_actual_size_long_edge_duplex_and_names_its_language(pdfs, paper) -> None:
    catalog = PdfReader(pdfs["gotcha", paper]).trailer["/Root"]
    preferences = catalog["/ViewerPreferences"]
    assert preferences["/PrintScaling"] == "/None"
    assert preferences["/Duplex"] == "/DuplexFlipLongEdge"
    assert catalog["/Lang"] == "ja"  # GOTCHA!'s cards, and so its instructions, are Japanese
    title = PdfReader(pdfs["gotcha", paper]).pages[0].extract_text().splitlines()[0]
    assert title.strip() == "GOTCHA！"  # its English name differs only in the width of the "!"


#: The headings of the instructions (pages 1 and 2), the alignment test's two sides (3 and 4).
HEADINGS = ("pnp_what_to_print", "pnp_how_to_print", "pnp_check_scale", "pnp_cutting")
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def _heading(key: str, lang: str) -> str:
    text = STRINGS.lookup(("ui", key), lang)
    assert text is not None, key
    return text


def test_the_instructions_speak_the_card_language(pdfs, tmp_path: Path) -> None:
    """Rock, Paper, Scissors, Fire printed with Japanese cards (and low ink): the instructions,
    the sheet list, the credits, the alignment test and the sheet labels are Japanese, in the
    Japanese font, and the document says so; with its English cards they are English."""
    game = load_rules("rps-fire")
    measure = Measure(ROOT / "build" / "fonts")
    decks = game_faces(game, TEMPLATES, PRESETS, measure, "ja")
    path = tmp_path / "ja.pdf"
    write_pnp(path, game, decks, PRESETS.sheets["letter"], measure, STRINGS, ink="low")
    japanese, english = PdfReader(path), PdfReader(pdfs["rps-fire", "letter"])
    pages = [page.extract_text() for page in japanese.pages[:4]]
    for key in HEADINGS:
        assert _heading(key, "ja") in pages[0] and _heading(key, "en") not in pages[0], key
        assert _heading(key, "en") in english.pages[0].extract_text(), key
    assert _heading("pnp_sheets", "ja") in pages[1] and _heading("credits", "ja") in pages[1]
    assert "".join(_heading("pnp_low_ink", "ja").split()) in "".join(pages[0].split())
    assert "位置合わせテスト（表）" in pages[2] and "位置合わせテスト（裏）" in pages[3]
    for number, text in enumerate(pages, 1):
        assert len(JAPANESE.findall(text)) > 30, f"page {number}: {text[:80]!r}"
        prose = text.replace(ATTRIBUTION, "")  # the art's licence, printed as its authors word it
        assert not re.search(r"\b(print|sheet|page|the)\b", prose, re.I), f"page {number}"
    label = "".join(japanese.pages[4].extract_text().split())
    assert "3枚目・表面：山札（8枚中1枚目）" in label  # the deck's Japanese name
    fonts = japanese.pages[0]["/Resources"]["/Font"].values()
    assert any("IPAex" in str(font.get_object()["/BaseFont"]) for font in fonts)
    assert japanese.trailer["/Root"]["/Lang"] == "ja"
    assert japanese.metadata.title == "グー・チョキ・パー・ファイア：プリント＆プレイ（US Letter）"
    assert english.trailer["/Root"]["/Lang"] == "en"
    assert english.metadata.title == "Rock, Paper, Scissors, Fire: print and play (US Letter)"


def _squashed(text: str) -> str:
    return "".join(text.split())


def test_the_cutting_notes_speak_only_of_the_pieces_the_game_has(pdfs, tmp_path: Path) -> None:
    """Page 1 says how to cut round pieces only for a game with round pieces (Gasha's bonus
    tokens), in each card language; every game has cards, and so the card stock note."""
    measure = Measure(ROOT / "build" / "fonts")
    pages = {}
    for game_id in GAME_IDS:
        game = load_rules(game_id)
        round_pieces = any(
            deck.shape.kind == "round" for deck in game_faces(game, TEMPLATES, PRESETS, measure)
        )
        pages[game_id, game.model.card_language(None)] = (round_pieces, pdfs[game_id, "a4"])
        for lang in game.model.languages[:2]:
            if (game_id, lang) not in pages and game_id in ("gasha", "gotcha"):
                path = tmp_path / f"{game_id}-{lang}.pdf"
                decks = game_faces(game, TEMPLATES, PRESETS, measure, lang)
                write_pnp(path, game, decks, PRESETS.sheets["a4"], measure, STRINGS)
                pages[game_id, lang] = (round_pieces, path)
    assert {lang for _, lang in pages} == {"en", "ja"}
    assert {game for (game, _), (round_pieces, _) in pages.items() if round_pieces} == {"gasha"}
    for (game_id, lang), (round_pieces, path) in pages.items():
        text = _squashed(PdfReader(path).pages[0].extract_text())
        assert _squashed(_heading("pnp_stock", lang)) in text, (game_id, lang)
        assert (_squashed(_heading("pnp_round", lang)) in text) == round_pieces, (game_id, lang)
        for other in ("en", "ja"):
            if other != lang:
                assert _squashed(_heading("pnp_round", other)) not in text


def test_every_instruction_string_is_given_in_every_card_language() -> None:
    languages = {lang for game_id in GAME_IDS for lang in load_rules(game_id).model.languages}
    keys = [key for key in STRINGS.data["ui"] if key.startswith("pnp_")]
    assert len(keys) > 20
    for key in keys:
        for lang in languages:
            assert STRINGS.lookup(("ui", key), lang), (key, lang)


def test_a_grid_that_does_not_fit_its_paper_is_a_located_error(tmp_path: Path) -> None:
    """Nine cards upright on A4 with their bleed, marks and the 5 mm margin: 213 mm > 210 mm."""
    text = (TEMPLATES.path("print.yaml")).read_text(encoding="utf-8")
    bad = text.replace("page: [297, 210]", "page: [210, 297]").replace(
        "poker: {columns: 4, rows: 2, gutter: 6}", "poker: {columns: 3, rows: 3, gutter: 6}"
    )
    assert bad != text
    file = tmp_path / "print.yaml"
    file.write_text(bad, encoding="utf-8")
    with pytest.raises(RulesError) as caught:
        load_presets(file)
    (problem,) = [p for p in caught.value.problems if "poker" in p.message]
    line = next(i for i, row in enumerate(bad.splitlines(), 1) if "columns: 3, rows: 3" in row)
    assert (problem.file, problem.line) == (file, line)
    assert "do not fit 210.0 x 297.0 mm" in problem.message


def test_the_back_offset_moves_backs_right_and_down_as_seen_on_the_backs_page(
    pdfs, tmp_path: Path
) -> None:
    game = load_rules("rps-fire")
    measure = Measure(ROOT / "build" / "fonts")
    decks = game_faces(game, TEMPLATES, PRESETS, measure)
    shifted = tmp_path / "shifted.pdf"
    write_pnp(shifted, game, decks, PRESETS.sheets["a4"], measure, STRINGS, back_offset=(1.5, -1.0))
    plain, moved = PdfReader(pdfs["rps-fire", "a4"]), PdfReader(shifted)
    assert placements(moved, 4) == placements(plain, 4), "fronts stay put"
    for before, after in zip(placements(plain, 5), placements(moved, 5), strict=True):
        assert after.left == pytest.approx(before.left + 1.5, abs=1e-3)
        assert after.top == pytest.approx(before.top - 1.0, abs=1e-3)
    back_side = moved.pages[3].extract_text()
    assert "(1.5,-1)" in back_side and "right" in back_side and "down" in back_side


@pytest.mark.parametrize("paper", PAPERS)
def test_the_alignment_back_has_a_millimetre_scale_on_both_axes(pdfs, paper: str) -> None:
    reader = PdfReader(pdfs["gasha", paper])
    text = reader.pages[3].extract_text()
    crosses = len(placements(reader, 4))  # one scale pair behind each card slot
    assert text.count("+10") == text.count("-10") == 2 * 8 and crosses == 8
    lines = _lines(reader, 3)
    ticks = [ln for ln in lines if abs(ln[0] - ln[2]) < 1e-6 and abs(ln[3] - ln[1]) <= 2.5]
    spacing = sorted({round(ln[0], 3) for ln in ticks})
    assert any(abs((b - a) - 1.0) < 1e-3 for a, b in pairwise(spacing))
    assert "--back-offset X,Y" in text


def test_letter_page_one_has_an_inch_ruler_beside_the_millimetre_one(pdfs) -> None:
    letter = PdfReader(pdfs["gasha", "letter"]).pages[0].extract_text()
    a4 = PdfReader(pdfs["gasha", "a4"]).pages[0].extract_text()
    assert "100 mm" in letter and "4 in" in letter
    assert "100 mm" in a4 and "4 in" not in a4


def test_build_help_says_what_the_back_offset_means() -> None:
    result = run_cli("build", "--help", env={"COLUMNS": "200"})
    assert result.code == 0
    help_text = " ".join(result.out.split())
    assert "X,Y mm" in help_text and "positive X moves it right" in help_text
    assert "positive Y down" in help_text
