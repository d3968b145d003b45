"""Gachapon Trick's procedure: rounds of tricks, purchases, knock-outs and scoring.

The state machine only sequences the game; every rule it applies is a rule function of
``rules.py`` (the seed section is named there), and every number comes from the model.
"""

from __future__ import annotations

import random
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any, ClassVar

from gachapress.data.model import Card
from gachapress.engine.core import OVER, Action, Game, card_ids
from gachapress.engine.hands import deal
from gachapress.engine.tricks import TrickTakingState
from gachapress.games.gachapon_trick import rules
from gachapress.games.gachapon_trick.model import GachaponTrick

PLAY, BUY, LAST, REFUND = "play", "buy", "last", "refund"
DONE = Action("done")
BUY_TOP = Action("buy", "top of deck")


@dataclass(frozen=True, slots=True, eq=False)
class Toy:
    """A toy card as the engine holds it: the fields of the model's ``ToyCard`` that the rule
    functions read, in a plain slotted object, one per card, compared and hashed by identity.

    A game reads and compares cards thousands of times, and the model's pydantic cards make
    both slow: pydantic defines ``__getattr__``, which sends every attribute read down
    CPython's unspecialised path, and cards compare by id in Python, a call that ``list.remove``
    (a card played, bought or refunded) made for every card before the one it took. The rule
    functions, written for the model's ``ToyCard`` (the worked examples pass those), read only
    these four fields, so they take either.
    """

    id: str
    color: str
    cost: int
    toy: str
    buy: Action  # the actions that name the card, at hand when listing what is legal
    refund: Action

    def __deepcopy__(self, memo: dict[int, object]) -> Toy:
        return self  # immutable: a copied game state shares its cards


class _Tables:
    """What every game derives from the model once: the cards, their actions, the card each
    action names, and the numbers the procedure reads on every trick."""

    def __init__(self, model: GachaponTrick) -> None:
        self.toys = [
            Toy(c.id, c.color, c.cost, c.toy, Action("buy", c.id), Action("refund", c.id))
            for c in model.decks.toys.faces()
        ]
        self.refund: Card = model.decks.refund.faces()[0]
        self.by_id: dict[str, Toy | Card] = {c.id: c for c in [*self.toys, self.refund]}
        self.play = {c.id: Action("play", c.id) for c in self.toys}
        self.card_of: dict[Action, Toy] = {
            action: c for c in self.toys for action in (self.play[c.id], c.buy, c.refund)
        }
        purchase = model.purchase
        self.top_price = purchase.top_of_deck_price
        self.tops_per_trick = purchase.top_of_deck_per_trick


class GachaponState(TrickTakingState):
    """A game of Gachapon Trick in progress (seed: every section; clarifications in YAML)."""

    # Slots, not an instance dict: CPython 3.11 keeps an object's attributes inline, where
    # reading one and finding a method are fast, only up to 30 names; past that (this state has
    # 34, and the base class 7 more) every ``self.x`` and ``self.f()`` takes a slow dict lookup.
    __slots__ = (
        "bank",
        "bought_any",
        "by_id",
        "card_of",
        "collections",
        "discard",
        "hands",
        "lead",
        "model",
        "money",
        "next_seat",
        "offer",
        "out",
        "phase",
        "piles",
        "play_of",
        "points",
        "refund_card",
        "refund_holder",
        "round",
        "row",
        "seatings",
        "spent",
        "stack",
        "top_price",
        "tops_bought",
        "tops_per_trick",
        "toys",
        "trick_cards",
        "trick_seats",
        "trick_size",
        "turn",
    )
    max_actions_per_player: ClassVar[int] = 400
    shared_attributes = (
        "model",
        "row",
        "toys",
        "refund_card",
        "by_id",
        "play_of",
        "card_of",
        "seatings",
        "top_price",
        "tops_per_trick",
    )

    def __init__(self, game: Game, players: int, seed: int, mode: str) -> None:
        super().__init__(game, players, seed, mode)
        model = game.model
        assert isinstance(model, GachaponTrick)
        self.model = model
        self.row = model.setup[players]
        tables = game.tables("gachapon", lambda: _Tables(model))
        self.toys, self.refund_card, self.by_id = tables.toys, tables.refund, tables.by_id
        self.play_of = tables.play.__getitem__  # the play action of a card id
        self.card_of = tables.card_of
        self.seatings: dict[tuple[bool, ...], tuple[int, list[int | None]]] = game.tables(
            f"gachapon-seating-{players}", dict
        )
        self.top_price, self.tops_per_trick = tables.top_price, tables.tops_per_trick
        self.points = [0] * players
        self.round = 0
        self._start_round(lead=self.rng.randrange(players))  # clarification first-lead

    # -- setting up a round (seed: "Setup", "Changes for 2 Players") ---------------------------
    def _start_round(self, lead: int) -> None:
        n, row = self.players, self.row
        self.round += 1
        deck = self.deal_hands(self.toys, row.hand)
        self.piles = deal(deck, n, row.draw_pile)
        self.stack: list[Toy | Card] = [*deck, self.refund_card]
        self.shuffle(self.stack)
        self.money = [row.money] * n
        self.bank = 0  # money paid minus refunds this round (clarification where-money-goes)
        self.spent = [False] * n
        self.collections: list[list[Toy]] = [[] for _ in range(n)]
        self.refund_holder: int | None = None
        self.out = [False] * n
        self.discard: list[Toy | Card] = []
        self.offer: list[Toy] = []
        self.phase = PLAY
        self.start_hand(lead)
        self.event("round", round=self.round, lead=lead)

    # -- the API -------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        return list(self.points)

    def winners(self) -> list[int]:
        if self.phase != OVER:
            return []
        return rules.game_winners(self.model, self.points, self.money)

    def rounds_played(self) -> int:
        return self.round if self.phase == OVER else self.round - 1

    def _legal_actions(self) -> list[Action]:
        if self.phase == PLAY:
            plays = rules.legal_plays(self.model, self.hands[self.turn], self.trick_cards)
            return list(map(self.play_of, plays))
        return self._purchases()

    def _purchases(self) -> list[Action]:
        """What the seat to act may buy or do, in the order of clarification purchase-order:
        trick cards (the last player: hand cards) until a top card is bought, a purchase being
        obligatory for a trick's winner; the top card (seed, "Game Play": ¥500, once a trick);
        the Refund card's uses; stopping. At the round's end only the Refund card is left."""
        seat, phase = self.turn, self.phase
        money = self.money[seat]
        actions: list[Action] = []
        if phase != REFUND:
            if not self.tops_bought:
                cards = self.offer if phase == BUY else self.hands[seat]
                actions = [c.buy for c in cards if c.cost <= money]
                if not self.bought_any:  # a winner buys at least one (the last player need not)
                    return actions
            if self.stack and self.tops_bought < self.tops_per_trick and money >= self.top_price:
                actions.append(BUY_TOP)
        if self.refund_holder == seat:
            actions.extend([c.refund for c in self.collections[seat]])
        actions.append(DONE)
        return actions

    def _apply(self, action: Action) -> None:
        if self.phase == PLAY:
            self.play(self.card_of[action])
        elif action is DONE:
            self._done()
        elif action is BUY_TOP:
            self._buy_top()
        elif action.verb == "refund":
            self._refund(self.card_of[action])
        else:
            self._buy(self.card_of[action])

    # -- playing a trick (seed: "Game Play", "Changes for 2 Players") --------------------------
    def seat_players(self) -> None:
        """Who plays after whom in the coming tricks (``next_seat``) and how many cards make a
        trick (``trick_size``): two players alternate until the trick is full; otherwise each
        player still in plays once, the next being the rule ``next_in_play``. Worked out once
        per pattern of players out and kept for the game, as players go out only between tricks.
        """
        out = self.out
        key = tuple(out)
        seating = self.seatings.get(key)
        if seating is None:
            n = self.players
            size = self.row.trick_cards
            if size is not None:
                after: list[int | None] = [(seat + 1) % n for seat in range(n)]
            else:
                after = [rules.next_in_play(self.model, (seat + 1) % n, out) for seat in range(n)]
                size = out.count(False)
            seating = self.seatings[key] = (size, after)
        self.trick_size, self.next_seat = seating

    def trick_winner(self, cards: list[Toy]) -> int:
        return rules.trick_winner(self.model, cards)

    def take_trick(self, winner: int, seats: list[int], cards: list[Toy]) -> None:
        """The win goes down the ranking to the first player who can afford a card."""
        model, money = self.model, self.money
        buyer: int | None = winner
        if not rules.can_afford(model, money[winner], cards):
            buyer = None
            for seat in dict.fromkeys([seats[i] for i in rules.win_order(model, cards)]):
                if rules.can_afford(model, money[seat], cards):
                    buyer = seat
                    break
        self.event("trick", winner=winner, buyer=buyer)
        if buyer is None:  # clarification nobody-can-buy
            self.discard += cards
            self._after_purchases(leader=winner)
        else:
            self.offer = cards
            self.phase, self.turn = BUY, buyer
            self.bought_any, self.tops_bought = False, 0

    # -- buying (seed: "Game Play", Refund card paragraph) ------------------------------------
    def _pay(self, seat: int, amount: int) -> None:
        self.money[seat] -= amount
        self.bank += amount
        self.spent[seat] = True

    def _buy(self, card: Toy) -> None:
        seat = self.turn
        self._pay(seat, card.cost)
        (self.offer if self.phase == BUY else self.hands[seat]).remove(card)
        self.collections[seat].append(card)
        self.bought_any = True

    def _buy_top(self) -> None:
        seat = self.turn
        self._pay(seat, self.top_price)
        card = self.stack.pop()
        self.tops_bought += 1
        if card is self.refund_card:
            self.refund_holder = seat
        else:
            self.collections[seat].append(card)
        self.event("top", seat=seat, card=card.id)

    def _refund(self, card: Toy) -> None:
        """Clarification refund-use: the toy and the Refund card go; the toy's cost comes back."""
        seat = self.turn
        self.collections[seat].remove(card)
        self.money[seat] += card.cost
        self.bank -= card.cost
        self.discard += [card, self.refund_card]
        self.refund_holder = None
        if self.phase == REFUND:
            self._refund_step(seat + 1)

    def _done(self) -> None:
        if self.phase == BUY:
            self.discard += self.offer  # clarification unbought-cards
            self.offer = []
            self._after_purchases(leader=self.turn)
        elif self.phase == LAST:
            self.discard += self.hands[self.turn]
            self.hands[self.turn] = []
            self._end_round()
        else:
            self._refund_step(self.turn + 1)

    def _after_purchases(self, leader: int) -> None:
        """Knock-outs, two-player draws, then the next trick or the round's end."""
        model, out, money, hands, piles = self.model, self.out, self.money, self.hands, self.piles
        seats = range(self.players)
        for seat in seats:
            if not out[seat] and rules.is_out(model, money[seat]):
                out[seat] = True  # clarification when-out
                self.discard += hands[seat] + piles[seat]
                hands[seat], piles[seat] = [], []
                self.event("out", seat=seat)
        draw = self.row.draw_after_trick
        if draw:
            for seat, pile in enumerate(piles):
                if pile:
                    hands[seat] += pile[:draw]
                    del pile[:draw]
        in_play = [seat for seat in seats if not out[seat]]
        if len(in_play) == 1 and (hands[in_play[0]] or self.stack):
            self.phase, self.turn = LAST, in_play[0]  # clarification last-player
            self.bought_any, self.tops_bought = True, 0
        elif len(in_play) < 2 or not any([hands[seat] for seat in in_play]):
            self._end_round()
        else:
            if self.row.lead == "alternate":
                leader = 1 - self.lead if self.players == 2 else (self.lead + 1) % self.players
            self.start_hand(rules.next_in_play(self.model, leader, out))  # type: ignore[arg-type]
            self.phase = PLAY

    # -- the round's end (seed: "Round End", "Game End") --------------------------------------
    def _end_round(self) -> None:
        self.phase = REFUND
        self._refund_step(0)

    def _refund_step(self, seat: int) -> None:
        """Before scoring, the holder of an unused Refund card may still use it."""
        holder = self.refund_holder
        if holder is not None and holder >= seat and self.collections[holder]:
            self.turn = holder
            return
        self._score_round()

    def _score_round(self) -> None:
        gained = [
            rules.round_points(self.model, self.collections[s], self.money[s], not self.spent[s])
            for s in range(self.players)
        ]
        self.points = [total + new for total, new in zip(self.points, gained, strict=True)]
        self.event(
            "scored",
            round=self.round,
            points=gained,
            collections=[[c.id for c in col] for col in self.collections],
            money=list(self.money),
            spent=list(self.spent),
        )
        if self.round == self.model.rounds:
            self.phase = OVER
            return
        leaders = rules.round_leaders(self.model, self.points)
        lead = (
            leaders[0] if len(leaders) == 1 else self.rng.choice(leaders)
        )  # clarification lead-tie
        self._start_round(lead)

    # -- what a seat may see -------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        return {
            "round": self.round,
            "phase": self.phase,
            "seat": player,
            "to_play": self.current_player,
            "hand": [c.id for c in self.hands[player]],
            "hand_sizes": [len(h) for h in self.hands],
            "pile_sizes": [len(p) for p in self.piles],
            "stack_size": len(self.stack),
            "trick": self.trick_view(),
            "offer": [c.id for c in self.offer] if self.phase == BUY else [],
            "money": list(self.money),
            "spent": list(self.spent),
            "out": list(self.out),
            "collections": [[c.id for c in col] for col in self.collections],
            "refund_holder": self.refund_holder,
            "discard": [c.id for c in self.discard],
            "points": list(self.points),
            "lead": self.lead,
        }

    def snapshot(self) -> Any:
        ids = card_ids
        return (
            self.round,
            self.phase,
            self.turn,
            self.lead,
            tuple(self.points),
            tuple(self.money),
            self.bank,
            tuple(self.spent),
            tuple(self.out),
            self.refund_holder,
            tuple(ids(h) for h in self.hands),
            tuple(ids(p) for p in self.piles),
            ids(self.stack),
            ids(self.discard),
            ids(self.offer),
            tuple(zip(self.trick_seats, ids(self.trick_cards), strict=True)),
            tuple(ids(c) for c in self.collections),
            self.rng.getstate(),
        )

    def unseen_places(self, player: int) -> list[list[list[Any]]]:
        """Others' hands, every face-down draw pile and the stack."""
        return [[*self.other_hands(player), *self.piles, self.stack]]

    def redeal(self, player: int, unseen: Collection[str], rng: random.Random) -> None:
        """Toy cards only: the Refund card stays where it is in the stack."""
        super().redeal(player, set(unseen) - {self.refund_card.id}, rng)

    def check_invariants(self) -> None:
        """Every card is in exactly one place; money only moves between players and the bank."""
        places = [
            *self.hands,
            *self.piles,
            self.stack,
            self.discard,
            self.offer,
            self.trick_cards,
            *self.collections,
        ]
        seen = [c.id for place in places for c in place]
        if self.refund_holder is not None:
            seen.append(self.refund_card.id)
        assert sorted(seen) == sorted(self.by_id), "a card was created or lost"
        assert sum(self.money) + self.bank == self.players * self.row.money, "money leaked"
        assert all(m >= 0 for m in self.money), "negative money"
