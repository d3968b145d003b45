"""Print figures: for every game and paper, pages and sheets of paper (printed two-sided), and
the ink each page takes, normal and low ink (`build --ink low`).

Ink coverage is the mean darkness of a page rasterised at 30 dpi (0 % white paper, 100 % solid
black everywhere), each pixel counted by its darkest channel, as a rough measure of ink used.

Run: python bench/print_bench.py [PDF ...]   (figures only; with PDFs, measures those instead;
their fronts and backs are told apart by this layout: pages 5, 7, ... fronts, 6, 8, ... backs)
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np
from PIL import Image
from pypdf import PdfReader

from example_project import GAME_IDS
from gachapress.book.words import StringTable
from gachapress.data.load import load_rules
from gachapress.project import Templates
from gachapress.publish.pnp import write_pnp
from gachapress.render.faces import game_faces
from gachapress.render.metrics import Measure
from gachapress.render.presets import load_presets

ROOT = Path(__file__).resolve().parents[1]
TEMPLATES = Templates(ROOT)


def coverage(pdf: Path, folder: Path) -> list[float]:
    """The ink coverage of every page of ``pdf``, in page order."""
    stem = folder / pdf.stem
    subprocess.run(["pdftoppm", "-r", "30", "-png", str(pdf), str(stem)], check=True)
    pages = sorted(folder.glob(f"{pdf.stem}-*.png"))
    out = []
    for png in pages:
        rgb = np.asarray(Image.open(png).convert("RGB"), dtype=float)
        out.append(float((1 - rgb.min(axis=2) / 255).mean()))
        png.unlink()
    return out


def describe(pdf: Path, folder: Path) -> str:
    ink = coverage(pdf, folder)
    pages = len(PdfReader(pdf).pages)
    cards = ink[4:]  # after the instructions and the alignment sheet
    fronts, backs = cards[0::2], cards[1::2]
    mean = lambda values: 100 * sum(values) / max(1, len(values))  # noqa: E731
    return (
        f"{pages:3d} pages {-(-pages // 2):3d} sheets | ink per page: all {mean(ink):4.1f} %, "
        f"fronts {mean(fronts):4.1f} %, backs {mean(backs):4.1f} %, max {100 * max(ink):4.1f} %"
    )


def main() -> None:
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        if sys.argv[1:]:
            for pdf in sys.argv[1:]:
                print(f"{Path(pdf).name:32s} {describe(Path(pdf), folder)}")
            return
        presets = load_presets(TEMPLATES.path("print.yaml"))
        measure = Measure(ROOT / "build" / "fonts")
        strings = StringTable.load(TEMPLATES)
        for game_id in GAME_IDS:
            game = load_rules(game_id, ROOT / "rules")
            decks = game_faces(game, TEMPLATES, presets, measure)
            for paper in ("a4", "letter"):
                for ink in ("normal", "low"):
                    pdf = folder / f"{game_id}-{paper}-{ink}.pdf"
                    write_pnp(pdf, game, decks, presets.sheets[paper], measure, strings, ink=ink)
                    print(f"{game_id:15s} {paper:6s} {ink:6s} {describe(pdf, folder)}")


if __name__ == "__main__":
    main()
