"""The PDF rulebooks: one per game, language and page size, fonts embedded, text inside the
margins and extractable, a contents page listing the sections, no page ending on a heading; the
A5 booklet's pages a multiple of four, the home printer's A4 and Letter books laid out at their
size with margins a home printer reaches.

Every book is laid out in A5; A4 and Letter, which share the code and differ by their page setup,
for a few books in both languages (each layout costs a second or two)."""

from __future__ import annotations

import copy
import io
import re
from functools import cache
from typing import Any

import pypdf
import pypdfium2
import pypdfium2.raw as pdfium_c
import pytest
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.platypus import Paragraph as PlatypusParagraph
from reportlab.platypus.paraparser import ParaParser

from gachapress.book import model as m
from gachapress.book.build import build_books
from gachapress.book.words import StringTable
from gachapress.data.load import load_rules
from gachapress.publish.book_pdf import PAGE_SETUPS, BookPdf, Paragraph, Placed, _Frame
from gachapress.publish.booklet import FIXED_DATE, PAPERS, booklet_order, impose_booklet
from gachapress.render.faces import game_faces
from gachapress.render.fonts import cache_dir
from gachapress.render.metrics import Measure
from gachapress.render.presets import load_presets
from tests.conftest import GAME_IDS, ROOT, TEMPLATES
from tests.test_book_model import nodes

LANGUAGES = [(g, lang) for g in GAME_IDS for lang in load_rules(g).model.languages]
#: The books laid out on a home printer's paper too.
HOME_BOOKS = {
    "a4": [("gotcha", "ja"), ("gasha", "en")],
    "letter": [("gachapon-trick", "en"), ("gotchacards", "ja")],
}
BOOKS = [(g, lang, "a5") for g, lang in LANGUAGES] + [
    (g, lang, size) for size, books in HOME_BOOKS.items() for g, lang in books
]
#: A home printer leaves the outer 4 to 5 mm of a sheet blank.
HOME_PRINTER_MARGIN = 10 * mm


@cache
def built(game_id: str, lang: str, size: str = "a5") -> tuple[m.Book, bytes, list[Placed]]:
    game = load_rules(game_id)
    measure = Measure(cache_dir(ROOT / "build"))
    decks = game_faces(game, TEMPLATES, load_presets(TEMPLATES.path("print.yaml")), measure)
    faces = {f.key: f for d in decks for f in [*(face for face, _ in d.fronts), d.back]}
    book = build_books(game, StringTable.load(TEMPLATES))[lang]
    pdf, placed = BookPdf(book, measure.fonts, faces, size).render()
    return book, pdf, placed


def page_texts(pdf: bytes) -> list[str]:
    document = pypdfium2.PdfDocument(pdf)
    return [page.get_textpage().get_text_range() for page in document]


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


@pytest.mark.parametrize(("game_id", "lang", "size"), BOOKS)
def test_every_font_is_embedded_and_none_is_type3(game_id: str, lang: str, size: str) -> None:
    _, pdf, _ = built(game_id, lang, size)
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


@pytest.mark.parametrize(("game_id", "lang", "size"), BOOKS)
def test_every_character_lies_inside_the_margins(game_id: str, lang: str, size: str) -> None:
    _, pdf, _ = built(game_id, lang, size)
    setup = PAGE_SETUPS[size]
    document = pypdfium2.PdfDocument(pdf)
    tolerance = 1.5  # points: a glyph's box may stand a hair outside its advance
    for number, page in enumerate(document, 1):
        width, height = page.get_size()
        assert (width, height) == pytest.approx(setup.size)
        text = page.get_textpage()
        for i in range(text.count_chars()):
            left, bottom, right, top = text.get_charbox(i)
            if right - left == 0 or top - bottom < 3:
                continue  # a space, a line break, or the tiny text of a card's picture
            where = f"page {number}, {text.get_text_range(i, 1)!r}"
            margin = setup.margin
            assert left >= margin - tolerance and right <= width - margin + tolerance, where
            assert bottom >= setup.bottom / 2 - 4 and top <= height - setup.top + tolerance, where
            if size != "a5":  # the page number too
                assert bottom >= HOME_PRINTER_MARGIN, where


@pytest.mark.parametrize(("game_id", "lang", "size"), BOOKS)
def test_the_text_is_extractable_and_the_contents_list_the_sections(
    game_id: str, lang: str, size: str
) -> None:
    book, pdf, placed = built(game_id, lang, size)
    pages = page_texts(pdf)
    whole = squash("".join(pages))
    overview = next(s for s in book.sections if isinstance(s, m.OverviewSection))
    sentence = "".join(n.text for n in overview.blocks[0].items[0] if isinstance(n, m.Text))
    assert squash(sentence[:60]) in whole
    contents = squash(pages[0] + pages[1])
    for section in book.sections:
        assert squash(section.title) in contents, section.title
    assert len(pages) - 3 <= max(p.page for p in placed) <= len(pages)  # notes pages pad A5
    assert len(pages) > 10
    outline = {item.get_title() for item in pypdfium2.PdfDocument(pdf).get_toc()}
    assert {s.title for s in book.sections} <= outline


@pytest.mark.parametrize(("game_id", "lang", "size"), BOOKS[::3])
def test_the_contents_give_each_heading_its_page(game_id: str, lang: str, size: str) -> None:
    """The contents are laid out before their page numbers are known (one pass): each number
    is the page its heading went to, as the PDF's outline says."""
    _, pdf, _ = built(game_id, lang, size)
    document = pypdfium2.PdfDocument(pdf)
    pages: dict[str, set[int]] = {}
    for item in document.get_toc():
        pages.setdefault(squash(item.get_title()), set()).add(item.get_dest().get_index() + 1)
    lines = [line.strip() for p in page_texts(pdf)[:2] for line in p.splitlines()]
    entries = [
        (lines[i - 1], int(found.group(1)))
        for i, line in enumerate(lines)
        if (found := re.fullmatch(r"[ .]*\.[ .]*(\d+)", line))
    ]
    assert len(entries) >= 8
    for tail, number in entries:  # a long title wraps: its last line ends it
        assert any(t.endswith(squash(tail)) and number in p for t, p in pages.items()), tail


@pytest.mark.parametrize(("game_id", "lang", "size"), BOOKS)
def test_no_page_ends_on_a_heading(game_id: str, lang: str, size: str) -> None:
    _, _, placed = built(game_id, lang, size)
    last_on_page: dict[int, Placed] = {}
    for item in placed:
        last_on_page[item.page] = item
    assert sum(p.heading for p in placed) > 10
    assert not [page for page, item in last_on_page.items() if item.heading]


def test_an_example_shows_its_cards_and_the_verified_mark() -> None:
    book, pdf, _ = built("rps-fire", "en")
    text = squash("".join(page_texts(pdf)))
    assert squash("✓ Checked. · a rule of the original rules") in text
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


@pytest.mark.parametrize(("game_id", "lang"), LANGUAGES)
def test_the_credits_are_not_split_over_two_pages(game_id: str, lang: str) -> None:
    """A last page with two stray lines of credits is a nearly empty page: they go together."""
    book, pdf, _ = built(game_id, lang)
    credits = next(s for s in book.sections if s.id == "credits")
    pages = [squash(text) for text in page_texts(pdf)]
    first = next(i for i, text in enumerate(pages) if squash(credits.based_on) in text)
    assert squash(credits.generated)[:40] in pages[first]


@pytest.mark.parametrize(("game_id", "lang"), LANGUAGES)
def test_the_a5_booklet_pads_its_pages_to_a_multiple_of_four_with_notes_pages(
    game_id: str, lang: str
) -> None:
    """A print shop folds and staples A5 booklets from sheets of four pages."""
    book, pdf, placed = built(game_id, lang)
    pages = page_texts(pdf)
    last = max(p.page for p in placed)
    assert len(pages) % 4 == 0
    assert len(pages) - last == -last % 4  # no more pages than that takes
    for number in range(last + 1, len(pages) + 1):  # a notes page: its heading and number
        assert squash(pages[number - 1]) == squash(book.ui["notes"] + str(number))


@pytest.mark.parametrize(("game_id", "lang", "size"), [b for b in BOOKS if b[2] != "a5"])
def test_home_printer_books_have_no_notes_pages(game_id: str, lang: str, size: str) -> None:
    _, pdf, placed = built(game_id, lang, size)
    assert len(page_texts(pdf)) == max(p.page for p in placed)


@pytest.mark.parametrize("size", list(HOME_BOOKS))
def test_home_printer_books_are_laid_out_at_their_size_not_scaled_from_a5(size: str) -> None:
    """The A4 and Letter books set their larger type across their wider page: fewer pages
    than the A5 book, and text that reaches across the page."""
    game_id, lang = HOME_BOOKS[size][0]
    _, a5, a5_placed = built(game_id, lang)
    _, home, home_placed = built(game_id, lang, size)
    assert max(p.page for p in home_placed) < 0.9 * max(p.page for p in a5_placed)
    assert _body_size(home) > 1.1 * _body_size(a5)
    width = PAGE_SETUPS[size].size[0] - 2 * PAGE_SETUPS[size].margin
    assert _widest_line(home) > 0.9 * width


def _body_size(pdf: bytes) -> float:
    """The most common font size of the book's characters (its body text), in points."""
    sizes = []
    for page in pypdfium2.PdfDocument(pdf):
        text = page.get_textpage()
        sizes += [
            round(pdfium_c.FPDFText_GetFontSize(text.raw, i), 1) for i in range(text.count_chars())
        ]
    return max(set(sizes), key=sizes.count)


def _widest_line(pdf: bytes) -> float:
    """The width of the book's widest line of text, in points."""
    widest = 0.0
    for page in pypdfium2.PdfDocument(pdf):
        text = page.get_textpage()
        lines: dict[int, list[float]] = {}
        for left, bottom, right, _ in map(text.get_charbox, range(text.count_chars())):
            if right > left:
                lines.setdefault(round(bottom), []).extend((left, right))
        widest = max([widest, *(max(xs) - min(xs) for xs in lines.values())])
    return widest


def test_booklet_order_is_saddle_stitch_order() -> None:
    assert booklet_order(8) == [(8, 1), (2, 7), (6, 3), (4, 5)]
    assert booklet_order(4) == [(4, 1), (2, 3)]
    with pytest.raises(ValueError, match="multiple of 4"):
        booklet_order(6)


@pytest.mark.parametrize("paper", list(PAPERS))
def test_the_imposed_booklet_puts_the_a5_pages_two_a_side_in_saddle_stitch_order(
    paper: str,
) -> None:
    """Sheet 1's front is pages n and 1, its back 2 and n-1, ...: each half of each side holds
    the A5 page that order names, whole (its text, its page number)."""
    _, a5, _ = built("gachapon-trick", "en")
    pages = page_texts(a5)
    n = len(pages)
    imposed = pypdfium2.PdfDocument(impose_booklet(a5, paper))
    assert len(imposed) == n // 2
    for side, halves in zip(imposed, booklet_order(n), strict=True):
        width, height = side.get_size()
        assert (width, height) == pytest.approx(PAPERS[paper])
        text = side.get_textpage()
        for half, number in enumerate(halves):
            found = text.get_text_bounded(width / 2 * half, 0, width / 2 * (half + 1), height)
            assert squash(found) == squash(pages[number - 1]), (paper, halves)
    # the same bytes every time: no clock time (PDFium writes the time of the save) and an ID
    # made from the content
    assert impose_booklet(a5, paper) == impose_booklet(a5, paper)
    assert b"/CreationDate(D:" + FIXED_DATE in impose_booklet(a5, paper)


@pytest.mark.parametrize(
    ("game_id", "lang", "paper"), [("gotcha", "ja", "a4"), ("gasha", "en", "letter")]
)
def test_the_imposed_booklet_carries_the_books_title_author_subject_and_language(
    game_id: str, lang: str, paper: str
) -> None:
    book, a5, _ = built(game_id, lang)
    imposed = impose_booklet(a5, paper)
    assert imposed == impose_booklet(a5, paper)
    booklet, original = pypdf.PdfReader(io.BytesIO(imposed)), pypdf.PdfReader(io.BytesIO(a5))
    info = booklet.metadata
    assert info.title == original.metadata.title == book.title
    assert info.author == original.metadata.author == book.author == "the gachapress project"
    assert info.creator == "gachapress"
    assert info.subject == original.metadata.subject and info.subject
    assert info.creation_date == original.metadata.creation_date  # the book's fixed date
    assert booklet.trailer["/Root"]["/Lang"] == lang
    document = pypdfium2.PdfDocument(imposed)  # PDFium reads the update too
    assert document.get_metadata_dict()["Title"] == book.title
    assert len(document) == len(pypdfium2.PdfDocument(a5)) // 2


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


def test_a_text_set_again_in_the_same_type_is_parsed_once_and_shares_no_fragment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The A4 and the Letter book set the same paragraphs in the same type: the second is
    made from the first one's parse, as if parsed afresh, and what a layout does to one
    paragraph's fragments (a split edits them) never reaches another."""
    parses = []
    original = ParaParser.parse

    def parse(self: ParaParser, text: str, style: ParagraphStyle) -> Any:
        parses.append(text)
        return original(self, text, style)

    monkeypatch.setattr(ParaParser, "parse", parse)
    text = "あいうえお<b>かきくけこ</b> parsed once" * 6

    def style() -> ParagraphStyle:  # each page size makes its own styles
        return ParagraphStyle("ja", fontName="Helvetica", fontSize=9, leading=12, wordWrap="CJK")

    first = Paragraph(text, style())
    first.wrap(100, 1000)
    first.split(100, 40)
    for fragment in first.frags:
        fragment.text += "!"
    second = Paragraph(text, style())
    assert len(parses) == 1
    fresh = PlatypusParagraph(text, style())
    assert [(f.text, f.fontName) for f in second.frags] == [
        (f.text, f.fontName) for f in fresh.frags
    ]
    second.wrap(100, 1000)
    fresh.wrap(100, 1000)
    assert _line_texts(second) == _line_texts(fresh)
    parses.clear()
    Paragraph(text, ParagraphStyle("larger", parent=style(), fontSize=10))
    assert len(parses) == 1  # another type: parsed for it


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


def test_a_japanese_pdf_counts_cards_and_lists_with_its_own_punctuation() -> None:
    """Read on the Gachapon Trick ja PDF: "49 おもちゃカード", "(（別途用意）)" and card lists
    joined by an ASCII ", " (the HTML had 「、」)."""
    _, pdf, _ = built("gachapon-trick", "ja")
    text = "".join(page_texts(pdf))
    assert "49枚" in text
    assert "(（" not in text and "）)" not in text
    assert not re.search(r"¥\d+, #\d", text), "a card list joined by an English comma"


def test_an_english_pdf_brackets_a_note_once() -> None:
    _, pdf, _ = built("rps-fire", "en")
    assert "((not included))" not in "".join(page_texts(pdf))


def test_a_japanese_table_column_is_as_wide_as_its_longest_number() -> None:
    """The A5 setup table broke "¥8,000" into "¥8,00" and "0": a Japanese column may break
    between any two kanji, not inside a number."""
    _, pdf, _ = built("gachapon-trick", "ja")
    text = "".join(page_texts(pdf))
    assert "¥8,000" in text
    assert not re.search(r"¥8,00\s+0", text)


def test_a_japanese_table_keeps_short_headings_and_markers_whole() -> None:
    """Read on the GotchaCards ja Letter book: the deck table's heading 枚数 stood as 枚/数
    and "ワイルドカード [上級]" broke after its bracket."""
    _, pdf, _ = built("gotchacards", "ja", "letter")
    text = "".join(page_texts(pdf))
    assert "［上級］" in text and "[上級" not in text
    assert not re.search(r"枚\s+数", text)


def test_a_value_per_player_starts_below_its_label() -> None:
    """ "脱落した人：プレイヤー1：いいえ" read as one pair: the rows start on their own line."""
    _, pdf, _ = built("gachapon-trick", "ja")
    text = "".join(page_texts(pdf))
    assert re.search(r"脱落した人：\s*\r?\n\s*プレイヤー1：いいえ", text)
    assert "脱落した人：プレイヤー1" not in text


def test_a_table_too_wide_for_its_words_gets_smaller_type() -> None:
    """The A5 deck table of Gachapon Trick (ja) broke every name ("ロボッ/ト", "覆面ネ/コ"):
    its type shrinks until its longest words fit side by side."""
    _, pdf, _ = built("gachapon-trick", "ja")
    text = "".join(page_texts(pdf))
    assert not re.search(r"ロボッ\s+ト|覆面ネ\s+コ", text)


@pytest.mark.parametrize(("game_id", "lang", "size"), BOOKS)
def test_a_colour_swatch_stays_on_the_line_of_its_colour(
    game_id: str, lang: str, size: str
) -> None:
    """A swatch is drawn in the Japanese font, wider than the text font's square: its column is
    measured with it, so that "■ Yellow" is not broken after the square."""
    _, pdf, _ = built(game_id, lang, size)
    for number, text in enumerate(page_texts(pdf), 1):
        assert not re.search(r"■[ \t]*(\r?\n|$)", text), f"page {number}: a swatch ends a line"


@pytest.mark.parametrize("size", list(HOME_BOOKS))
def test_a_wide_page_sets_the_worked_examples_two_abreast(size: str) -> None:
    """On A4 and Letter the examples fill the page's width, not one narrow column of it."""
    game_id, lang = HOME_BOOKS[size][1 if size == "a4" else 0]
    book, pdf, _ = built(game_id, lang, size)
    mark = book.ui["engine_agrees"]
    middle = PAGE_SETUPS[size].size[0] / 2
    lefts = []
    for page in pypdfium2.PdfDocument(pdf):
        text = page.get_textpage()
        searcher = text.search(mark)
        while (found := searcher.get_next()) is not None:
            lefts.append(text.get_charbox(found[0])[0])
    right = sum(left > middle for left in lefts)
    assert len(lefts) >= 6 and right >= len(lefts) // 3, (right, len(lefts))


@pytest.mark.parametrize(
    ("game_id", "lang", "size"),
    [("rps-fire", "ja", size) for size in ("a5", "a4", "letter")]
    + [("rps-fire", "en", "a5"), ("gasha", "en", "a5"), ("gasha", "ja", "a5")],
)
def test_a_cards_count_is_never_alone_on_a_line(game_id: str, lang: str, size: str) -> None:
    """A card's count ("×3") stays on its caption's last line, whole: RPS-Fire's Japanese book
    left the ×3 of 火災報知器（両隣） alone under its name."""
    _, pdf, _ = built(game_id, lang, size)
    lines = [line.strip() for page in page_texts(pdf) for line in page.splitlines()]
    assert [line for line in lines if re.search(r"\S ×\d+$", line)], "no card count read"
    assert [line for line in lines if re.fullmatch(r"×\s*\d*", line)] == []
