"""Visual regression: a few representative faces rendered to low-resolution PNGs (through the
PDF backend and poppler's pdftoppm) and compared with the snapshots in tests/snapshots/.

A changed look fails here until it is looked at and accepted: rerun with
GACHAPRESS_UPDATE_SNAPSHOTS=1 to write new snapshots, then view them before committing.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat
from reportlab.pdfgen.canvas import Canvas

from gachapress.data.load import load_rules
from gachapress.render.faces import game_faces
from gachapress.render.metrics import Measure
from gachapress.render.pdf import MM, FacePainter
from gachapress.render.presets import load_presets
from tests.conftest import ROOT, TEMPLATES

SNAPSHOTS = Path(__file__).parent / "snapshots"
CASES = [
    ("gachapon-trick", "red-800"),
    ("gachapon-trick", "refund"),
    ("gachapon-trick", "back-toys"),
    ("gotcha", "back-gacha"),
    ("gasha", "back-bonus-tokens"),
    ("gotchacards", "lucky-rock"),
    ("gotcha", "ituned-1500-lucky"),
]
#: Mean difference per channel (0-255) tolerated: anti-aliasing noise, not a changed design.
TOLERANCE = 2.0


def render(game_id: str, key: str, folder: Path) -> Path:
    measure = Measure(ROOT / "build" / "fonts")
    decks = game_faces(
        load_rules(game_id),
        TEMPLATES,
        load_presets(TEMPLATES.path("print.yaml")),
        measure,
    )
    faces = {f.key: f for d in decks for f in [*(f for f, _ in d.fronts), d.back]}
    face = faces[key]
    shape = face.shape
    width, height = shape.width + 2 * shape.bleed, shape.height + 2 * shape.bleed
    pdf = folder / f"{key}.pdf"
    canvas = Canvas(
        str(pdf),
        pagesize=(width * MM, height * MM),
        invariant=1,
        initialFontName=measure.name("regular"),
    )
    FacePainter(canvas).place(face, shape.bleed, shape.bleed, (shape.bleed,) * 4)
    canvas.showPage()
    canvas.save()
    subprocess.run(
        ["pdftoppm", "-r", "40", "-png", "-singlefile", str(pdf), str(folder / key)], check=True
    )
    return folder / f"{key}.png"


@pytest.mark.parametrize(("game_id", "key"), CASES)
def test_face_looks_as_it_did(game_id: str, key: str, tmp_path: Path) -> None:
    rendered = render(game_id, key, tmp_path)
    snapshot = SNAPSHOTS / f"{game_id}--{key}.png"
    if os.environ.get("GACHAPRESS_UPDATE_SNAPSHOTS"):
        SNAPSHOTS.mkdir(exist_ok=True)
        shutil.copyfile(rendered, snapshot)
    with Image.open(rendered) as new, Image.open(snapshot) as old:
        assert new.size == old.size
        difference = ImageChops.difference(new.convert("RGB"), old.convert("RGB"))
        mean = sum(ImageStat.Stat(difference).mean) / 3
    assert mean <= TOLERANCE, f"{key} differs from its snapshot by {mean:.1f} per channel"
