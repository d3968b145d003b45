"""The trick-taking base: hidden hands played into tricks, suit followed, the trick won by the
game's rule, the lead passed to the winner, the hand over when the hands are empty."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any, TypeVar

from gachapress.engine.core import Action
from gachapress.engine.hands import HiddenHandsState, card_id

C = TypeVar("C")

PLAY = "play"


def follow_suit(hand: list[C], suits: Collection[str], suit: Callable[[C], str]) -> list[C]:
    """The cards of ``hand`` that may be played when one of ``suits`` must be followed: those of
    a suit to follow, or the whole hand when it holds none (or there is nothing to follow)."""
    following = [card for card in hand if suit(card) in suits]
    return following or hand[:]


class TrickTakingState(HiddenHandsState):
    """A trick-taking game: each seat in turn plays a card of its hidden hand into the trick;
    a full trick goes to the winner of the game's rule, who leads the next one.

    State: ``hands``, the trick so far (``trick_seats``: who played, ``trick_cards``: what, in
    play order), ``lead``, ``turn``, the seat after each seat in a trick (``next_seat``) and the
    cards of a full trick (``trick_size``), the tricks each seat has taken (``taken``).

    Hooks:

    - ``trick_winner(cards) -> int`` (required): the index in ``cards`` of the winning play;
    - ``suit(card) -> str``: a card's suit (default: its ``suit`` field);
    - ``suits_to_follow(cards) -> Collection[str]``: what a later player must follow if they
      can (default: the led card's suit);
    - ``end_hand()`` (required unless ``take_trick`` is overridden): score the hand, then deal
      the next or set ``phase = OVER``;
    - ``take_trick(winner, seats, cards)``: what a won trick does (default: the winner takes
      it and leads the next trick, the hand ends once the hands are empty);
    - ``seat_players()``: who plays after whom (default: every seat, clockwise);
    - ``play_action(card) -> Action``: the action playing a card (default: ``play CARD-ID``).
    """

    trick_seats: list[int]
    trick_cards: list[Any]
    lead: int
    next_seat: list[int | None]
    trick_size: int
    taken: list[list[list[Any]]]

    # -- hooks ---------------------------------------------------------------------------------
    def trick_winner(self, cards: list[Any]) -> int:
        """Hook: the index in ``cards`` (a full trick, in play order) of the play that wins."""
        raise NotImplementedError

    def suit(self, card: Any) -> str:
        """Hook: the suit of ``card``."""
        return card.suit

    def suits_to_follow(self, cards: list[Any]) -> Collection[str]:
        """Hook: the suits a player must follow, when able, after ``cards`` (never empty)."""
        return (self.suit(cards[0]),)

    def end_hand(self) -> None:
        """Hook: the hand is over (every card played): score it, then ``deal_hand`` again or
        set ``self.phase = OVER``."""
        raise NotImplementedError

    def seat_players(self) -> None:
        """Hook: set ``next_seat`` (the seat after each) and ``trick_size`` for the coming
        tricks. Default: every seat plays, clockwise."""
        n = self.players
        self.next_seat = [(seat + 1) % n for seat in range(n)]
        self.trick_size = n

    def play_action(self, card: Any) -> Action:
        """Hook: the action that plays ``card``."""
        return Action(PLAY, card_id(card))

    def take_trick(self, winner: int, seats: list[int], cards: list[Any]) -> None:
        """Hook: the full trick ``cards`` (played by ``seats``) was won by seat ``winner``.
        Default: the winner takes it and leads; ``end_hand`` once every hand is empty."""
        self.taken[winner].append(cards)
        self.event("trick", winner=winner, cards=[card_id(card) for card in cards])
        if any(self.hands):
            self.start_trick(winner)
        else:
            self.end_hand()

    # -- the family's work ---------------------------------------------------------------------
    def deal_hand(self, cards: list[Any], size: int, lead: int) -> list[Any]:
        """Shuffle ``cards``, deal ``size`` to each hand, no tricks taken yet, ``lead`` to lead
        (``start_trick``); the cards left over."""
        rest = self.deal_hands(cards, size)
        self.taken = [[] for _ in range(self.players)]
        self.start_trick(lead)
        return rest

    def start_trick(self, lead: int) -> None:
        """A new trick, led by ``lead``; who plays after whom as ``seat_players`` says."""
        self.trick_seats, self.trick_cards = [], []
        self.lead = self.turn = lead
        self.seat_players()

    def legal_plays(self, hand: list[C]) -> list[C]:
        """The cards of ``hand`` that may go into the trick now (suit followed when able)."""
        cards = self.trick_cards
        if not cards:
            return hand[:]
        return follow_suit(hand, self.suits_to_follow(cards), self.suit)

    def play_actions(self) -> list[Action]:
        """The actions of the cards the seat to play may play."""
        return list(map(self.play_action, self.legal_plays(self.hands[self.turn])))

    def play(self, card: Any) -> None:
        """The seat to play plays ``card``; a full trick is won (``end_trick``)."""
        seat = self.turn
        self.hands[seat].remove(card)
        self.trick_seats.append(seat)
        cards = self.trick_cards
        cards.append(card)
        self.turn = self.next_seat[seat]  # type: ignore[assignment]  # None only if none plays
        if len(cards) == self.trick_size:
            self.end_trick()

    def end_trick(self) -> None:
        """The trick is full: its winner by ``trick_winner`` gets it (``take_trick``)."""
        seats, cards = self.trick_seats, self.trick_cards
        self.trick_seats, self.trick_cards = [], []
        self.take_trick(seats[self.trick_winner(cards)], seats, cards)

    def _legal_actions(self) -> list[Action]:
        return self.play_actions()

    def _apply(self, action: Action) -> None:
        hand = self.hands[self.turn]
        self.play(next(card for card in hand if card_id(card) == action.target))

    def seen_places(self, player: int) -> list[Iterable[Any]]:
        """The player's hand and the trick on the table (face up: a copy of a card there is
        seen, whatever other copies lie hidden)."""
        return [self.hands[player], self.trick_cards]

    def trick_view(self) -> list[list[Any]]:
        """The trick so far as an observation shows it: ``[seat, card id]`` in play order."""
        return [
            [seat, card_id(card)]
            for seat, card in zip(self.trick_seats, self.trick_cards, strict=True)
        ]
