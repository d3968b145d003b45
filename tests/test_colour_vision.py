"""Cards a colour-blind player can read: rendered faces seen through a colour-vision-deficiency
simulation (Machado, Oliveira and Fernandes 2009, severity 1, on linear RGB)."""

from __future__ import annotations

import subprocess
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from reportlab.pdfgen.canvas import Canvas

from gachapress.data.load import load_rules
from gachapress.render.faces import game_faces
from gachapress.render.layout import Art, Ellipse, load_layout
from gachapress.render.metrics import Measure
from gachapress.render.pdf import MM, FacePainter
from gachapress.render.presets import load_presets
from tests.conftest import ROOT, TEMPLATES

DPI = 200
SIMULATIONS = {
    "deuteranopia": [
        [0.367322, 0.860646, -0.227968],
        [0.280085, 0.672501, 0.047413],
        [-0.011820, 0.042940, 0.968881],
    ],
    "protanopia": [
        [0.152286, 1.052583, -0.204868],
        [0.114503, 0.786281, 0.099216],
        [-0.003882, -0.048116, 1.051998],
    ],
}


def simulate(rgb: np.ndarray, kind: str) -> np.ndarray:
    """An sRGB image (0-255) as a dichromat sees it."""
    c = rgb / 255
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    seen = np.clip(linear @ np.array(SIMULATIONS[kind]).T, 0, 1)
    return 255 * np.where(seen <= 0.0031308, seen * 12.92, 1.055 * seen ** (1 / 2.4) - 0.055)


def render_hand(game_id: str, keys: list[str], folder: Path) -> list[np.ndarray]:
    """Each face rendered on its own through the PDF backend and poppler."""
    measure = Measure(ROOT / "build" / "fonts")
    presets = load_presets(TEMPLATES.path("print.yaml"))
    decks = game_faces(load_rules(game_id), TEMPLATES, presets, measure)
    faces = {f.key: f for d in decks for f, _ in d.fronts}
    out = []
    for key in keys:
        face = faces[key]
        s = face.shape
        pdf = folder / f"{key}.pdf"
        canvas = Canvas(
            str(pdf),
            pagesize=((s.width + 2 * s.bleed) * MM, (s.height + 2 * s.bleed) * MM),
            invariant=1,
            initialFontName=measure.name("regular"),
        )
        FacePainter(canvas).place(face, s.bleed, s.bleed, (s.bleed,) * 4)
        canvas.showPage()
        canvas.save()
        stem = folder / key
        subprocess.run(
            ["pdftoppm", "-r", str(DPI), "-png", "-singlefile", str(pdf), str(stem)], check=True
        )
        out.append(np.asarray(Image.open(f"{stem}.png").convert("RGB"), dtype=float))
    return out


@pytest.mark.parametrize("kind", SIMULATIONS)
def test_a_gachapon_trick_hand_keeps_its_seven_suits_apart_by_symbol(
    kind: str, tmp_path: Path
) -> None:
    game = load_rules("gachapon-trick")
    suits = game.model.decks.toys.colors  # type: ignore[attr-defined]
    cost = game.model.decks.toys.costs[0]  # type: ignore[attr-defined]
    layout, _ = load_layout(ROOT / "templates" / "cards" / "gachapon-trick.yaml")
    (box,) = [  # the symbol of the top-left corner index, as the layout places it
        e.box
        for e in layout.decks["toys"].front.elements
        if e.text == "{suit.symbol}" and not e.turned
    ]
    bleed = 3
    x0, y0, x1, y1 = (
        round((v + bleed) * DPI / 25.4) for v in (box[0], box[1], box[0] + box[2], box[1] + box[3])
    )
    masks = []
    for image in render_hand("gachapon-trick", [f"{s.id}-{cost}" for s in suits], tmp_path):
        seen = simulate(image, kind)[y1 - (y1 - y0) : y1, x0:x1]
        paper = seen[1, 1]  # a corner of the index box: the card's paper
        mask = np.abs(seen - paper).sum(axis=2) > 90
        assert mask.mean() > 0.05, "a symbol is printed in the corner index"
        masks.append(mask)
    for (a, ma), (b, mb) in combinations(zip([s.id for s in suits], masks, strict=True), 2):
        overlap = (ma & mb).sum() / (ma | mb).sum()
        assert overlap < 0.75, f"{kind}: the {a} and {b} symbols look alike ({overlap:.2f})"


def test_every_gotchacards_card_carries_its_type_symbol_black_on_advanced_cards() -> None:
    """The seed's card anatomy: the symbol in the bottom-right corner says the card's type."""
    game = load_rules("gotchacards")
    layout, _ = load_layout(ROOT / "templates" / "cards" / "gotchacards.yaml")
    presets = load_presets(TEMPLATES.path("print.yaml"))
    decks = game_faces(game, TEMPLATES, presets, Measure(ROOT / "build" / "fonts"))
    cards = {c.id: c for _, deck in game.model.deck_items() for c in deck.faces()}
    for face, _ in decks[0].fronts:
        card = cards[face.key]
        icon = f"openmoji:{layout.icons[card.type]}"
        corner = [
            item
            for item in face.items
            if isinstance(item, Art) and item.source == icon and item.x > 45 and item.y > 70
        ]
        assert len(corner) == 1, f"{face.key} has no {card.type} symbol bottom right"
        disc = [i for i in face.items if isinstance(i, Ellipse) and i.x > 45 and i.y > 70]
        assert [d.fill == "#111111" for d in disc] == [card.advanced], face.key
