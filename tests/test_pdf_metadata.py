"""What the PDFs say about themselves, read back as a preflight or a reader's document
properties do: the print-shop files of every example game are PDF/X-1a:2001, and every PDF
names its title, the project's author, a subject, its language and gachapress as creator."""

from __future__ import annotations

import io
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from gachapress.book.build import build_books
from gachapress.book.words import StringTable
from gachapress.data.load import load_rules
from gachapress.data.project_file import load_project
from gachapress.publish.book_pdf import BookPdf
from gachapress.publish.pnp import write_pnp
from gachapress.render.faces import game_faces
from gachapress.render.metrics import Measure
from gachapress.render.presets import load_presets
from tests.conftest import ROOT, TEMPLATES, run_cli

GAMES = ("gotchacards", "gachapon-trick", "gotcha", "rps-fire", "gasha")
AUTHOR = load_project(ROOT).author("en")
PRESETS = load_presets(TEMPLATES.path("print.yaml"))
STRINGS = StringTable.load(TEMPLATES)
PDF_DATE = re.compile(r"D:\d{14}(Z|[+-]\d\d'\d\d'?)$")


@pytest.fixture(scope="module")
def dtc(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Every example game's DriveThruCards PDFs."""
    out = tmp_path_factory.mktemp("dtc") / "out"
    run = run_cli("export", *GAMES, "--to", "dtc", "--out", str(out))
    assert run.code == 0, run.err
    pdfs = sorted(out.glob("*/export/dtc/*.pdf"))
    assert {pdf.parts[-4] for pdf in pdfs} == set(GAMES)
    return pdfs


def test_the_example_project_names_its_author() -> None:
    assert AUTHOR == "the gachapress project"


def test_every_dtc_pdf_is_pdf_x_1a_2001(dtc: list[Path]) -> None:
    for pdf in dtc:
        raw = pdf.read_bytes()
        assert raw.startswith(b"%PDF-1.3\n"), pdf.name  # PDF/X-1a:2001 is PDF 1.3
        reader = PdfReader(pdf)
        info = reader.trailer["/Info"].get_object()
        assert info["/GTS_PDFXVersion"] == "PDF/X-1:2001", pdf.name
        assert info["/GTS_PDFXConformance"] == "PDF/X-1a:2001", pdf.name
        assert info["/Trapped"] == "/False", pdf.name
        model = load_rules(pdf.parts[-4], ROOT / "rules").model
        deck = pdf.stem.removeprefix(pdf.parts[-4] + "-")
        assert info["/Title"].startswith(f"{model.name[model.languages[0]]}: {deck} (")
        assert info["/Subject"], pdf.name
        assert reader.trailer["/Root"]["/Lang"] == model.languages[0]
        assert info["/Author"] == AUTHOR, pdf.name
        assert info["/Creator"] == "gachapress", pdf.name
        for key in ("/CreationDate", "/ModDate"):
            assert PDF_DATE.match(info[key]), (pdf.name, key, info[key])
        (first, second) = reader.trailer["/ID"]
        assert len(first) == len(second) == 16, pdf.name
        (intent,) = reader.trailer["/Root"]["/OutputIntents"]
        intent = intent.get_object()
        assert intent["/S"] == "/GTS_PDFX"
        assert intent["/OutputConditionIdentifier"] == "CGATS TR 001"
        assert intent["/RegistryName"] == "http://www.color.org"
        # a registered condition: PDF/X-1a lets the printer supply its profile
        assert "/DestOutputProfile" not in intent
        for page in reader.pages:
            assert "/TrimBox" in page, pdf.name
        text = raw.decode("latin-1")
        assert "anonymous" not in text and "unspecified" not in text, pdf.name


def _document_info(pdf: bytes | Path) -> tuple[dict, str]:
    reader = PdfReader(io.BytesIO(pdf) if isinstance(pdf, bytes) else pdf)
    return dict(reader.metadata), reader.trailer["/Root"]["/Lang"]


def _assert_named(info: dict, lang: str, title: str, wanted_lang: str) -> None:
    assert info["/Title"] == title
    assert info["/Author"] == load_project(ROOT).author(wanted_lang)
    assert info["/Subject"] and info["/Subject"] != "unspecified"
    assert info["/Creator"] == "gachapress"
    assert lang == wanted_lang
    assert not {"anonymous", "(anonymous)", "unspecified"} & set(map(str, info.values()))


@pytest.mark.parametrize(("game_id", "lang"), [("gotcha", "ja"), ("gasha", "en")])
def test_print_and_play_pdfs_name_title_author_subject_and_language(
    tmp_path: Path, game_id: str, lang: str
) -> None:
    game = load_rules(game_id, ROOT / "rules")
    measure = Measure(ROOT / "build" / "fonts")
    decks = game_faces(game, TEMPLATES, PRESETS, measure, lang)
    path = tmp_path / "pnp.pdf"
    write_pnp(path, game, decks, PRESETS.sheets["a4"], measure, STRINGS)
    info, found = _document_info(path)
    wording = STRINGS.lookup(("ui", "pnp_title"), lang)
    title = wording.format(game=game.model.name[lang], paper=PRESETS.sheets["a4"].name)
    _assert_named(info, found, title, lang)


@pytest.mark.parametrize(("game_id", "lang"), [("gachapon-trick", "en"), ("gotcha", "ja")])
def test_rulebook_pdfs_name_title_author_subject_and_language(game_id: str, lang: str) -> None:
    game = load_rules(game_id, ROOT / "rules")
    measure = Measure(ROOT / "build" / "fonts")
    decks = game_faces(game, TEMPLATES, PRESETS, measure)
    faces = {f.key: f for d in decks for f in [*(face for face, _ in d.fronts), d.back]}
    book = build_books(game, STRINGS)[lang]
    pdf, _ = BookPdf(book, measure.fonts, faces, "a5").render()
    info, found = _document_info(pdf)
    _assert_named(info, found, game.model.name[lang], lang)


def test_raster_art_goes_into_a_shop_pdf_as_opaque_cmyk(project_copy: Path) -> None:
    """PDF/X-1a holds no RGB and no transparency: a designer's PNG art (here half see-through,
    on RPS-Fire's first rock) is laid on white and converted under the ink limit."""
    from PIL import Image

    shutil.copytree(ROOT / "templates", project_copy / "templates")  # the cards' layouts
    game = project_copy / "rules" / "rps-fire"
    (game / "art").mkdir()
    Image.new("RGBA", (40, 40), (220, 30, 30, 128)).save(game / "art" / "rock.png")
    decks = game / "decks.yaml"
    text = decks.read_text(encoding="utf-8")
    assert "art: {openmoji: 1FAA8}" in text
    decks.write_text(text.replace("art: {openmoji: 1FAA8}", "art: {file: art/rock.png}", 1))
    out = project_copy / "out"
    run = run_cli(
        "export", "rps-fire", "--to", "dtc", "--root", str(project_copy), "--out", str(out)
    )
    assert run.code == 0, run.err
    images = [
        image
        for pdf in sorted(out.glob("rps-fire/export/dtc/*.pdf"))
        for page in PdfReader(pdf).pages
        for image in _images(page)
    ]
    assert images
    for image in images:
        assert image["/ColorSpace"] == "/DeviceCMYK" and "/SMask" not in image


def _images(holder: Any) -> Iterator[Any]:
    """The image XObjects a page or form draws, through the forms it draws."""
    for xobject in holder.get("/Resources", {}).get("/XObject", {}).values():
        xobject = xobject.get_object()
        if xobject["/Subtype"] == "/Image":
            yield xobject
        else:
            yield from _images(xobject)
