"""GotchaCards' procedure: Competitive rounds (draft, three turns of lanes, overtime, best of
three) and Party turns (one face-down card each, showdowns, overtime).

The state machine only sequences the game; every rule it applies is a rule function of
``rules.py`` (each names the seed section and clarification it follows), and every number comes
from the model. Face-down play is a hidden commitment: the players place their cards one at a
time in turn order, nobody else's observation shows them (only how many), and they are revealed
together. A card's effect that needs a decision (a Hammer's target, a Wildcard's type, a Party
Swap Across's or Magnet's player) pauses the turn until its holder answers; the turn is
resolved again from the answers given so far by a plain rule function
(``rules.settle_field`` for a Competitive turn, ``rules.showdown_step`` for a Party turn), so the
state holds only plain data. What a resolver decides becomes a ``Plan``, carried out step by
step; a Party game remembers each showdown's steps by the classes of the cards played, in seat
terms (``PartyState._resolve``), so that turns alike but for the ids of their plain fighters
are worked out once per load.
"""

from __future__ import annotations

import contextlib
import itertools
import operator
import random
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from gachapress.engine.core import OVER, Action, Game
from gachapress.engine.hands import HiddenHandsState, face_down_view
from gachapress.games.gotchacards import rules
from gachapress.games.gotchacards.model import CardType, Effect, GotchaCards
from gachapress.spec import EngineOption

KEEP, PICK, PLACE, PLAY, EFFECT, STEAL, ROLE = (
    "keep",
    "pick",
    "place",
    "play",
    "effect",
    "steal",
    "role",
)
COMPETITIVE, PARTY = "competitive", "party"
#: The option that plays with the beginner deck.
BEGINNER = "beginner"
DONE = Action("done")
#: Moves whose card only its owner sees: Player1's draft keeps and face-down plays.
BECOME = (Action("become", "player1"), Action("become", "player2"))
#: The steps that finish a resolved turn, in order (clarifications effect-priority-and-lanes,
#: draw-order): reveal-time gains, the cards going to piles and trash with lucky bonuses, then
#: after-scoring gains.
STEPS = ("reveal", "cards", "after-scoring")
#: The most Party showdown steps a loaded game remembers, keyed by the classes of the cards
#: played (``_Tables._classes``: 14 with an empty seat; two players meet at most 2 x 14 x 14
#: showdowns, with a few answers to choices; four players far more, so the first ones met are
#: kept).
SHOWDOWN_MEMO = 20_000
#: An entry of a per-load table not worked out yet.
_UNKNOWN = object()
#: A card's id, read in C by ``map`` (a comprehension per list costs a frame's bytecodes).
_ID = operator.attrgetter("id")


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A card as the engine hands it to the resolvers: the three fields of the model's
    ``GotchaCard`` that the rule functions read (written for ``GotchaCard``, which the worked
    examples pass, they take either), in a plain slotted object, one per card.

    The resolvers read these fields many times a turn, and a pydantic card makes each read
    slow: pydantic defines ``__getattr__``, which sends every attribute read down CPython's
    unspecialised path. The effect stays the model's (the resolvers tell effects apart by
    their class)."""

    id: str | int
    """The card's id; a Party stand-in's is the seat that played it (``_Tables._classes``)."""
    type: CardType
    effect: Effect | None

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self  # immutable: a copied game state shares its cards


class Plan(NamedTuple):
    """What a resolver decided for a turn, as plain data that carrying the turn out only reads
    (a remembered plan serves every turn that resolves alike). Its cards are card ids in
    Competitive; in Party, the seats that played them (see ``PartyState``). A named tuple:
    made in one C call where a frozen dataclass sets each field through ``object.__setattr__``,
    and its fields are read in C."""

    gains: tuple[tuple[int, tuple[Any, ...]], ...]
    """Each seat taking cards into its victory pile, in effect-priority order, with them."""
    counts: list[int]
    """Cards each seat takes (the ``scored`` entry's ``taken``: shared, never changed)."""
    trashed: tuple[Any, ...]
    bonus: list[int]
    """Cards each seat also takes from the deck (lucky cards)."""
    draws: list[int]
    steals: list[int]
    fights: Any
    """What each card fought as (the ``scored`` entry's ``fights``: shared, never changed)."""
    any_gain: bool
    """Some seat draws or steals."""
    any_bonus: bool
    plain: bool
    """Nothing to draw, steal or take from the deck: the turn ends with its cards put away."""


class _Tables:
    """What every game derives from the model once: the cards, both decks and the actions."""

    def __init__(self, model: GotchaCards) -> None:
        assert isinstance(model, GotchaCards)
        self.model = model
        self.per_card = model.points_per_card
        self.by_id = {c.id: Card(c.id, c.type, c.effect) for c in model.decks.main.cards}
        self.deck: dict[bool, list[str]] = {}
        self.ordered: dict[bool, list[str]] = {}
        for beginner in (False, True):
            cards = model.deck_cards(beginner=beginner)
            self.deck[beginner] = [c.id for c in cards for _ in range(c.count)]
            self.ordered[beginner] = sorted(self.deck[beginner])
        ids = list(self.by_id)
        self.keep = {i: Action("keep", i) for i in ids}
        self.pick = {i: Action("pick", i) for i in ids}
        self.place = {i: Action("place", i) for i in ids}
        self.play = {i: Action("play", i) for i in ids}
        self.answers: dict[Action, rules.Answer] = {}
        self.name = {t: self._answer(Action("name", t), t) for t in rules.fight_types(model)}
        most = max(max(mode.players) for mode in model.modes.values())
        self.hit_seat = [self._answer(Action("hit", f"seat-{s}"), s) for s in range(most)]
        self.swap_seat = [self._answer(Action("swap", f"seat-{s}"), s) for s in range(most)]
        self.steal_seat = [Action("steal", f"seat-{s}") for s in range(most)]
        self.hit_lane: dict[int, Action] = {}
        self.zeros = [[0] * n for n in range(most + 1)]
        """A zero per seat, for each player count (shared by log entries, never changed)."""
        self.draw_timing, self.steal_timing = model.effect_timing.draw, model.effect_timing.steal
        """When Gacha Capsules and Magnets act (a step of ``STEPS``)."""
        self.turns = len(model.competitive.turns)
        """Turns in a Competitive round before overtime."""
        self.picker = [rules.draft_picker(model, k) for k in range(model.competitive.draft.draw)]
        """Who picks (0 Player1, 1 Player2) after each number of draft picks so far."""
        self.kind, self.stand_ins = self._classes(most)
        self.showdowns: dict[tuple[int | str | None, ...], Plan | rules.Choice] = {}
        """Party showdown steps in seat terms (a choice, or the plan) by player count,
        priority, the class of each seat's card (``kind``) and the answers given."""
        self._rotations: dict[int, list[list[int]]] = {}
        self._party_setups: dict[int, tuple[list[list[int]], int]] = {}
        self._rules: dict[tuple[Any, ...], Any] = {}
        self.orders: dict[tuple[int | bool, ...], list[int]] = {}

    def _classes(
        self, most: int
    ) -> tuple[dict[str | None, str | None], dict[tuple[int, str | None], Card | None]]:
        """Each card id's class and, for every seat, a stand-in of each class.

        A class is the first card of the deck equal to the card in every field but its id (the
        36 plain fighters make three classes, one per type; every card with an effect its own,
        its copies sharing its id). The
        resolvers read a card's id only to report it (the cards taken and trashed, a choice's
        asking card and view), never to decide, so cards of one class resolve alike, and a
        showdown's steps depend on the classes played, not the ids: the tests check it for
        every class, member and player count. A stand-in (by seat and class) is the class's
        card with, for its id, the seat that played it; run on stand-ins, a resolver reports
        seats, which the state maps to the cards actually played (``PartyState._resolve``,
        ``_put_away``)."""
        fields = [name for name in Card.__slots__ if name != "id"]  # a new field splits them

        def alike(card: Card) -> list[Any]:
            return [getattr(card, name) for name in fields]

        kind: dict[str | None, str | None] = {None: None}
        firsts: list[Card] = []
        for card in self.by_id.values():
            first = next((f for f in firsts if alike(f) == alike(card)), None)
            if first is None:
                firsts.append(first := card)
            kind[card.id] = first.id
        stand_ins: dict[tuple[int, str | None], Card | None] = {
            (seat, f.id): Card(seat, f.type, f.effect) for seat in range(most) for f in firsts
        }
        stand_ins.update({(seat, None): None for seat in range(most)})  # a seat without a card
        return kind, stand_ins

    def turn_order(self, key: tuple[int | bool, ...]) -> list[int]:
        """``rules.party_turn_order`` for ``key``: the seat that had priority, then whether each
        seat holds cards. Worked out once for each (a handful per player count) into
        ``orders``, where the state looks it up first; the list is shared, so it is only read."""
        current, *holding = key
        hands = list(map(int, holding))  # a seat holding cards counts as a hand of one
        order = self.orders[key] = rules.party_turn_order(self.model, int(current), hands)
        return order

    def rotations(self, players: int) -> list[list[int]]:
        """For each seat, every seat clockwise from it (effect priority order)."""
        if players not in self._rotations:
            self._rotations[players] = [rules.clockwise(players, first) for first in range(players)]
        return self._rotations[players]

    def rule(self, rule: Callable[..., Any], *args: Any) -> Any:
        """``rule(model, *args)`` for a rule function of the model's numbers alone (no cards),
        worked out once per load for each set of arguments (a handful: turn numbers, hand
        sizes); what it returns is shared, so it is only read."""
        key = (rule, *args)
        memo = self._rules
        if key in memo:
            return memo[key]
        value = memo[key] = rule(self.model, *args)
        return value

    def party_setup(self, players: int) -> tuple[list[list[int]], int]:
        """A Party game's ``rotations`` and the cards dealt to each player, checked once."""
        setup = self._party_setups.get(players)
        if setup is None:
            model = self.model
            if model.party.cards_per_turn != 1:
                raise ValueError("the Party showdown takes one card per player (cards_per_turn: 1)")
            setup = self.rotations(players), rules.party_deal(model, players)
            self._party_setups[players] = setup
        return setup

    def _answer(self, action: Action, answer: rules.Answer) -> Action:
        self.answers[action] = answer
        return action

    def lane(self, lane: int) -> Action:
        """``hit lane-N``, made once (lanes have no fixed number: clarification lanes)."""
        action = self.hit_lane.get(lane)
        if action is None:
            action = self.hit_lane[lane] = self._answer(Action("hit", f"lane-{lane}"), lane)
        return action


class GotchaState(HiddenHandsState):
    """What both modes share: the deck and trash, hands, victory piles, drawing, the pausing
    resolution of a turn and the steps that finish it.

    The state's own attributes are slots, not an instance dict: CPython 3.11 keeps at most 30
    attribute names inline, where reading one and finding a method are fast; past that (a
    Party state has 37, with the base class's) every ``self.x`` takes a slow dict lookup.
    """

    __slots__ = (
        "_deck",
        "_unshuffled",
        "answers",
        "beginner",
        "choice",
        "drawn",
        "hands",
        "how",
        "lucky",
        "model",
        "overtime_limit",
        "per_card",
        "phase",
        "piles",
        "priority",
        "result",
        "revealed",
        "stage",
        "steal_options",
        "steals",
        "stolen",
        "tables",
        "trash",
        "turn",
        "winner",
    )
    shared_attributes: ClassVar[tuple[str, ...]] = ("model", "tables")
    #: Another's draft keep or face-down card reads ``keep ?``, ``place ?``, ``play ?``; the
    #: face-down cards are seen in the ``reveal`` event.
    unseen_moves = frozenset({"keep", "place", "play"})

    def __init__(
        self, game: Game, players: int, seed: int, mode: str, *, beginner: bool = False
    ) -> None:
        super().__init__(game, players, seed, mode, (BEGINNER,) if beginner else ())
        tables: _Tables = game.tables("gotchacards", lambda: _Tables(game.model))
        self.tables = tables
        self.model = tables.model
        self.per_card = tables.per_card
        self.beginner = beginner
        self._deck = deck = tables.deck[beginner][:]
        self._unshuffled = len(deck)  # the shuffle is lazy: see ``_shuffle_top``
        self.log.append({"event": "deck", "beginner": beginner, "cards": len(deck)})  # event()
        self.trash: list[str] = []
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.piles: list[list[str]] = [[] for _ in range(players)]
        self.phase = OVER
        self.turn = 0
        self.winner: int | None = None
        self.how = ""
        self.overtime_limit = False  # a coin settled a tie at the safety valve
        # the turn being resolved
        self.revealed = False
        self.priority = 0
        self.answers: list[rules.Answer] = []
        self.choice: rules.Choice | None = None
        self.result: Plan | None = None
        """The plan of the turn being settled, while it waits for a Magnet's player."""
        self.stage = 0
        self.lucky: list[int] = []
        self.stolen: list[int] = []
        self.drawn: list[int] = []
        """Cards each seat took from the deck for lucky cards, from Magnets (less what was
        taken from it) and drew for Gacha Capsules in the turn being settled."""
        self.steals: list[int] = []
        self.steal_options: list[int] = []

    # -- the API -------------------------------------------------------------------------------
    def winners(self) -> list[int]:
        return [] if self.winner is None else [self.winner]

    def end_condition(self) -> str:
        return self.how or "unfinished"

    def rare_events(self) -> dict[str, bool]:
        """Clarification safety-valves: a bound that real play should never reach."""
        return {"overtime-limit": self.overtime_limit}

    def points(self) -> list[int]:
        """Victory-pile points of each seat (seed, "Earning Points": each card is worth 1)."""
        per = self.per_card
        if per == 1:  # the cards are the points: counted in C, without a comprehension's frame
            return list(map(len, self.piles))
        return [len(pile) * per for pile in self.piles]

    # -- the deck, shuffled lazily -------------------------------------------------------------
    @property
    def deck(self) -> list[str]:
        """The deck, top card last, every card in its place (what is left of the shuffle is
        done first). The engine itself draws through ``_draw``, which shuffles only as far as
        it reaches."""
        self._shuffle_top(len(self._deck))
        return self._deck

    @deck.setter
    def deck(self, cards: list[str]) -> None:
        self._deck, self._unshuffled = cards, 0

    def _shuffle_top(self, count: int) -> None:
        """Shuffle the deck only as far as its top ``count`` cards, the very draws and swaps of
        ``State.shuffle`` (which fixes the last place first, then the one below...).

        A Party game of two deals ten of the 54 cards and ends, so shuffling all of them cost a
        quarter of its play. Each step of the shuffle swaps the place it fixes with one below
        it, so the cards above ``_unshuffled`` are final and the rest wait, in the order the
        steps so far left them. The generator is used by nothing else between the steps: every
        other draw (the coins) first finishes the shuffle (``_coin``), so the game takes the
        same numbers in the same order as with the whole deck shuffled at once.
        """
        unshuffled = self._unshuffled
        stop = len(self._deck) - count
        if unshuffled <= stop or unshuffled < 2:
            return
        stop = max(stop, 1)
        self.shuffle(self._deck, unshuffled, unshuffled - stop)
        self._unshuffled = stop if stop > 1 else 0

    def _coin(self, sides: int) -> int:
        """A random number below ``sides`` (a coin, a random tied leader), drawn after what is
        left of the deck's shuffle."""
        self._shuffle_top(len(self._deck))
        return self.rng.randrange(sides)

    # -- drawing (clarification deck-runs-out) -------------------------------------------------
    def _draw(self, count: int) -> list[str]:
        deck = self._deck
        if len(deck) >= count:  # the top card is the last one
            if self._unshuffled > len(deck) - count:
                self._shuffle_top(count)
            drawn = deck[: -count - 1 : -1]
            del deck[-count:]
            return drawn
        drawn: list[str] = []
        for _ in range(count):
            if not deck:
                if not rules.refill_deck(self.model, 0, len(self.trash)):
                    break
                deck = self._deck = self.trash
                self._unshuffled = len(deck)
                self.trash = []
                self.event("reshuffle", cards=len(deck))
            self._shuffle_top(1)
            drawn.append(deck.pop())
        return drawn

    # -- resolving a revealed turn -------------------------------------------------------------
    def _resolve(self) -> None:
        """Resolve the revealed cards with the answers given so far: pause for the next
        choice, or finish the turn with its outcome."""
        raise NotImplementedError

    def _choice_actions(self) -> list[Action]:
        choice, tables = self.choice, self.tables
        assert choice is not None
        if choice.kind == "type":
            return [tables.name[t] for t in choice.options]  # type: ignore[index]
        if choice.kind == "lane":
            return [tables.lane(int(lane)) for lane in choice.options]
        effect = tables.by_id[choice.card].effect
        seats = (
            tables.swap_seat if effect is not None and effect.kind == "swap" else tables.hit_seat
        )
        return [seats[int(s)] for s in choice.options]

    def _answer(self, action: Action) -> None:
        self.answers.append(self.tables.answers[action])
        self._resolve()

    def _plan(self, out: Any, order: list[int]) -> Plan:
        """A resolver's outcome as a ``Plan``: every card by its ``id`` (which, for the
        stand-ins of a Party showdown, is the seat that played it), the seats taking cards
        in ``order``, the effect-priority order (one comprehension, no hooks: every turn
        makes a plan)."""
        taken = out.taken
        any_gain, any_bonus = any(out.draws) or any(out.steals), any(out.bonus)
        gains = [(seat, tuple(map(_ID, taken[seat]))) for seat in order if taken[seat]]
        return Plan(
            tuple(gains),
            list(map(len, taken)),
            tuple(map(_ID, out.trashed)),
            out.bonus,  # the resolver's own lists, never changed from here on
            out.draws,
            out.steals,
            out.fights,  # what each card (Competitive: each lane's) fought as
            any_gain,
            any_bonus,
            not (any_gain or any_bonus),
        )

    def _carry_out(self, plan: Plan) -> None:
        """Carry out a resolved turn's ``plan`` (only read, never changed)."""
        if not plan.plain:
            n = self.players
            self.result, self.stage = plan, 0
            self.lucky, self.stolen, self.drawn = [0] * n, [0] * n, [0] * n
            self._settle()
            return
        # nothing to draw, steal or take from the deck (most turns): the cards go to the
        # victory piles and the trash, and the turn is over; the log's zeros are a list per
        # player count made once per load (log entries are never changed)
        none = self.tables.zeros[self.players]
        self._put_away(plan)
        self._scored(plan, none, none, none)

    def _put_away(self, plan: Plan) -> None:
        """The cards in play go to the victory piles and the trash as ``plan`` says, and the
        table is cleared."""
        raise NotImplementedError

    def _order(self) -> list[int]:
        """Seats in effect-priority order."""
        raise NotImplementedError

    def _settle(self) -> None:
        """Carry out the resolved turn's steps (``STEPS``); pause when a Magnet's holder must
        pick a player. Without draws or steals only the cards step does anything."""
        plan = self.result
        assert plan is not None
        order = self._order()
        if not plan.any_gain:  # lucky cards only: nothing to wait for
            self.stage = len(STEPS)
            self._collect(plan, order)
        while self.stage < len(STEPS) or self.steals:
            if self.steals:
                if not self._next_steals():
                    return
                continue
            step = STEPS[self.stage]
            self.stage += 1
            if step == "cards":
                self._collect(plan, order)
                continue
            tables = self.tables
            draws, steals = plan.draws, plan.steals
            if tables.draw_timing == step and any(draws):
                drawn = self.drawn
                for seat in order:
                    if draws[seat]:
                        cards = self._draw(draws[seat])
                        self.hands[seat] += cards
                        drawn[seat] += len(cards)
            if tables.steal_timing == step and any(steals):
                self.steals = [seat for seat in order for _ in range(steals[seat])]
        self._scored(plan, self.lucky, self.stolen, self.drawn)

    def _scored(self, plan: Plan, lucky: list[int], stolen: list[int], drawn: list[int]) -> None:
        """Log the settled turn (cards from the deck for lucky cards, from Magnets and from
        Gacha Capsules, seat by seat) and go on."""
        # the entry ``event`` would make, built at once: every turn logs one
        self.log.append(
            {
                "event": "scored",
                "fights": plan.fights,
                "taken": plan.counts,
                "lucky": lucky,
                "stolen": stolen,
                "drawn": drawn,
                "points": self.points(),
            }
        )
        self.result = None
        self._turn_over()

    def _collect(self, plan: Plan, order: list[int]) -> None:
        """The cards in play go to victory piles and the trash; lucky cards' collectors take
        their bonus from the deck (clarification lucky-bonus)."""
        self._put_away(plan)
        if plan.any_bonus:
            piles, bonus, lucky = self.piles, plan.bonus, self.lucky
            for seat in order:
                if bonus[seat]:
                    drawn = self._draw(bonus[seat])
                    piles[seat] += drawn
                    lucky[seat] += len(drawn)

    def _next_steals(self) -> bool:
        """Carry out the waiting Magnets in order; False when a holder must pick a player."""
        while self.steals:
            seat = self.steals[0]
            targets = rules.steal_targets(self.model, seat, [len(p) for p in self.piles])
            if len(targets) > 1:
                self.phase, self.turn, self.steal_options = STEAL, seat, targets
                return False
            del self.steals[0]
            if targets:
                self._steal(seat, targets[0])
        self.steal_options = []
        return True

    def _steal(self, seat: int, target: int) -> None:
        """Clarifications magnet-target, magnet-card: the top card of the target's pile."""
        self.piles[seat].append(self.piles[target].pop())
        self.stolen[seat] += 1
        self.stolen[target] -= 1

    def _answer_steal(self, action: Action) -> None:
        seat = self.tables.steal_seat.index(action)
        del self.steals[0]
        self._steal(self.turn, seat)
        self._settle()

    def _turn_over(self) -> None:
        raise NotImplementedError

    def _choice_view(self) -> dict[str, Any] | None:
        choice = self.choice
        if self.phase == STEAL:
            return {"kind": "steal", "seat": self.turn, "options": list(self.steal_options)}
        if self.phase != EFFECT or choice is None:
            return None
        return {
            "kind": choice.kind,
            "seat": choice.player,
            "card": choice.card,
            "options": list(choice.options),
            "view": [list(row) for row in choice.view],
        }

    #: The state's lists hold only strings, None and numbers (at most two levels deep: hands,
    #: lanes, piles), and the plan and the choice being resolved are immutable.
    clone = HiddenHandsState.flat_clone

    # -- what a seat may see -------------------------------------------------------------------
    def unseen_places(self, player: int) -> list[list[list[Any]]]:
        """The deck (as far as it is shuffled), others' hands and the face-down cards."""
        return [[self._deck, *self.other_hands(player), *self._face_down(player)]]

    def seen_places(self, player: int) -> list[Iterable[Any]]:
        """The player's hand, the trash, the victory piles and the face-up cards in play."""
        return [self.hands[player], self.trash, *self.piles, *self._face_up(player)]

    def redeal(self, player: int, unseen: Collection[str], rng: random.Random) -> None:
        self._shuffle_top(len(self._deck))  # the whole deck in its places first
        super().redeal(player, unseen, rng)

    def _face_down(self, player: int) -> list[list[Any]]:
        """The places of cards in play that ``player`` cannot see now."""
        raise NotImplementedError

    def _face_up(self, player: int) -> list[Iterable[Any]]:
        """The places of cards in play that ``player`` sees now."""
        raise NotImplementedError

    # -- checks --------------------------------------------------------------------------------
    def _places(self) -> list[Iterable[str]]:
        return [self._deck, self.trash, *self.hands, *self.piles]

    def check_invariants(self) -> None:
        """Every card of the deck in play is in exactly one place."""
        seen = sorted(card for place in self._places() for card in place)
        assert seen == self.tables.ordered[self.beginner], "a card was created or lost"
        assert (self.phase == OVER) == (self.winner is not None), "winner without an end"
        assert self.result is None or self.phase in (EFFECT, STEAL), "an unfinished turn"

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            self.phase,
            self.turn,
            self.winner,
            self.how,
            self.beginner,
            tuple(self.deck),  # the whole shuffle: before the generator's state below
            tuple(self.trash),
            tuple(tuple(h) for h in self.hands),
            tuple(tuple(p) for p in self.piles),
            self.revealed,
            self.priority,
            tuple(self.answers),
            self.choice,
            self.result,
            self.stage,
            tuple(self.lucky),
            tuple(self.stolen),
            tuple(self.drawn),
            tuple(self.steals),
            tuple(self.steal_options),
            self.rng.getstate(),
        )


# ---------------------------------------------------------------------------------- Competitive


class _CompetitiveTables:
    """What Competitive games derive from the model once per load, besides ``_Tables``."""

    def __init__(self, tables: _Tables) -> None:
        picker = tables.picker
        self.pickers = {
            player1: tuple(player1 if role == 0 else 1 - player1 for role in picker)
            for player1 in (0, 1)
        }
        """For each seat as Player1, the seat that picks after each number of draft picks
        (``rules.draft_picker``, through ``_Tables.picker``)."""
        model = tables.model
        draft = model.competitive.draft
        self.draw, self.keep, self.player2_draw = draft.draw, draft.keep, draft.player2_draw
        """The draft's numbers, read once (each read of a pydantic model's field is slow)."""
        self.timing = rules.effect_timings(model)
        """When each kind of effect acts, for ``rules.settle_field``."""
        self.orders = tables.rotations(2)
        """The seats in effect-priority order, for each seat with priority (shared: only read)."""
        turns, sizes = range(1, tables.turns + 1), range(len(tables.deck[False]) + 1)
        self.leaders = {turn: rules.turn_leader(model, turn) for turn in turns}
        """Who places first and has priority on each turn (0 Player1, 1 Player2)."""
        self.placers = {
            player1: {
                turn: (seat, 1 - seat)
                for turn, role in self.leaders.items()
                for seat in (player1 if role == 0 else 1 - player1,)
            }
            for player1 in (0, 1)
        }
        """For each seat as Player1, the seats in placing order on each turn (the leader's
        first: it has priority)."""
        self.limits = {turn: [rules.place_limits(model, turn, n) for n in sizes] for turn in turns}
        """``rules.place_limits`` on each turn for each hand size (no hand holds more cards than
        the game has): looked up by index, where a memo's key per lookup cost 3k instructions,
        two or three times a turn."""
        self.overtime_limits = [rules.place_limits(model, tables.turns, n, True) for n in sizes]
        """The same in overtime, whatever the turn."""
        self.model = model
        self.starts: dict[int, list[list[Any]]] = {
            turn: [[_UNKNOWN] * len(sizes) for _ in sizes] for turn in turns
        }
        """``rules.turn_start_check`` by turn and the two hand sizes, filled in as games meet
        them (``turn_start``): the whole table would take thousands of calls per load."""
        self.champions: dict[tuple[int, ...], int | None] = {}
        """``rules.match_winner`` for every score of rounds won that it accepts."""
        for wins in itertools.product(range(model.competitive.rounds_to_win + 1), repeat=2):
            with contextlib.suppress(ValueError):  # a score no game reaches
                self.champions[wins] = rules.match_winner(model, list(wins))

    def turn_start(self, turn: int, first: int, second: int) -> int | str | None:
        """``rules.turn_start_check`` at the start of ``turn`` with hands of ``first`` and
        ``second`` cards, worked out once per load: every turn asks, and a lookup by index
        costs a quarter of a memo's by a tuple key (``_Tables.rule``)."""
        row = self.starts[turn][first]
        check = row[second]
        if check is _UNKNOWN:
            check = row[second] = rules.turn_start_check(self.model, turn, [first, second])
        return check  # type: ignore[no-any-return]


class CompetitiveState(GotchaState):
    """A Competitive game (seed, "Competitive Mode"): best of three rounds, each a draft and
    three turns of face-down placing into lanes, then overtime turns while the points tie."""

    __slots__ = (
        "competitive",
        "distinct",
        "field",
        "kept",
        "least",
        "most",
        "offer",
        "offered",
        "overtime",
        "pickers",
        "picks",
        "placed",
        "placer",
        "placers",
        "player1",
        "round",
        "round_wins",
        "turn_no",
    )
    max_actions_per_player: ClassVar[int] = 1500
    shared_attributes = (*GotchaState.shared_attributes, "competitive")

    def __init__(
        self, game: Game, players: int, seed: int, mode: str, *, beginner: bool = False
    ) -> None:
        super().__init__(game, players, seed, mode, beginner=beginner)
        tables = self.tables
        self.competitive: _CompetitiveTables = game.tables(
            "gotchacards-competitive", lambda: _CompetitiveTables(tables)
        )
        self.round = 0
        self.round_wins = [0, 0]
        self.player1 = 0  # clarification first-round-order (first_round_player1: seat-0)
        self.turn_no = 0
        self.overtime = 0
        self.offer: list[str] = []
        self.offered: list[Action] = []  # see ``_offer``
        self.distinct = True
        self.kept = 0
        self.picks = 0
        self.pickers: tuple[int, ...] = ()
        self.field: list[list[str]] = [[], []]
        self.placers: tuple[int, ...] = ()
        self.placer = 0
        self.placed = 0
        self.least = 0
        self.most = 0
        self._start_round()

    def scores(self) -> list[int]:
        """Rounds won (seed, "Win Conditions": the first to win two rounds wins)."""
        return list(self.round_wins)

    def rounds_played(self) -> int:
        return sum(self.round_wins)

    def points(self) -> list[int]:
        """``GotchaState.points`` for the two seats, without its map: every turn logs them."""
        piles, per = self.piles, self.per_card
        return [len(piles[0]) * per, len(piles[1]) * per]

    def _seat(self, role: int) -> int:
        """The seat playing ``role`` (0 Player1, 1 Player2) this round."""
        return self.player1 if role == 0 else 1 - self.player1

    # -- the draft (seed, "Setting Up") --------------------------------------------------------
    def _start_round(self) -> None:
        self.round += 1
        self.turn_no = self.overtime = self.kept = self.picks = 0
        comp = self.competitive
        # the round's draws (the draft's, then Player2's) shuffled in one go: the same steps of
        # ``_shuffle_top`` as at each draw (nothing else draws numbers between them)
        self._shuffle_top(comp.draw + comp.player2_draw)
        self.offer = self._draw(comp.draw)
        self.log.append({"event": "round", "round": self.round, "player1": self.player1})  # event()
        self.pickers = self.competitive.pickers[self.player1]
        self.phase, self.turn = KEEP, self.player1
        if not self.offer:
            self._next_pick()
        else:  # the legal actions, known now (``_legal_actions`` is then skipped)
            self._legal = self._offer(self.tables.keep, self.offer)

    def _keep(self, card: str) -> None:
        """Player1 keeps a card, hidden (clarification draft-visibility)."""
        offer = self.offer
        offer.remove(card)
        self.hands[self.turn].append(card)
        self.kept += 1
        if self.kept >= self.competitive.keep or not offer:
            self._next_pick()
        else:
            keep = self.tables.keep
            self._legal = self._less(keep, offer, card) or self._offer(keep, offer)

    def _next_pick(self) -> None:
        """The next pick of the draft (its seat from the round's ``pickers``), or the end of the
        draft: Player2's extra draw and the first turn."""
        offer = self.offer
        if offer:  # what the keep left: its ids as distinct as when Player1's list was made
            self.phase, self.turn = PICK, self.pickers[self.picks]
            self._legal = self._offer(self.tables.pick, offer, self.distinct)
            return
        player2 = self._seat(1)
        self.hands[player2] += self._draw(self.competitive.player2_draw)
        self.turn_no = 1
        self._start_turn()

    # -- the legal actions of the draft and of placing, kept as they go -----------------------
    def _offer(
        self, table: dict[str, Action], cards: list[str], distinct: bool = False
    ) -> list[Action]:
        """The action of ``table`` for each id among ``cards``, in the order they first come
        there: the legal actions of a draft step (or, with ``DONE``, of placing), remembered in
        ``offered`` for the next step to edit (``_less``). ``distinct``: the caller knows the
        ids are all different (what is left of cards that were).

        A hand of one or two cards (a fifth of the lists made) is told apart at once: dropping
        the duplicate ids of a list through ``dict.fromkeys`` costs more than the whole step."""
        if distinct:
            actions = list(map(table.__getitem__, cards))
        elif len(cards) > 2:
            actions = list(map(table.__getitem__, dict.fromkeys(cards)))
        elif len(cards) == 2 and cards[0] != cards[1]:
            actions = [table[cards[0]], table[cards[1]]]
        else:  # one card, or two copies of one
            actions = [table[cards[0]]] if cards else []
        self.offered = actions
        self.distinct = len(actions) == len(cards)  # and stay so: these cards only go
        return actions

    def _less(self, table: dict[str, Action], cards: list[str], card: str) -> list[Action]:
        """The actions last offered less ``card``'s, just moved out of ``cards`` (the offer or
        a hand); empty when another copy of it is left, whose first place, which orders the
        list, has moved: then the caller makes the list afresh (``_offer``).

        A step of the draft or of placing takes one card, so the list it leaves is the last
        one less that card's action (``dict.fromkeys`` per step, to drop duplicate ids, cost
        more than most of the step's own work). The old list was handed out: it is copied.
        Cards that were ``distinct`` when the list was made have no copy to look for."""
        if not self.distinct and card in cards:
            return []
        actions = self.offered = self.offered[:]
        actions.remove(table[card])
        return actions

    # -- turns (seed, "Game Flow") -------------------------------------------------------------
    def _start_turn(self) -> None:
        turn_no, hands = self.turn_no, self.hands
        if turn_no > self.tables.turns:
            self._end_on_points()
            return
        comp, first, second = self.competitive, len(hands[0]), len(hands[1])
        check = comp.turn_start(turn_no, first, second)
        if check == "points":
            self._end_on_points()
        elif check is not None:
            self._round_won(int(check), "forfeit")
        else:
            placers = self.placers = comp.placers[self.player1][turn_no]
            self.priority = placers[0]
            self._next_placer(0)

    def _next_placer(self, index: int) -> None:
        """The next player to place face-down, or the reveal once both have placed."""
        comp, placers, hands = self.competitive, self.placers, self.hands
        limits = comp.overtime_limits if self.overtime else comp.limits[self.turn_no]
        while index < len(placers):
            seat = placers[index]
            least, most = limits[len(hands[seat])]  # rules.place_limits
            if most > 0:
                self.phase, self.turn, self.placer = PLACE, seat, index
                self.placed, self.least, self.most = 0, least, most
                actions = self._legal = self._offer(self.tables.place, hands[seat])
                if not least:  # DONE is legal at once (``_place_actions``, without its call)
                    actions.append(DONE)
                return
            index += 1
        # the reveal
        self.revealed = True
        # the entry ``event`` would make, built at once: every turn logs one; it keeps the lanes
        # themselves, which nothing changes from now on (``_put_away`` makes new ones)
        self.log.append({"event": "reveal", "lanes": self.field, "first": self.priority})
        self.answers = []
        self._resolve()

    def _place_actions(self) -> list[Action]:
        """What the placing seat may do: place a card of each id in hand, or stop once it has
        placed the fewest it must."""
        actions = self._offer(self.tables.place, self.hands[self.turn])
        if self.placed >= self.least:
            actions.append(DONE)
        return actions

    def _resolve(self) -> None:
        """``rules.settle_field`` of the revealed lanes and the answers so far, a plain call
        (run afresh after each answer: the state keeps no paused resolver)."""
        card, field = self.tables.by_id.__getitem__, self.field
        sides = (map(card, field[0]), map(card, field[1]))
        timing = self.competitive.timing
        step = rules.settle_field(self.model, self.priority, sides, self.answers, timing)
        if type(step) is rules.Choice:
            self.choice = step
            self.phase, self.turn = EFFECT, step.player
            return
        self.choice = None
        self._carry_out(self._plan(step, self.competitive.orders[self.priority]))

    def _order(self) -> list[int]:
        return self.competitive.orders[self.priority]

    def _put_away(self, plan: Plan) -> None:
        """A plan's cards are ids here; the lanes are cleared in place of a call (new lists:
        the reveal's log entry keeps the old ones)."""
        piles = self.piles
        for seat, cards in plan.gains:
            piles[seat] += cards
        self.trash += plan.trashed
        self.field = [[], []]
        self.revealed = False

    def _turn_over(self) -> None:
        if self.overtime:
            winner = rules.round_winner(self.model, self.points())
            if winner is None:
                self._overtime_turn()
            else:
                self._round_won(winner, "overtime")
            return
        self.turn_no += 1
        self._start_turn()

    # -- the round's end and overtime (seed, "Win Conditions", "Overtime Turns") --------------
    def _end_on_points(self) -> None:
        winner = rules.round_winner(self.model, self.points())
        if winner is None:
            self._overtime_turn()
        else:
            self._round_won(winner, "points")

    def _overtime_turn(self) -> None:
        rule = self.tables.rule  # rules of the model's numbers: each pydantic read is slow
        if not rule(rules.overtime_goes_on, COMPETITIVE, self.overtime):
            self.overtime_limit = True
            self._coin_settles()
            return
        self.overtime += 1
        self.priority = self._coin(2)  # clarification overtime-order: a coin
        count = rule(rules.overtime_draw, self.overtime)
        for seat in self._order():
            self.hands[seat] += self._draw(count)
        self.event("overtime", turn=self.overtime, first=self.priority)
        if rule(rules.overtime_short, tuple(map(len, self.hands))):
            self._coin_settles()
            return
        self.placers = (self.priority, 1 - self.priority)
        self._next_placer(0)

    def _coin_settles(self) -> None:
        """Clarifications deck-runs-out and safety-valves."""
        winner = self._coin(2)
        self.event("coin", winner=winner)
        self._round_won(winner, "coin")

    def _round_won(self, winner: int, how: str) -> None:
        self.round_wins[winner] += 1
        self.how = how
        piles, hands, field, trash = self.piles, self.hands, self.field, self.trash
        self.log.append(  # the entry ``event`` would make, built at once
            {
                "event": "round-end",
                "round": self.round,
                "winner": winner,
                "how": how,
                "points": self.points(),
                "hands": [len(hands[0]), len(hands[1])],
            }
        )
        # clarification round-cleanup: each seat's pile, hand and lanes, then the draft's rest
        for cards in (piles[0], hands[0], field[0], piles[1], hands[1], field[1], self.offer):
            trash += cards
        self.piles, self.hands, self.field, self.offer = [[], []], [[], []], [[], []], []
        self.revealed = False
        self._legal = None  # left by a draft or placing step, if this came from outside a move
        champion = self.competitive.champions[tuple(self.round_wins)]
        if champion is not None:
            self.phase, self.winner = OVER, champion
            return
        self.phase, self.turn = ROLE, rules.role_chooser(self.model, winner)

    # -- actions -------------------------------------------------------------------------------
    def _legal_actions(self) -> list[Action]:
        """The legal actions worked out from the state. The moves of the draft and of placing
        (most of a game's) leave theirs in the core's cache as they go (``_keep``,
        ``_next_pick``, ``_next_placer``, ``_apply``), so this runs only for the other phases and
        for a state changed from outside (a re-deal, a test's arrangement)."""
        phase = self.phase
        if phase == PLACE:
            return self._place_actions()
        if phase == KEEP:
            return self._offer(self.tables.keep, self.offer)
        if phase == PICK:
            return self._offer(self.tables.pick, self.offer)
        if phase == EFFECT:
            return self._choice_actions()
        if phase == STEAL:
            return [self.tables.steal_seat[s] for s in self.steal_options]
        return list(BECOME)

    def _apply(self, action: Action) -> None:
        """The move, by its phase (the phases by how often they come). A place and a pick, most
        of a game's moves, are carried out here, not in a call of their own (a Python call
        costs about as much as the move's own work)."""
        phase = self.phase
        if phase == PLACE:
            if action is DONE:
                self._next_placer(self.placer + 1)
                return
            # the card goes face-down into the seat's next lane (seed: lanes fill outward)
            card, hand = action.target, self.hands[self.turn]
            hand.remove(card)  # type: ignore[arg-type]
            self.field[self.turn].append(card)  # type: ignore[arg-type]
            placed = self.placed = self.placed + 1
            if not hand or placed >= self.most:
                self._next_placer(self.placer + 1)
            else:
                actions = self._less(self.tables.place, hand, card)  # type: ignore[arg-type]
                if not actions:
                    actions = self._place_actions()
                elif placed == self.least:  # DONE is legal from now on
                    actions.append(DONE)
                self._legal = actions
        elif phase == PICK:
            card, offer = action.target, self.offer
            offer.remove(card)  # type: ignore[arg-type]
            self.hands[self.turn].append(card)  # type: ignore[arg-type]
            picks = self.picks = self.picks + 1
            if not offer:
                self._next_pick()
                return
            self.turn = self.pickers[picks]  # the next pick, as ``_next_pick`` makes it
            pick = self.tables.pick
            self._legal = self._less(pick, offer, card) or self._offer(pick, offer)  # type: ignore[arg-type]
        elif phase == KEEP:
            self._keep(action.target)  # type: ignore[arg-type]
        elif phase == EFFECT:
            self._answer(action)
        elif phase == STEAL:
            self._answer_steal(action)
        else:  # ROLE: the round's loser chooses (seed, "Continuing the Game")
            self.player1 = self.turn if action is BECOME[0] else 1 - self.turn
            self._start_round()

    # -- what a seat may see -------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        other = 1 - player
        sees_offer = self.phase != KEEP or player == self.player1
        lanes: list[list[str | None]] = [[], []]
        lanes[player] = list(self.field[player])
        lanes[other] = list(self.field[other]) if self.revealed else [None] * len(self.field[other])
        return {
            "mode": COMPETITIVE,
            "phase": self.phase,
            "seat": player,
            "to_play": self.current_player,
            "round": self.round,
            "turn": self.turn_no,
            "overtime": self.overtime,
            "player1": self.player1,
            "first": self.priority,
            "round_wins": list(self.round_wins),
            "points": self.points(),
            "hand": list(self.hands[player]),
            "hand_sizes": [len(h) for h in self.hands],
            "deck_size": len(self._deck),
            "trash": list(self.trash),
            "piles": [list(p) for p in self.piles],
            "offer": list(self.offer) if sees_offer else [],
            "offer_size": len(self.offer),
            "lanes": lanes,
            "revealed": self.revealed,
            "placed": self.placed if self.phase == PLACE else 0,
            "least": self.least if self.phase == PLACE else 0,
            "choice": self._choice_view(),
            "answers": list(self.answers) if self.phase == EFFECT else [],
        }

    def _face_down(self, player: int) -> list[list[Any]]:
        hidden = [] if self.revealed else [self.field[1 - player]]
        if self.phase == KEEP and player != self.player1:
            hidden.append(self.offer)
        return hidden

    def _face_up(self, player: int) -> list[Iterable[Any]]:
        seen = [self.field[player]]
        if self.revealed:
            seen.append(self.field[1 - player])
        if self.phase != KEEP or player == self.player1:
            seen.append(self.offer)
        return seen

    def _places(self) -> list[Iterable[str]]:
        return [*super()._places(), self.offer, *self.field]

    def check_invariants(self) -> None:
        """Cards conserved; the field is empty between turns; the round and match counts hold."""
        super().check_invariants()
        comp = self.model.competitive
        if self.phase not in (PLACE, EFFECT):
            assert not self.field[0] and not self.field[1], "cards left on the field"
        if self.phase not in (KEEP, PICK):
            assert not self.offer, "draft cards left over"
        assert max(self.round_wins) <= comp.rounds_to_win, "too many rounds won"
        assert sum(self.round_wins) <= comp.max_rounds, "too many rounds"
        assert self.overtime <= comp.overtime.max_turns, "overtime beyond its limit"
        if self.phase == OVER:
            assert self.round_wins[self.winner or 0] == comp.rounds_to_win, "an early winner"
        else:
            finished = self.round if self.phase == ROLE else self.round - 1
            assert sum(self.round_wins) == finished, "rounds and round wins disagree"

    def snapshot(self) -> Any:
        return (
            self._snapshot(),
            self.round,
            tuple(self.round_wins),
            self.player1,
            self.turn_no,
            self.overtime,
            tuple(self.offer),
            self.kept,
            self.picks,
            tuple(tuple(side) for side in self.field),
            self.placers,
            self.placer,
            self.placed,
            self.least,
            self.most,
        )


# ---------------------------------------------------------------------------------- Party


class PartyState(GotchaState):
    """A Party game (seed, "Party Mode"): five cards each, one face-down card per active player
    each turn, revealed together; the last player holding cards banks them; overtime among
    the tied leaders."""

    __slots__ = ("index", "order", "overtime", "plays", "rotations", "tied", "turns")
    max_actions_per_player: ClassVar[int] = 600
    shared_attributes = (*GotchaState.shared_attributes, "rotations")

    def __init__(
        self, game: Game, players: int, seed: int, mode: str, *, beginner: bool = False
    ) -> None:
        super().__init__(game, players, seed, mode, beginner=beginner)
        self.rotations, deal = self.tables.party_setup(players)
        self._shuffle_top(deal * players)  # the whole deal's shuffle at once
        for seat in range(players):
            self.hands[seat] = self._draw(deal)
        self.overtime = 0
        self.tied: list[int] = []
        self.turns = 0
        self.plays: list[str | None] = [None] * players
        self.order: list[int] = []
        self.index = 0
        self.priority = 0  # clarification party-priority: Player 1 is seat 0
        self._start_turn()

    def scores(self) -> list[int]:
        return self.points()

    def rounds_played(self) -> int:
        return self.turns

    # -- a turn (seed, Party "Game Flow") ------------------------------------------------------
    def _start_turn(self, order: list[int] | None = None) -> None:
        """A turn for the seats of ``order`` (by default, those holding cards or, in overtime,
        the tied ones, clockwise from the seat with priority); the first seat's actions are
        left in the core's cache."""
        if order is None:
            rotation = self.rotations[self.priority]
            if self.overtime:
                tied = self.tied
                order = [s for s in rotation if s in tied]
            else:
                hands = self.hands
                order = [s for s in rotation if hands[s]]
        self.order = order
        self.index = 0
        self.phase, self.turn = PLAY, order[0]
        self._legal = self._play_actions(order[0])

    def _play_actions(self, seat: int) -> list[Action]:
        """``play`` each card of the seat's hand, once per id (copies share theirs)."""
        return list(map(self.tables.play.__getitem__, dict.fromkeys(self.hands[seat])))

    def _play(self, card: str) -> None:
        """A face-down commitment (clarification party-face-down); the next seat's actions
        are left in the core's cache."""
        seat, plays = self.turn, self.plays
        self.hands[seat].remove(card)
        plays[seat] = card
        index = self.index = self.index + 1
        order = self.order
        if index < len(order):
            self.turn = seat = order[index]
            self._legal = self._play_actions(seat)
            return
        self.revealed = True
        # the entry ``event`` would make, built at once: every turn logs one
        self.log.append({"event": "reveal", "plays": plays[:], "first": self.priority})
        self.answers = []
        self._resolve()

    def _resolve(self) -> None:
        """Take the remembered step for the classes of the cards played and the answers so
        far, else work it out: the next choice, asked with the cards actually in play, or the
        plan, carried out with them."""
        tables = self.tables
        key = (self.players, self.priority, *map(tables.kind.__getitem__, self.plays))
        if self.answers:
            key = (*key, *self.answers)
        step = tables.showdowns.get(key)
        if step is None:
            step = self._work_out(key)
        if type(step) is Plan:
            self.choice = None
            self._carry_out(step)
            return
        plays = self.plays
        (row,) = step.view  # a Party view is one row: each seat's card
        self.choice = rules.Choice(
            step.player,
            step.kind,
            step.options,
            plays[step.card],
            (tuple([None if s is None else plays[s] for s in row]),),
        )
        self.phase, self.turn = EFFECT, step.player

    def _work_out(self, key: tuple[Any, ...]) -> Plan | rules.Choice:
        """Run the showdown's rule function with the answers so far on the stand-ins of the
        cards played (``_Tables``'s ``stand_ins``: each card's class, with the seat that played
        it for its id), so that its choice or plan reads in seats; remember it under ``key``,
        up to ``SHOWDOWN_MEMO`` steps per game loaded."""
        tables = self.tables
        kinds = key[2 : 2 + self.players]
        cards = list(map(tables.stand_ins.__getitem__, enumerate(kinds)))
        step = rules.showdown_step(self.model, self.priority, cards, self.answers)
        if type(step) is not rules.Choice:
            step = self._plan(step, step.winners)  # the winners take the cards, in priority order
        showdowns = tables.showdowns
        if len(showdowns) < SHOWDOWN_MEMO:
            showdowns[key] = step
        return step

    def _put_away(self, plan: Plan) -> None:
        """A Party plan names each card by the seat that played it: here they become the
        cards actually played; then the table is cleared."""
        card, piles = self.plays.__getitem__, self.piles
        for seat, played in plan.gains:
            piles[seat] += map(card, played)
        self.trash += map(card, plan.trashed)
        self.plays = [None] * self.players
        self.revealed = False

    def _order(self) -> list[int]:
        return self.rotations[self.priority]

    def _turn_over(self) -> None:
        model = self.model
        self.turns += 1
        if not self.overtime:
            key = (self.priority, *map(bool, self.hands))
            order = self.tables.orders.get(key)
            if order is None:
                order = self.tables.turn_order(key)
            if order:
                self.priority = order[0]
                self._start_turn(order)
                return
            for seat in range(self.players):  # seed: the last player holding cards banks them
                if self.hands[seat]:
                    self.event("bank", seat=seat, cards=len(self.hands[seat]))
                    self.piles[seat] += self.hands[seat]
                    self.hands[seat] = []
        leaders = rules.party_leaders(model, self.points())
        if len(leaders) == 1:
            self.phase, self.winner = OVER, leaders[0]
            self.how = "overtime" if self.overtime else "points"
            return
        self._overtime_turn(leaders)

    # -- overtime (seed, Party "Overtime Turns"; clarification party-overtime) ----------------
    def _overtime_turn(self, leaders: list[int]) -> None:
        model = self.model
        if not rules.overtime_goes_on(model, PARTY, self.overtime):
            self.overtime_limit = True
            self._coin_settles(leaders)
            return
        previous = self.priority if self.overtime else None
        self.overtime += 1
        self.tied = leaders
        self.priority = rules.party_overtime_priority(model, previous, leaders, self.players)
        n = self.players
        for seat in ((self.priority + k) % n for k in range(n)):
            if seat in leaders:
                self.hands[seat] += self._draw(model.party.overtime.draw)
        self.event("overtime", turn=self.overtime, tied=leaders, first=self.priority)
        if rules.overtime_short(model, [len(self.hands[s]) for s in leaders]):
            self._coin_settles(leaders)
            return
        self._start_turn()

    def _coin_settles(self, leaders: list[int]) -> None:
        """Clarifications deck-runs-out and safety-valves: a random one of the tied leaders."""
        winner = leaders[self._coin(len(leaders))]
        self.event("coin", winner=winner, tied=leaders)
        self.phase, self.winner, self.how = OVER, winner, "coin"

    # -- actions -------------------------------------------------------------------------------
    def _legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase == PLAY:
            return self._play_actions(self.turn)
        if phase == EFFECT:
            return self._choice_actions()
        return [self.tables.steal_seat[s] for s in self.steal_options]

    def _apply(self, action: Action) -> None:
        phase = self.phase
        if phase == PLAY:
            self._play(action.target)  # type: ignore[arg-type]
        elif phase == EFFECT:
            self._answer(action)
        else:
            self._answer_steal(action)

    # -- what a seat may see -------------------------------------------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        return {
            "mode": PARTY,
            "phase": self.phase,
            "seat": player,
            "to_play": self.current_player,
            "first": self.priority,
            "turns": self.turns,
            "overtime": self.overtime,
            "tied": list(self.tied) if self.overtime else [],
            "points": self.points(),
            "hand": list(self.hands[player]),
            "hand_sizes": [len(h) for h in self.hands],
            "deck_size": len(self._deck),
            "trash": list(self.trash),
            "piles": [list(p) for p in self.piles],
            "played": [c is not None for c in self.plays],
            "plays": face_down_view(self.plays, player, self.revealed),
            "revealed": self.revealed,
            "choice": self._choice_view(),
            "answers": list(self.answers) if self.phase == EFFECT else [],
        }

    def _face_down(self, player: int) -> list[list[Any]]:
        # The player's own play is one they see, so its id is never among the unseen.
        return [] if self.revealed else [self.plays]

    def _face_up(self, player: int) -> list[Iterable[Any]]:
        return [face_down_view(self.plays, player, self.revealed)]

    def _places(self) -> list[Iterable[str]]:
        return [*super()._places(), [c for c in self.plays if c is not None]]

    def check_invariants(self) -> None:
        """Cards conserved; plays only during a turn; play goes on only with two active players
        (or the tied players of overtime)."""
        super().check_invariants()
        if self.phase not in (PLAY, EFFECT):
            assert all(c is None for c in self.plays), "cards left in play"
        if self.phase == PLAY and not self.overtime:
            active = sum(1 for h, c in zip(self.hands, self.plays, strict=True) if h or c)
            assert active >= self.model.party.min_active, "a turn with fewer than two players"
        assert self.overtime <= self.model.party.overtime.max_turns, "overtime beyond its limit"
        if self.phase == PLAY and self.overtime:
            assert set(self.order) == set(self.tied), "a player outside the tie plays overtime"

    def snapshot(self) -> Any:
        return (
            self._snapshot(),
            self.overtime,
            tuple(self.tied),
            self.turns,
            tuple(self.plays),
            tuple(self.order),
            self.index,
        )


# ---------------------------------------------------------------------------------- starting


def new_state(
    game: Game, players: int, seed: int, mode: str, *, beginner: bool = False
) -> GotchaState:
    """A new game of ``mode`` (the engine's entry point; ``Game.new_game`` calls it)."""
    kind = CompetitiveState if mode == COMPETITIVE else PartyState
    return kind(game, players, seed, mode, beginner=beginner)


def engine_options(model: GotchaCards) -> list[EngineOption]:
    """The beginner deck, an option of the modes the model allows it in: every advanced
    (black-symbol) card left out (seed, Competitive "Setting Up"; clarifications
    advanced-cards, beginner-in-party)."""
    size = model.deck_size(beginner=True)
    text = f"{model.beginner.name['en']}: the {size} cards without the advanced ones"
    return [EngineOption(BEGINNER, text, tuple(model.beginner.modes))]
