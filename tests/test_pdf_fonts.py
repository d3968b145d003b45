"""The PDF writer's fonts: text encoded as glyph ids of the original fonts, embedded as Type0 /
CIDFontType2 subsets that keep every glyph at its id (render/pdffonts.py), read back by poppler,
pypdf and fontTools."""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path

import numpy as np
import pypdf
import pytest
from fontTools.pens.recordingPen import DecomposingRecordingPen
from fontTools.ttLib import TTFont
from PIL import Image

from gachapress.render import pdffonts
from gachapress.render.fonts import FontFile, font_files, user_cache_dir
from gachapress.render.outline import set_glyphs
from gachapress.render.pdffonts import add_font, glyph_ids, show, width
from gachapress.render.pdfobjects import Name, PdfWriter, flate

#: One line a font: (role, text), set at SIZE points, the first baseline at TOP, LEAD apart.
LINES = (
    ("regular", "Café: ×3 — draw 2!"),
    ("bold", "Bold Élan, ½ off"),
    ("ja", "山札から1枚引く"),
)
SIZE, LEFT, TOP, LEAD = 24, 72, 700, 60
PAGE = (612, 792)
DPI = 30


@pytest.fixture(scope="module")
def fonts(tmp_path_factory: pytest.TempPathFactory) -> dict[str, FontFile]:
    return font_files(user_cache_dir() or tmp_path_factory.mktemp("fonts"))


def _line(number: int, role: str, gids: tuple[int, ...]) -> bytes:
    """The content stream of line ``number`` (from 0), in the font named ``role``."""
    baseline = TOP - LEAD * number
    return b"BT /%s %d Tf %d %d Td %s Tj ET\n" % (
        role.encode(),
        SIZE,
        LEFT,
        baseline,
        show(gids),
    )


def _document(fonts: dict[str, FontFile], lines: tuple[tuple[str, str], ...] = LINES) -> bytes:
    """A one-page PDF: one content stream a line, each font (named by its role) embedded with
    the glyphs of all its lines."""
    writer = PdfWriter()
    runs = [(role, glyph_ids(fonts[role].path, text)) for role, text in lines]
    used: dict[str, set[int]] = {}
    for role, gids in runs:
        used.setdefault(role, set()).update(gids)
    font_refs = {role: add_font(writer, fonts[role].path, gids) for role, gids in used.items()}
    contents = [writer.add(flate({}, _line(n, *run))) for n, run in enumerate(runs)]
    pages = writer.reserve()
    page = writer.add(
        {
            "Type": Name("Page"),
            "Parent": pages,
            "MediaBox": [0, 0, *PAGE],
            "Contents": contents,
            "Resources": {"Font": font_refs},
        }
    )
    writer.set(pages, {"Type": Name("Pages"), "Kids": [page], "Count": 1})
    root = writer.add({"Type": Name("Catalog"), "Pages": pages})
    out = io.BytesIO()
    writer.write(out, root=root)
    return out.getvalue()


def _saved(pdf: bytes, folder: Path) -> Path:
    path = folder / "fonts.pdf"
    path.write_bytes(pdf)
    return path


def _page_fonts(pdf: bytes) -> dict[str, pypdf.generic.DictionaryObject]:
    """The Type0 fonts of the page by resource name, read by pypdf's strict reader."""
    page = pypdf.PdfReader(io.BytesIO(pdf), strict=True).pages[0]
    return {key[1:]: font.get_object() for key, font in page["/Resources"]["/Font"].items()}


def _embedded(font: pypdf.generic.DictionaryObject) -> TTFont:
    descriptor = font["/DescendantFonts"][0].get_object()["/FontDescriptor"]
    return TTFont(io.BytesIO(descriptor["/FontFile2"].get_object().get_data()))


def _run(*args: str) -> str:
    return subprocess.run(args, check=True, capture_output=True, text=True).stdout


def test_glyph_ids_are_the_glyphs_set_glyphs_sets(fonts: dict[str, FontFile]) -> None:
    for role, text in LINES:
        path = fonts[role].path
        order = TTFont(path, lazy=True).getGlyphOrder()
        names = [order[gid] for gid in glyph_ids(path, text)]
        assert names == [name for name, _ in set_glyphs(path, text)]
    assert glyph_ids(fonts["regular"].path, "a山")[1] == 0  # no kanji in Noto: .notdef
    assert show((0x24, 0x35, 0x3A0F)) == b"<002400353A0F>"


def test_text_reads_back_as_written(fonts: dict[str, FontFile], tmp_path: Path) -> None:
    pdf = _document(fonts)
    lines = [
        line.strip() for line in _run("pdftotext", str(_saved(pdf, tmp_path)), "-").split("\n")
    ]
    assert [line for line in lines if line] == [text for _, text in LINES]
    page = pypdf.PdfReader(io.BytesIO(pdf), strict=True).pages[0]
    assert page.extract_text().split("\n") == [text for _, text in LINES]


def test_poppler_lists_each_font_as_an_embedded_cid_truetype_subset(
    fonts: dict[str, FontFile], tmp_path: Path
) -> None:
    head, rule, *rows = _run("pdffonts", str(_saved(_document(fonts), tmp_path))).splitlines()
    spans = [match.span() for match in re.finditer(r"-+", rule)]
    listed = [[row[start:end].strip() for start, end in spans[:6]] for row in rows]
    assert [column.strip() for column in head.split()[:6]] == [
        "name",
        "type",
        "encoding",
        "emb",
        "sub",
        "uni",
    ]
    postscript = ("NotoSans-Regular", "NotoSans-Bold", "IPAexGothic")
    assert len(listed) == len(postscript)
    for (name, *kind), font_name in zip(listed, postscript, strict=True):
        assert re.fullmatch(rf"[A-Z]{{6}}\+{font_name}", name)
        assert kind == ["CID TrueType", "Identity-H", "yes", "yes", "yes"]


def _closure(font: TTFont, gids: set[int]) -> set[int]:
    """``gids`` with the components of their composite glyphs, all the way down."""
    glyf, order = font["glyf"], font.getGlyphOrder()
    todo, seen = list(gids), set(gids)
    while todo:
        glyph = glyf[order[todo.pop()]]
        for component in glyph.getComponentNames(glyf) if glyph.isComposite() else ():
            gid = font.getGlyphID(component)
            if gid not in seen:
                seen.add(gid)
                todo.append(gid)
    return seen


def _drawn(font: TTFont, gid: int) -> list:
    pen = DecomposingRecordingPen(font.getGlyphSet())
    font.getGlyphSet()[font.getGlyphOrder()[gid]].draw(pen)
    return pen.value


def test_the_subset_holds_exactly_the_used_glyphs_at_their_ids(
    fonts: dict[str, FontFile],
) -> None:
    embedded = _page_fonts(_document(fonts))
    for role, text in LINES:
        original = TTFont(fonts[role].path)
        subset = _embedded(embedded[role])
        used = set(glyph_ids(fonts[role].path, text))
        for gid in used | {0}:
            assert _drawn(subset, gid) == _drawn(original, gid), (role, gid)
            assert (
                subset["hmtx"][subset.getGlyphOrder()[gid]][0]
                == original["hmtx"][original.getGlyphOrder()[gid]][0]
            )
        kept = _closure(original, used | {0})
        outlined = {gid for gid in range(len(subset.getGlyphOrder())) if _drawn(subset, gid)}
        assert outlined == {gid for gid in kept if _drawn(original, gid)}, role


def test_a_growing_glyph_set_leaves_earlier_text_as_it_was(
    fonts: dict[str, FontFile], tmp_path: Path
) -> None:
    few = _document(fonts, LINES[:1])
    more = _document(fonts, (LINES[0], ("regular", "Zebras quickly jump over wax!")))
    streams = [
        pypdf.PdfReader(io.BytesIO(pdf), strict=True).pages[0]["/Contents"][0].get_object()
        for pdf in (few, more)
    ]
    assert streams[0].get_data() == streams[1].get_data()
    first, second = _page_fonts(few)["regular"], _page_fonts(more)["regular"]
    assert first["/BaseFont"] != second["/BaseFont"]  # another subset, another name
    gids = glyph_ids(fonts["regular"].path, LINES[0][1])
    for gid in gids:
        assert _drawn(_embedded(first), gid) == _drawn(_embedded(second), gid)
    assert _run("pdftotext", str(_saved(more, tmp_path)), "-").split() == (
        ["Café:", "×3", "—", "draw", "2!", "Zebras", "quickly", "jump", "over", "wax!"]
    )


def test_the_same_fonts_and_text_give_the_same_bytes(
    fonts: dict[str, FontFile], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    documents = []
    for cache in ("one", "two", "one"):  # made, made again elsewhere, then read from the cache
        monkeypatch.setenv("GACHAPRESS_CACHE_DIR", str(tmp_path / cache))
        pdffonts._subset.cache_clear()
        documents.append(_document(fonts))
    assert documents[0] == documents[1] == documents[2]
    assert list((tmp_path / "one" / "fonts" / "subsets").iterdir())


def test_widths_are_the_fonts_advances(fonts: dict[str, FontFile]) -> None:
    embedded = _page_fonts(_document(fonts))
    for role, text in LINES:
        original = TTFont(fonts[role].path, lazy=True)
        scale = 1000 / original["head"].unitsPerEm
        cid_font = embedded[role]["/DescendantFonts"][0].get_object()
        listed = _listed_widths(cid_font["/W"])
        gids = glyph_ids(fonts[role].path, text)
        for gid in gids:
            advance = original["hmtx"][original.getGlyphOrder()[gid]][0] * scale
            assert float(listed.get(gid, cid_font["/DW"])) == pytest.approx(advance, abs=1e-4)
        assert width(fonts[role].path, gids) == pytest.approx(
            sum(original["hmtx"][name][0] for name, _ in set_glyphs(fonts[role].path, text)) * scale
        )


def _listed_widths(entries: list) -> dict[int, float]:
    """``/W``'s entries by glyph id, from both of its forms: ``c [w ...]`` and ``c1 c2 w``."""
    out: dict[int, float] = {}
    at = 0
    while at < len(entries):
        first = int(entries[at])
        if isinstance(entries[at + 1], list):
            out.update((first + k, float(w)) for k, w in enumerate(entries[at + 1]))
            at += 2
        else:
            out.update(
                (gid, float(entries[at + 2])) for gid in range(first, int(entries[at + 1]) + 1)
            )
            at += 3
    return out


def test_the_page_shows_each_line_where_its_widths_put_it(
    fonts: dict[str, FontFile], tmp_path: Path
) -> None:
    pdf = _saved(_document(fonts), tmp_path)
    subprocess.run(
        [
            "pdftoppm",
            "-r",
            str(DPI),
            "-gray",
            "-png",
            "-singlefile",
            str(pdf),
            str(tmp_path / "page"),
        ],
        check=True,
    )
    ink = np.asarray(Image.open(tmp_path / "page.png").convert("L")) < 160
    assert ink.shape == (PAGE[1] * DPI // 72, PAGE[0] * DPI // 72)
    px = DPI / 72
    unclaimed = ink.copy()
    for n, (role, text) in enumerate(LINES):
        path = fonts[role].path
        gids = glyph_ids(path, text)
        glyf = TTFont(path, lazy=True)
        order, units = glyf.getGlyphOrder(), glyf["head"].unitsPerEm
        first, last = glyf["glyf"][order[gids[0]]], glyf["glyf"][order[gids[-1]]]
        # The ink runs from the first glyph's left edge to the last glyph's right edge, the
        # last one placed by the widths of all before it.
        left = LEFT + first.xMin * SIZE / units
        right = LEFT + (width(path, gids[:-1]) / 1000 + last.xMax / units) * SIZE
        baseline = PAGE[1] - (TOP - LEAD * n)
        rows = slice(round((baseline - SIZE) * px), round((baseline + SIZE * 0.35) * px))
        columns = np.flatnonzero(ink[rows].any(axis=0))
        assert columns.size, text
        assert abs(columns[0] - left * px) <= 1.5, (text, columns[0], left * px)
        assert abs(columns[-1] + 1 - right * px) <= 1.5, (text, columns[-1] + 1, right * px)
        unclaimed[rows] = False
    assert not unclaimed.any()  # no ink but the lines'
