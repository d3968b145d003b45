"""A greedy Gasha player: trades as soon as it can, for the best premium, and draws the face-up
cards that bring the rewards in the row closest."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from gachapress.engine.core import Action, Game
from gachapress.games.gasha import rules
from gachapress.games.gasha.model import Gasha, SetRewardCard


class GreedyBot:
    """Decides from its observation only (its hand, the face-up deck tops, the row, the public
    rewards and tokens), with the public rule functions.

    - Trade whenever a reward in the row can be paid, choosing the one whose points beat the
      cards it costs by most (a ticket half that completes a ticket counts extra).
    - Otherwise draw (and take) from the deck whose top card brings a reward in the row closest
      to being paid, weighting each reward by its premium and how close it already is.
    - When paying, keep tokens for later, and give up first the cards the row needs least.
    """

    needs_observation: ClassVar[bool] = True

    def __init__(self, game: Game, seat: int, seed: int | str) -> None:
        model = game.model
        assert isinstance(model, Gasha)
        self.seat = seat
        kinds = rules.kinds_in_order(model)
        by_kind = {card.kind: card.id for card in model.decks.gasha.cards}
        self.kind_of = {by_kind[kind]: i for i, kind in enumerate(kinds) if kind in by_kind}
        self.n_kinds = len(kinds)
        self.rewards: dict[str, SetRewardCard] = {
            card.id: card for card in model.decks.set_rewards.cards
        }
        self.req = {
            card_id: rules.requirement(model, card) for card_id, card in self.rewards.items()
        }
        self.per_token = rules.wild_gashas_per_token(model)
        self.wild_ids = {
            t.id for t in model.decks.bonus_tokens.cards if t.effect.kind == "wild-gashas"
        }

    def choose(self, observation: dict[str, Any] | None, legal: list[Action]) -> Action:
        assert observation is not None
        if len(legal) == 1:
            return legal[0]
        hand = [0] * self.n_kinds
        for card_id in observation["hand"]:
            hand[self.kind_of[card_id]] += 1
        phase = observation["phase"]
        if phase == "pay":
            return self._pay(observation, legal)
        trades = [a for a in legal if a.verb == "trade"]
        if trades:
            return max(trades, key=lambda a: self._trade_value(observation, a.target))  # type: ignore[arg-type]
        return self._best_deck(observation, hand, legal)

    def _trade_value(self, observation: dict[str, Any], reward_id: str) -> float:
        card = self.rewards[reward_id]
        value = card.points - card.size()
        if card.ticket is not None:
            waiting = observation["unpaired"][self.seat]
            value += 2.5 if waiting and observation["tokens_left"] else 0.5
        return value

    def _closeness(self, row: Sequence[str], hand: list[int]) -> float:
        cards = sum(hand)
        score = 0.0
        for reward_id in row:
            card = self.rewards[reward_id]
            short = rules.trade_short(self.req[reward_id], hand, cards)
            score += (card.points - card.size() + 1) / (1 + short) ** 2
        return score

    def _best_deck(
        self, observation: dict[str, Any], hand: list[int], legal: list[Action]
    ) -> Action:
        decks = observation["decks"]
        row = observation["row"]
        best, best_score = legal[0], float("-inf")
        for action in legal:
            if action.verb not in ("draw", "take"):
                continue
            deck = decks[int(action.target[5:]) - 1]  # type: ignore[index]
            kind = self.kind_of[deck["top"]]
            hand[kind] += 1
            score = self._closeness(row, hand) + deck["size"] * 1e-3
            hand[kind] -= 1
            if score > best_score:
                best, best_score = action, score
        return best

    def _pay(self, observation: dict[str, Any], legal: list[Action]) -> Action:
        cards = [a for a in legal if a.target in self.kind_of]
        if not cards:
            return legal[0]  # only tokens can complete the payment
        paying = observation["payment"]["reward"]
        need = [0] * self.n_kinds
        for reward_id in observation["row"]:
            if reward_id != paying:
                for k, n in enumerate(self.req[reward_id].needs):
                    need[k] += n
        return min(cards, key=lambda a: need[self.kind_of[a.target]])  # type: ignore[index]
