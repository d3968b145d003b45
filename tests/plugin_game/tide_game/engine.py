"""Tide: each player is dealt three cards; three tricks are played, each player playing one card
in turn from the leader; the highest value wins the trick (the first played among equals) and
leads the next. A trick scores a point; the most points win.

The same file serves as a game folder's own engine module (``engine: {module: engine.py}``):
it defines ``ENGINE`` and ``RULES``."""

from __future__ import annotations

import random
from collections.abc import Collection
from typing import Any, ClassVar

from gachapress.engine.core import OVER, Action, Game, PhasedState, permute_hidden
from gachapress.spec import EngineSpec, RuleSet

HAND = 3
RULES = RuleSet()


@RULES.rule
def trick_winner(model: Any, plays: list[str]) -> int:
    """The index of the winning play: the highest value, the first played among equals."""
    values = [model.cards()[card].value for card in plays]
    return values.index(max(values))


class TideState(PhasedState):
    def __init__(self, game: Game, players: int, seed: int, mode: str) -> None:
        super().__init__(game, players, seed, mode)
        deck = [card.id for card in game.model.cards().values() for _ in range(card.count)]
        self.shuffle(deck)
        self.hands = [sorted(deck[HAND * p : HAND * (p + 1)]) for p in range(players)]
        self.deck = deck[HAND * players :]
        self.trick: list[str] = []
        self.won = [0] * players
        self.lead = self.turn = 0
        self.phase = "play"

    def _legal_actions(self) -> list[Action]:
        return [Action("play", card) for card in self.hands[self.turn]]

    def _apply(self, action: Action) -> None:
        assert action.target is not None
        self.hands[self.turn].remove(action.target)
        self.trick.append(action.target)
        if len(self.trick) < self.players:
            self.turn = (self.turn + 1) % self.players
            return
        winner = (self.lead + trick_winner(self.game.model, self.trick)) % self.players
        self.won[winner] += 1
        self.event("trick", winner=winner, cards=list(self.trick))
        self.trick = []
        self.lead = self.turn = winner
        if not self.hands[winner]:
            self.phase = OVER

    def observation(self, player: int) -> dict[str, Any]:
        return {
            "hand": list(self.hands[player]),
            "trick": list(self.trick),
            "lead": self.lead,
            "scores": list(self.won),
        }

    def scores(self) -> list[int]:
        return list(self.won)

    def winners(self) -> list[int]:
        if self.phase != OVER:
            return []
        best = max(self.won)
        return [seat for seat, won in enumerate(self.won) if won == best]

    def rounds_played(self) -> int:
        return sum(self.won)

    def hidden_from(self, player: int) -> set[str]:
        others = [card for seat, hand in enumerate(self.hands) if seat != player for card in hand]
        return {*others, *self.deck}

    def redeal(self, player: int, unseen: Collection[str], rng: random.Random) -> None:
        places = [hand for seat, hand in enumerate(self.hands) if seat != player]
        permute_hidden([*places, self.deck], unseen, rng)

    def snapshot(self) -> Any:
        hands = tuple(tuple(hand) for hand in self.hands)
        return (self.phase, self.turn, hands, tuple(self.deck), tuple(self.trick), tuple(self.won))

    def check_invariants(self) -> None:
        held = [card for hand in self.hands for card in hand] + self.deck + self.trick
        played = self.players * sum(self.won)
        assert len(held) + played == self.game.model.deck("main").size(), "a card was lost"
        assert sum(self.won) <= HAND, "more tricks than cards in a hand"


class HighBot:
    """Plays its highest card."""

    needs_observation: ClassVar[bool] = False

    def __init__(self, game: Game, seat: int, seed: str) -> None:
        self.values = {card.id: card.value for card in game.model.cards().values()}

    def choose(self, observation: dict[str, Any] | None, legal: list[Action]) -> Action:
        return max(legal, key=lambda action: self.values[str(action.target)])


ENGINE = EngineSpec(state=TideState, bots={"high": HighBot})
