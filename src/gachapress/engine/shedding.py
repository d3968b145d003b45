"""The shedding base: hidden hands played onto a pile, each card beating the top one, a card
drawn when none can (the pile, reshuffled, refilling an empty deck), the empty hand the goal."""

from __future__ import annotations

from typing import Any, ClassVar

from gachapress.engine.core import Action
from gachapress.engine.hands import HiddenHandsState, card_id
from gachapress.errors import GachapressError

PLAY = "play"
DRAW = Action("draw")
PASS = Action("pass")


class SheddingState(HiddenHandsState):
    """A shedding game: the seat to play plays a card of its hidden hand that beats the top of
    the pile; with none it draws a card (and plays on), or passes when there is nothing to
    draw; a seat whose hand is empty has gone out.

    State: ``hands``, the draw ``deck`` and the ``pile`` (top card last in both), ``turn``.

    Hooks:

    - ``beats(card, top) -> bool`` (required unless ``play_actions`` is overridden): whether
      ``card`` may be played on ``top``;
    - ``went_out(seat)`` (required): ``seat``'s hand is empty: score, deal again or set
      ``phase = OVER``;
    - ``next_player(seat) -> int``: who plays after ``seat`` (default: clockwise);
    - ``may_always_draw``: True when a player may draw even with a card to play;
    - ``can_refill() -> bool``: whether an empty deck is refilled from the pile (default:
      when the pile holds more than its top card);
    - ``can_start_pile(card) -> bool``: whether a card turned up may start the pile;
    - ``play_actions() -> list[Action]``: the plays of the seat to play (default: a
      ``play CARD-ID`` for each card that ``beats`` the top, in hand order).
    """

    deck: list[Any]
    pile: list[Any]
    #: True when a player may draw even while holding a card that beats the top.
    may_always_draw: ClassVar[bool] = False

    # -- hooks ---------------------------------------------------------------------------------
    def beats(self, card: Any, top: Any) -> bool:
        """Hook: whether ``card`` may be played on ``top``, the top card of the pile."""
        raise NotImplementedError

    def went_out(self, seat: int) -> None:
        """Hook: ``seat`` has played its last card."""
        raise NotImplementedError

    def next_player(self, seat: int) -> int:
        """Hook: the seat that plays after ``seat``."""
        return (seat + 1) % self.players

    def can_refill(self) -> bool:
        """Hook: whether the pile, less its top card, may refill the empty deck now."""
        return len(self.pile) > 1

    def can_start_pile(self, card: Any) -> bool:
        """Hook: whether ``card``, turned up from the deck, may start the pile (else it goes
        back and the deck is shuffled)."""
        return True

    def play_actions(self) -> list[Action]:
        """Hook: the plays open to the seat to play."""
        beats, top = self.beats, self.pile[-1]
        return [Action(PLAY, card_id(c)) for c in self.hands[self.turn] if beats(c, top)]

    # -- the family's work ---------------------------------------------------------------------
    def deal_round(self, cards: list[Any], size: int, pile: int = 1) -> None:
        """Shuffle ``cards``, deal ``size`` to each hand, the rest as the deck, and turn up
        ``pile`` cards from it to start the pile."""
        self.deck = self.deal_hands(cards, size)
        self.pile = []
        deck = self.deck
        for _ in range(pile):
            card = deck.pop()
            while not self.can_start_pile(card):  # it goes back and the next card is turned
                if not any(map(self.can_start_pile, deck)):  # data the checks refuse
                    raise GachapressError("no card left in the deck can start the pile")
                deck.append(card)
                self.shuffle(deck)
                card = deck.pop()
            self.pile.append(card)

    def can_draw(self) -> bool:
        """Whether there is a card to draw (in the deck, or the pile would refill it)."""
        return bool(self.deck) or self.can_refill()

    def draw(self, seat: int) -> bool:
        """One card from the deck to ``seat``'s hand, the deck refilled first from the pile
        (all but its top card, shuffled) when it is empty; False when there is nothing to
        draw."""
        if not self.deck:
            if not self.can_refill():
                return False
            self.deck = self.pile[:-1]
            del self.pile[:-1]
            self.shuffle(self.deck)
            self.event("refill", cards=len(self.deck))
        self.hands[seat].append(self.deck.pop())
        return True

    def play(self, card: Any) -> None:
        """The seat to play plays ``card`` onto the pile; the next seat plays, unless it was
        the seat's last card (``went_out``)."""
        seat = self.turn
        hand = self.hands[seat]
        hand.remove(card)
        self.pile.append(card)
        if hand:
            self.turn = self.next_player(seat)
        else:
            self.went_out(seat)

    def _legal_actions(self) -> list[Action]:
        plays = self.play_actions()
        if plays and not self.may_always_draw:
            return plays
        if self.can_draw():
            return [*plays, DRAW]
        return plays or [PASS]

    def _apply(self, action: Action) -> None:
        seat = self.turn
        if action is DRAW:
            self.draw(seat)
        elif action is PASS:
            self.turn = self.next_player(seat)
        else:
            self.play(next(c for c in self.hands[seat] if card_id(c) == action.target))

    def unseen_places(self, player: int) -> list[list[list[Any]]]:
        """The deck and the other seats' hands."""
        return [[self.deck, *self.other_hands(player)]]

    def seen_places(self, player: int) -> list[Any]:
        """The player's hand and the pile."""
        return [self.hands[player], self.pile]
