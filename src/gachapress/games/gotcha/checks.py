"""GOTCHA!'s deck checks: the decks' roles, rates within the die's reach, notice effects, the
scoring scale, and setup for every player count."""

from __future__ import annotations

from collections.abc import Iterator

from gachapress.data.load import GameData
from gachapress.errors import Problem
from gachapress.games.gotcha.model import Gotcha


def _model(game: GameData) -> Gotcha:
    return game.model  # type: ignore[return-value]


def deck_roles(game: GameData) -> Iterator[Problem]:
    """The draw deck is made of this game's decks, each once, with the iTuned cards and without
    the gacha cards (which form their own deck)."""
    model = _model(game)
    decks = dict(model.deck_items())
    for i, deck_id in enumerate(model.draw_deck):
        where = game.where(("draw_deck", i))
        if deck_id not in decks:
            yield where.problem(f"unknown deck {deck_id!r} in the draw deck")
        elif deck_id == "gacha":
            yield where.problem("the gacha cards form their own deck, apart from the draw deck")
        elif deck_id in model.draw_deck[:i]:
            yield where.problem(f"deck {deck_id!r} is listed twice in the draw deck")
    if "ituned" not in model.draw_deck:
        yield game.where(("draw_deck",)).problem("the draw deck must hold the iTuned cards")


def gacha_rates(game: GameData) -> Iterator[Problem]:
    """Every gacha card can be pulled by some face of the die, and missed by another."""
    model = _model(game)
    lowest = model.die.percent_per_pip
    certain = model.die.faces * model.die.percent_per_pip
    for card in model.decks.gacha.cards:
        where = game.where((*game.card_path(card.id), "rate"))
        if card.rate < lowest:
            yield where.problem(
                f"gacha card {card.id!r}: a rate of {card.rate}% is below {lowest}%, so no "
                "face of the die can pull it"
            )
        elif card.rate >= certain:
            yield where.problem(
                f"gacha card {card.id!r}: a rate of {card.rate}% pulls on every face; the roll "
                "would mean nothing"
            )


def die_covers_percent(game: GameData) -> Iterator[Problem]:
    """The die's highest face reads exactly 100%, as the seed's d10 times ten does."""
    die = _model(game).die
    if die.faces * die.percent_per_pip != 100:
        yield game.where(("die",)).problem(
            f"{die.faces} faces of {die.percent_per_pip}% reach {die.faces * die.percent_per_pip}"
            "%, not 100%"
        )


def notice_effects(game: GameData) -> Iterator[Problem]:
    """Notices are unique (each is used once a game), and a rate notice really moves the rate."""
    model = _model(game)
    for card in model.decks.notices.cards:
        path = game.card_path(card.id)
        if card.count != 1:
            yield game.where((*path, "count")).problem(
                f"notice {card.id!r}: every notice is used at most once a game, so each is a "
                f"single card, not {card.count}"
            )
        if card.effect.kind == "rate" and card.effect.delta == 0:
            yield game.where((*path, "effect", "delta")).problem(
                f"notice {card.id!r}: a rate change of 0% does nothing"
            )
    if not any(c.effect.kind == "rate" for c in model.decks.notices.cards):
        yield game.where(("decks", "notices")).problem("no notice changes the rate")
    if not any(c.effect.kind == "order" for c in model.decks.notices.cards):
        yield game.where(("decks", "notices")).problem("no notice changes the rolling order")


def ituned_amounts(game: GameData) -> Iterator[Problem]:
    """Each iTuned amount divides evenly by the scoring divisor, so half a card is whole points."""
    model = _model(game)
    divisor = model.scoring.ituned_divisor
    for card in model.decks.ituned.cards:
        if card.amount % divisor:
            yield game.where((*game.card_path(card.id), "amount")).problem(
                f"iTuned card {card.id!r}: ¥{card.amount} does not divide by {divisor}, the "
                "scoring divisor"
            )


def setup_feasible(game: GameData) -> Iterator[Problem]:
    """Every player count of every mode has a setup row, and the draw deck deals every hand."""
    model = _model(game)
    decks = dict(model.deck_items())
    draw = sum(decks[d].size() for d in set(model.draw_deck) if d in decks)
    for mode_id, mode in model.modes.items():
        for players in mode.players:
            row = model.setup.get(players)
            if row is None:
                yield game.where(("modes", mode_id, "players")).problem(
                    f"no setup row for {players} players"
                )
                continue
            if players * row.hand > draw:
                yield game.where(("setup", players, "hand")).problem(
                    f"{players} players need {players * row.hand} cards dealt, but the draw "
                    f"deck holds {draw}"
                )
    for players in model.setup:
        if players not in model.player_counts():
            yield game.where(("setup", players), key=True).problem(
                f"setup row for {players} players, which no mode allows"
            )
