"""Placeholders put the model's numbers into prose."""

from __future__ import annotations

import pytest

from gachapress.data.load import load_rules
from gachapress.data.placeholders import PlaceholderError, card_data, fill, model_data

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


@pytest.mark.parametrize(
    "text", ["{setup.9.money}", "{scoring|yen}", "{rounds|bold}", "{Rounds}", "a { b", "a } b"]
)
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


def test_gotcha_derived_values_count_notice_kinds_and_ituned_amounts() -> None:
    model = load_rules("gotcha").model
    data = model_data(model)
    notices = model.decks.notices.cards
    for kind in ("rate", "order"):
        assert data["notice_kinds"][kind] == sum(c.count for c in notices if c.effect.kind == kind)
    assert sum(data["notice_kinds"].values()) == data["deck_sizes"]["notices"]
    amounts = {c.amount for c in model.decks.ituned.cards}
    assert data["ituned_amounts"] == sorted(amounts)
    assert fill("{ituned_amounts|count}", data) == str(len(amounts))


def test_gasha_derived_values_recount_the_decks() -> None:
    from gachapress.games.gasha import rules

    model = load_rules("gasha").model
    data = model_data(model)
    rewards = [r for r in model.decks.set_rewards.cards for _ in range(r.count)]
    gashas = [g.kind for g in model.decks.gasha.cards for _ in range(g.count)]
    counted = data["rewards"]
    assert counted["unmarked"] == len([r for r in rewards if not r.marker])
    assert counted["marked"] == {
        "5-plus": len([r for r in rewards if r.marker == "5+"]),
        "6": len([r for r in rewards if r.marker == "6"]),
    }
    assert counted["with_ticket"] == len([r for r in rewards if r.ticket])
    assert counted["identical"] == len([r for r in rewards if r.identical])
    assert counted["identical_size"]["max"] == max(r.identical or 0 for r in rewards)
    premiums = [r.points - sum(r.needs.values()) - r.wild for r in rewards if r.ticket]
    assert counted["premium"] == {"min": min(premiums), "max": max(premiums)}
    for players, row in model.setup.items():
        assert counted["in_play"][players] == rules.rewards_in_play(model, players)
        assert counted["pile"][players] == rules.rewards_in_play(model, players) - row.reward_row
        deal = data["gasha_deal"][players]
        assert deal["left"] == sum(rules.gasha_deck_sizes(model, players))
        assert deal["dealt"] + deal["left"] == len(gashas)
    always = [r.ticket for r in rewards if r.ticket and not r.marker]
    assert data["ticket_halves"]["unmarked"] == {
        c.id: always.count(c.id) for c in model.ticket_colours
    }
    assert sorted(data["ticket_halves"]["marked"]["6"]) == sorted(
        r.ticket for r in rewards if r.ticket and r.marker == "6"
    )
    assert data["gashas_per_kind"] == min(gashas.count(k.id) for k in model.kinds)
    assert data["bonus_amounts"]["bonus-two-wild-gashas"] == rules.wild_gashas_per_token(model)


def test_rps_fire_derived_values_recount_the_deck() -> None:
    from gachapress.games.rps_fire import rules

    model = load_rules("rps-fire").model
    data = model_data(model)
    deck = [card for card in model.decks.main.cards for _ in range(card.count)]
    for kind in ("rock", "paper", "scissors", "fire-alarm"):
        assert data["cards_of_type"][kind] == len([c for c in deck if c.type == kind])
    assert data["card_values"]["fire-alarm-both"] == next(
        c.value for c in deck if c.direction == "both"
    )
    for players in model.setup:
        left = deck[players * rules.hand_size(model, players) + model.pile_start.cards :]
        assert data["draw_pile"][players] == len(left)


@pytest.mark.parametrize(
    ("text", "expected"),
    [("{n|plural:card}", "1 card"), ("{m|plural:card}", "2 cards"), ("{z|plural:turn}", "0 turns")],
)
def test_plural_counts_a_word(text: str, expected: str) -> None:
    assert fill(text, {"n": 1, "m": 2, "z": 0}) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{n|plural}", "needs a word"),
        ("{n|number:card}", "takes no word"),
        ("{n|bogus:card}", "unknown format 'bogus'"),
    ],
)
def test_format_words_are_checked(text: str, message: str) -> None:
    with pytest.raises(PlaceholderError, match=message):
        fill(text, {"n": 1})


def test_a_card_text_names_its_own_fields() -> None:
    model = load_rules("gotchacards").model
    capsule = next(c for c in model.decks.main.cards if c.id == "capsule")
    assert capsule.effect is not None
    data = card_data(model, model_data(model), capsule)
    assert (
        fill("draw {card.effect.count|plural:card}", data) == f"draw {capsule.effect.count} cards"
    )
    assert model_data(model)["effects"]["capsule"]["count"] == capsule.effect.count
    assert "{" in capsule.text["en"]  # the source keeps the placeholder; faces and books fill it


def test_fighting_cards_name_what_they_beat_and_lose_to() -> None:
    model = load_rules("gotchacards").model
    data = model_data(model)
    for card in model.decks.main.cards:
        values = card_data(model, data, card)["card"]
        if card.type == "item":
            assert "beats" not in values
            continue
        assert model.beats[values["beats"]] != card.type  # it beats that type, not the reverse
        assert values["beats"] == model.beats[card.type]
        assert model.beats[values["loses_to"]] == card.type
        assert fill("{card.type|capital}", {"card": values}) == card.type.capitalize()


def test_a_face_prints_every_text_as_the_book_does(project_copy) -> None:  # issue 31, item 17
    """A card's name, its deck's and its game's print with their placeholders filled and
    ``{{`` as ``{``, on the face as in the book: never the raw ``{rounds} {{x}}``."""
    from gachapress.render.faces import game_faces
    from gachapress.render.layout import TextLine
    from gachapress.render.metrics import Measure
    from gachapress.render.presets import load_presets
    from tests.conftest import ROOT, TEMPLATES

    rules = project_copy / "rules" / "gachapon-trick"
    decks = (rules / "decks.yaml").read_text(encoding="utf-8")
    decks = decks.replace("{en: Refund,", '{en: "{rounds} {{x}}",', 1)
    (rules / "decks.yaml").write_text(decks, encoding="utf-8")
    game_file = (rules / "game.yaml").read_text(encoding="utf-8")
    game_file = game_file.replace("{en: Gachapon Trick,", '{en: "Trick of {rounds}",', 1)
    (rules / "game.yaml").write_text(game_file, encoding="utf-8")
    game = load_rules("gachapon-trick", project_copy / "rules")
    measure = Measure(ROOT / "build" / "fonts")
    presets = load_presets(TEMPLATES.path("print.yaml"))
    decks_faces = game_faces(game, TEMPLATES, presets, measure, "en")
    faces = {face.key: face for deck in decks_faces for face, _ in deck.fronts}
    printed = " ".join(i.text for i in faces["refund"].items if isinstance(i, TextLine))
    assert "3 {x}" in printed and "Trick of 3" in printed
    assert "{rounds}" not in printed and "{{" not in printed
    assert faces["refund"].title == "3 {x}"
