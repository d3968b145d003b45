"""A designer's own art on the print sheets, as the PDF writer embeds it: each art once, as
a form; a PNG as an image (its transparency as a soft mask); an SVG drawn with transparency
through reportlab's drawing, naming no font; every font of the file embedded."""

from __future__ import annotations

import io
import re
import subprocess
from pathlib import Path

import numpy as np
from PIL import Image
from pypdf import PdfReader

from gachapress.assembly.builder import BuildOptions, build
from gachapress.cli.new_cmd import new

GAME = "glass"
ART = {
    "plain.svg": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 72 72" width="72" '
    'height="72"><rect x="0" y="0" width="72" height="72" fill="#2244cc"/></svg>',
    "glass.svg": '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 72 72" width="72" '
    'height="72"><rect x="0" y="0" width="72" height="72" fill="#cc2244" '
    'fill-opacity="0.5"/></svg>',
}


def _png(rgba: tuple[int, int, int, int], size: int = 8) -> bytes:
    """A PNG of one colour with alpha."""
    out = io.BytesIO()
    Image.new("RGBA", (size, size), rgba).save(out, "PNG")
    return out.getvalue()


def _project(root: Path) -> Path:
    new(GAME, root=root)
    rules = root / "rules" / GAME
    for name, text in ART.items():
        (rules / name).write_text(text, encoding="utf-8")
    (rules / "solid.png").write_bytes(_png((34, 170, 68, 255)))
    (rules / "faded.png").write_bytes(_png((240, 160, 0, 128)))
    sheet = rules / "cards.csv"
    rows = sheet.read_text(encoding="utf-8").splitlines()
    header = rows[0].replace("art.openmoji", "art.file")
    arts = ["plain.svg", "glass.svg", "solid.png", "faded.png"]
    cards = [
        ",".join([*row.split(",")[:-1], arts[n % 4]]) for n, row in enumerate(rows[1:])
    ]  # fmt: skip
    sheet.write_text("\n".join([header, *cards]) + "\n", encoding="utf-8")
    return root / "out" / GAME / f"{GAME}-pnp-a4.pdf"


def test_each_art_is_embedded_once_in_its_kind_and_every_font_is_embedded(tmp_path: Path) -> None:
    pdf = _project(tmp_path)
    assert not build([GAME], BuildOptions(root=tmp_path, out=tmp_path / "out")).problems
    data = pdf.read_bytes()
    # two PNGs, one with a soft mask: three images however many cards show them
    assert len(re.findall(rb"/Subtype\s*/Image", data)) == 3
    assert len(re.findall(rb"/SMask", data)) == 1
    reader = PdfReader(pdf)
    fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True)
    listed = fonts.stdout.splitlines()[2:]
    assert listed and all(" yes yes yes " in line for line in listed), fonts.stdout
    forms: dict[str, object] = {}
    for page in reader.pages[4:]:
        for name, form in page["/Resources"].get("/XObject", {}).items():
            for art, obj in form.get_object()["/Resources"].get("/XObject", {}).items():
                forms.setdefault(art, obj.idnum)
                assert forms[art] == obj.idnum, f"{art} embedded twice ({name})"
    assert len(forms) == 4  # one form for each art file


def test_the_arts_show_their_colours_on_the_sheet(tmp_path: Path) -> None:
    pdf = _project(tmp_path)
    assert not build([GAME], BuildOptions(root=tmp_path, out=tmp_path / "out")).problems
    subprocess.run(
        ["pdftoppm", "-r", "40", "-png", "-f", "5", "-l", "5", str(pdf), str(tmp_path / "s")],
        check=True,
    )
    (picture,) = tmp_path.glob("s*.png")
    pixels = np.asarray(Image.open(picture).convert("RGB")).reshape(-1, 3).astype(int)

    def shown(rgb: tuple[int, int, int]) -> bool:
        return bool((np.abs(pixels - rgb).max(axis=1) <= 12).sum() >= 20)

    assert shown((0x22, 0x44, 0xCC))  # the plain SVG
    assert shown((229, 144, 161))  # the SVG's red at half opacity, over white
    assert shown((34, 170, 68))  # the opaque PNG
    assert shown((248, 207, 128))  # the PNG's orange at half alpha, over white
