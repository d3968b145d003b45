"""Gasha's procedure: turns of drawing or trading, deck rebuilding, tickets, tokens, the end.

The state machine only sequences the game; every rule it applies is a function of ``rules.py``
(the seed section is named there), and every number comes from the model.

Hands, the discard pile and a payment in progress are counts per kind (index i is the i-th kind
of ``rules.kinds_in_order``); the draw decks are lists of kind indices, top card last.

Why it is fast (issue #16): half of all actions are a turn's first, where every reward of the
row must be checked against the hand; ``rules.trade_sets`` tabulates that once per load as bit
sets of rewards, so a hand is checked with a lookup per kind (``rules.affordable_set``, itself
memoised per hand), and the row keeps only the set of its rewards' bits. ``_apply`` looks up
each action's method and argument once (``_Tables.handlers``) instead of comparing verbs. A
rebuild's plan (by what the rule reads, ``rules.rebuild_reads``), the tickets a new reward
completes and a payment's card ids are memoised per load, keyed so that they rarely miss: each
miss adds long-lived objects that the garbage collector keeps going over (a rebuild memo
missing a third of the time cost 8 % of all instructions, half of it in the collector). Only a
player holding 2 Wild Gashas! tokens takes the slower ``rules.affordable``. The state and its
tables are slotted, and rewards and tokens are the engine's plain cards (``Reward``, ``Token``),
not the model's pydantic ones: CPython reads both far faster (issue #16 item 4).

Phases of a turn (seed: "Game Flow"):
- ``turn``: ``draw deck-N`` (the first of the two cards), ``trade REWARD`` or, when neither is
  possible, ``pass``;
- ``draw``: ``draw deck-N``, the second card (clarification draw-steps);
- ``pay``: the payment for the reward being traded, one step at a time: ``pay GASHA-CARD`` (cards
  in the kind order), then ``pay TOKEN`` (2 Wild Gashas! tokens). Only steps that can still be
  completed are offered, and a step that is the only one possible is made for the player;
- ``take``: ``take deck-N``, the Gasha card a same-colour ticket gives (extra-gasha-source).
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import reduce
from itertools import chain, repeat
from operator import attrgetter, itemgetter, mul, or_
from typing import Any, ClassVar, NamedTuple

from gachapress.engine.core import OVER, Action, Game, PhasedState, card_ids, permute_hidden
from gachapress.games.gasha import rules
from gachapress.games.gasha.model import EffectKind, Gasha, GashaCard, SetRewardCard, TicketColour
from gachapress.spec import EngineOption

TURN, DRAW, PAY, TAKE = "turn", "draw", "pay", "take"
PASS = Action("pass")
CARD_ID = attrgetter("id")
BIT = attrgetter("bit")
REQ = attrgetter("req")
TRADE = attrgetter("trade")


@dataclass(frozen=True, slots=True, eq=False)
class Reward:
    """A Set Reward card as the engine holds it: the fields of the model's ``SetRewardCard``
    that the rule functions read during a game (``complete_tickets``: id and ticket;
    ``final_score``: points), with the card's trade action and its bit in ``rules.TradeSets``,
    in a plain slotted object, one per card, compared and hashed by identity. ``start`` is
    ``rules.payment_start`` of its requirement without tokens (the usual trade), as the
    (kind index, count) pairs of the cards it places, and ``start_cards`` their number.

    The model's pydantic cards are slow in the hot path: pydantic defines ``__getattr__``, which
    sends every attribute read down CPython's unspecialised path, and they compare field by
    field in Python. The rule functions, written for the model's cards (the worked examples
    pass those), read only these fields, so they take either."""

    id: str
    points: int
    ticket: TicketColour | None
    trade: Action
    bit: int
    req: rules.Requirement
    start: tuple[tuple[int, int], ...]
    start_cards: int

    def __deepcopy__(self, memo: dict[int, object]) -> Reward:
        return self  # immutable: a copied state shares its cards


@dataclass(frozen=True, slots=True)
class Effect:
    """A Bonus token's effect as the engine holds it (why: ``Reward``): the fields of the
    model's ``BonusEffect``, which ``rules.extra_turns`` and ``rules.final_score`` read."""

    kind: EffectKind
    amount: int


@dataclass(frozen=True, slots=True, eq=False)
class Token:
    """A Bonus token as the engine holds it (why: ``Reward``): its id and effect, and whether
    it is a 2 Wild Gashas! token, which every turn asks."""

    id: str
    effect: Effect
    wild: bool

    def __deepcopy__(self, memo: dict[int, object]) -> Token:
        return self


class _Tables:
    """What every game derives from the model once: cards, requirements and actions."""

    # Slots, as the state's (GashaState): more than 30 names would put them in a dict.
    __slots__ = (
        "_paid",
        "_plans",
        "_read_plans",
        "_setups",
        "_tickets",
        "afford",
        "all_draws",
        "bit",
        "by_id",
        "decks",
        "draw",
        "each_index",
        "each_kind",
        "gasha",
        "gasha_cards",
        "gasha_ids",
        "handlers",
        "kind_of",
        "kinds",
        "pay_card",
        "pay_token",
        "per_token",
        "req",
        "reward",
        "reward_cards",
        "reward_ids",
        "rewards",
        "same_colour_gashas",
        "sets",
        "take",
        "token",
        "token_cards",
        "token_ids",
        "tokens_per_ticket",
        "trade",
    )

    def __init__(self, model: Gasha) -> None:
        self.kinds = rules.kinds_in_order(model)
        by_kind: dict[str, GashaCard] = {card.kind: card for card in model.decks.gasha.cards}
        self.gasha: list[GashaCard] = [by_kind[kind] for kind in self.kinds]
        self.gasha_ids = [card.id for card in self.gasha]
        self.kind_of = {card.id: i for i, card in enumerate(self.gasha)}
        # Each kind, and each kind index, alone in a list: times n, n cards of it (a map of
        # repeat costs more, as repeat parses its arguments as keywords).
        self.each_kind = [[kind] for kind in self.kinds]
        self.each_index = [[k] for k in range(len(self.kinds))]
        self.rewards = model.decks.set_rewards.cards
        tokens = model.decks.bonus_tokens.cards
        self.req = {card.id: rules.requirement(model, card) for card in self.rewards}
        # The bit of each reward in a set of rewards (rules.TradeSets).
        self.sets = rules.trade_sets(list(self.req.values()), model.decks.gasha.size())
        self.bit = dict(zip(self.req, self.sets.bits, strict=True))
        self.per_token = rules.wild_gashas_per_token(model)
        self.decks = max(row.gasha_decks for row in model.setup.values())
        self.draw = [Action("draw", f"deck-{i + 1}") for i in range(self.decks)]
        self.take = [Action("take", f"deck-{i + 1}") for i in range(self.decks)]
        self.all_draws = list(self.draw)
        self.trade = {card.id: Action("trade", card.id) for card in self.rewards}
        self.reward = {
            card.id: Reward(
                card.id,
                card.points,
                card.ticket,
                self.trade[card.id],
                self.bit[card.id],
                self.req[card.id],
                *_placed(rules.payment_start(self.req[card.id], 0)),
            )
            for card in self.rewards
        }
        self.token = {
            t.id: Token(
                t.id, Effect(t.effect.kind, t.effect.amount), t.effect.kind == "wild-gashas"
            )
            for t in tokens
        }
        self.tokens_per_ticket = model.tickets.bonus_tokens
        self.same_colour_gashas = model.tickets.same_colour_gashas
        self._tickets: dict[tuple[tuple[Reward, ...], Reward], _Tickets] = {}
        # rules.affordable_set of each hand met, by its counts (bounded: GashaState.__init__).
        self.afford: dict[tuple[int, ...], int] = {}
        self._paid: dict[tuple[int, ...], tuple[tuple[str, ...], tuple[tuple[int, int], ...]]] = {}
        self.pay_card = [Action("pay", card_id) for card_id in self.gasha_ids]
        self.pay_token = {t.id: Action("pay", t.id) for t in self.token.values() if t.wild}
        # What each action does: the state's method for it and that method's argument, so that
        # applying an action is one lookup (GashaState._apply).
        self.handlers: dict[Action, tuple[Callable[[GashaState, Any], None], Any]] = {
            **{action: (GashaState._draw, i) for i, action in enumerate(self.draw)},
            **{action: (GashaState._take, i) for i, action in enumerate(self.take)},
            **{action: (GashaState._trade, self.reward[i]) for i, action in self.trade.items()},
            **{action: (GashaState._pay_card, k) for k, action in enumerate(self.pay_card)},
            **{action: (GashaState._pay_token, i) for i, action in self.pay_token.items()},
            PASS: (GashaState._pass, None),
        }
        # Every card by id, the engine's own for rewards and tokens.
        self.by_id: dict[str, Any] = {**model.cards(), **self.reward, **self.token}
        self.gasha_cards = [i for i, card in enumerate(self.gasha) for _ in range(card.count)]
        self.reward_cards = [card for card in self.rewards for _ in range(card.count)]
        self.token_cards = [self.token[t.id] for t in tokens for _ in range(t.count)]
        self.reward_ids = sorted(card.id for card in self.reward_cards)
        self.token_ids = sorted(token.id for token in self.token_cards)
        self._setups: dict[int, _Setup] = {}
        self._plans: dict[tuple[tuple[int, ...], int], _Plan] = {}
        self._read_plans: dict[tuple[Any, ...], _Plan] = {}

    def rebuild_plan(self, model: Gasha, sizes: tuple[int, ...], discard: int) -> _Plan:
        """``rules.rebuild_gasha_decks``, memoised and ready to apply: a game rebuilds its decks
        every few turns. The plans are kept by what the rule reads (``rules.rebuild_reads``),
        few, and found first by the deck sizes and the discard pile's size up to the number of
        places (the rule reads no more of it), which is quicker to look up but comes in many
        more forms."""
        places = len(sizes)
        key = (sizes, discard if discard < places else places)
        plan = self._plans.get(key)
        if plan is None:
            if len(self._plans) >= 100_000:  # bounded, whatever the deck sizes a game meets
                self._plans.clear()
                self._read_plans.clear()
            reads = rules.rebuild_reads(sizes, discard)
            plan = self._read_plans.get(reads)
            if plan is None:
                rebuild = rules.rebuild_gasha_decks(model, list(sizes), discard)
                plan = self._read_plans[reads] = _plan(rebuild)
            self._plans[key] = plan
        return plan

    def tickets(self, model: Gasha, waiting: list[Reward], reward: Reward) -> _Tickets:
        """``rules.complete_tickets`` of the halves ``waiting`` and a new ``reward``, memoised
        (a player waits with at most one half, so there are few): the tickets completed and the
        halves left waiting. The tickets are shared: copy them before logging."""
        key = (tuple(waiting), reward)
        found = self._tickets.get(key)
        if found is None:
            result = rules.complete_tickets(model, [*waiting, reward])
            unpaired = tuple(map(self.reward.__getitem__, result["unpaired"]))
            found = self._tickets[key] = (result["tickets"], unpaired)
        return found

    def paid(self, placed: list[int]) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
        """The ids of the Gasha cards of a payment, counted per kind, in the kind order (a
        trade's log lists them), and its (kind index, count) pairs (they go to the discard
        pile). Memoised: payments are small, so there are few."""
        key = tuple(placed)
        found = self._paid.get(key)
        if found is None:
            ids = tuple(chain.from_iterable(map(repeat, self.gasha_ids, key)))
            found = self._paid[key] = (ids, _placed(key)[0])
        return found

    def setup(self, model: Gasha, players: int) -> _Setup:
        """The setup numbers for a player count, from the rule functions (seed: "Setup")."""
        if players not in self._setups:

            def in_play(card: SetRewardCard) -> bool:
                return rules.reward_in_play(model, card, players)

            self._setups[players] = _Setup(
                deck_sizes=rules.gasha_deck_sizes(model, players),
                box=[self.reward[c.id] for c in self.reward_cards if not in_play(c)],
                pile=[self.reward[c.id] for c in self.reward_cards if in_play(c)],
                tokens=rules.bonus_tokens_in_play(model, players),
            )
        return self._setups[players]


_Tickets = tuple[list[dict[str, Any]], tuple[Reward, ...]]


class _Plan(NamedTuple):
    """A rebuild (``rules.rebuild_gasha_decks``) ready to apply: each step as the deck cut and
    the place its bottom half goes to, or None and the places the discard pile is dealt to;
    whether the decks are formed; the rule's steps, to log, or None for a cut alone (which
    follows from the draw and is not logged)."""

    steps: tuple[tuple[int | None, Any], ...]
    formed: bool
    logged: list[dict[str, Any]] | None


def _plan(rebuild: dict[str, Any]) -> _Plan:
    """The ``_Plan`` of a result of ``rules.rebuild_gasha_decks``."""
    steps, formed = rebuild["steps"], rebuild["formed"]
    ready = tuple(
        (step["cut"], step["to"]) if "cut" in step else (None, step["deal"]) for step in steps
    )
    logged = steps if not formed or len(steps) > 1 or "deal" in steps[0] else None
    return _Plan(ready, formed, logged)


def _placed(counts: tuple[int, ...]) -> tuple[tuple[tuple[int, int], ...], int]:
    """Cards counted per kind as the (kind index, count) pairs of the kinds present, and the
    number of cards."""
    return tuple((k, n) for k, n in enumerate(counts) if n), sum(counts)


@dataclass(frozen=True)
class _Setup:
    deck_sizes: list[int]
    box: list[Reward]
    pile: list[Reward]
    tokens: int


class GashaState(PhasedState):
    """A game of Gasha in progress (seed: every section; clarifications in YAML)."""

    # Slots, not an instance dict: CPython 3.11 keeps an object's attributes inline, where
    # reading one and finding a method are fast, only up to 30 names; past that (this state has
    # 40, and the base class 7 more) every ``self.x`` and ``self.f()`` takes a slow dict lookup.
    __slots__ = (
        "box",
        "decks",
        "decks_formed",
        "discard",
        "draw_count",
        "draws_left",
        "extra",
        "face_up",
        "hands",
        "last",
        "last_kind",
        "model",
        "paying",
        "phase",
        "pile",
        "placed",
        "placed_cards",
        "pool",
        "reveal",
        "rewards",
        "row",
        "row_set",
        "row_setup",
        "spent",
        "steps",
        "tables",
        "taken",
        "takes_left",
        "tickets",
        "token_box",
        "trigger",
        "trigger_seat",
        "turn",
        "turns",
        "unpaired",
        "wild_left",
        "wilds",
    )
    max_actions_per_player: ClassVar[int] = 600
    shared_attributes = ("model", "row_setup", "tables")

    def __init__(self, game: Game, players: int, seed: int, mode: str, **options: bool) -> None:
        switched = [name for name, on in options.items() if on]
        super().__init__(game, players, seed, mode, switched)
        model = game.model
        assert isinstance(model, Gasha)
        self.model = model
        self.row_setup = model.setup[players]
        self.tables = t = game.tables("gasha", lambda: _Tables(model))
        if len(t.afford) > 100_000:  # bounded, whatever hands the games meet
            t.afford.clear()
        n, kinds = players, len(t.kinds)
        setup = t.setup(model, n)
        # Seed, "Setup" 1: shuffle the Gasha cards, deal the hands, make the draw decks.
        cards = self._shuffled(t.gasha_cards)
        hand = self.row_setup.hand
        kind_range = range(kinds)
        self.hands = [
            list(map(cards[i * hand : (i + 1) * hand].count, kind_range)) for i in range(n)
        ]
        places = len(setup.deck_sizes)  # dealt one at a time (clarification deck-sizes)
        self.decks: list[list[int]] = [cards[n * hand + i :: places] for i in range(places)]
        self.discard = [0] * kinds
        self.decks_formed = True
        # Seed, "Setup" 2: the reward deck for this player count, four face up.
        self.box = list(setup.box)
        self.pile = pile = self._shuffled(setup.pile)
        face_up = len(pile) - self.row_setup.reward_row
        self.row: list[Reward] = pile[face_up:][::-1]  # drawn from the top, one by one
        del pile[face_up:]
        self._row_changed()
        # Seed, "Setup" 3: the Bonus tokens for this player count, face down: drawn at random,
        # or the ones a token choice names, shuffled (clarification token-selection).
        choice = rules.token_choice(model, switched)
        tokens = self._shuffled(t.token_cards)
        self.pool, self.token_box = rules.face_down_tokens(model, tokens, n, choice)
        self.rewards: list[list[Reward]] = [[] for _ in range(n)]
        # Each ticket: the ids of its rewards, and of the tokens placed on them.
        self.tickets: list[list[tuple[tuple[str, ...], tuple[str, ...]]]] = [[] for _ in range(n)]
        self.unpaired: list[list[Reward]] = [[] for _ in range(n)]  # halves waiting
        self.taken: list[list[Token]] = [[] for _ in range(n)]
        self.face_up: list[list[Token]] = [[] for _ in range(n)]
        self.wilds = [0] * n  # each seat's face-up 2 Wild Gashas! tokens, asked every turn
        # The turn in progress.
        self.turn = 0  # clarification first-player
        self.phase = TURN
        self.turns = 0
        self.draw_count = model.turn.draw
        self.extra = 0
        self.draws_left = self.draw_count  # draws left this turn (clarification draw-steps)
        self.takes_left = 0
        self.reveal: list[Token] = []  # tokens taken this turn, applied at its end
        self.paying: Reward | None = None
        self.placed = [0] * kinds
        self.placed_cards = 0
        self.wild_left: list[Token] = []
        self.last_kind = -1
        self.spent: list[Token] = []
        self.steps: list[Action] = []
        self.trigger: str | None = None
        self.trigger_seat: int | None = None
        self.last: list[int] = []

    def _shuffled(self, items: list[Any]) -> list[Any]:
        """``items`` in a uniformly random order from ``self.rng``: sorted by one random key
        each (faster than ``random.shuffle``, which calls back into Python for every card),
        then picked out in that order by one ``itemgetter`` (a third cheaper than a map)."""
        rng = self.rng
        keys = list(map(type(rng).random, [rng] * len(items)))  # draws rng.random() each
        if len(items) < 2:  # itemgetter of one index gives the item, not a tuple
            return list(items)
        return list(itemgetter(*sorted(range(len(items)), key=keys.__getitem__))(items))

    # -- the API -------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        each_kind = self.tables.each_kind
        return [
            rules.final_score(
                self.model,
                self.rewards[seat],
                list(chain.from_iterable(map(mul, each_kind, self.hands[seat]))),
                self.face_up[seat],
            )
            for seat in range(self.players)
        ]

    def winners(self) -> list[int]:
        if self.phase != OVER:
            return []
        return rules.winners(self.model, self.scores(), [len(t) for t in self.taken])

    def rounds_played(self) -> int:
        """Gasha has no rounds: the turns played (extra turns included)."""
        return self.turns

    def end_condition(self) -> str:
        return self.trigger or "unfinished"

    def _legal_actions(self) -> list[Action]:
        t = self.tables
        phase = self.phase
        if phase == TURN:
            seat = self.turn
            hand = self.hands[seat]
            tokens = self.wilds[seat]
            if self.decks_formed and not tokens:
                # The usual case: every deck has a card between actions (the rebuild sees to
                # it), and every reward of the row is checked at once; a hand's rewards are
                # looked up (the same few hands come back turn after turn).
                key = tuple(hand)
                found = t.afford.get(key)
                if found is None:
                    found = t.afford[key] = rules.affordable_set(t.sets, hand)
                found &= self.row_set
                legal = [*t.all_draws]
                if found:
                    for card in self.row:  # each reward found once, at its first copy
                        if card.bit & found:
                            legal.append(card.trade)
                            found ^= card.bit
                return legal
            if self.decks_formed:
                actions = [*t.all_draws]
            else:
                actions = [t.draw[i] for i, deck in enumerate(self.decks) if deck]
            unique = list(dict.fromkeys(self.row))
            found_at = rules.affordable(list(map(REQ, unique)), hand, tokens, t.per_token)
            actions.extend(map(TRADE, map(unique.__getitem__, found_at)))
            return actions or [PASS]
        if phase == DRAW:
            if self.decks_formed:
                return [*t.all_draws]
            return [t.draw[i] for i, deck in enumerate(self.decks) if deck]
        if phase == TAKE:
            return [t.take[i] for i, deck in enumerate(self.decks) if deck]
        return self.steps  # PAY

    def _apply(self, action: Action) -> None:
        """The action's method and argument, looked up at once (``_Tables.handlers``)."""
        method, argument = self.tables.handlers[action]
        method(self, argument)

    def _pass(self, _: None) -> None:
        """Nothing to draw and no trade within reach (clarification short-draw)."""
        self._end_turn()

    def _row_changed(self) -> None:
        """The set of the row's rewards (their bits in rules.TradeSets), which the legal actions
        of every turn check."""
        self.row_set = reduce(or_, map(BIT, self.row), 0)

    def _recount(self) -> None:
        """What the state derives from its cards anew (tests and re-deals set cards directly):
        the row's data and each seat's face-up 2 Wild Gashas! tokens."""
        self._row_changed()
        self.wilds = [sum(token.wild for token in face_up) for face_up in self.face_up]

    # -- drawing (seed: "Draw two Gasha cards") ------------------------------------------------
    def _draw(self, index: int) -> None:
        deck = self.decks[index]
        self.hands[self.turn][deck.pop()] += 1
        self.draws_left = left = self.draws_left - 1
        if not deck:
            self._rebuild()
            if not any(self.decks):
                left = 0  # no card left to draw (clarification short-draw)
        if left:
            self.phase = DRAW
            if self.decks_formed:  # known now: any deck (made here, it skips _legal_actions)
                self._legal = [*self.tables.all_draws]
        else:
            self._end_turn()

    def _rebuild(self) -> None:
        """A place is empty: cut the biggest deck, or deal the discard pile (seed, "Draw two
        Gasha cards"; clarification deck-rebuild-timing)."""
        decks, discard, t = self.decks, self.discard, self.tables
        steps, formed, logged = t.rebuild_plan(self.model, tuple(map(len, decks)), sum(discard))
        for cut, to in steps:
            if cut is not None:
                source = decks[cut]
                half = len(source) // 2
                decks[to] = source[:half]  # the bottom half, in the same order
                del source[:half]
            else:
                pile = self._shuffled(list(chain.from_iterable(map(mul, t.each_index, discard))))
                for i, place in enumerate(to):  # one card at a time, place by place
                    decks[place].extend(pile[i :: len(to)])
                self.discard = [0] * len(discard)
        self.decks_formed = formed
        if logged is not None:
            steps_copied = [
                {**step, "deal": list(step["deal"])} if "deal" in step else dict(step)
                for step in logged
            ]  # the plan's own steps are shared by every game
            self.event("rebuild", steps=steps_copied, formed=formed)
        if not formed:  # the only end condition a rebuild can bring about
            self._check_end()

    # -- trading (seed: "Trade Gasha cards for a Set Reward card") -----------------------------
    def _trade(self, reward: Reward) -> None:
        """Start paying for ``reward``, of the row (every copy there is this same object).
        Outside a payment nothing is placed or spent and no token is left to spend
        (check_invariants): the payment fills those lists in place."""
        self.paying = reward
        self.phase = PAY
        self.last_kind = -1
        seat = self.turn
        if self.wilds[seat]:
            self.wild_left = wild = [tok for tok in self.face_up[seat] if tok.wild]
            start, cards = _placed(rules.payment_start(reward.req, len(wild)))
        else:
            start, cards = reward.start, reward.start_cards
        hand, placed = self.hands[seat], self.placed
        for kind, n in start:
            placed[kind] = n
            hand[kind] -= n
        self.placed_cards = cards
        self._next_steps()

    def _next_steps(self) -> None:
        """Offer the payment's next steps; make a step that is the only one possible."""
        t = self.tables
        req, per_token = self.paying.req, t.per_token  # type: ignore[union-attr]
        hand, placed, pay_card = self.hands[self.turn], self.placed, t.pay_card
        while not rules.payment_complete(req, self.placed_cards, len(self.spent), per_token):
            wild = self.wild_left
            kinds, token = rules.payment_steps(
                req, placed, hand, self.last_kind, len(self.spent), len(wild), per_token
            )
            if token:
                steps = list(map(pay_card.__getitem__, kinds))
                steps.extend(dict.fromkeys(t.pay_token[tok.id] for tok in wild))
                if len(steps) > 1:
                    self._legal = self.steps = steps  # the legal actions, known now
                    return
                self._place_token(wild[0])  # the only step: a token (of one kind, maybe two)
            elif len(kinds) > 1:
                self._legal = self.steps = list(map(pay_card.__getitem__, kinds))
                return
            else:
                assert kinds, "a payment was started that cannot be completed"
                self._place_card(kinds[0])
        self._finish_trade()

    def _pay_card(self, kind: int) -> None:
        self._place_card(kind)
        self._next_steps()

    def _pay_token(self, token_id: str) -> None:
        self._place_token(next(tok for tok in self.wild_left if tok.id == token_id))
        self._next_steps()

    def _place_card(self, kind: int) -> None:
        """One step of cards of ``kind``: one card, or every card an identical-Gashas reward
        still needs when no token can help (``rules.payment_take``)."""
        cards = self.placed_cards
        n = rules.payment_take(self.paying.req, cards, len(self.wild_left))  # type: ignore[union-attr]
        self.hands[self.turn][kind] -= n
        self.placed[kind] += n
        self.placed_cards = cards + n
        self.last_kind = kind

    def _place_token(self, token: Token) -> None:
        self.wild_left.remove(token)
        self.face_up[self.turn].remove(token)  # flipped: spent (seed, "Bonus Token Abilities")
        self.wilds[self.turn] -= 1
        self.spent.append(token)

    def _finish_trade(self) -> None:
        """Clarification trade-turn-order: pay, take the reward, refill the row, complete a
        ticket, take and reveal a Bonus token, take the same-colour Gasha card, apply the token."""
        t, seat, reward = self.tables, self.turn, self.paying
        assert reward is not None
        placed = self.placed
        paid, pairs = t.paid(placed)
        discard = self.discard
        for kind, n in pairs:  # to the discard pile; nothing is left placed (_trade)
            discard[kind] += n
            placed[kind] = 0
        spent = []
        if self.spent:
            spent = [token.id for token in self.spent]
            self.spent = []
        if self.wild_left:
            self.wild_left = []
        self.placed_cards = 0
        self.paying = None
        if self.steps:
            self.steps = []
        # Take the reward and refill the row (clarification reward-row-refill).
        row = self.row
        index = row.index(reward)  # by identity: the first copy
        self.rewards[seat].append(reward)
        revealed = None
        if self.pile:
            revealed = row[index] = self.pile.pop()
        else:
            del row[index]
        # The row's set (_row_changed) loses the reward unless a copy is left, and gains the
        # card revealed.
        row_set = self.row_set if reward in row else self.row_set ^ reward.bit
        self.row_set = row_set if revealed is None else row_set | revealed.bit
        # A trade's log entries are appended here, not through ``event``, which builds each one
        # twice (its keywords, then the entry): a trade is an action in seven.
        self.log.append(
            {
                "event": "trade",
                "seat": seat,
                "reward": reward.id,
                "cards": list(paid),
                "tokens": spent,
                "revealed": revealed and revealed.id,
            }
        )
        if revealed is not None and not self.pile:  # the pile is empty now (end trigger)
            self._check_end()
        if not self.decks_formed:
            self._rebuild()  # the discard pile grew (clarification deck-rebuild-timing)
        # Tickets (seed, "How do I get Bonus tokens?").
        # Halves pair in the order taken, so only the waiting half and the new card matter; a
        # card without a half changes nothing.
        tickets: list[dict[str, Any]] = []
        if reward.ticket is not None:
            tickets, unpaired = t.tickets(self.model, self.unpaired[seat], reward)
            self.unpaired[seat] = list(unpaired)
        for ticket in tickets:
            tokens = self.pool[-t.tokens_per_ticket :] if self.pool else []
            del self.pool[len(self.pool) - len(tokens) :]
            for token in tokens:
                self.taken[seat].append(token)
                self.face_up[seat].append(token)
                self.wilds[seat] += token.wild
                self.reveal.append(token)
            token_ids = tuple(map(CARD_ID, tokens))  # placed on the ticket's rewards
            self.tickets[seat].append((tuple(ticket["pair"]), token_ids))
            self.log.append(
                {
                    "event": "ticket",
                    "seat": seat,
                    "pair": list(ticket["pair"]),  # a copy: the tickets are shared
                    "tokens": list(token_ids),
                    "extra_gasha": ticket["extra_gasha"],
                }
            )
            if tokens:
                self._check_end()
            if ticket["extra_gasha"]:
                self.takes_left += t.same_colour_gashas
        self._after_takes()

    def _take(self, index: int) -> None:
        """Clarification extra-gasha-source: the top card of the chosen deck."""
        deck = self.decks[index]
        self.hands[self.turn][deck.pop()] += 1
        self.takes_left -= 1
        if not deck:
            self._rebuild()
        self._after_takes()

    def _after_takes(self) -> None:
        if self.takes_left and any(self.decks):
            self.phase = TAKE
            return
        self.takes_left = 0  # every deck is empty: no card (clarification extra-gasha-source)
        for token in self.reveal:  # clarification one-more-turn-timing
            turns = rules.extra_turns(self.model, token)
            if token.effect.kind == "extra-turn":
                self.face_up[self.turn].remove(token)  # used at once, then flipped
                if turns:
                    self.extra += turns
                    self.event("extra-turn", seat=self.turn, turns=turns)
        if self.reveal:
            self.reveal = []
        self._end_turn()

    # -- the end (seed: "End of the Game") -----------------------------------------------------
    def _check_end(self) -> None:
        if self.trigger is not None:
            return  # later triggers change nothing (clarification last-turns)
        reasons = rules.end_reasons(self.model, len(self.pool), len(self.pile), self.decks_formed)
        if reasons:
            self.trigger, self.trigger_seat = reasons[0], self.turn
            self.last = rules.last_turns(self.model, self.turn, self.players)
            self.event("end", seat=self.turn, trigger=reasons[0], last_turns=list(self.last))

    def _end_turn(self) -> None:
        self.turns += 1
        self.phase = TURN
        self.draws_left = self.draw_count  # the next turn's (clarification draw-steps)
        if self.extra:
            self.extra -= 1  # the same player plays again (seed, "One more turn!")
        elif self.trigger is None:
            self.turn = (self.turn + 1) % self.players
        elif self.last:
            self.turn = self.last.pop(0)
        else:
            self.phase = OVER
            self.event("scores", scores=self.scores())

    #: The state is flat lists (of lists) of numbers, cards and actions, all immutable; the
    #: model and its tables are shared.
    clone = PhasedState.flat_clone

    # -- what a seat may see -------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        t = self.tables
        ids = t.gasha_ids

        def listed(counts: list[int]) -> list[str]:
            return [ids[k] for k, n in enumerate(counts) for _ in range(n)]

        return {
            "seat": player,
            "to_play": self.current_player,
            "phase": self.phase,
            "hand": listed(self.hands[player]),
            "hand_sizes": [sum(h) for h in self.hands],
            "decks": [
                {"size": len(deck), "top": ids[deck[-1]] if deck else None} for deck in self.decks
            ],
            "discard": listed(self.discard),
            "row": [card.id for card in self.row],
            "reward_pile": len(self.pile),
            "rewards": [[card.id for card in cards] for cards in self.rewards],
            "tickets": [
                [{"pair": list(pair), "tokens": list(tokens)} for pair, tokens in tickets]
                for tickets in self.tickets
            ],
            "unpaired": [[card.id for card in cards] for cards in self.unpaired],
            "tokens": [[token.id for token in tokens] for tokens in self.face_up],
            "tokens_taken": [[token.id for token in tokens] for tokens in self.taken],
            "tokens_left": len(self.pool),
            "payment": None
            if self.paying is None
            else {
                "reward": self.paying.id,
                "cards": listed(self.placed),
                "tokens": [token.id for token in self.spent],
            },
            "draws_left": self.draws_left if self.phase == DRAW else 0,
            "takes_left": self.takes_left,
            "extra_turns": self.extra,
            "end": None
            if self.trigger is None
            else {"trigger": self.trigger, "seat": self.trigger_seat, "last_turns": self.last},
        }

    def hidden_from(self, player: int) -> set[str]:
        """Others' hands, the decks below their top cards, the face-down reward pile and
        tokens, and what stays in the box; less every id a copy of which the player sees."""
        ids = self.tables.gasha_ids
        hidden = {card.id for card in [*self.pile, *self.box, *self.pool, *self.token_box]}
        for seat, hand in enumerate(self.hands):
            if seat != player:
                hidden.update(ids[k] for k, n in enumerate(hand) if n)
        for deck in self.decks:
            hidden.update(ids[k] for k in deck[:-1])
        seen = {ids[k] for k, n in enumerate(self.hands[player]) if n}
        seen.update(ids[deck[-1]] for deck in self.decks if deck)
        seen.update(ids[k] for k, n in enumerate(self.discard) if n)
        seen.update(ids[k] for k, n in enumerate(self.placed) if n)
        seen.update(card.id for card in self.row)
        seen.update(card.id for cards in self.rewards for card in cards)
        seen.update(token.id for tokens in self.taken for token in tokens)
        return hidden - seen

    def redeal(self, player: int, unseen: Collection[str], rng: random.Random) -> None:
        """Gasha cards among others' hands and the decks below their top cards, rewards within
        the face-down pile (which rewards stay in the box is public), tokens among the face-down
        ones and those left in the box."""
        ids, kind_of = self.tables.gasha_ids, self.tables.kind_of
        others = [seat for seat in range(self.players) if seat != player]
        hands = [[ids[k] for k, n in enumerate(self.hands[s]) for _ in range(n)] for s in others]
        below = [[ids[k] for k in deck[:-1]] for deck in self.decks]
        permute_hidden([*hands, *below], unseen, rng)
        for seat, hand in zip(others, hands, strict=True):
            self.hands[seat] = [0] * len(ids)
            for card_id in hand:
                self.hands[seat][kind_of[card_id]] += 1
        for deck, cards in zip(self.decks, below, strict=True):
            deck[:-1] = [kind_of[card_id] for card_id in cards]
        permute_hidden([self.pile], unseen, rng)
        permute_hidden([self.pool, self.token_box], unseen, rng)
        self._legal = None

    def snapshot(self) -> Any:
        ids = card_ids
        return (
            self.phase,
            self.turn,
            self.turns,
            self.extra,
            self.draws_left,
            self.takes_left,
            tuple(tuple(h) for h in self.hands),
            tuple(tuple(d) for d in self.decks),
            tuple(self.discard),
            self.decks_formed,
            ids(self.row),
            ids(self.pile),
            ids(self.box),
            ids(self.pool),
            ids(self.token_box),
            tuple(ids(r) for r in self.rewards),
            tuple(tuple(ts) for ts in self.tickets),
            tuple(ids(u) for u in self.unpaired),
            tuple(ids(ts) for ts in self.taken),
            tuple(ids(ts) for ts in self.face_up),
            ids(self.reveal),
            None if self.paying is None else self.paying.id,
            tuple(self.placed),
            self.placed_cards,
            ids(self.wild_left),
            self.last_kind,
            ids(self.spent),
            tuple(self.steps),
            self.trigger,
            self.trigger_seat,
            tuple(self.last),
            self.rng.getstate(),
        )

    def check_invariants(self) -> None:
        """Every card and token is in exactly one place, and the game's own rules hold."""
        t = self.tables
        in_decks = [k for deck in self.decks for k in deck]
        held = [sum(column) for column in zip(*self.hands, strict=True)]
        for k, card in enumerate(t.gasha):
            total = held[k] + in_decks.count(k) + self.discard[k] + self.placed[k]
            assert total == card.count, f"{card.id}: {total} copies, not {card.count}"
        assert min(min(h) for h in self.hands) >= 0, "a negative hand"
        places = [self.row, self.pile, self.box, *self.rewards]
        rewards = sorted([card.id for place in places for card in place])
        assert rewards == t.reward_ids, "a reward created or lost"
        places = [self.pool, self.token_box, *self.taken]
        tokens = sorted([token.id for place in places for token in place])
        assert tokens == t.token_ids, "a token created or lost"
        halves = self.model.tickets.halves
        for seat in range(self.players):
            up = self.face_up[seat] + (self.spent if seat == self.turn else [])
            if up:
                assert not Counter(up) - Counter(self.taken[seat]), "a face-up token not taken"
            tickets = len(self.tickets[seat])
            with_half = len([card for card in self.rewards[seat] if card.ticket is not None])
            assert with_half - tickets * halves == len(self.unpaired[seat]) < halves
            on_tickets = sorted(i for _, ids in self.tickets[seat] for i in ids)
            assert on_tickets == sorted(t.id for t in self.taken[seat]), "a token off its ticket"
        wilds = [sum(token.wild for token in face_up) for face_up in self.face_up]
        assert self.wilds == wilds, "a miscounted 2 Wild Gashas! token"
        assert self.decks_formed == all(self.decks), "an empty place the rebuild missed"
        assert len(self.row) == self.row_setup.reward_row or not self.pile, "row not refilled"
        assert self.row_set == reduce(or_, map(BIT, self.row), 0), "the row's set is stale"
        if self.trigger is None:
            assert self.pool and self.pile and self.decks_formed, "a missed end trigger"
        assert self.phase != OVER or not self.last
        if self.phase != PAY:
            assert not (any(self.placed) or self.spent or self.wild_left), "a payment left over"


def engine_options(model: Gasha) -> list[EngineOption]:
    """Each token choice of the model, an option of every mode: the face-down Bonus tokens it
    names instead of a random draw (seed, "Setup" 3; clarification token-selection)."""
    return [
        EngineOption(name, f"{choice.name['en']}: {choice.text['en']}", tuple(model.modes))
        for name, choice in model.token_choices.items()
    ]
