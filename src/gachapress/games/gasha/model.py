"""Gasha's data model: the Gasha cards, the Set Reward cards, the Bonus tokens and the rules.

Every number of the game (hand size, decks, tokens per player count, scoring) lives in
rules/gasha/; this module only says what shape that data has.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Annotated, Any, Literal, get_args

from pydantic import Field, StringConstraints

from gachapress.data.model import (
    Art,
    Card,
    Count,
    Deck,
    Decks,
    GameBase,
    Id,
    PlayerCount,
    Strict,
    Text,
)

Kind = Literal["magical-girl", "kitsune", "robot", "radish", "sushi"]
"""The five kinds of Gasha (seed: "Contents")."""

TicketColour = Literal["red", "blue", "green", "yellow", "wild"]
"""A ticket half's colour; ``wild`` counts as any colour (seed: "Card notes"; the four colours
are clarification ticket-colours)."""

Marker = Literal["5+", "6"]
"""The player-count symbol in a Set Reward card's lower right corner (seed: "Setup" 2)."""

EffectKind = Literal["extra-turn", "wild-gashas", "points"]
"""What a Bonus token does (seed: "Bonus Token Abilities"): One more turn!, 2 Wild Gashas!,
3 points!."""

EndTrigger = Literal["last-bonus-token", "reward-pile-empty", "gasha-decks-impossible"]
"""The conditions that trigger the end of the game (seed: "End of the Game")."""

RankBy = Literal["most-points", "most-bonus-tokens"]
"""A column of the final ranking (seed: "Scoring")."""

Small = Annotated[int, Field(ge=0, le=20)]
"""A small non-negative number of cards or slots."""
Points = Annotated[int, Field(ge=0, le=100)]


class GashaCard(Card):
    """A Gasha card: one capsule figure of one ``kind`` (seed: "Contents": 15 of each)."""

    kind: Kind


class SetRewardCard(Card):
    """A Set Reward card (seed: "Contents", "Card notes"; the 35 cards are the project's design,
    clarification reward-card-list).

    A card asks either for named kinds plus wild slots (``needs``, ``wild``) or for a number of
    identical Gashas of any one kind (``identical``), never both.
    """

    needs: dict[Kind, Count] = {}
    """How many Gasha cards of each named kind the trade takes."""
    wild: Small = 0
    """Wild-Gasha slots: each is filled by one Gasha card of any kind (clarification wild-slot)."""
    identical: Annotated[int, Field(ge=2, le=20)] | None = None
    """For cards with no ticket half: this many Gashas, all of one kind the player picks
    (clarification identical-any-kind)."""
    points: Points
    """Victory points at the end of the game (clarification reward-points-scale)."""
    ticket: TicketColour | None = None
    """The ticket half printed on the card, or None for a card without one."""
    marker: Marker | None = None
    """The player-count marker; None: the card is used at every player count."""

    def size(self) -> int:
        """How many Gashas the trade takes in all."""
        return self.identical or sum(self.needs.values()) + self.wild


class BonusEffect(Strict):
    """What a Bonus token gives: ``amount`` extra turns, wild Gashas or points."""

    kind: EffectKind
    amount: Count


class BonusToken(Card):
    """A Bonus token (seed: "Bonus Token Abilities"; the mix is clarification token-mix)."""

    effect: BonusEffect


class GashaDecks(Decks):
    """Gasha's three decks: deck ids ``gasha``, ``set-rewards`` and ``bonus-tokens``."""

    gasha: Deck[GashaCard]
    set_rewards: Deck[SetRewardCard]
    bonus_tokens: Deck[BonusToken]


class KindInfo(Strict):
    """How a kind of Gasha is named and pictured (the rulebook's legend, the reward cards)."""

    id: Kind
    name: Text
    plural: Text
    art: Art


class TicketColourInfo(Strict):
    """How a ticket colour is named and printed."""

    id: TicketColour
    name: Text
    hex: Annotated[str, StringConstraints(pattern=r"^#[0-9a-f]{6}$")]


class SetupRow(Strict):
    """Setup for one player count (seed: "Setup")."""

    hand: Count
    """Gasha cards dealt to each player."""
    gasha_decks: Count
    """Draw decks made from the rest of the Gasha cards (clarification deck-sizes)."""
    reward_row: Count
    """Set Reward cards face up in the row."""
    markers: list[Marker] = []
    """Set Reward cards with these markers are shuffled in too; cards with other markers stay
    in the box (seed: "Setup" 2, clarification player-markers)."""
    bonus_tokens: Count
    """Bonus tokens placed face down, drawn at random from all of them unless a token choice
    names them (clarification token-selection)."""


class TokenChoice(Strict):
    """A chosen set of face-down Bonus tokens, a game option instead of the random draw (seed:
    "Setup" 3, the note; clarification token-selection). The checks hold each row to the tokens
    that exist and to the setup's number of face-down tokens."""

    name: Text
    text: Text
    """What the choice is for, in a line (``list``, the rulebook's variants)."""
    tokens: dict[PlayerCount, dict[Id, Count]]
    """For each player count, how many of each Bonus token (by id) go face down."""


class Turn(Strict):
    """A turn: draw Gasha cards, or trade for one Set Reward (seed: "Game Flow")."""

    draw: Count
    """Gasha cards taken by the draw action, one at a time (clarification draw-steps)."""
    trade: Count
    """Set Reward cards taken by the trade action."""


class Tickets(Strict):
    """Completing a ticket (seed: "How do I get Bonus tokens?")."""

    halves: Count
    """Ticket halves that make a complete ticket."""
    bonus_tokens: Count
    """Bonus tokens taken for a complete ticket (while any are left)."""
    same_colour_gashas: Small
    """Gasha cards taken from a deck when both halves are of one colour (wild matches any)."""


class Scoring(Strict):
    """End scoring (seed: "Scoring"; clarifications unused-wild-token and token-end-values).

    A player scores the points of their Set Rewards and of their points tokens, plus
    ``per_unused_gasha`` for each Gasha card in hand and for each wild Gasha of an unspent
    2 Wild Gashas! token.
    """

    per_unused_gasha: Points


class End(Strict):
    """When the game ends (seed: "End of the Game")."""

    triggers: Annotated[list[EndTrigger], Field(min_length=1)]
    last_turns: Literal["each-other-player-once"]
    """After the trigger, every other player plays one more turn, clockwise (clarification
    last-turns)."""


class Gasha(GameBase):
    """The whole of Gasha's rules data."""

    decks: GashaDecks
    kinds: Annotated[list[KindInfo], Field(min_length=1)]
    """The kinds of Gasha, in the order the rulebook and the cards list them."""
    ticket_colours: Annotated[list[TicketColourInfo], Field(min_length=1)]
    """The ticket colours printed on Set Reward cards, wild included."""
    setup: dict[PlayerCount, SetupRow]
    """Setup per player count."""
    token_choices: dict[Id, TokenChoice] = {}
    """Named choices of the face-down Bonus tokens; each is a game option of the same id."""
    turn: Turn
    tickets: Tickets
    scoring: Scoring
    end: End
    ranking: Annotated[list[RankBy], Field(min_length=1)]
    """How the final standings are ordered; players still tied after all of these share the
    victory (seed: "Scoring")."""

    def kind(self, kind: str) -> KindInfo:
        return next(k for k in self.kinds if k.id == kind)

    # The setup's counts: what the data says is used with a number of players, like a deck's
    # size. The rule functions of the same names (rules.py) state them for the worked examples;
    # they live here so that the model's derived values need not import the rules, which import
    # the model.

    def setup_row(self, players: int) -> SetupRow:
        """The setup for ``players`` players; a ValueError for a count the game is not for."""
        row = self.setup.get(players)
        if row is None:
            raise ValueError(f"Gasha is not played with {players} players")
        return row

    def reward_in_play(self, reward: SetRewardCard, players: int) -> bool:
        """Whether ``reward`` is shuffled into the reward deck for ``players`` players (its
        marker, if any, is one of the setup's: seed, "Setup" 2; clarification player-markers)."""
        return reward.marker is None or reward.marker in self.setup_row(players).markers

    def rewards_in_play(self, players: int) -> int:
        """How many Set Reward cards are used with ``players`` players (seed, "Setup" 2)."""
        return sum(
            card.count
            for card in self.decks.set_rewards.cards
            if self.reward_in_play(card, players)
        )

    def gasha_deck_sizes(self, players: int) -> list[int]:
        """The sizes of the draw decks after each player is dealt their hand: the rest dealt
        one card at a time into the setup's number of decks, the first decks taking the extra
        cards (seed, "Setup" 1; clarification deck-sizes)."""
        row = self.setup_row(players)
        left = self.decks.gasha.size() - players * row.hand
        if left < 0:
            raise ValueError(f"{players} hands of {row.hand} need more than the Gasha deck holds")
        n = row.gasha_decks
        return [left // n + (1 if i < left % n else 0) for i in range(n)]

    def derived_values(self) -> dict[str, Any]:
        """Prose counts: rewards, ticket_halves, gasha_deal, gashas_per_kind, bonus_amounts."""
        rewards = self.decks.set_rewards.cards
        ticketed = [r for r in rewards if r.ticket]
        markers: dict[str, Marker] = {m.replace("+", "-plus"): m for m in get_args(Marker)}
        in_play = {n: self.rewards_in_play(n) for n in self.setup}
        gashas = self.decks.gasha
        return {
            # Set Reward cards: with no marker / each marker (5+ as "5-plus"), with a ticket
            # half, asking for identical Gashas; trade sizes; points above the size on cards
            # with a half; cards in play and left in the pile after the row, by player count.
            "rewards": {
                "unmarked": sum(r.count for r in rewards if r.marker is None),
                "marked": {
                    key: sum(r.count for r in rewards if r.marker == m)
                    for key, m in markers.items()
                },
                "with_ticket": sum(r.count for r in ticketed),
                "identical": sum(r.count for r in rewards if r.identical),
                "size": _span(r.size() for r in rewards),
                "identical_size": _span(r.size() for r in rewards if r.identical),
                "premium": _span(r.points - r.size() for r in ticketed),
                "in_play": in_play,
                "pile": {n: in_play[n] - row.reward_row for n, row in self.setup.items()},
            },
            # Ticket halves by colour on the cards always used; the colours each marker adds.
            "ticket_halves": {
                "unmarked": {
                    c.id: sum(r.count for r in ticketed if r.marker is None and r.ticket == c.id)
                    for c in self.ticket_colours
                },
                "marked": {
                    key: [
                        c.id
                        for c in self.ticket_colours
                        for r in ticketed
                        if r.marker == m and r.ticket == c.id
                        for _ in range(r.count)
                    ]
                    for key, m in markers.items()
                },
            },
            # Gasha cards dealt to all hands, and left for the draw decks, by player count.
            "gasha_deal": {
                n: {"dealt": n * row.hand, "left": sum(self.gasha_deck_sizes(n))}
                for n, row in self.setup.items()
            },
            # The fewest Gasha cards of any one kind; and each Bonus token's effect amount.
            "gashas_per_kind": min(
                sum(g.count for g in gashas.cards if g.kind == k.id) for k in self.kinds
            ),
            "bonus_amounts": {t.id: t.effect.amount for t in self.decks.bonus_tokens.cards},
        }


def _span(values: Iterable[int]) -> dict[str, int]:
    """The lowest and highest of ``values``, as ``min`` and ``max``."""
    numbers = list(values)
    return {"min": min(numbers), "max": max(numbers)}
