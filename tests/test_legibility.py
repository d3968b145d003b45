"""Card text that reads: the WCAG contrast of every text line against what lies under it along
the line, on every face of every example game in every language, and `check` naming the layout
element, the card, the two colours and the ratio when one is too faint."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from gachapress.data.load import load_rules
from gachapress.render.faces import game_faces
from gachapress.render.layout import Ellipse, Face, Rect, TextLine
from gachapress.render.legibility import low_contrast
from gachapress.render.metrics import Measure
from gachapress.render.presets import load_presets
from gachapress.render.wcag import contrast, deepen, ink_on
from tests.conftest import GAME_IDS, ROOT, TEMPLATES, run_cli

PRESETS = load_presets(TEMPLATES.path("print.yaml"))
MEASURE = Measure(ROOT / "build" / "fonts")


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_text_of_every_face_reads_at_wcag_aa(game_id: str) -> None:
    game = load_rules(game_id)
    for lang in game.model.languages:
        for deck in game_faces(game, TEMPLATES, PRESETS, MEASURE, lang):
            for face in [*(face for face, _ in deck.fronts), deck.back]:
                assert list(low_contrast(face, MEASURE)) == [], (lang, face.key)


def test_the_contrast_ratio_is_wcags() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("#ffffff", "#e8c547") == pytest.approx(1.68, abs=0.01)  # white on yellow
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=0.01)
    assert contrast("#767676", "#ffffff") == pytest.approx(4.54, abs=0.01)


def test_ink_and_deep_colours_read_on_their_grounds() -> None:
    for colour in ("#e8c547", "#f28c28", "#e86fa8", "#3a9d5d", "#2e6fd8", "#d62839", "#ffffff"):
        assert contrast(ink_on(colour), colour) >= 4.5, colour
        deep = deepen(colour)
        assert contrast(deep, "#ffffff") >= 5 > contrast(_lighter(deep), "#ffffff"), colour
    assert deepen("#2a2350") == "#2a2350"  # already dark: kept


def _lighter(colour: str) -> str:
    return "#" + "".join(f"{min(255, int(colour[i : i + 2], 16) + 3):02x}" for i in (1, 3, 5))


def _face(*items, background: str = "#ffffff") -> Face:
    shape = PRESETS.shapes["poker"]
    return Face("test", "test", shape, background, tuple(items), tuple(range(len(items))))


def test_the_ground_is_read_along_the_whole_line() -> None:
    bold = MEASURE.name("bold")
    # a white panel under the start of the line, yellow under its end
    panel = Rect(0, 0, 20, 88, "#ffffff", None, 0, 0)
    text = TextLine(10, 40, "Long enough to leave the panel", bold, 9, "#ffffff")
    (low,) = low_contrast(_face(panel, text, background="#e8c547"), MEASURE)
    assert (low.element, low.colour, low.ground) == (1, "#ffffff", "#ffffff")
    dark = TextLine(10, 40, "Long enough to leave the panel", bold, 9, "#222222")
    assert list(low_contrast(_face(panel, dark, background="#e8c547"), MEASURE)) == []
    # a disc drawn after the text is not under it
    disc = Ellipse(5, 30, 40, 20, "#222222", None, 0)
    assert list(low_contrast(_face(dark, disc), MEASURE)) == []


def test_large_text_needs_3_to_1_and_smaller_text_4_5_to_1() -> None:
    grey = "#8d8d8d"  # 3.32:1 on white
    bold, regular = MEASURE.name("bold"), MEASURE.name("regular")
    assert list(low_contrast(_face(TextLine(5, 40, "Big", bold, 14, grey)), MEASURE)) == []
    assert list(low_contrast(_face(TextLine(5, 40, "Big", regular, 18, grey)), MEASURE)) == []
    for small in (
        TextLine(5, 40, "Small", bold, 13.5, grey),
        TextLine(5, 40, "S", regular, 17, grey),
    ):
        (low,) = low_contrast(_face(small), MEASURE)
        assert low.ratio == pytest.approx(3.32, abs=0.01) and low.needed == 4.5


def test_check_names_the_faint_text_its_card_colours_and_ratio(tmp_path: Path) -> None:
    """Gachapon Trick's corner cost set in white again, as it was: white on the yellow disc."""
    for folder in ("rules", "templates"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    layout = tmp_path / "templates" / "cards" / "gachapon-trick.yaml"
    lines = layout.read_text("utf-8").splitlines(keepends=True)
    (number,) = [
        i for i, line in enumerate(lines) if '"{cost|yen}"' in line and "turned" not in line
    ]
    lines[number] = lines[number].replace('"{suit.hex|ink}"', '"#ffffff"')
    layout.write_text("".join(lines), "utf-8")
    run = run_cli("check", "gachapon-trick", cwd=tmp_path)
    assert run.code == 1, run.out
    column = lines[number].index("{") + 1
    found = re.findall(
        rf"^templates/cards/gachapon-trick\.yaml:{number + 1}:{column}: error: card '(\w+-\d+)' "
        r"\(and (\d+) more\): text '¥\d+' in #ffffff on (#[0-9a-f]{6}) has a contrast of "
        r"([\d.]+):1, below the 4\.5:1",
        run.out + run.err,
        re.M,
    )
    grounds = {ground: (card, int(more) + 1, float(ratio)) for card, more, ground, ratio in found}
    assert grounds["#e8c547"][0].startswith("yellow-") and grounds["#e8c547"][1:] == (7, 1.68)
    assert grounds["#f28c28"][1:] == (7, 2.45)  # orange
    assert grounds["#e86fa8"][1:] == (7, 2.89)  # pink
    assert grounds["#3a9d5d"][1:] == (7, 3.41)  # green
    assert len(found) == 4  # red, blue and purple read in white
