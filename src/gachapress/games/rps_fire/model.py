"""Rock, Paper, Scissors, Fire's data model: the deck, hand sizes, turns, alarms and scoring."""

from __future__ import annotations

from functools import cached_property
from typing import Annotated, Any, Literal, get_args

from pydantic import Field, model_validator

from gachapress.data.model import Card, Count, Deck, Decks, GameBase, PlayerCount, Strict

CardType = Literal["rock", "paper", "scissors", "fire-alarm"]
"""Every card is a rock, a paper, a scissors or a fire alarm (seed, "Get Rid of Your Cards")."""
HandType = Literal["rock", "paper", "scissors"]
"""The three ordinary types, which beat each other in a cycle."""
Direction = Literal["left", "right", "both"]
"""Whom everyone takes from when a fire alarm goes off (seed, "But Then, Fire Alarms!")."""
Side = Literal["left", "right"]
"""A neighbour: on your left is the next seat clockwise, on your right the previous one."""
Value = Annotated[int, Field(ge=0, le=99)]
"""A card's value; the game's own range is ``values`` in game.yaml."""
Small = Annotated[int, Field(ge=0, le=20)]
"""A small number of cards or points."""


class RpsCard(Card):
    """One face of the deck (seed, "Get Rid of Your Cards").

    ``type`` and ``value`` as on the card; a fire alarm's ``value`` is what it counts at scoring
    (clarification fire-alarm-value), and only fire alarms carry a ``direction``.
    """

    type: CardType
    value: Value
    direction: Direction | None = None

    @property
    def is_fire_alarm(self) -> bool:
        return self.type == "fire-alarm"

    @model_validator(mode="after")
    def _direction_on_alarms_only(self) -> RpsCard:
        if self.is_fire_alarm and self.direction is None:
            raise ValueError(f"fire alarm {self.id!r} needs a 'direction' (left, right or both)")
        if not self.is_fire_alarm and self.direction is not None:
            raise ValueError(
                f"card {self.id!r} is a {self.type}; only fire alarms have a direction"
            )
        return self


class RpsFireDecks(Decks):
    """The decks of the game."""

    main: Deck[RpsCard]
    """The single deck, shared by the hands, the draw deck and the pile."""


class ValueRange(Strict):
    """The values printed on rock, paper and scissors cards (seed: "from 0-7"): ``min`` to
    ``max``, both included."""

    min: Value
    max: Value

    @model_validator(mode="after")
    def _ordered(self) -> ValueRange:
        if self.min > self.max:
            raise ValueError("'min' must not be above 'max'")
        return self


class SetupRow(Strict):
    """Setup for one player count (clarification hand-size)."""

    hand: Count
    """Cards dealt to each player at the start of every round."""


class PileStart(Strict):
    """How the pile starts each round (clarification pile-start)."""

    cards: Count
    """Cards turned face up from the deck to start the pile."""
    fire_alarm: Literal["shuffle-back-and-turn-again"]
    """What happens to a fire alarm turned up to start the pile."""


class RoundStart(Strict):
    """Who plays first in each round (clarification round-starter)."""

    first_round_seat: Annotated[int, Field(ge=0, le=11)]
    """The seat that plays first in round 1."""
    later_rounds: Literal["most-points"]
    """Later rounds: the player with the most points so far starts."""
    tie: Literal["clockwise-after-previous-starter"]
    """Tied candidates: the first of them clockwise, starting left of the previous starter."""


class Turn(Strict):
    """A turn (seed, "Turns are Simple"; clarifications must-play, draw-until-can,
    identical-copies, play-on-fire-alarm, deck-runs-out, turn-order)."""

    direction: Literal["clockwise"]
    """Play passes to the player on the left (the next seat)."""
    must_play: bool
    """Whether a player who can beat the pile has to play rather than draw."""
    copies: Literal["any-number-of-identical"]
    """A play is one card or several copies of one face."""
    cannot_beat: Literal["draw-until-playable-then-play"]
    """Draw one card at a time until a drawn card beats the pile, then play it."""
    on_fire_alarm: Literal["any-card"]
    """What may be played on a fire alarm on top of the pile."""
    deck_empty: Literal["shuffle-pile-except-top"]
    """How the deck is refilled when a draw finds it empty."""
    nothing_to_draw: Literal["pass"]
    """What a player does who cannot beat the pile and has nothing to draw."""
    all_passed: Literal["pile-opens"]
    """After every player passed in a row, the next player may play any card."""


class FireAlarm(Strict):
    """A fire alarm's effect (seed, "But Then, Fire Alarms!"; clarifications alarm-takes,
    alarm-two-players, alarm-draw-short, alarm-give-away, multi-alarm-effect, last-card-alarm)."""

    takes: dict[Direction, Annotated[list[Side], Field(min_length=1, max_length=2)]]
    """For each direction, the neighbours every player takes one random card from."""
    draw: Small
    """Cards the alarm player then draws from the deck."""
    give: Small
    """Cards the alarm player then gives to opponents (any split among them)."""
    effects_per_play: Count
    """How many times the effect happens when several identical alarms are played at once."""
    last_card: Literal["no-effect"]
    """An alarm played as its player's last card ends the round without going off."""


class Scoring(Strict):
    """Round scoring; lower is better (seed, "Ending & Scoring the Round")."""

    went_out: Small
    """Points of the player who played their last card."""
    fire_alarm_multiplier: Annotated[int, Field(ge=1, le=10)]
    """A hand holding at least one fire alarm scores its values times this, once."""
    only_fire_alarms_each: Small
    """A hand of fire alarms only scores this per alarm."""


class RpsFire(GameBase):
    """The whole of Rock, Paper, Scissors, Fire's rules data."""

    decks: RpsFireDecks
    type_beats: dict[HandType, HandType]
    """Which ordinary type each type beats, whatever the values (seed, "So What Beats What?")."""
    values: ValueRange
    """The lowest and highest value on rock, paper and scissors cards."""
    setup: dict[PlayerCount, SetupRow]
    """Setup for each player count the modes allow."""
    pile_start: PileStart
    """How the pile starts each round."""
    round_start: RoundStart
    """Who plays first in each round."""
    turn: Turn
    """How a turn goes: playing, drawing, passing."""
    fire_alarm: FireAlarm
    """What happens when a fire alarm is played."""
    scoring: Scoring
    """How the cards left in hand are scored at the end of a round."""
    rounds: Annotated[int, Field(ge=1, le=20)]
    """Rounds in a game (seed: 3)."""
    ranking: Annotated[list[Literal["fewest-points", "most-rounds-out"]], Field(min_length=1)]
    """How the final standings are ordered; players still tied after all of these share the win
    (seed: fewest points; clarification winner-ties)."""

    @cached_property
    def face_by_id(self) -> dict[str, RpsCard]:
        """Every face of the deck by id, made once (every round's scoring looks cards up)."""
        return {card.id: card for card in self.decks.main.cards}

    def derived_values(self) -> dict[str, Any]:
        """``card_values`` by card id, ``cards_of_type`` by type, ``draw_pile`` by player count."""
        cards = self.decks.main.cards
        return {
            "card_values": {card.id: card.value for card in cards},
            "cards_of_type": {
                kind: sum(card.count for card in cards if card.type == kind)
                for kind in get_args(CardType)
            },
            # Cards left in the deck after the deal and the cards that start the pile.
            "draw_pile": {
                n: self.decks.main.size() - n * row.hand - self.pile_start.cards
                for n, row in self.setup.items()
            },
        }
