"""The card language: `build --lang` prints a game's cards in another language it publishes,
and every card text names the game's values through placeholders in each language."""

from __future__ import annotations

import re
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import yaml
from pypdf import PdfReader

from gachapress.data.load import load_rules
from gachapress.data.placeholders import PLACEHOLDER, PlaceholderError, card_texts, fill
from gachapress.render.faces import game_faces
from gachapress.render.layout import TextLine
from gachapress.render.metrics import Measure
from gachapress.render.presets import load_presets
from gachapress.render.text import NO_LINE_END, fit
from tests.conftest import GAME_IDS, ROOT, TEMPLATES, run_cli
from tests.test_build import snapshot
from tests.yaml_edit import rename

GAME = "gotchacards"
ENV = {"GACHAPRESS_BOOK_GAMES": "2"}
MEASURE = Measure(ROOT / "build" / "fonts")
PRESETS = load_presets(TEMPLATES.path("print.yaml"))
SVG = "{http://www.w3.org/2000/svg}"
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


@pytest.fixture
def project(tmp_path: Path) -> Path:
    for folder in ("rules", "templates"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    return tmp_path


def build(project: Path, *args: str) -> str:
    result = run_cli("build", GAME, "--paper", "a4", *args, cwd=project, env=ENV)
    assert result.code == 0, result.err
    return result.out


def svg_texts(folder: Path) -> dict[str, str]:
    """Each card SVG's text, its lines joined."""
    return {
        path.stem: " ".join(
            "".join(node.itertext()) for node in ET.parse(path).getroot().iter(f"{SVG}text")
        )
        for path in sorted(folder.glob("*.svg"))
    }


def test_build_lang_ja_prints_japanese_cards_and_rebuilds_only_what_changes(
    project: Path,
) -> None:
    model = load_rules(GAME, project / "rules").model
    english_names = {card.name["en"] for card in model.cards().values()}
    cards = project / "out" / GAME / "cards"
    build(project)
    english = svg_texts(cards)
    assert "Pebble" in english["rock-1"] and "Rock: beats scissors" in english["rock-1"]

    build(project, "--lang", "ja")
    japanese = svg_texts(cards)
    assert japanese.keys() == english.keys()
    for key, text in japanese.items():
        assert JAPANESE.search(text), key
        assert not [name for name in english_names if name in text], key
    assert "小石くん" in japanese["rock-1"]
    assert "グー：チョキに勝ち、パーに負" in japanese["rock-1"]  # its words, from the data
    pdf = PdfReader(project / "out" / GAME / f"{GAME}-pnp-a4.pdf")
    instructions = pdf.pages[0].extract_text()  # in the cards' language too
    assert "印刷のしかた" in instructions and "How to print" not in instructions
    cut_sheets = "".join(page.extract_text() for page in pdf.pages[4:])
    assert "小石くん" in cut_sheets and "ガッチャカード" in cut_sheets
    assert not [name for name in english_names if name in cut_sheets]

    before = snapshot(project / "out")
    assert "0 files written" in build(project, "--lang", "ja")
    assert snapshot(project / "out") == before
    # the same characters (a new one would change the font subset every face embeds)
    rename(project / "rules" / GAME / "decks.yaml", "カメの甲羅", "甲羅のカメ", lang="ja")
    build(project, "--lang", "ja")
    after = snapshot(project / "out" / GAME)
    changed = {name for name in after if after[name] != before.get(f"{GAME}/{name}")}
    assert "cards/rock-3.svg" in changed and "cards/rock-2.svg" not in changed

    build(project, "--lang", "en")  # the game's first language: as built without the flag
    assert svg_texts(cards) == english


@pytest.mark.parametrize(
    "command",
    [
        ("build", GAME, "--lang", "fr"),
        ("export", GAME, "--to", "png", "--lang", "fr"),
        ("serve", GAME, "--port", "0", "--lang", "fr"),
    ],
)
def test_a_language_the_game_does_not_publish_is_a_usage_error(
    project: Path, command: tuple[str, ...]
) -> None:
    result = run_cli(*command, cwd=project)
    assert result.code == 2
    message = " ".join(result.err.replace("│", " ").split())
    assert "gotchacards has no text in 'fr' (languages: en, ja)" in message
    assert not (project / "out").exists()


def _placeholders(text: str) -> set[str]:
    return {m.group(1) for m in PLACEHOLDER.finditer(text) if m.group(1)}


def _card_text_pairs() -> list[tuple[str, str, dict[str, str], dict[str, Any]]]:
    pairs = []
    for game_id in GAME_IDS:
        model = load_rules(game_id).model
        for card in model.cards().values():
            if card.text:
                values = card.model_dump(mode="python", by_alias=True) | model.card_values(card)
                pairs.append((game_id, card.id, dict(card.text), values))
    return pairs


@pytest.mark.parametrize(("game_id", "card_id", "text", "values"), _card_text_pairs())
def test_japanese_card_texts_name_what_the_english_names_by_placeholder(
    game_id: str, card_id: str, text: dict[str, str], values: dict[str, Any]
) -> None:
    """Where the English text takes a value from the data, the Japanese takes it too, and
    never types it."""
    english, japanese = _placeholders(text["en"]), _placeholders(text["ja"])
    assert english <= japanese, f"{game_id} {card_id}: {sorted(english - japanese)}"
    typed = PLACEHOLDER.sub("", text["ja"])
    for path in english:
        value: Any = {"card": values}
        for part in path.split("."):
            value = value[part]
        if isinstance(value, int):
            assert not re.search(rf"(?<!\d){value}(?!\d)", typed), f"{game_id} {card_id}: {path}"


def test_a_card_type_is_a_word_of_the_data_in_each_language() -> None:
    model = load_rules(GAME).model
    rock = model.cards()["rock-1"]
    assert card_texts(model, rock) == {
        "en": "Rock: beats scissors, loses to paper.",
        "ja": "グー：チョキに勝ち、パーに負ける。",
    }
    data = {"words": model.words, "card": {"type": "rock", "odd": "cheese"}}
    assert fill("{card.type|word}", data, "ja") == "グー"
    with pytest.raises(PlaceholderError, match="no word for 'cheese'"):
        fill("{card.odd|word}", data, "ja")
    with pytest.raises(PlaceholderError, match="no 'fr' text"):
        fill("{card.type|word}", data, "fr")


def test_the_games_words_are_the_glossary_terms() -> None:
    glossary = yaml.safe_load((ROOT / "templates" / "glossary.yaml").read_text("utf-8"))
    japanese = {term["en"]: term["ja"] for term in glossary["terms"].values()}
    checked = 0
    for game_id in GAME_IDS:
        for word in load_rules(game_id).model.words.values():
            if word["en"] in japanese:
                assert word["ja"] == japanese[word["en"]], word
                checked += 1
    assert checked >= 3


def test_a_word_without_every_language_fails_the_check(project: Path) -> None:
    game = project / "rules" / GAME / "game.yaml"
    text = game.read_text(encoding="utf-8")
    game.write_text(text.replace('paper: {en: paper, ja: "パー"}', "paper: {en: paper}"), "utf-8")
    result = run_cli("check", GAME, cwd=project)
    assert result.code == 1
    assert re.search(r"rules/gotchacards/game\.yaml:\d+:\d+: error: missing text in ja", result.err)


def test_check_fits_every_language_not_only_the_first(project: Path) -> None:
    """RPS-Fire prints English by default; a Japanese text too long for its box fails
    `check`, located in the card layout, before any `build --lang ja` meets it."""
    decks = project / "rules" / "rps-fire" / "decks.yaml"
    text = decks.read_text(encoding="utf-8")
    assert text.count("どのチョキにも勝つ。") == 1
    decks.write_text(text.replace("どのチョキにも勝つ。", "どのチョキにも勝つ。" * 30), "utf-8")
    result = run_cli("check", "rps-fire", cwd=project)
    assert result.code == 1
    assert re.search(r"templates/cards/rps-fire\.yaml:\d+:\d+: error: .*does not fit", result.err)


def test_a_layout_label_in_each_language_must_have_them_all(project: Path) -> None:
    layout = project / "templates" / "cards" / "gasha.yaml"
    text = layout.read_text(encoding="utf-8")
    layout.write_text(text.replace('{en: "TICKET", ja: "チケット"}', '{en: "TICKET"}'), "utf-8")
    result = run_cli("check", "gasha", cwd=project)
    assert result.code == 1
    assert re.search(
        r"templates/cards/gasha\.yaml:\d+:\d+: error: no text in ja \(the game's languages",
        result.err,
    )


def _lines(face: Any) -> list[TextLine]:
    return [item for item in face.items if isinstance(item, TextLine)]


def test_japanese_faces_keep_the_japanese_floor_and_set_numbers_in_latin() -> None:
    """A layout drawn for English (7 pt labels) prints Japanese at no less than 7.5 pt; a
    number on a Japanese card keeps the Latin bold face it has in English."""
    game = load_rules("gasha")
    english, japanese = (
        {
            face.key: face
            for deck in game_faces(game, TEMPLATES, PRESETS, MEASURE, lang)
            for face, _ in deck.fronts
        }
        for lang in ("en", "ja")
    )
    card = "reward-mg-ki-w"
    assert min(line.size for line in _lines(english[card])) < 7.5
    assert all(line.size >= 7.5 for line in _lines(japanese[card]) if JAPANESE.search(line.text))
    points = next(line for line in _lines(japanese[card]) if line.text == "5")
    assert points.font == next(line for line in _lines(english[card]) if line.text == "5").font


def test_a_card_back_is_titled_in_the_card_language(project: Path) -> None:
    """The title of a back's SVG (what a screen reader says, and a file browser shows) is in
    the language of the cards, as the fronts' are."""
    result = run_cli("build", "gotcha", "--paper", "a4", cwd=project, env=ENV)
    assert result.code == 0, result.err
    model = load_rules("gotcha").model
    assert model.card_language(None) == "ja"
    backs = sorted((project / "out" / "gotcha" / "cards").glob("back-*.svg"))
    assert backs
    for path in backs:
        title = ET.parse(path).getroot().findtext(f"{SVG}title") or ""
        deck = model.deck(path.stem.removeprefix("back-"))
        assert title == f"{model.name.get('ja')}：{deck.name.get('ja')}（裏面）"


@pytest.mark.parametrize("width", [18 + 1.5 * i for i in range(16)])
def test_japanese_lines_do_not_end_on_an_opening_bracket_nor_split_a_number(
    width: float,
) -> None:
    text = "払い戻しで¥1,000を受け取る（コレクションから1枚、+10%）。"
    fitted = fit(MEASURE, text, width, 200, role="ja", size=9, min_size=9, japanese=True)
    lines = ["".join(run.text for run in line.runs) for line in fitted.lines]
    assert "".join(lines) == text
    for line in lines[:-1]:
        assert line[-1] not in NO_LINE_END, lines
    for number in ("¥1,000", "+10%"):
        assert any(number in line for line in lines), lines


def test_gotcha_printed_in_english_has_english_cards_only() -> None:
    """GOTCHA!'s cards are Japanese with English second lines; printed in English they hold
    no Japanese (its second lines and labels are drawn for Japanese cards only)."""
    game = load_rules("gotcha")
    faces = [
        face
        for deck in game_faces(game, TEMPLATES, PRESETS, MEASURE, "en")
        for face in [*(f for f, _ in deck.fronts), deck.back]
    ]
    texts = [line.text for face in faces for line in _lines(face)]
    assert "Apprentice Knight" in texts
    assert [text for text in texts if JAPANESE.search(text)] == []


def test_the_preview_gallery_names_the_cards_in_the_card_language() -> None:
    from gachapress.serve.gallery import game_gallery

    game = load_rules("rps-fire")
    default, japanese = game_gallery(game), game_gallery(game, "ja")
    assert default[0].faces[0].name == "Rock"
    assert japanese[0].faces[0].name == "グー" and japanese[0].name == "山札"
