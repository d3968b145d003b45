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


def test_derived_values_count_copies_and_the_beginner_deck() -> None:
    model = load_rules("gotchacards").model
    data = model_data(model)
    cards = model.decks.main.cards
    assert data["card_counts"] == {c.id: c.count for c in cards}
    plain = sum(c.count for c in cards if not c.advanced)
    assert data["beginner_deck"] == {
        "cards": plain,
        "leaves_out": data["deck_sizes"]["main"] - plain,
    }
    text = fill(model.beginner.text["en"], data)
    assert f"The {plain} cards left" in text and "{" not in text


def test_a_derived_value_may_not_hide_the_games_own() -> None:
    model = load_rules("gachapon-trick").model

    class Clashing(type(model)):  # type: ignore[misc]
        def derived_values(self) -> dict[str, object]:
            return {"setup": 1}

    with pytest.raises(ValueError, match="hides the game's own 'setup'"):
        model_data(Clashing.model_validate(model.model_dump(by_alias=True)))
