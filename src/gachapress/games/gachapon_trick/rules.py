"""Gachapon Trick's rule functions: pure, small, and each tied to the seed rule it implements."""

from __future__ import annotations

from operator import attrgetter

from gachapress.engine.tricks import follow_suit
from gachapress.games.gachapon_trick.model import GachaponTrick, ToyCard
from gachapress.spec import RuleSet

RULES = RuleSet()
_COLOR = attrgetter("color")


@RULES.rule
def legal_plays(game: GachaponTrick, hand: list[ToyCard], trick: list[ToyCard]) -> list[str]:
    """The cards of ``hand`` that may be played into ``trick`` (ids, in hand order).

    Seed, "Game Play": the lead may play any card; every later player must follow one of the
    suits already played if they hold any, and may play anything otherwise.
    """
    return [card.id for card in follow_suit(hand, {card.color for card in trick}, _COLOR)]


@RULES.rule
def win_order(game: GachaponTrick, plays: list[ToyCard]) -> list[int]:
    """The plays of a trick ranked from winner down: who would win, then who the win passes to.

    Seed, "Game Play": the most represented suit wins, its highest rank first; a tie for the most
    represented suit goes to the higher rank; a tie in rank to the later play. When the winner
    cannot afford a card, the win passes to the next highest of the winning suit, or to the next
    highest card played when no single suit has the majority (clarification win-transfer-order).
    """
    colors = [card.color for card in plays]  # a trick is short: counting beats a Counter
    keys = [(colors.count(card.color), card.cost, i) for i, card in enumerate(plays)]
    return sorted(range(len(plays)), key=keys.__getitem__, reverse=True)


@RULES.rule
def trick_winner(game: GachaponTrick, plays: list[ToyCard]) -> int:
    """The index of the play that wins the trick (seed, "Game Play"); see ``win_order``."""
    if not plays:
        raise ValueError("an empty trick has no winner")
    return win_order(game, plays)[0]


@RULES.rule
def can_afford(game: GachaponTrick, money: int, plays: list[ToyCard]) -> bool:
    """Whether a player with ``money`` can buy at least one card of the trick.

    Seed, "Game Play": a winner who cannot afford any card on offer passes the win on.
    """
    return bool(plays) and min([card.cost for card in plays]) <= money


@RULES.rule
def is_out(game: GachaponTrick, money: int) -> bool:
    """Whether a player is out of the round (seed: "¥0 or ¥100 at the end of their turn")."""
    return money <= game.purchase.out_at_most


@RULES.rule
def next_in_play(game: GachaponTrick, seat: int, out: list[bool]) -> int | None:
    """The first seat from ``seat`` clockwise (``seat`` included) still in the round.

    Seed, "Game Play": if a player who is out should lead, the lead passes clockwise.
    Returns None when everybody is out.
    """
    players = len(out)
    for step in range(players):
        candidate = (seat + step) % players
        if not out[candidate]:
            return candidate
    return None


@RULES.rule
def set_points(game: GachaponTrick, copies: int) -> int:
    """Points for ``copies`` cards of one toy (seed, "Set Collection Scoring": 1, 4, 9, ...)."""
    table = game.scoring.set_points
    if not 0 <= copies <= len(table):
        raise ValueError(f"a collection cannot hold {copies} copies of one toy")
    return 0 if copies == 0 else table[copies - 1]


@RULES.rule
def money_points(game: GachaponTrick, money_left: int, spent_nothing: bool) -> int:
    """Points for unspent money: one per ¥200 left, +5 for spending nothing (seed, "Round End")."""
    bonus = game.scoring.no_spend_bonus if spent_nothing else 0
    return money_left // game.scoring.yen_per_point + bonus


@RULES.rule
def round_points(
    game: GachaponTrick, collection: list[ToyCard], money_left: int, spent_nothing: bool
) -> int:
    """A player's points for a round: each toy's set, then the money (seed, "Round End")."""
    copies: dict[str, int] = {}
    for card in collection:
        copies[card.toy] = copies.get(card.toy, 0) + 1
    sets = sum([set_points(game, n) for n in copies.values()])
    return sets + money_points(game, money_left, spent_nothing)


@RULES.rule
def round_leaders(game: GachaponTrick, points: list[int]) -> list[int]:
    """Who may lead the next round's first trick: those with the most points so far.

    Seed, "Round End": the leader in points leads; a tie is settled by rock paper scissors,
    which the engine plays with its seeded random generator among the seats returned here.
    """
    best = max(points)
    return [seat for seat, total in enumerate(points) if total == best]


@RULES.rule
def game_winners(game: GachaponTrick, points: list[int], money: list[int]) -> list[int]:
    """The winning seats: most points, then most money left; a tie after both is shared.

    Seed, "Game End" (the order is the game's ``ranking``); the shared victory is clarification
    final-tie.
    """
    columns = {"most-points": points, "most-money": money}
    keys = [tuple(columns[c][seat] for c in game.ranking) for seat in range(len(points))]
    best = max(keys)
    return [seat for seat, key in enumerate(keys) if key == best]
