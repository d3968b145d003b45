"""The glossary (templates/glossary.yaml) keeps the game terms of the Japanese books one word
each: no Japanese book uses a spelling the glossary rules out."""

from __future__ import annotations

from functools import cache
from typing import Any

import pytest
import yaml

from gachapress.data.load import load_rules
from gachapress.publish.book_html import render_rulebooks
from tests.conftest import GAME_IDS, ROOT
from tests.test_rulebooks import visible_text

GLOSSARY = ROOT / "templates" / "glossary.yaml"


@cache
def terms() -> dict[str, dict[str, Any]]:
    return yaml.safe_load(GLOSSARY.read_text(encoding="utf-8"))["terms"]


def japanese_books() -> list[str]:
    return [g for g in GAME_IDS if "ja" in load_rules(g).model.languages]


def test_every_term_has_its_words_and_avoids_only_other_ones() -> None:
    for term_id, term in terms().items():
        assert set(term) <= {"en", "ja", "avoid", "note"}, term_id
        assert term["en"] and term["ja"], term_id
        for variant in term.get("avoid", []):
            assert variant != term["ja"], (term_id, variant)


def test_the_checker_finds_a_variant_spelling() -> None:
    assert variants_in("ガチャをロールする") == ["roll: ロール"]


def variants_in(text: str) -> list[str]:
    return [
        f"{term_id}: {variant}"
        for term_id, term in terms().items()
        for variant in term.get("avoid", [])
        if variant in text
    ]


@pytest.mark.parametrize("game_id", japanese_books())
def test_japanese_books_use_the_glossary_terms(game_id: str) -> None:
    text = visible_text(render_rulebooks(load_rules(game_id))["ja"])
    assert variants_in(text) == []
