"""The book model: games give their content as model nodes, never through publishing code; the
model is frozen data; provenance labels follow the examples' data."""

from __future__ import annotations

import ast
import dataclasses
import shutil
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from gachapress.book import model as m
from gachapress.book.build import build_books
from gachapress.book.words import StringTable
from gachapress.data.load import load_rules
from gachapress.errors import RulesError
from tests.conftest import GAME_IDS, ROOT, RULES, TEMPLATES

GAMES_DIR = ROOT / "src" / "gachapress" / "games"


@cache
def books(game_id: str) -> dict[str, m.Book]:
    return build_books(load_rules(game_id), StringTable.load(TEMPLATES))


def nodes(value: Any) -> Iterator[Any]:
    """Every dataclass instance inside ``value``, ``value`` included."""
    if dataclasses.is_dataclass(value):
        yield value
        for f in dataclasses.fields(value):
            yield from nodes(getattr(value, f.name))
    elif isinstance(value, tuple | list):
        for item in value:
            yield from nodes(item)


def examples(book: m.Book) -> list[m.Example]:
    return [n for n in nodes(book) if isinstance(n, m.Example)]


@pytest.mark.parametrize("path", sorted(GAMES_DIR.glob("*/book.py")), ids=lambda p: p.parent.name)
def test_game_book_modules_import_no_publishing_code(path: Path) -> None:
    imported = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            imported.append(node.module)
        elif isinstance(node, ast.Import):
            imported += [alias.name for alias in node.names]
    assert imported, "the AST walk found the module's imports"
    assert not [name for name in imported if name.startswith("gachapress.publish")]
    assert any(name.startswith("gachapress.book") for name in imported)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_book_is_frozen_data_in_every_language(game_id: str) -> None:
    built = books(game_id)
    assert sorted(built) == sorted(load_rules(game_id).model.languages)
    for book in built.values():
        found = list(nodes(book))
        assert len(found) > 100
        for node in found:
            assert type(node).__dataclass_params__.frozen, type(node).__name__  # type: ignore[attr-defined]
        assert not [
            n for n in found for f in dataclasses.fields(n) if type(getattr(n, f.name)) is list
        ]
        assert [s.id for s in book.sections][:2] == ["overview", "components"]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_only_examples_worked_in_the_original_rules_say_so(game_id: str) -> None:
    data = {e.id: e for e in load_rules(game_id).model.examples}
    book = books(game_id)["en"]
    ui = book.ui
    for example in examples(book):
        source = data[example.id.removeprefix("example-")].source
        expected = {"seed-example": "from_seed_example", "seed": "from_seed"}.get(
            source, "from_project"
        )
        assert example.provenance.text == ui[expected]
    intro = next(s for s in book.sections if isinstance(s, m.ExamplesSection)).intro
    worked = sum(e.source == "seed-example" for e in data.values())
    assert ("worked in the original rules" in intro) == (worked > 0)


def test_gachapon_trick_claims_no_example_from_its_original_rules() -> None:
    # its original rules hold no worked example (issue 13)
    book = books("gachapon-trick")["en"]
    assert not [e for e in examples(book) if e.provenance.text == book.ui["from_seed_example"]]
    intro = next(s for s in book.sections if isinstance(s, m.ExamplesSection)).intro
    assert "taken from the original rules" not in intro


def test_the_seeds_own_worked_examples_are_labelled_so() -> None:
    book = books("gotchacards")["en"]
    labels = {e.id: e.provenance.text for e in examples(book)}
    assert labels["example-rock-paper-paper-shared"] == "from the original rules"
    assert labels["example-overtime-third"] == "from the original rules"
    assert labels["example-overtime-first"] == "a rule of the original rules"


def test_an_answer_resting_on_a_clarification_links_it() -> None:
    book = books("rps-fire")["en"]
    by_id = {e.id: e for e in examples(book)}
    alarm = by_id["example-stuck-with-an-alarm"].provenance  # 16 needs the alarm to count 5
    assert (alarm.href, alarm.link) == ("#clar-fire-alarm-value", book.ui["follows_clarification"])
    clarifications = next(s for s in book.sections if isinstance(s, m.ClarificationsSection))
    assert "clar-fire-alarm-value" in {c.id for c in clarifications.items}
    assert by_id["example-sum-of-values"].provenance.href is None


def test_an_example_naming_an_unknown_clarification_is_a_located_error(tmp_path: Path) -> None:
    shutil.copytree(RULES, tmp_path / "rules")
    file = tmp_path / "rules" / "rps-fire" / "examples.yaml"
    text = file.read_text(encoding="utf-8")
    file.write_text(
        text.replace("clarification: fire-alarm-value", "clarification: alarm-valu", 1),
        encoding="utf-8",
    )
    with pytest.raises(RulesError) as caught:
        load_rules("rps-fire", tmp_path / "rules")
    (problem,) = caught.value.problems
    line = text[: text.index("clarification: fire-alarm-value")].count("\n") + 1
    assert f"examples.yaml:{line}:" in str(problem)
    assert "unknown clarification 'alarm-valu'" in str(problem)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_tokens_are_counted_as_tokens_beside_the_cards(lang: str) -> None:
    """Gasha's bonus tokens are not cards: the header counts them apart, and in Japanese their
    components line takes the counter for things (個), not the one for flat cards (枚)."""
    model = load_rules("gasha").model
    forms = {deck_id: deck.form for deck_id, deck in model.deck_items()}
    cards = sum(deck.size() for _, deck in model.deck_items() if deck.form == "card")
    tokens = sum(deck.size() for _, deck in model.deck_items() if deck.form == "token")
    assert cards and tokens
    book = books("gasha")[lang]
    facts = dict(book.header.facts)
    expected = {
        "en": f"{cards} cards, {tokens} tokens",
        "ja": f"カード{cards}枚、トークン{tokens}個",
    }
    assert expected[lang] in facts.values()
    (section,) = [n for n in nodes(book) if isinstance(n, m.ComponentsSection)]
    counted = list(zip(section.items, model.components, strict=True))
    assert {forms[c.deck] for _, c in counted if c.deck} == {"card", "token"}
    for item, component in counted:
        assert component.deck is not None
        counter = {"en": "", "ja": "個" if forms[component.deck] == "token" else "枚"}[lang]
        assert item.count == f"{component.count}{counter}"
