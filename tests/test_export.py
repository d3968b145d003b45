"""`gachapress export`: each target's files opened as the receiving side opens them (a print
shop's preflight, Tabletop Simulator's loader), for GOTCHA! (three card decks, Japanese text)
and Gasha (a deck of round tokens besides its cards)."""

from __future__ import annotations

import csv
import hashlib
import io
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import replace
from pathlib import Path
from urllib.parse import unquote, urlparse

import pypdfium2
import pytest
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream

from gachapress.data.load import load_rules
from gachapress.export import tts
from gachapress.export.common import ExportOptions, Source
from gachapress.render.colour import cmyk, rgb_to_cmyk
from gachapress.render.faces import game_faces
from gachapress.render.layout import TextLine, refit
from gachapress.render.metrics import Measure
from gachapress.render.presets import load_presets
from tests.conftest import ROOT, TEMPLATES, run_cli

GAMES = ("gotcha", "gasha")
INCH = 72  # points


@pytest.fixture(scope="module")
def out(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Every target exported for both games into one out/ (the project's font cache reused)."""
    folder = tmp_path_factory.mktemp("export") / "out"
    for target in ("png", "tgc", "dtc", "tts"):
        run = run_cli("export", *GAMES, "--to", target, "--out", str(folder))
        assert run.code == 0, run.err
    return folder


def decks(game_id: str) -> dict[str, dict[str, int]]:
    """Each deck's copies of each distinct card, from the rules."""
    game = load_rules(game_id, ROOT / "rules")
    return {
        deck_id: {card.id: card.count for card in deck.faces()}
        for deck_id, deck in game.model.deck_items()
    }


def dpi(image: Image.Image) -> tuple[int, int]:
    x, y = image.info["dpi"]
    return round(x), round(y)


# --- png ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_png_has_every_face_and_back_at_300_dpi_with_bleed(out: Path, game: str) -> None:
    folder = out / game / "export" / "png"
    expected = {f"{card}.png" for deck in decks(game).values() for card in deck}
    expected |= {f"back-{deck}.png" for deck in decks(game)}
    assert {p.name for p in folder.glob("*.png")} == expected
    presets = load_presets(TEMPLATES.path("print.yaml"))
    for name in expected:
        image = Image.open(folder / name)
        assert dpi(image) == (300, 300)
        shape = presets.shapes["token-25" if name.startswith(("bonus", "back-bonus")) else "poker"]
        full = (shape.width + 2 * shape.bleed, shape.height + 2 * shape.bleed)
        assert image.size == tuple(round(mm / 25.4 * 300) for mm in full), name


@pytest.mark.parametrize("game", GAMES)
def test_png_manifest_counts_are_the_decks(out: Path, game: str) -> None:
    folder = out / game / "export" / "png"
    rows = list(csv.DictReader(io.StringIO((folder / "manifest.csv").read_text("utf-8"))))
    listed = json.loads((folder / "manifest.json").read_text("utf-8"))["cards"]
    assert [{k: str(v) for k, v in row.items()} for row in listed] == rows
    for deck_id, cards in decks(game).items():
        fronts = {
            r["card"]: int(r["copies"])
            for r in rows
            if r["deck"] == deck_id and r["side"] == "front"
        }
        assert fronts == cards
        (back,) = [r for r in rows if r["deck"] == deck_id and r["side"] == "back"]
        assert int(back["copies"]) == sum(cards.values())
        assert all((folder / r["file"]).is_file() for r in rows)


# --- tgc ------------------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_tgc_poker_pngs_are_825_by_1125_at_300_dpi_with_quantities(out: Path, game: str) -> None:
    folder = out / game / "export" / "tgc"
    for deck_id, cards in decks(game).items():
        if deck_id == "bonus-tokens":  # round tokens: not a poker deck
            assert not (folder / deck_id).exists()
            assert "Not here: bonus-tokens" in (folder / "README.md").read_text("utf-8")
            continue
        rows = list(csv.DictReader(io.StringIO((folder / deck_id / "quantities.csv").read_text())))
        assert {r["file"]: int(r["quantity"]) for r in rows} == {
            f"{c}.png": n for c, n in cards.items()
        }
        for name in [*(r["file"] for r in rows), "back.png"]:
            image = Image.open(folder / deck_id / name)
            assert image.size == (825, 1125) and dpi(image) == (300, 300)


@pytest.mark.parametrize("game", ["gotchacards", "gachapon-trick", "gotcha", "rps-fire", "gasha"])
def test_inch_cards_keep_text_inside_the_shop_safe_area(game: str) -> None:
    """Every line of text of every face, drawn at 2.5 x 3.5 in, lies 1/8 in inside the trim."""
    presets = load_presets(TEMPLATES.path("print.yaml"))
    measure = Measure(ROOT / "build" / "fonts")
    roles = {font.name: role for role, font in measure.fonts.items()}
    inch = presets.sizes["inch"]["poker"]
    assert (inch.width, inch.height, inch.bleed, inch.safe) == pytest.approx(
        (63.5, 88.9, 3.175, 3.175)
    )
    for deck in game_faces(load_rules(game, ROOT / "rules"), TEMPLATES, presets, measure):
        if deck.shape_id != "poker":
            continue
        for face in [deck.back, *(f for f, _ in deck.fronts)]:
            fitted = refit(face, inch)
            assert fitted.shape == inch
            for line in (i for i in fitted.items if isinstance(i, TextLine)):
                width = measure.width(line.text, roles[line.font], line.size)
                ascent = line.size * 25.4 / 72 * 0.8
                # an upside-down line runs leftwards from x and hangs below its baseline
                left, right = (line.x - width, line.x) if line.turned else (line.x, line.x + width)
                top, bottom = (
                    (line.baseline, line.baseline + ascent)
                    if line.turned
                    else (line.baseline - ascent, line.baseline)
                )
                assert left >= inch.safe - 1e-6, (face.key, line.text)
                assert right <= inch.width - inch.safe + 1e-6, (face.key, line.text)
                assert top >= inch.safe - 1e-6, (face.key, line.text)
                assert bottom <= inch.height - inch.safe + 1e-6, (face.key, line.text)


# --- dtc ------------------------------------------------------------------------------------


def dtc_pdfs(out: Path, game: str) -> dict[str, Path]:
    folder = out / game / "export" / "dtc"
    return {deck: folder / f"{game}-{deck}.pdf" for deck in decks(game) if deck != "bonus-tokens"}


@pytest.mark.parametrize("game", GAMES)
def test_dtc_pages_are_trim_plus_bleed_with_trim_and_bleed_boxes(out: Path, game: str) -> None:
    for deck, pdf in dtc_pdfs(out, game).items():
        reader = PdfReader(pdf)
        assert len(reader.pages) == 2 * sum(decks(game)[deck].values())
        for page in reader.pages:
            assert [float(v) for v in page.mediabox] == [0, 0, 2.75 * INCH, 3.75 * INCH]
            assert [float(v) for v in page.bleedbox] == [0, 0, 198, 270]
            assert [float(v) for v in page.trimbox] == [9, 9, 189, 261]


@pytest.mark.parametrize("game", GAMES)
def test_dtc_pages_go_back_front_with_each_card_as_often_as_the_deck_holds_it(
    out: Path, game: str
) -> None:
    for deck, pdf in dtc_pdfs(out, game).items():
        document = pypdfium2.PdfDocument(pdf)
        looks = [
            hashlib.sha256(document[i].render(scale=30 / 72).to_pil().tobytes()).hexdigest()
            for i in range(len(document))
        ]
        document.close()
        backs, fronts = set(looks[0::2]), looks[1::2]
        assert len(backs) == 1 and not backs & set(fronts)
        counts = sorted(fronts.count(look) for look in set(fronts))
        assert counts == sorted(decks(game)[deck].values())


COLOUR_OPS = {"rg", "RG", "g", "G", "sc", "SC", "scn", "SCN", "cs", "CS", "k", "K"}


def colour_operations(reader: PdfReader) -> tuple[set[str], float, int]:
    """Every colour operator in the pages and their forms, the most ink a CMYK one sets, and
    how many fonts and images the pages use. Nothing may be transparent, so the most ink an
    operator sets is the most ink on any spot of the rendered page."""
    ops: set[str] = set()
    ink, fonts_images = 0.0, 0
    seen: set[int] = set()

    def walk(stream, resources) -> None:
        nonlocal ink, fonts_images
        resources = resources.get_object() if resources is not None else {}
        fonts_images += len(resources.get("/Font", {}).get_object()) if "/Font" in resources else 0
        for operands, operator in ContentStream(stream, reader).operations:
            name = operator.decode()
            if name in COLOUR_OPS:
                ops.add(name)
                if name in ("k", "K"):
                    ink = max(ink, sum(float(v) for v in operands))
        states = resources.get("/ExtGState")
        for state in (states.get_object() if states is not None else {}).values():
            state = state.get_object()  # opaque paint only: each spot shows one colour's ink
            assert float(state.get("/ca", 1)) == 1 and float(state.get("/CA", 1)) == 1
            assert state.get("/SMask", "/None") == "/None"
        xobjects = resources.get("/XObject")
        for xobject in (xobjects.get_object() if xobjects is not None else {}).values():
            target = xobject.get_object()
            if xobject.idnum in seen:
                continue
            seen.add(xobject.idnum)
            if target["/Subtype"] == "/Image":
                fonts_images += 1
            else:
                walk(target, target.get("/Resources"))

    for page in reader.pages:
        walk(page.get_contents(), page["/Resources"])
    return ops, ink, fonts_images


@pytest.mark.parametrize("game", GAMES)
def test_dtc_is_cmyk_under_240_percent_ink_with_text_as_outlines(out: Path, game: str) -> None:
    for pdf in dtc_pdfs(out, game).values():
        ops, ink, fonts_images = colour_operations(PdfReader(pdf))
        assert ops <= {"k", "K"}, ops  # no RGB or grey operator left
        assert 0 < ink <= 2.4
        assert fonts_images == 0  # text drawn as outlines: no font to substitute, no raster
        document = pypdfium2.PdfDocument(pdf)
        assert document[1].get_textpage().get_text_range() == ""
        document.close()


def test_the_cmyk_conversion_caps_ink_and_prints_grey_in_black_alone() -> None:
    assert cmyk("#000000") == (0, 0, 0, 1)  # not 400 % registration black
    assert cmyk("#222222") == (0, 0, 0, pytest.approx(0.8667, abs=1e-4))
    assert cmyk("#ffffff") == (0, 0, 0, 0)
    assert cmyk("#ff0000") == (0, 1, 1, 0)
    worst = max(
        sum(rgb_to_cmyk(r / 8, g / 8, b / 8)) for r in range(9) for g in range(9) for b in range(9)
    )
    assert worst <= 2.4 + 1e-9
    c, m, y, k = cmyk("#1a0000")  # a near-black red would need 290 %
    assert c + m + y + k == pytest.approx(2.4, abs=1e-3) and c == 0 and m == y


# --- tts ------------------------------------------------------------------------------------


def local(url: str) -> Path:
    parsed = urlparse(url)
    assert parsed.scheme == "file"
    return Path(unquote(parsed.path))


@pytest.mark.parametrize("game", GAMES)
def test_tts_saved_object_loads_with_every_copy_and_image(out: Path, game: str) -> None:
    folder = out / game / "export" / "tts"
    saved = json.loads((folder / f"{game}.json").read_text("utf-8"))
    objects = {o["Nickname"]: o for o in saved["ObjectStates"]}
    game_data = load_rules(game, ROOT / "rules")
    for deck_id, cards in decks(game).items():
        names = game_data.model.deck(deck_id).name
        obj = objects[names.get("en", names[game_data.model.languages[0]])]
        contained = obj["ContainedObjects"]
        assert len(contained) == sum(cards.values())
        held = {}
        for item in contained:
            held[item["GMNotes"]] = held.get(item["GMNotes"], 0) + 1
        assert held == cards
        if obj["Name"] == "Bag":  # round tokens as circular tiles
            assert {item["Name"] for item in contained} == {"Custom_Tile"}
            for item in contained:
                assert item["CustomImage"]["CustomTile"]["Type"] == 2
                assert local(item["CustomImage"]["ImageURL"]).is_file()
                assert local(item["CustomImage"]["ImageSecondaryURL"]).is_file()
            continue
        assert obj["Name"] == "Deck"
        assert obj["DeckIDs"] == [item["CardID"] for item in contained]
        for number, entry in obj["CustomDeck"].items():
            columns, rows = entry["NumWidth"], entry["NumHeight"]
            assert 1 <= columns <= 10 and 1 <= rows <= 7
            sheet = Image.open(local(entry["FaceURL"]))
            assert max(sheet.size) <= 4096
            # whole-pixel cells: Tabletop Simulator's equal cuts fall on the cards' edges
            assert sheet.width % columns == 0 and sheet.height % rows == 0, sheet.size
            shape = decks_shape(game, deck_id)
            cell_ratio = (sheet.width / columns) / (sheet.height / rows)
            assert cell_ratio == pytest.approx(shape.width / shape.height, rel=0.01)
            assert sheet.width / columns >= shape.width / 25.4 * 150  # sharp: 150 dpi at least
            assert local(entry["BackURL"]).is_file()
            slots = [i["CardID"] % 100 for i in contained if i["CardID"] // 100 == int(number)]
            assert max(slots) < columns * rows - 1  # the last slot is the hidden card
        card = contained[0]
        record = game_data.model.deck(deck_id).faces()[0]
        assert record.name[game_data.model.languages[0]] in card["Nickname"]


def decks_shape(game_id: str, deck_id: str):
    presets = load_presets(TEMPLATES.path("print.yaml"))
    game = load_rules(game_id, ROOT / "rules")
    (deck,) = [
        d
        for d in game_faces(game, TEMPLATES, presets, Measure(ROOT / "build" / "fonts"))
        if d.deck == deck_id
    ]
    return deck.shape


def test_tts_a_deck_of_4000_cards_imports_in_order(tmp_path: Path) -> None:
    """A deck of 4,000 distinct cards (laid out, not rendered): sheets of at most 69 cards on at
    most 10 x 7 whole-pixel cells within 4096 px, named so that they list in order, and a saved
    object whose every card id points at its sheet and slot."""
    game = load_rules("gotcha", ROOT / "rules")
    presets = load_presets(TEMPLATES.path("print.yaml"))
    measure = Measure(ROOT / "build" / "fonts")
    decks = game_faces(game, TEMPLATES, presets, measure)
    source = Source(game, decks, measure, presets, ExportOptions(root=ROOT, out=tmp_path))
    base = decks[0]
    face, _ = base.fronts[0]
    card = source.cards[face.key]
    keys = [f"card-{i:04d}" for i in range(4000)]
    source.decks = [replace(base, fronts=tuple((replace(face, key=key), 1) for key in keys))]
    source.__dict__["cards"] = dict.fromkeys(keys, card)
    planned = tts.plan(source)
    sheets = [name for name in planned if name.startswith(f"{base.deck}-faces-")]
    assert len(sheets) == 58  # ceil(4000 / 69)
    assert sorted(sheets) == sheets == [f"{base.deck}-faces-{n:02d}.png" for n in range(1, 59)]
    planned[f"{game.id}.json"][1](tmp_path / "saved.json")
    (deck,) = json.loads((tmp_path / "saved.json").read_text("utf-8"))["ObjectStates"]
    contained = deck["ContainedObjects"]
    assert [item["GMNotes"] for item in contained] == keys
    assert deck["DeckIDs"] == [item["CardID"] for item in contained]
    assert len(set(deck["DeckIDs"])) == 4000
    assert sorted(deck["CustomDeck"], key=int) == [str(n) for n in range(1, 59)]
    for position, item in enumerate(contained):
        number, slot = divmod(item["CardID"], 100)
        entry = deck["CustomDeck"][str(number)]
        assert item["CustomDeck"] == {str(number): entry}
        assert entry["FaceURL"].endswith(f"-faces-{number:02d}.png")
        assert (number - 1) * 69 + slot == position  # sheet by sheet, slot by slot
        columns, rows = entry["NumWidth"], entry["NumHeight"]
        assert columns <= 10 and rows <= 7 and slot < columns * rows - 1
        width, height = tts.cell_pixels(base.shape, columns, rows)
        assert columns * width <= 4096 and rows * height <= 4096
        assert width / height == pytest.approx(base.shape.width / base.shape.height, rel=0.01)


def cell(sheet: Image.Image, columns: int, rows: int, slot: int) -> Image.Image:
    w, h = sheet.width / columns, sheet.height / rows
    row, column = divmod(slot, columns)
    return sheet.crop(
        (round(column * w), round(row * h), round((column + 1) * w), round((row + 1) * h))
    )


def mean(image: Image.Image) -> tuple[float, ...]:
    small = image.convert("RGB").resize((1, 1), Image.Resampling.BOX)
    return small.getpixel((0, 0))


def test_tts_sheet_slots_show_the_cards_the_json_says(out: Path) -> None:
    """Cut the sheet as Tabletop Simulator does: each card id's cell is that card's face (as
    the png export shows it), and the last cell is the back."""
    folder = out / "gotcha" / "export" / "tts"
    saved = json.loads((folder / "gotcha.json").read_text("utf-8"))
    png = out / "gotcha" / "export" / "png"
    for obj in saved["ObjectStates"]:
        (entry,) = obj["CustomDeck"].values()
        sheet = Image.open(local(entry["FaceURL"]))
        columns, rows = entry["NumWidth"], entry["NumHeight"]
        back = mean(Image.open(local(entry["BackURL"])))
        assert mean(cell(sheet, columns, rows, columns * rows - 1)) == pytest.approx(back, abs=6)
        for item in obj["ContainedObjects"]:
            face = Image.open(png / f"{item['GMNotes']}.png")
            bleed = round(3 / 25.4 * 300)
            trim = face.crop((bleed, bleed, face.width - bleed, face.height - bleed))
            got = cell(sheet, columns, rows, item["CardID"] % 100)
            assert mean(got) == pytest.approx(mean(trim), abs=4), item["GMNotes"]


def test_tts_readme_says_how_to_import_and_where_each_card_is(out: Path) -> None:
    text = (out / "gotcha" / "export" / "tts" / "README.md").read_text("utf-8")
    assert "Saved Objects" in text and "--base-url" in text
    assert re.search(r"\| gacha \| gacha-01 \| gacha-faces-01.png \| 0 ", text)


def test_text_as_paths_gives_svgs_an_editor_cannot_turn_into_boxes(tmp_path: Path) -> None:
    """With --text-as-paths the png export adds each face as an SVG whose text is outlines:
    no <text>, no embedded font to ignore, the Japanese glyphs still drawn."""
    run = run_cli("export", "gotcha", "--to", "png", "--text-as-paths", "--out", str(tmp_path))
    assert run.code == 0, run.err
    svgs = tmp_path / "gotcha" / "export" / "png" / "svg"
    names = {p.stem for p in svgs.glob("*.svg")}
    assert names == {p.stem for p in svgs.parent.glob("*.png")}
    root = ET.parse(svgs / "gacha-01.svg").getroot()
    tags = {element.tag.split("}")[-1] for element in root.iter()}
    assert "text" not in tags and "style" not in tags
    paths = [
        e for e in root.iter() if e.tag.endswith("path") and "scale(" in e.get("transform", "")
    ]
    assert len(paths) >= 5  # one per line of text: name, kana, points, rate...
