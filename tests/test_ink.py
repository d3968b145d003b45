"""`build --ink low`: backs and large colour fields as light tints, every text still legible."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from gachapress.book.words import StringTable
from gachapress.data.load import load_rules
from gachapress.publish.pnp import write_pnp
from gachapress.render.faces import game_faces
from gachapress.render.ink import low_ink
from gachapress.render.layout import TextLine
from gachapress.render.legibility import beneath
from gachapress.render.metrics import Measure
from gachapress.render.presets import load_presets
from gachapress.render.wcag import contrast
from tests.conftest import GAME_IDS, ROOT, TEMPLATES

PRESETS = load_presets(TEMPLATES.path("print.yaml"))
STRINGS = StringTable.load(TEMPLATES)


def _faces(game_id: str):
    decks = game_faces(load_rules(game_id), TEMPLATES, PRESETS, Measure(ROOT / "build" / "fonts"))
    for deck in decks:
        for face, _ in deck.fronts:
            yield face, False
        yield deck.back, True


def _contrasts(face) -> list[tuple[str, float]]:
    drawn: list = []
    out = []
    for item in face.items:
        if isinstance(item, TextLine):
            out.append((item.text, contrast(item.color, beneath(drawn, item, face.background))))
        drawn.append(item)
    return out


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_low_ink_leaves_every_text_as_legible_as_before(game_id: str) -> None:
    for face, back in _faces(game_id):
        light = low_ink(face, back=back)
        for (text, before), (_, after) in zip(_contrasts(face), _contrasts(light), strict=True):
            assert after >= min(before, 4.5) - 1e-9, (face.key, text, before, after)


def _coverage(pdf: Path, page: int, folder: Path) -> float:
    """Mean ink of a page (0 = white paper, 1 = solid everywhere)."""
    stem = folder / f"{pdf.stem}-{page}"
    subprocess.run(
        [
            "pdftoppm",
            "-r",
            "30",
            "-png",
            "-singlefile",
            "-f",
            str(page),
            "-l",
            str(page),
            str(pdf),
            str(stem),
        ],
        check=True,
    )
    rgb = np.asarray(Image.open(f"{stem}.png").convert("RGB"), dtype=float)
    return float((1 - rgb.min(axis=2) / 255).mean())


def test_low_ink_backs_and_fronts_use_much_less_ink(tmp_path: Path) -> None:
    game = load_rules("gachapon-trick")
    measure = Measure(ROOT / "build" / "fonts")
    decks = game_faces(game, TEMPLATES, PRESETS, measure)
    normal, low = tmp_path / "normal.pdf", tmp_path / "low.pdf"
    write_pnp(normal, game, decks, PRESETS.sheets["a4"], measure, STRINGS)
    write_pnp(low, game, decks, PRESETS.sheets["a4"], measure, STRINGS, ink="low")
    fronts = _coverage(normal, 5, tmp_path), _coverage(low, 5, tmp_path)
    backs = _coverage(normal, 6, tmp_path), _coverage(low, 6, tmp_path)
    assert backs[0] > 0.5 and backs[1] < backs[0] / 4, backs
    assert fronts[1] < fronts[0] * 0.8, fronts
