"""GotchaCards' data model: the fighter and item cards, their effects, and both modes' numbers.

The seed gives the two modes (Competitive for 2 players, Party for 2 to 4) but not the card list,
which it leaves to a Cards Page that is not part of it; the deck, every effect and the advanced
marking are this project's design (clarifications card-list, advanced-cards, item-effects).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import Field

from gachapress.data.model import (
    Card,
    Deck,
    Decks,
    GameBase,
    Id,
    PlayerCount,
    Strict,
    Text,
)

FightType = Literal["rock", "scissors", "paper"]
"""The three types that fight (seed: "Rock beats Scissors | Scissors beats Paper | ...")."""
CardType = Literal["rock", "scissors", "paper", "item"]
"""The pip on a card: one of the fighting types, or an item (seed: "What's on a card?")."""
Direction = Literal["left", "right", "across"]
"""Where a swap card reaches (seed, Party mode; clarification swap-competitive)."""
EffectKind = Literal["swap", "draw", "smash", "wild", "steal", "bonus"]
Seat = Literal["player1", "player2"]
"""A Competitive role; which seat holds it changes between rounds."""

Small = Annotated[int, Field(ge=1, le=20)]
"""A small positive number of cards or turns."""
TurnBound = Annotated[int, Field(ge=1, le=100)]
"""A safety valve on overtime turns: high enough that real play never reaches it."""


class SwapEffect(Strict):
    """Trade places with another card in play (seed, Party "Setting Up"; clarifications
    swap-competitive, party-swap-targets, swap-chain)."""

    kind: Literal["swap"]
    direction: Direction


class DrawEffect(Strict):
    """The holder draws ``count`` cards into their hand."""

    kind: Literal["draw"]
    count: Small


class SmashEffect(Strict):
    """The holder puts one opposing card in play into the trash; its effect is lost."""

    kind: Literal["smash"]


class WildEffect(Strict):
    """The holder names a fighting type; the card fights and scores as it until the turn ends."""

    kind: Literal["wild"]


class StealEffect(Strict):
    """The holder moves ``count`` cards from an opponent's victory pile into their own."""

    kind: Literal["steal"]
    count: Small


class BonusEffect(Strict):
    """Whoever collects this card from play also puts ``count`` cards from the top of the deck
    into their victory pile (clarifications lucky-bonus, party-shared-effects)."""

    kind: Literal["bonus"]
    count: Small


Effect = Annotated[
    SwapEffect | DrawEffect | SmashEffect | WildEffect | StealEffect | BonusEffect,
    Field(discriminator="kind"),
]


class GotchaCard(Card):
    """A GotchaCards card (seed: "What's on a card?").

    ``type`` is the pip (rock, scissors, paper or item); ``advanced`` is the black symbol that the
    beginner deck leaves out; ``effect`` is what the card does, if anything.
    """

    type: CardType
    advanced: bool
    effect: Effect | None = None


class EffectTiming(Strict):
    """When each kind of effect happens (clarification effect-priority-and-lanes).

    ``reveal``: in the effect step right after the cards flip, before any fight; ``after-scoring``:
    once the lanes (or the Party showdown) are scored; ``collected``: when the card goes from play
    into a victory pile. Swaps, Hammers and Wildcards change the fights, so they can only act on
    reveal; a lucky bonus belongs to collecting the card; drawing and stealing may be either.
    """

    swap: Literal["reveal"]
    smash: Literal["reveal"]
    wild: Literal["reveal"]
    draw: Literal["reveal", "after-scoring"]
    steal: Literal["reveal", "after-scoring"]
    bonus: Literal["collected"]

    def of(self, kind: EffectKind) -> str:
        return str(getattr(self, kind))


class GotchaDecks(Decks):
    """GotchaCards has one deck, shared by both modes."""

    main: Deck[GotchaCard]


class BeginnerVariant(Strict):
    """The first-game advice of the seed's Competitive "Setting Up": play without the cards that
    carry the black symbol (``advanced: true``). Clarification beginner-in-party: both modes."""

    name: Text
    text: Text
    modes: Annotated[list[Id], Field(min_length=1)]
    """The modes the beginner deck may be used in."""


class Draft(Strict):
    """Competitive hand building (seed, "Setting Up").

    Player1 draws ``draw`` cards and keeps ``keep`` of them hidden; the rest are laid face-up and
    picked alternately, ``first_pick`` first; then Player2 draws ``player2_draw``. Both hands must
    end with ``hand`` cards (the draft-feasible check recomputes this).
    """

    draw: Annotated[int, Field(ge=1, le=60)]
    keep: Small
    first_pick: Seat
    player2_draw: Annotated[int, Field(ge=0, le=20)]
    hand: Small


class Turn(Strict):
    """One of a round's turns (seed, "Game Flow").

    ``first`` places first and has effect priority; ``min_cards`` is the fewest cards each player
    must place (0 when ``play_all``); ``play_all``: both players place every card in hand,
    face-down, without seeing the other's cards.
    """

    first: Seat
    min_cards: Annotated[int, Field(ge=0, le=20)]
    play_all: bool


class CompetitiveOvertime(Strict):
    """Overtime turns after a tied round (seed, "Overtime Turns"; clarifications overtime-order,
    overtime-play-all, safety-valves).

    The n-th overtime turn each player draws ``first_draw + (n - 1) * draw_increment`` cards and
    plays every card in hand. Player1 of each overtime turn is chosen by ``player1``. After
    ``max_turns`` tied overtime turns a coin decides the round.
    """

    first_draw: Small
    draw_increment: Annotated[int, Field(ge=0, le=10)]
    player1: Literal["coin"]
    max_turns: TurnBound


class Competitive(Strict):
    """Competitive mode's numbers and procedures (seed, "Competitive Mode").

    ``first_round_player1``: seat 0 is Player1 in the first round (clarification
    first-round-order); ``next_round_player1``: the loser of a round chooses the role for the next.
    ``forfeit_check_turns``: the turns at whose start a player without cards loses the round
    (clarification turn-start-check). ``rounds_to_win`` and ``max_rounds``: best of three.
    ``deck_empty``: what a draw from an empty deck does (clarification deck-runs-out).
    """

    draft: Draft
    turns: Annotated[list[Turn], Field(min_length=1, max_length=10)]
    forfeit_check_turns: list[Annotated[int, Field(ge=1, le=10)]]
    overtime: CompetitiveOvertime
    rounds_to_win: Small
    max_rounds: Small
    first_round_player1: Literal["seat-0"]
    next_round_player1: Literal["round-loser-chooses"]
    deck_empty: Literal["shuffle-trash"]


class PartyOvertime(Strict):
    """Party overtime (seed, Party "Overtime Turns"; clarifications party-overtime,
    safety-valves): the players tied for most cards each draw ``draw`` and play it at once, until
    one leads alone or ``max_turns`` have passed, when a coin decides."""

    participants: Literal["tied-leaders"]
    draw: Small
    max_turns: TurnBound


class Party(Strict):
    """Party mode's numbers and procedures (seed, "Party Mode").

    ``deal``: cards dealt to each player, by player count. ``cards_per_turn``: cards each active
    player places face-down each turn. ``min_active``: play goes on while at least this many
    players hold cards; a lone player with cards puts them into their victory pile.
    ``share``: how several winners share the cards (clarification party-shares).
    """

    deal: dict[PlayerCount, Small]
    cards_per_turn: Small
    min_active: Annotated[int, Field(ge=2, le=12)]
    share: Literal["equal-rounded-down-own-card-first"]
    overtime: PartyOvertime
    deck_empty: Literal["shuffle-trash"]


class GotchaCards(GameBase):
    """The whole of GotchaCards' rules data.

    ``beats``: each fighting type and the one type it beats (seed). ``points_per_card``: what a
    card in a victory pile is worth (seed, "Earning Points"; so a won lane, two cards, is worth
    twice that). ``effect_timing``: when each kind of effect happens (clarification
    effect-priority-and-lanes). ``beginner``: the beginner-deck variant.
    """

    decks: GotchaDecks
    beats: dict[FightType, FightType]
    points_per_card: Small
    effect_timing: EffectTiming
    beginner: BeginnerVariant
    competitive: Competitive
    party: Party

    def deck_cards(self, *, beginner: bool = False) -> list[GotchaCard]:
        """The faces of the deck in play: the beginner deck leaves out the advanced cards."""
        return [c for c in self.decks.main.cards if not (beginner and c.advanced)]

    def deck_size(self, *, beginner: bool = False) -> int:
        return sum(c.count for c in self.deck_cards(beginner=beginner))

    def card_values(self, card: Card) -> dict[str, Any]:
        """For a fighting card: the type it ``beats`` and the type it ``loses_to`` (left out
        when the ``beats`` table has none: the beats-cycle check reports that)."""
        if not isinstance(card, GotchaCard) or card.type == "item":
            return {}
        values = {"beats": self.beats.get(card.type)}
        values["loses_to"] = next((a for a, b in self.beats.items() if b == card.type), None)
        return {name: kind for name, kind in values.items() if kind is not None}

    def derived_values(self) -> dict[str, Any]:
        """``beginner_deck``: its ``cards`` and how many advanced cards it ``leaves_out``;
        ``effects``: each card's effect, by card id."""
        full, beginner = self.deck_size(), self.deck_size(beginner=True)
        return {
            "beginner_deck": {"cards": beginner, "leaves_out": full - beginner},
            "effects": {
                card.id: card.effect.model_dump(mode="python", by_alias=True)
                for card in self.decks.main.cards
                if card.effect is not None
            },
        }
