"""The engine's family bases, each under a tiny game built on it here and played to the end with
random moves: trick-taking (suit followed, the trick to its rule's winner, the lead passed),
shedding (a card beats the top or the player draws) and hidden hands with face-down play
(nothing hidden reaches another seat's observation or log; a re-deal keeps what a seat sees)."""

from __future__ import annotations

import random
from collections.abc import Iterable
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

import pytest

from gachapress.engine.contract.checks import observation_strings
from gachapress.engine.core import OVER, Action, IllegalAction
from gachapress.engine.hands import HiddenHandsState, deal, face_down_view
from gachapress.engine.shedding import DRAW, PASS, SheddingState
from gachapress.engine.tricks import TrickTakingState

GAMES = 40


@dataclass(frozen=True)
class Card:
    id: str
    suit: str
    rank: int


SUITS = ("sun", "moon", "star")
DECK = [Card(f"{suit}-{rank}", suit, rank) for suit in SUITS for rank in range(1, 6)]


def table(game_id: str) -> Any:
    """The little a state needs of its game: an id for the log."""
    return SimpleNamespace(id=game_id)


class Tricks(TrickTakingState):
    """Four cards each, follow the led suit, the highest of the led suit wins, a trick scores 1."""

    def __init__(self, players: int, seed: int) -> None:
        super().__init__(table("tricks"), players, seed, "standard")
        self.phase = "play"
        self.deal_hand(DECK, 4, lead=0)

    def trick_winner(self, cards: list[Card]) -> int:
        led = cards[0].suit
        return max(range(len(cards)), key=lambda i: (cards[i].suit == led, cards[i].rank))

    def end_hand(self) -> None:
        self.phase = OVER

    def scores(self) -> list[int]:
        return [len(tricks) for tricks in self.taken]

    def winners(self) -> list[int]:
        return []

    def observation(self, player: int) -> dict[str, Any]:
        return {"hand": [c.id for c in self.hands[player]], "trick": self.trick_view()}

    def snapshot(self) -> Any:
        return (self.phase, self.turn, [[c.id for c in h] for h in self.hands])

    def check_invariants(self) -> None:
        pass


class Shedding(SheddingState):
    """Four cards each; a card of the top's suit or rank may be played on it; out wins."""

    def __init__(self, players: int, seed: int) -> None:
        super().__init__(table("shedding"), players, seed, "standard")
        self.phase = "play"
        self.turn = 0
        self.winner: int | None = None
        self.deal_round(DECK, 4)

    def beats(self, card: Card, top: Card) -> bool:
        return card.suit == top.suit or card.rank == top.rank

    def went_out(self, seat: int) -> None:
        self.winner, self.phase = seat, OVER

    def scores(self) -> list[int]:
        return [-len(hand) for hand in self.hands]

    def winners(self) -> list[int]:
        return [] if self.winner is None else [self.winner]

    def observation(self, player: int) -> dict[str, Any]:
        return {
            "hand": [c.id for c in self.hands[player]],
            "top": self.pile[-1].id,
            "hand_sizes": [len(h) for h in self.hands],
        }

    def snapshot(self) -> Any:
        return (self.phase, self.turn, [[c.id for c in h] for h in self.hands])

    def check_invariants(self) -> None:
        pass


class Duel(HiddenHandsState):
    """Three cards each; everyone places one face down, they turn up together, highest scores."""

    unseen_moves = frozenset({"place"})

    def __init__(self, players: int, seed: int) -> None:
        super().__init__(table("duel"), players, seed, "standard")
        self.phase, self.turn = "place", 0
        self.deal_hands(DECK, 3)
        self.placed: list[Card | None] = [None] * players
        self.points = [0] * players

    def _legal_actions(self) -> list[Action]:
        return [Action("place", c.id) for c in self.hands[self.turn]]

    def _apply(self, action: Action) -> None:
        hand = self.hands[self.turn]
        card = next(c for c in hand if c.id == action.target)
        hand.remove(card)
        self.placed[self.turn] = card
        if self.turn + 1 < self.players:
            self.turn += 1
            return
        cards: list[Card] = self.placed  # type: ignore[assignment]  # every seat has placed
        best = max(range(self.players), key=lambda s: cards[s].rank)
        self.points[best] += 1
        self.event("reveal", cards=[c.id for c in cards], best=best)
        self.placed = [None] * self.players
        self.turn = 0
        if not self.hands[0]:
            self.phase = OVER

    def unseen_places(self, player: int) -> list[list[list[Any]]]:
        return [[*self.other_hands(player), self.placed]]

    def seen_places(self, player: int) -> list[Iterable[Any]]:
        return [self.hands[player], face_down_view(self.placed, player, revealed=False)]

    def observation(self, player: int) -> dict[str, Any]:
        placed = face_down_view(self.placed, player, revealed=False)
        return {
            "hand": [c.id for c in self.hands[player]],
            "placed": [None if c is None else c.id for c in placed],
            "points": list(self.points),
        }

    def scores(self) -> list[int]:
        return list(self.points)

    def winners(self) -> list[int]:
        return []

    def snapshot(self) -> Any:
        return (self.phase, self.turn)

    def check_invariants(self) -> None:
        pass


def check_hidden(state: HiddenHandsState) -> None:
    """No card of another seat's hand is in a seat's observation; a re-deal of what the seat
    cannot see moves the others' cards but leaves the seat's observation as it was."""
    for player in range(state.players):
        others = {c.id for seat, hand in enumerate(state.hands) if seat != player for c in hand}
        hidden = state.hidden_from(player)
        assert others <= hidden
        assert not set(observation_strings(state.observation(player))) & hidden
        copy = state.flat_clone()
        copy.redeal(player, hidden, random.Random(player))  # type: ignore[attr-defined]
        assert copy.observation(player) == state.observation(player)
        assert unseen(copy, player) == unseen(state, player)
        REDEALS["moved"] += copy.hands != state.hands  # type: ignore[attr-defined]


#: How many re-deals moved a card between hands: a re-deal that never moves is no test.
REDEALS = {"moved": 0}


def unseen(state: HiddenHandsState, player: int) -> list[str]:
    """The ids of every card ``player`` cannot see, wherever they lie."""
    places = [place for group in state.unseen_places(player) for place in group]
    return sorted(c.id for place in places for c in place if c is not None)


def play_randomly(state: Any, seed: int, check: Any) -> int:
    """Play ``state`` to its end with random legal moves, ``check(state, action)`` before each;
    the actions taken."""
    rng = random.Random(seed)
    actions = 0
    while not state.is_terminal():
        action = rng.choice(state.legal_actions())
        check(state, action)
        state.apply(action)
        actions += 1
        assert actions < 2000, "the game did not end"
    return actions


def expected_winner(seats: list[int], cards: list[Card]) -> int:
    """The seat of the highest card of the led suit, worked out here."""
    led = [(c.rank, seat) for seat, c in zip(seats, cards, strict=True) if c.suit == cards[0].suit]
    return max(led)[1]


@pytest.mark.parametrize("players", [2, 3])
def test_a_trick_game_follows_suit_and_the_winner_takes_the_trick_and_leads(players: int) -> None:
    followed = tricks = 0
    for seed in range(GAMES):
        state, rng = Tricks(players, seed), random.Random(seed)
        while not state.is_terminal():
            hand, trick = state.hands[state.turn], list(state.trick_cards)
            led = [c for c in hand if trick and c.suit == trick[0].suit]
            assert [a.target for a in state.legal_actions()] == [c.id for c in led or hand]
            followed += 0 < len(led) < len(hand)
            action = rng.choice(state.legal_actions())
            card = next(c for c in hand if c.id == action.target)
            seats, cards = [*state.trick_seats, state.turn], [*trick, card]
            state.apply(action)
            check_hidden(state)
            if len(cards) < players:
                continue
            tricks += 1
            winner = expected_winner(seats, cards)
            ids = [c.id for c in cards]
            assert state.log[-1] == {"event": "trick", "winner": winner, "cards": ids}
            assert state.taken[winner][-1] == cards
            assert state.is_terminal() or state.turn == state.lead == winner
        assert sum(state.scores()) == 4  # four cards each: four tricks
    assert followed and tricks == 4 * GAMES and REDEALS["moved"]


def test_a_trick_game_refuses_a_card_that_does_not_follow_suit() -> None:
    for seed in range(GAMES):
        state = Tricks(3, seed)
        led = state.hands[0][0]
        state.apply(Action("play", led.id))
        hand = list(state.hands[1])
        off = [c for c in hand if c.suit != led.suit]
        if off and len(off) < len(hand):  # the seat could follow, and holds another suit too
            with pytest.raises(IllegalAction):
                state.apply(Action("play", off[0].id))
            assert state.hands[1] == hand and state.trick_cards == [led]
            return
    pytest.fail("no deal let the second seat both follow and not follow")


@pytest.mark.parametrize("players", [2, 3])
def test_a_shedding_game_beats_the_top_or_draws_and_ends_with_an_empty_hand(players: int) -> None:
    drew = played = 0
    for seed in range(GAMES):
        state = Shedding(players, seed)

        def check(state: Shedding, action: Action) -> None:
            nonlocal drew, played
            check_hidden(state)
            hand, top = state.hands[state.turn], state.pile[-1]
            beating = [c.id for c in hand if c.suit == top.suit or c.rank == top.rank]
            legal = state.legal_actions()
            if beating:
                assert [a.target for a in legal] == beating
                played += 1
            elif state.deck or len(state.pile) > 1:
                assert legal == [DRAW]
                drew += 1
            else:
                assert legal == [PASS]

        play_randomly(state, seed, check)
        assert state.winner is not None and not state.hands[state.winner]
        cards = [*state.deck, *state.pile, *(c for hand in state.hands for c in hand)]
        assert sorted(c.id for c in cards) == sorted(c.id for c in DECK)
    assert drew and played


def test_drawing_takes_the_top_of_the_deck_and_an_empty_deck_is_refilled_from_the_pile() -> None:
    state = Shedding(2, seed=0)
    top = state.deck[-1]
    state.draw(0)
    assert state.hands[0][-1] is top
    state.deck = []
    state.pile = DECK[:3]
    assert state.draw(1)
    assert state.pile == [DECK[2]] and len(state.deck) == 1
    assert state.log[-1] == {"event": "refill", "cards": 2}
    state.deck = []
    assert not state.can_draw() and not state.draw(1)


def test_face_down_play_is_hidden_from_the_others_until_it_turns_up() -> None:
    for seed in range(GAMES):
        state = Duel(3, seed)

        def check(state: Duel, action: Action) -> None:
            check_hidden(state)
            placed = [c.id for c in state.placed if c is not None]
            for seat in range(state.players):
                shown = set(observation_strings(state.observation(seat)))
                theirs = {c.id for s, c in enumerate(state.placed) if c is not None and s != seat}
                assert not shown & theirs
            assert len(placed) == state.turn

        play_randomly(state, seed, check)
        view = state.log_view(1)
        for entry, seen in zip(state.log[1:], view[1:], strict=True):
            if entry.get("player") not in (None, 1):
                assert seen["action"] == "place ?"
            else:
                assert seen == entry
        assert any(e.get("event") == "reveal" for e in view)


def test_deal_gives_each_seat_its_block_and_leaves_the_rest() -> None:
    deck = list(range(10))
    assert deal(deck, 3, 2) == [[0, 1], [2, 3], [4, 5]]
    assert deck == [6, 7, 8, 9]
    assert face_down_view(["a", "b", "c"], 1, revealed=False) == [None, "b", None]
    assert face_down_view(["a", "b"], 0, revealed=True) == ["a", "b"]
