"""The PDF rulebooks: one per game and language, fonts embedded, text inside the margins and
extractable, a contents page listing the sections, no page ending on a heading."""

from __future__ import annotations

import copy
import io
import re
from functools import cache

import pypdf
import pypdfium2
import pytest
from reportlab.lib.styles import ParagraphStyle

from gachapress.book import model as m
from gachapress.book.build import build_books
from gachapress.book.words import StringTable, source_templates_dir
from gachapress.data.load import load_rules
from gachapress.games import GAME_IDS
from gachapress.publish.book_pdf import (
    BOTTOM,
    MARGIN,
    BookPdf,
    Paragraph,
    Placed,
    _Document,
    _Frame,
)
from gachapress.render.faces import game_faces
from gachapress.render.fonts import cache_dir
from gachapress.render.metrics import Measure
from gachapress.render.presets import load_presets
from tests.conftest import ROOT
from tests.test_book_model import nodes

TEMPLATES = source_templates_dir()
BOOKS = [(g, lang) for g in GAME_IDS for lang in load_rules(g).model.languages]


@cache
def built(game_id: str, lang: str) -> tuple[m.Book, bytes, list[Placed]]:
    game = load_rules(game_id)
    measure = Measure(cache_dir(ROOT / "build"))
    decks = game_faces(game, TEMPLATES, load_presets(TEMPLATES / "print.yaml"), measure)
    faces = {f.key: f for d in decks for f in [*(face for face, _ in d.fronts), d.back]}
    book = build_books(game, StringTable.load(TEMPLATES))[lang]
    pdf, placed = BookPdf(book, measure.fonts, faces).render()
    return book, pdf, placed


def page_texts(pdf: bytes) -> list[str]:
    document = pypdfium2.PdfDocument(pdf)
    return [page.get_textpage().get_text_range() for page in document]


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize(("game_id", "lang"), BOOKS)
def test_every_font_is_embedded_and_none_is_type3(game_id: str, lang: str) -> None:
    _, pdf, _ = built(game_id, lang)
    reader = pypdf.PdfReader(io.BytesIO(pdf))
    fonts = {}
    for page in reader.pages:
        for ref in page["/Resources"].get("/Font", {}).values():
            font = ref.get_object()
            fonts[font["/BaseFont"]] = font
    assert fonts
    for name, font in fonts.items():
        assert font["/Subtype"] != "/Type3", name
        descriptor = font.get("/FontDescriptor")
        if descriptor is None:  # a composite font: its descendant holds the file
            descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
        descriptor = descriptor.get_object()
        assert any(k in descriptor for k in ("/FontFile", "/FontFile2", "/FontFile3")), name
    expected = {"IPAexGothic"} | ({"NotoSans-Regular", "NotoSans-Bold"} if lang == "en" else set())
    assert {str(n).split("+")[-1] for n in fonts} >= expected


@pytest.mark.parametrize(("game_id", "lang"), BOOKS)
def test_every_character_lies_inside_the_margins(game_id: str, lang: str) -> None:
    _, pdf, _ = built(game_id, lang)
    document = pypdfium2.PdfDocument(pdf)
    tolerance = 1.5  # points: a glyph's box may stand a hair outside its advance
    for number, page in enumerate(document, 1):
        width, height = page.get_size()
        text = page.get_textpage()
        for i in range(text.count_chars()):
            left, bottom, right, top = text.get_charbox(i)
            if right - left == 0 or top - bottom < 3:
                continue  # a space, a line break, or the tiny text of a card's picture
            where = f"page {number}, {text.get_text_range(i, 1)!r}"
            assert left >= MARGIN - tolerance and right <= width - MARGIN + tolerance, where
            assert bottom >= BOTTOM / 2 - 4 and top <= height - MARGIN + tolerance, where


@pytest.mark.parametrize(("game_id", "lang"), BOOKS)
def test_the_text_is_extractable_and_the_contents_list_the_sections(
    game_id: str, lang: str
) -> None:
    book, pdf, placed = built(game_id, lang)
    pages = page_texts(pdf)
    whole = squash("".join(pages))
    overview = next(s for s in book.sections if isinstance(s, m.OverviewSection))
    sentence = "".join(n.text for n in overview.blocks[0].items[0] if isinstance(n, m.Text))
    assert squash(sentence[:60]) in whole
    contents = squash(pages[0] + pages[1])
    for section in book.sections:
        assert squash(section.title) in contents, section.title
    assert len(pages) == max(p.page for p in placed)
    assert len(pages) > 10
    outline = {item.get_title() for item in pypdfium2.PdfDocument(pdf).get_toc()}
    assert {s.title for s in book.sections} <= outline


@pytest.mark.parametrize(("game_id", "lang"), BOOKS)
def test_no_page_ends_on_a_heading(game_id: str, lang: str) -> None:
    _, _, placed = built(game_id, lang)
    last_on_page: dict[int, Placed] = {}
    for item in placed:
        last_on_page[item.page] = item
    assert sum(p.heading for p in placed) > 10
    assert not [page for page, item in last_on_page.items() if item.heading]


def test_an_example_shows_its_cards_and_the_verified_mark() -> None:
    book, pdf, _ = built("rps-fire", "en")
    text = squash("".join(page_texts(pdf)))
    assert squash("✓ Checked by the rules engine. · a rule of the original rules") in text
    assert squash("the answer follows a clarification") in text
    document = pypdf.PdfReader(io.BytesIO(pdf))
    forms = {
        name
        for page in document.pages
        for name in page["/Resources"].get("/XObject", {})
        if "face" in name
    }
    assert len(forms) >= len({c.card_id for c in _pictures(book)}) > 20


def _pictures(book: m.Book) -> list[m.CardPicture]:
    return [n for n in nodes(book) if isinstance(n, m.CardPicture)]


def test_japanese_book_text_is_japanese() -> None:
    book, pdf, _ = built("gotcha", "ja")
    text = squash("".join(page_texts(pdf)))
    assert squash(book.title) in text
    assert squash(book.ui["engine_agrees"]) in text
    assert re.search(r"[\u3040-\u30ff]{10}", text)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_the_quick_layout_passes_make_the_bytes_of_platypus_multibuild(lang: str) -> None:
    """The book is laid out in passes that draw nothing and from lines broken once per width;
    the PDF is the one platypus's own multiBuild makes, byte for byte."""
    game = load_rules("gachapon-trick")
    measure = Measure(cache_dir(ROOT / "build"))
    decks = game_faces(game, TEMPLATES, load_presets(TEMPLATES / "print.yaml"), measure)
    faces = {f.key: f for d in decks for f in [*(face for face, _ in d.fronts), d.back]}
    book = build_books(game, StringTable.load(TEMPLATES))[lang]
    quick = BookPdf(book, measure.fonts, faces)
    reference = BookPdf(book, measure.fonts, faces)
    target = io.BytesIO()
    document = _Document(target, book, reference.size, reference.font)
    document.multiBuild(reference.story())
    assert quick.render()[0] == target.getvalue()


def test_a_split_paragraph_breaks_its_lines_as_a_fresh_one() -> None:
    """Platypus's split adds a space to the last word of each line it keeps; lines kept from
    an earlier wrap must not carry it into the next one."""
    style = ParagraphStyle("ja", fontName="Helvetica", fontSize=9, leading=12, wordWrap="CJK")
    text = "あいうえお<b>かきくけこ</b>" * 12  # two fonts: lines of words
    paragraph = Paragraph(text, style)
    paragraph.wrap(100, 1000)
    paragraph.split(100, 40)
    paragraph.wrap(100, 1000)
    fresh = Paragraph(text, style)
    fresh.wrap(100, 1000)
    assert _line_texts(paragraph) == _line_texts(fresh)


def _line_texts(paragraph: Paragraph) -> list[str]:
    return ["".join(word.text for word in line.words) for line in paragraph.blPara.lines]


def test_a_copied_frame_shares_nothing_that_can_change() -> None:
    """Platypus measures lists on a deep copy of the frame: the quick copy must not let the
    copy's frame backgrounds (its one list) reach the frame itself."""
    frame = _Frame(0, 0, 100, 100)
    frame._frameBGs = []
    twin = copy.deepcopy(frame)
    twin._frameBGs.append("background")
    assert frame._frameBGs == [] and twin._x1 == frame._x1
