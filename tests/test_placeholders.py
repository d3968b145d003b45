"""Placeholders put the model's numbers into prose."""

from __future__ import annotations

import pytest

from gachapress.data.load import load_rules
from gachapress.data.placeholders import PlaceholderError, fill, model_data

DATA = model_data(load_rules("gachapon-trick").model)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Start with {setup.3.money|yen}.", "Start with ¥5,000."),
        ("Deal {setup.3.hand} cards.", "Deal 12 cards."),
        ("{deck_sizes.toys} toy cards", "49 toy cards"),
        ("Sets score {scoring.set_points|list}.", "Sets score 1, 4, 9, 16, 25, 36, 49."),
        ("{{literal}} braces", "{literal} braces"),
        ("no placeholder", "no placeholder"),
    ],
)
def test_fill(text: str, expected: str) -> None:
    assert fill(text, DATA) == expected


@pytest.mark.parametrize("text", ["{setup.9.money}", "{scoring|yen}", "{rounds|bold}"])
def test_bad_placeholders_are_refused(text: str) -> None:
    with pytest.raises(PlaceholderError):
        fill(text, DATA)
