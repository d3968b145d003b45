"""Setup diagrams and turn summaries: every game and mode has both in every language; the
diagram shows the engine's start position (its counts follow the rules data), is drawn by
both backends (inline SVG with escaped text, PDF text on a page) and speaks to players."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import pytest

from gachapress.book import model as m
from gachapress.book.build import BookBuilder, build_books
from gachapress.book.diagram import DiagramBuilder
from gachapress.book.words import StringTable
from gachapress.data.load import load_rules
from gachapress.engine.core import Game
from gachapress.errors import RulesError
from gachapress.publish.book_html import render_books
from tests.conftest import GAME_IDS, TEMPLATES
from tests.test_book_pdf import built, page_texts, squash
from tests.test_player_voice import ENGINE_WORDS, RAW_ACTION

BOOKS = [(g, lang) for g in GAME_IDS for lang in load_rules(g).model.languages]


@cache
def books(game_id: str, rules_dir: Path | None = None) -> dict[str, m.Book]:
    return build_books(load_rules(game_id, rules_dir), StringTable.load(TEMPLATES))


def diagrams_only(game_id: str, rules_dir: Path) -> tuple[m.SetupDiagram, ...]:
    """The English book's diagrams alone (the worked examples, which check the published
    numbers, are not run: an edited number would fail them first)."""
    builder = BookBuilder(
        load_rules(game_id, rules_dir), "en", StringTable.load(TEMPLATES), [], None
    )
    return DiagramBuilder(builder).all()


def section(book: m.Book, section_id: str) -> m.PlainSection:
    found = next(s for s in book.sections if s.id == section_id)
    assert isinstance(found, m.PlainSection)
    return found


def diagrams(book: m.Book) -> tuple[m.SetupDiagram, ...]:
    return section(book, "setup").diagrams


def areas(diagram: m.SetupDiagram) -> dict[str, list[str]]:
    """Each area's name and the texts written inside it."""
    boxes = [s for s in diagram.shapes if s.kind == "area"]
    texts = [s for s in diagram.shapes if s.kind == "text"]
    return {
        box.text: [
            t.text for t in texts if box.x <= t.x <= box.x + box.w and box.y <= t.y <= box.y + box.h
        ]
        for box in boxes
    }


def start(game_id: str, diagram_mode: str, players: int, rules_dir: Path | None = None):
    """The engine's start position as the rules data describe it (a fresh deal: any deal has
    the same counts), past the setup phases the book's diagram names."""
    data = load_rules(game_id, rules_dir)
    assert data.model.book is not None
    spec = next(d for d in data.model.book.diagrams if (d.mode or diagram_mode) == diagram_mode)
    state = Game(data).new_game(players=players, seed=7, mode=diagram_mode)
    while state.observation(0).get("phase") in spec.setup_phases:
        state.apply(state.legal_actions()[-1])
    return state.observation(0)


@pytest.mark.parametrize(("game_id", "lang"), BOOKS)
def test_every_mode_has_a_diagram_and_a_turn_summary(game_id: str, lang: str) -> None:
    book = books(game_id)[lang]
    modes = set(load_rules(game_id).model.modes)
    assert {d.id.removeprefix("diagram-") for d in diagrams(book)} == modes
    summaries = section(book, "play").summaries
    assert {s.id.removeprefix("turn-") for s in summaries} == modes
    for summary in summaries:
        assert len(summary.steps) >= 2 and summary.title
    for diagram in diagrams(book):
        names = set(areas(diagram))
        players = {book.ui["player"].format(n=n) for n in range(1, diagram.players + 1)}
        assert players <= names, names
        assert any(s.kind == "card" for s in diagram.shapes)
        assert str(diagram.players) in diagram.title


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_diagram_counts_are_the_engines(game_id: str) -> None:
    book = books(game_id)["en"]
    for diagram in diagrams(book):
        mode = diagram.id.removeprefix("diagram-")
        obs = start(game_id, mode, diagram.players)
        inside = areas(diagram)
        for seat, held in enumerate(obs["hand_sizes"]):
            words = "1 card" if held == 1 else f"{held} cards"
            assert words in inside[f"Player {seat + 1}"], (seat, inside)
        middle = " | ".join(inside["Middle of the table"])
        for key in ("deck_size", "draw_size", "gacha_left", "stack_size", "reward_pile"):
            if key in obs:
                assert f"{obs[key]} cards" in middle, (key, middle)


def test_a_changed_hand_size_changes_the_diagram(project_copy: Path) -> None:
    before = diagrams(books("rps-fire")["en"])[0]
    assert "7 cards" in areas(before)["Player 1"]
    assert "35 cards" in areas(before)["Middle of the table"]  # 57 - 3 hands - the pile's card
    game_yaml = project_copy / "rules" / "rps-fire" / "game.yaml"
    text = game_yaml.read_text(encoding="utf-8")
    game_yaml.write_text(text.replace("  3: {hand: 7}", "  3: {hand: 5}"), encoding="utf-8")
    after = diagrams_only("rps-fire", project_copy / "rules")[0]
    assert "5 cards" in areas(after)["Player 3"]
    assert "41 cards" in areas(after)["Middle of the table"]
    assert "Player 3: Hand: 5 cards" in after.description


def test_a_diagram_path_naming_nothing_is_a_located_error(project_copy: Path) -> None:
    book_yaml = project_copy / "rules" / "rps-fire" / "book.yaml"
    text = book_yaml.read_text(encoding="utf-8")
    assert "{pile: deck_size, deck: main" in text
    book_yaml.write_text(text.replace("{pile: deck_size,", "{pile: deck_count,"), "utf-8")
    line = next(
        n
        for n, row in enumerate(book_yaml.read_text("utf-8").splitlines(), 1)
        if "deck_count" in row
    )
    with pytest.raises(RulesError) as caught:
        books("rps-fire", project_copy / "rules")
    (problem,) = caught.value.problems
    assert (problem.file, problem.line) == (book_yaml, line)
    assert "setup diagram" in str(problem) and "deck_count" in str(problem)


@pytest.mark.parametrize(("game_id", "lang"), BOOKS)
def test_diagram_shapes_stay_inside_it_and_areas_do_not_overlap(game_id: str, lang: str) -> None:
    drawn = diagrams(books(game_id)[lang])
    for diagram in [*drawn, *(d.narrow for d in drawn if d.narrow)]:
        for s in diagram.shapes:
            assert s.x >= 0 and s.x + s.w <= diagram.width + 0.01, s
            assert s.y >= 0 and s.y + s.h <= diagram.height + 0.01, s
        boxes = [s for s in diagram.shapes if s.kind == "area"]
        for i, a in enumerate(boxes):
            for b in boxes[i + 1 :]:
                apart = a.x + a.w <= b.x or b.x + b.w <= a.x or a.y + a.h <= b.y or b.y + b.h <= a.y
                assert apart, (a.text, b.text)


@pytest.mark.parametrize(("game_id", "lang"), BOOKS)
def test_diagram_and_summary_words_are_players_words(game_id: str, lang: str) -> None:
    book = books(game_id)[lang]
    words = [s.text for d in diagrams(book) for s in d.shapes if s.text]
    words += [line for d in diagrams(book) for line in d.description]
    words += [
        node.text
        for summary in section(book, "play").summaries
        for step in summary.steps
        for node in step
        if isinstance(node, m.Text)
    ]
    model = load_rules(game_id).model
    ids = {*model.cards(), *(f"back-{d}" for d, _ in model.deck_items())}
    ids = {i for i in ids if "-" in i}  # a plain word (a deck called "main") may be English
    for word in words:
        for what, pattern in ENGINE_WORDS.items():
            assert not pattern.search(word), (what, word)
        assert not RAW_ACTION.search(word), word
        assert not re.search(r"[a-z]+_[a-z]+|[{}]", word), word  # observation keys, placeholders
        assert not set(re.findall(r"[a-z0-9-]+", word)) & ids, word


def test_players_side_by_side_are_one_under_another_on_a_phone() -> None:
    """Gasha's players sit two to a line; its narrow variant, shown by a container query on a
    screen narrower than the wide one, stacks them at the same size."""
    (diagram,) = diagrams(books("gasha")["en"])
    narrow = diagram.narrow
    assert narrow is not None and narrow.width < diagram.width
    players = [s for s in narrow.shapes if s.kind == "area" and s.text.startswith("Player")]
    assert [s.text for s in players] == ["Player 1", "Player 2", "Player 3"]
    assert {s.x for s in players} == {0} and narrow.description == diagram.description
    wide_players = [s for s in diagram.shapes if s.kind == "area" and s.text.startswith("Player")]
    assert len({s.y for s in wide_players}) < 3  # side by side there
    page = render_books(books("gasha"), TEMPLATES)["en"]
    fits = round(diagram.width * 3)
    assert f"@container (max-width: {fits - 1}px) {{ #diagram-standard-svg" in page
    assert page.count('<svg class="diagram diagram-') == 2


def test_the_html_book_shows_the_diagram_with_its_text_escaped(project_copy: Path) -> None:
    book_yaml = project_copy / "rules" / "rps-fire" / "book.yaml"
    text = book_yaml.read_text(encoding="utf-8")
    assert "label: {en: The pile," in text
    book_yaml.write_text(text.replace("label: {en: The pile,", 'label: {en: "<b>Pile</b> & co",'))
    page = render_books(books("rps-fire", project_copy / "rules"), TEMPLATES)["en"]
    figure = re.search(r'<figure class="setup-diagram".*?</figure>', page, re.S)
    assert figure is not None
    svg = figure.group(0)
    assert '<svg class="diagram' in svg and "<title" in svg and "<desc" in svg
    assert "&lt;b&gt;Pile&lt;/b&gt; &amp; co" in svg and "<b>Pile" not in svg
    assert '<image href="cards/back-main.svg"' in svg
    for n in (1, 2, 3):
        assert f">Player {n}</text>" in svg
    assert re.search(r'<aside class="turn-summary"[^>]*>\s*<h3[^>]*>On your turn</h3>\s*<ol>', page)


@pytest.mark.parametrize(("game_id", "lang"), BOOKS)
def test_the_pdf_book_draws_the_diagram_and_the_summary(game_id: str, lang: str) -> None:
    book, pdf, _ = built(game_id, lang)
    pages = [squash(p) for p in page_texts(pdf)]
    for diagram in diagrams(book):
        (page,) = [p for p in pages if squash(diagram.title) in p]
        names = areas(diagram)
        for name, texts in names.items():
            assert squash(name) in page
            for line in texts:
                assert squash(line) in page, line
    for summary in section(book, "play").summaries:
        assert any(squash(summary.title) in p for p in pages)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_japanese_diagram_is_described_with_japanese_punctuation_and_counters(
    game_id: str,
) -> None:
    """A screen reader hears "プレイヤー1：手札：7枚、…", with the book's own counters, not
    English commas and colons."""
    for diagram in diagrams(books(game_id)["ja"]):
        for line in diagram.description:
            assert ", " not in line and ": " not in line, line
        said = " ".join(diagram.description)
        assert re.search(r"：\d+(枚|個)", said), said
