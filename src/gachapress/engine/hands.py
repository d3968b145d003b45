"""Hidden hands and face-down play: what every game whose players hold cards the others cannot
see needs, once (the deal, ``hidden_from``, ``redeal``, the log of face-down moves)."""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable
from typing import Any, ClassVar, TypeVar

from gachapress.engine.core import PhasedState, conceal_target, permute_hidden

C = TypeVar("C")


def card_id(card: Any) -> str:
    """The id of a card held as its id (a string) or as a card object (its ``id``)."""
    return card if isinstance(card, str) else card.id


def deal(deck: list[C], players: int, size: int) -> list[list[C]]:
    """``size`` cards for each of ``players`` seats, taken from the front of ``deck`` (seat 0
    gets the first ``size``, seat 1 the next...); what is left stays in ``deck``."""
    hands = [deck[seat * size : (seat + 1) * size] for seat in range(players)]
    del deck[: players * size]
    return hands


def face_down_view(commitments: Iterable[C], player: int, revealed: bool) -> list[C | None]:
    """Each seat's face-down commitment as ``player`` sees it: all of them once ``revealed``
    (turned up together), before that only the player's own, None for the others'."""
    return [c if revealed or seat == player else None for seat, c in enumerate(commitments)]


def _ids(places: Iterable[Iterable[Any]]) -> set[str]:
    """The ids of the cards in ``places`` (a None is an empty spot)."""
    return {card_id(card) for place in places for card in place if card is not None}


class HiddenHandsState(PhasedState):
    """A game whose players hold hands (``self.hands[seat]``: lists of cards or card ids) that
    the others do not see, and perhaps play cards face down.

    Hooks (override what differs from the default):

    - ``unseen_places(player)``: the places ``player`` cannot see, grouped by deck;
    - ``seen_places(player)``: the places ``player`` sees (default: the player's own hand);
    - ``unseen_moves``: the verbs of actions that play a card face down (``place``, ``play``):
      another seat's ``place red-3`` reads ``place ?`` in the player's log.

    From these it answers ``hidden_from`` and ``redeal`` (the hidden-information tests) and
    ``redact`` (each seat's log).
    """

    hands: list[list[Any]]
    #: Verbs of the actions whose card the other seats do not see (face-down play).
    unseen_moves: ClassVar[Collection[str]] = ()

    def deal_hands(self, cards: Iterable[C], size: int) -> list[C]:
        """Shuffle ``cards`` with the game's generator and deal ``size`` to each seat's hand;
        the cards left, in order, the top of the deck last."""
        deck = list(cards)
        self.shuffle(deck)
        self.hands = deal(deck, self.players, size)
        return deck

    def other_hands(self, player: int) -> list[list[Any]]:
        """Every hand but ``player``'s, in seat order."""
        return [hand for seat, hand in enumerate(self.hands) if seat != player]

    def unseen_places(self, player: int) -> list[list[list[Any]]]:
        """Hook: the places (lists of cards) ``player`` cannot see now, in groups whose cards
        may trade places in a re-deal (one group per deck: a card of one deck never lands in
        another's pile). Default: the other seats' hands."""
        return [self.other_hands(player)]

    def seen_places(self, player: int) -> list[Iterable[Any]]:
        """Hook: the places ``player`` sees (own hand, face-up piles...): a card held in several
        copies under one id is not hidden while the player sees a copy. Default: the hand."""
        return [self.hands[player]]

    def hidden_from(self, player: int) -> set[str]:
        places = [place for group in self.unseen_places(player) for place in group]
        return _ids(places) - _ids(self.seen_places(player))

    def redeal(self, player: int, unseen: Collection[str], rng: random.Random) -> None:
        for group in self.unseen_places(player):
            permute_hidden(group, unseen, rng)
        self._legal = None

    def redact(self, entry: dict[str, Any], player: int) -> dict[str, Any]:
        if not self.unseen_moves:
            return entry
        return conceal_target(entry, player, self.unseen_moves)
