"""Gasha's deck checks: setup for every count, reward cards well formed, completable, fairly
priced, enough ticket halves for the tokens, the Bonus token mix usable, and every chosen set
of face-down tokens possible."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import combinations_with_replacement, pairwise
from typing import get_args

from gachapress.data.load import GameData
from gachapress.errors import Problem
from gachapress.games.gasha import rules
from gachapress.games.gasha.model import EffectKind, Gasha, Kind, SetRewardCard


def _model(game: GameData) -> Gasha:
    return game.model  # type: ignore[return-value]


def setup_feasible(game: GameData) -> Iterator[Problem]:
    """Every player count of every mode has a setup row, and the components cover it: hands and
    one card per draw deck, the face-up reward row, the face-down Bonus tokens."""
    model = _model(game)
    gasha = model.decks.gasha.size()
    tokens = model.decks.bonus_tokens.size()
    for mode_id, mode in model.modes.items():
        for players in mode.players:
            row = model.setup.get(players)
            if row is None:
                yield game.where(("modes", mode_id, "players")).problem(
                    f"no setup row for {players} players"
                )
                continue
            needed = players * row.hand + row.gasha_decks
            if needed > gasha:
                yield game.where(("setup", players)).problem(
                    f"{players} players: {players} hands of {row.hand} and {row.gasha_decks} "
                    f"draw decks need {needed} Gasha cards, the deck holds {gasha}"
                )
            if row.bonus_tokens > tokens:
                yield game.where(("setup", players, "bonus_tokens")).problem(
                    f"{players} players: {row.bonus_tokens} Bonus tokens wanted, "
                    f"only {tokens} exist"
                )
            in_play = rules.rewards_in_play(model, players)
            if in_play <= row.reward_row:
                yield game.where(("setup", players, "reward_row")).problem(
                    f"{players} players: {in_play} Set Rewards in play cannot fill a row of "
                    f"{row.reward_row} and leave a pile"
                )
    for players in model.setup:
        if players not in model.player_counts():
            yield game.where(("setup", players), key=True).problem(
                f"setup row for {players} players, which no mode allows"
            )


def kinds_and_colours(game: GameData) -> Iterator[Problem]:
    """The kinds table lists every kind once and each kind has Gasha cards; every ticket colour
    printed on a reward is in the colour table, once."""
    model = _model(game)
    listed = [k.id for k in model.kinds]
    for i, kind in enumerate(listed):
        if kind in listed[:i]:
            yield game.where(("kinds", i, "id")).problem(f"kind {kind!r} is listed twice")
    for kind in get_args(Kind):
        if kind not in listed:
            yield game.where(("kinds",)).problem(f"kind {kind!r} is missing from the kinds")
    held = {card.kind for card in model.decks.gasha.cards}
    for i, kind in enumerate(listed):
        if kind not in held:
            yield game.where(("kinds", i, "id")).problem(f"no Gasha card is of kind {kind!r}")
    colours = [c.id for c in model.ticket_colours]
    for i, colour in enumerate(colours):
        if colour in colours[:i]:
            yield game.where(("ticket_colours", i, "id")).problem(
                f"ticket colour {colour!r} is listed twice"
            )
    for card in model.decks.set_rewards.cards:
        if card.ticket is not None and card.ticket not in colours:
            yield game.where((*game.card_path(card.id), "ticket")).problem(
                f"Set Reward {card.id!r}: ticket colour {card.ticket!r} is not in ticket_colours"
            )


def reward_requirements(game: GameData) -> Iterator[Problem]:
    """Seed, "Card notes": a card with no ticket half needs identical Gashas; the others name
    kinds (and maybe wild slots). A card is one or the other, and asks for something."""
    model = _model(game)
    for card in model.decks.set_rewards.cards:
        path = game.card_path(card.id)
        named = bool(card.needs) or card.wild > 0
        if card.identical is not None and named:
            yield game.where((*path, "identical")).problem(
                f"Set Reward {card.id!r} asks for identical Gashas and for named or wild ones; "
                "give one or the other"
            )
        elif card.identical is None and not named:
            yield game.where(path).problem(f"Set Reward {card.id!r} asks for no Gasha at all")
        if card.identical is not None and card.ticket is not None:
            yield game.where((*path, "ticket")).problem(
                f"Set Reward {card.id!r} asks for identical Gashas, so it has no ticket half"
            )
        if card.identical is None and named and card.ticket is None:
            yield game.where(path).problem(
                f"Set Reward {card.id!r} has no ticket half, so it must ask for identical Gashas"
            )


def rewards_completable(game: GameData) -> Iterator[Problem]:
    """Every Set Reward can be completed from the Gasha deck (issue 2, deck checks)."""
    model = _model(game)
    copies = Counter[str]()
    for gasha in model.decks.gasha.cards:
        copies[gasha.kind] += gasha.count
    total = sum(copies.values())
    most = max(copies.values(), default=0)
    for card in model.decks.set_rewards.cards:
        path = game.card_path(card.id)
        for kind, n in card.needs.items():
            if n > copies[kind]:
                yield game.where((*path, "needs", kind)).problem(
                    f"Set Reward {card.id!r} needs {n} {kind}, the Gasha deck has {copies[kind]}"
                )
        if card.identical is not None and card.identical > most:
            yield game.where((*path, "identical")).problem(
                f"Set Reward {card.id!r} needs {card.identical} identical Gashas, "
                f"no kind has more than {most}"
            )
        if card.size() > total:
            yield game.where(path).problem(
                f"Set Reward {card.id!r} needs {card.size()} Gashas, the deck has {total}"
            )


def reward_markers(game: GameData) -> Iterator[Problem]:
    """Seed, "Setup" 2: marked cards join with more players. Each marker printed on a card is
    used at some player count, and once used it stays used at every larger count."""
    model = _model(game)
    counts = sorted(model.setup)
    used = {m for row in model.setup.values() for m in row.markers}
    for card in model.decks.set_rewards.cards:
        if card.marker is not None and card.marker not in used:
            yield game.where((*game.card_path(card.id), "marker")).problem(
                f"Set Reward {card.id!r} has marker {card.marker!r}, which no setup row uses"
            )
    for smaller, larger in pairwise(counts):
        for marker in model.setup[smaller].markers:
            if marker not in model.setup[larger].markers:
                yield game.where(("setup", larger, "markers")).problem(
                    f"cards marked {marker!r} are used with {smaller} players but not with {larger}"
                )
    for players, row in model.setup.items():
        if len(set(row.markers)) != len(row.markers):
            yield game.where(("setup", players, "markers")).problem("a marker is listed twice")


def _minimal_hands(model: Gasha, card: SetRewardCard) -> Iterator[list[Kind]]:
    """Every smallest hand that pays for ``card`` (wild slots filled every possible way)."""
    kinds: list[Kind] = [k.id for k in model.kinds]
    if card.identical is not None:
        for kind in kinds:
            yield [kind] * card.identical
        return
    named = [kind for kind, n in card.needs.items() for _ in range(n)]
    for wilds in combinations_with_replacement(kinds, card.wild):
        yield named + list(wilds)


def reward_points(game: GameData) -> Iterator[Problem]:
    """Points rise with difficulty: a Set Reward whose every way to pay also pays for another
    is worth at least as many points (clarification reward-points-scale)."""
    model = _model(game)
    cards = model.decks.set_rewards.cards
    hands = {card.id: list(_minimal_hands(model, card)) for card in cards}
    for harder in cards:
        for easier in cards:
            if harder is easier or harder.points >= easier.points:
                continue
            if all(rules.reward_satisfied(model, easier, h, 0) for h in hands[harder.id]):
                yield game.where((*game.card_path(harder.id), "points")).problem(
                    f"Set Reward {harder.id!r} ({harder.points} points) is at least as hard as "
                    f"{easier.id!r} but worth less ({easier.points} points)"
                )


def tickets_for_tokens(game: GameData) -> Iterator[Problem]:
    """Every Bonus token in play can be won: at each player count the rewards in play carry
    enough ticket halves for all the tokens."""
    model = _model(game)
    per_ticket = model.tickets.halves
    for players, row in model.setup.items():
        halves = sum(
            card.count
            for card in model.decks.set_rewards.cards
            if card.ticket is not None and rules.reward_in_play(model, card, players)
        )
        wanted = row.bonus_tokens * per_ticket // model.tickets.bonus_tokens
        if halves < wanted:
            yield game.where(("setup", players, "bonus_tokens")).problem(
                f"{players} players: {row.bonus_tokens} Bonus tokens need {wanted} ticket "
                f"halves, the rewards in play carry {halves}"
            )


def bonus_tokens(game: GameData) -> Iterator[Problem]:
    """Seed, "Bonus Token Abilities": each of the three effects is on some token, and every
    2 Wild Gashas! token gives the same number of wilds (the trade rules rely on it)."""
    model = _model(game)
    tokens = model.decks.bonus_tokens.cards
    kinds = {token.effect.kind for token in tokens}
    for kind in get_args(EffectKind):
        if kind not in kinds:
            yield game.where(("decks", "bonus-tokens", "cards")).problem(
                f"no Bonus token has the effect {kind!r}"
            )
    wild = [t for t in tokens if t.effect.kind == "wild-gashas"]
    for token in wild[1:]:
        if token.effect.amount != wild[0].effect.amount:
            yield game.where((*game.card_path(token.id), "effect", "amount")).problem(
                f"Bonus token {token.id!r} gives {token.effect.amount} wild Gashas, "
                f"{wild[0].id!r} gives {wild[0].effect.amount}; they must agree"
            )


def token_choices(game: GameData) -> Iterator[Problem]:
    """Seed, "Setup" 3, the note: each chosen set of face-down Bonus tokens names a row for
    every player count, made of tokens that exist (no more copies than there are), as many as
    the setup sets out."""
    model = _model(game)
    copies = {token.id: token.count for token in model.decks.bonus_tokens.cards}
    for name, choice in model.token_choices.items():
        path = ("token_choices", name, "tokens")
        for players in model.setup:
            if players not in choice.tokens:
                yield game.where(path, key=True).problem(
                    f"token choice {name!r} names no Bonus tokens for {players} players"
                )
        for players, mix in choice.tokens.items():
            row = model.setup.get(players)
            if row is None:
                yield game.where((*path, players), key=True).problem(
                    f"token choice {name!r}: no setup row for {players} players"
                )
                continue
            for token_id, n in mix.items():
                if token_id not in copies:
                    yield game.where((*path, players, token_id), key=True).problem(
                        f"token choice {name!r}: {token_id!r} is not a Bonus token "
                        f"(tokens: {', '.join(copies)})"
                    )
                elif n > copies[token_id]:
                    yield game.where((*path, players, token_id)).problem(
                        f"token choice {name!r}, {players} players: {n} of {token_id!r} "
                        f"wanted, only {copies[token_id]} exist"
                    )
            if sum(mix.values()) != row.bonus_tokens:
                yield game.where((*path, players)).problem(
                    f"token choice {name!r}, {players} players: {sum(mix.values())} tokens "
                    f"chosen, the setup sets out {row.bonus_tokens}"
                )
