"""Gachapon Trick's deck checks: the square's references, the scoring table, setup for every
count (the Latin square itself is a check declared in decks.yaml)."""

from __future__ import annotations

from collections.abc import Iterator

from gachapress.data.load import GameData
from gachapress.errors import Problem
from gachapress.games.gachapon_trick.model import GachaponTrick


def square_references(game: GameData) -> Iterator[Problem]:
    """The square has a row per colour and a cell per cost, naming only known toys, and no colour,
    cost or toy is listed twice (each card's id is its colour and cost); no two colours share a
    symbol (the symbol tells a suit apart for a colour-blind player)."""
    deck = _model(game).decks.toys
    base = ("decks", "toys")
    for key, values in (
        ("colors", [c.id for c in deck.colors]),
        ("costs", deck.costs),
        ("toys", [t.id for t in deck.toys]),
    ):
        for i, value in enumerate(values):
            if value in values[:i]:
                yield game.where((*base, key, i)).problem(f"{value!r} is listed twice in {key}")
    for i, colour in enumerate(deck.colors):
        same = [c.id for c in deck.colors[:i] if c.symbol == colour.symbol]
        if same:
            yield game.where((*base, "colors", i, "symbol")).problem(
                f"{colour.id} has the symbol {colour.symbol!r} of {same[0]}: each suit needs "
                "its own, so it reads without its colour"
            )
    if len(deck.square) != len(deck.colors):
        yield game.where((*base, "square")).problem(
            f"the square has {len(deck.square)} rows, but there are {len(deck.colors)} colours"
        )
    toys = {t.id for t in deck.toys}
    for r, row in enumerate(deck.square):
        if len(row) != len(deck.costs):
            yield game.where((*base, "square", r)).problem(
                f"row {r + 1} has {len(row)} cells, but there are {len(deck.costs)} costs"
            )
        for c, toy in enumerate(row):
            if toy not in toys:
                yield game.where((*base, "square", r, c)).problem(f"unknown toy {toy!r}")


def scoring_table(game: GameData) -> Iterator[Problem]:
    """The set table covers every possible set size (one copy of a toy per colour)."""
    model = _model(game)
    table = model.scoring.set_points
    colours = len(model.decks.toys.colors)
    if len(table) != colours:
        yield game.where(("scoring", "set_points")).problem(
            f"the set table has {len(table)} entries, but a toy can be collected up to "
            f"{colours} times"
        )
    for i in range(1, len(table)):
        if table[i] <= table[i - 1]:
            yield game.where(("scoring", "set_points", i)).problem(
                "set points must rise with every extra copy"
            )


def setup_feasible(game: GameData) -> Iterator[Problem]:
    """Every player count of every mode has a setup row, and the deck holds enough to deal it."""
    model = _model(game)
    toys = model.decks.toys.size()
    for mode_id, mode in model.modes.items():
        for players in mode.players:
            row = model.setup.get(players)
            if row is None:
                yield game.where(("modes", mode_id, "players")).problem(
                    f"no setup row for {players} players"
                )
                continue
            dealt = players * (row.hand + row.draw_pile)
            if dealt >= toys:
                yield game.where(("setup", players)).problem(
                    f"{players} players need {dealt} toy cards dealt, leaving none of {toys} "
                    "for the stack"
                )
            if row.money <= model.purchase.out_at_most:
                yield game.where(("setup", players, "money")).problem(
                    "players would start the round already out"
                )
            if (row.trick_cards is None) != (row.lead == "trick-winner"):
                yield game.where(("setup", players)).problem(
                    "alternating play needs 'trick_cards'; one card each needs lead 'trick-winner'"
                )
    for players in model.setup:
        if players not in model.player_counts():
            yield game.where(("setup", players), key=True).problem(
                f"setup row for {players} players, which no mode allows"
            )


def _model(game: GameData) -> GachaponTrick:
    assert isinstance(game.model, GachaponTrick)
    return game.model
