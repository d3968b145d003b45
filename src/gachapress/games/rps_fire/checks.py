"""Rock, Paper, Scissors, Fire's deck checks: setup for every count, the type cycle, the card
values and directions, and the fire-alarm scoring."""

from __future__ import annotations

from collections.abc import Iterator
from typing import get_args

from gachapress.data.load import GameData
from gachapress.errors import Problem
from gachapress.games.rps_fire.model import Direction, HandType, RpsFire


def _model(game: GameData) -> RpsFire:
    assert isinstance(game.model, RpsFire)
    return game.model


def setup_feasible(game: GameData) -> Iterator[Problem]:
    """Every player count of every mode has a setup row, and the deck supports it: the hands,
    the card that starts the pile, and a deck left to draw from (at least the fire alarm's
    draw). As a fire alarm turned up to start the pile goes back (clarification pile-start),
    the deck left after dealing must hold an ordinary card whatever the deal: more cards than
    there are fire alarms, or the engine would turn alarms for ever."""
    model = _model(game)
    deck = model.decks.main
    size = deck.size()
    ordinary = sum(card.count for card in deck.cards if not card.is_fire_alarm)
    alarms = size - ordinary
    for mode_id, mode in model.modes.items():
        for players in mode.players:
            row = model.setup.get(players)
            if row is None:
                yield game.where(("modes", mode_id, "players")).problem(
                    f"no setup row for {players} players"
                )
                continue
            dealt = players * row.hand + model.pile_start.cards
            left = size - dealt
            need = max(model.fire_alarm.draw, 1, alarms)
            if left < need:
                yield game.where(("setup", players, "hand")).problem(
                    f"{players} players: {players} hands of {row.hand} and "
                    f"{model.pile_start.cards} pile card leave {left} of {size} cards to draw "
                    f"from; at least {need} must remain (the alarm's draw, and as many as "
                    f"the {alarms} fire alarms, so that an ordinary card can start the pile)"
                )
    if ordinary < model.pile_start.cards:
        yield game.where(("pile_start", "cards")).problem(
            f"the pile starts with {model.pile_start.cards} ordinary cards, the deck holds "
            f"{ordinary}"
        )
    for players in model.setup:
        if players not in model.player_counts():
            yield game.where(("setup", players), key=True).problem(
                f"setup row for {players} players, which no mode allows"
            )


def type_cycle(game: GameData) -> Iterator[Problem]:
    """Rock, paper and scissors beat each other in a cycle: each beats exactly one other type
    and is beaten by exactly one (seed, "Standard Rock/Paper/Scissors Rules")."""
    model = _model(game)
    table = model.type_beats
    for kind in get_args(HandType):
        if kind not in table:
            yield game.where(("type_beats",)).problem(f"type {kind!r} beats nothing")
    beaten: dict[str, str] = {}
    for kind, victim in table.items():
        if victim == kind:
            yield game.where(("type_beats", kind)).problem(f"type {kind!r} cannot beat itself")
        elif victim in beaten:
            yield game.where(("type_beats", kind)).problem(
                f"{victim!r} is beaten by both {beaten[victim]!r} and {kind!r}"
            )
        else:
            beaten[victim] = kind


def card_values(game: GameData) -> Iterator[Problem]:
    """Rock, paper and scissors cards carry a value in the game's range, every type has cards,
    and every fire-alarm direction is in the deck and has its takes defined."""
    model = _model(game)
    cards = model.decks.main.cards
    low, high = model.values.min, model.values.max
    for card in cards:
        if not card.is_fire_alarm and not low <= card.value <= high:
            yield game.where((*game.card_path(card.id), "value")).problem(
                f"card {card.id!r} has value {card.value}, outside {low}-{high}"
            )
    present = {card.type for card in cards}
    for kind in (*get_args(HandType), "fire-alarm"):
        if kind not in present:
            yield game.where(("decks", "main", "cards")).problem(f"the deck has no {kind} card")
    directions = {card.direction for card in cards if card.is_fire_alarm}
    for direction in get_args(Direction):
        if direction not in directions:
            yield game.where(("decks", "main", "cards")).problem(
                f"the deck has no fire alarm pointing {direction}"
            )
        if direction not in model.fire_alarm.takes:
            yield game.where(("fire_alarm", "takes")).problem(
                f"no takes defined for fire alarms pointing {direction}"
            )


def alarm_scoring(game: GameData) -> Iterator[Problem]:
    """A fire alarm's value, doubled, equals the points per alarm of a hand of only alarms, so
    the two alarm scoring rules agree and adding a card never lowers a score (clarification
    fire-alarm-value)."""
    model = _model(game)
    scoring = model.scoring
    for card in model.decks.main.cards:
        if not card.is_fire_alarm:
            continue
        doubled = card.value * scoring.fire_alarm_multiplier
        if doubled != scoring.only_fire_alarms_each:
            yield game.where((*game.card_path(card.id), "value")).problem(
                f"fire alarm {card.id!r} counts {card.value} (x{scoring.fire_alarm_multiplier} "
                f"= {doubled}), but a hand of only alarms scores {scoring.only_fire_alarms_each} "
                "each; the two must agree"
            )
