"""Rock, Paper, Scissors, Fire's procedure: rounds of shedding cards onto the pile, drawing
when nothing beats it, fire alarms that scramble the hands, and scoring what is left.

The state machine only sequences the game; every rule it applies is a rule function of
``rules.py`` (the seed section and clarification are named there), called directly or once per
loaded game to build a table, and every number comes from the model.

Phases: ``play`` (the turn player plays one face, with any of its copies; or, when nothing
beats the pile, draws one card at a time; or passes when nothing is left to draw) and ``give``
(after a fire alarm went off, its player gives cards away one at a time: ``give rock-3 to 2``).
Cards are held as their ids (copies share one id), so hands, the deck and the pile are lists of
strings, compared by identity first and hashed once. What is legal on each top card is tabled
per load, and plays and gives, nine actions in ten, are made inline in ``_apply``: at a few
hundred bytecodes an action, a method call is a tenth of an action's cost.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from itertools import chain, combinations
from typing import Any, ClassVar

from gachapress.engine.core import HIDDEN, OVER, Action, Game, State
from gachapress.engine.shedding import DRAW, PASS, SheddingState
from gachapress.games.rps_fire import rules
from gachapress.games.rps_fire.model import RpsCard, RpsFire

PLAY, GIVE = "play", "give"


def play_action(face: str, copies: int) -> Action:
    """``play rock-3`` for one card, ``play rock-3 x2`` for two copies played together."""
    return Action("play", face if copies == 1 else f"{face} x{copies}")


def give_action(face: str, seat: int) -> Action:
    """``give rock-3 to 2``: one card of the alarm's give-away to seat 2."""
    return Action("give", f"{face} to {seat}")


def _places(rng: random.Random, held: int, k: int) -> list[int]:
    """``k`` distinct places in a hand of ``held`` cards: the very draws of
    ``rng.sample(range(held), k)`` (its pool method, the one it takes for hands this small),
    without its checks and calls. Two places (an alarm pointing both ways) take the pool's two
    steps in closed form: the second pick stands for the last place when it hits the first."""
    if k > 5 or held > 21:
        return rng.sample(range(held), k)
    getrandbits = rng.getrandbits
    if k == 2:
        bits = held.bit_length()
        first = getrandbits(bits)
        while first >= held:
            first = getrandbits(bits)
        last = held - 1
        bits = last.bit_length()
        second = getrandbits(bits)
        while second >= last:
            second = getrandbits(bits)
        return [first, last if second == first else second]
    pool = list(range(held))
    places = []
    for n in range(held, held - k, -1):
        bits = n.bit_length()
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        places.append(pool[j])
        pool[j] = pool[n - 1]
    return places


#: For a hand of ``held`` cards (2 to 21, where ``random.sample`` takes its pool method), the
#: draws of two places: the bits of the first pick, the last place and the bits of the second.
_TWO_PLACES = tuple((held.bit_length(), held - 1, (held - 1).bit_length()) for held in range(22))


def _hand_out(hands: list[list[str]], takers: Iterable[int], cards: Iterable[str]) -> None:
    """Add each card to its taker's hand, in order: ``for taker, card in zip(takers, cards):
    hands[taker].append(card)`` run in C (``list.append`` returns None, so ``any`` goes through
    every pair); an alarm hands out a card per seat or two, and a Python loop costs more than
    the draws."""
    any(map(list.append, map(hands.__getitem__, takers), cards))


_Plays = tuple[
    dict[str, Action], dict[tuple[str, int], list[Action]], Callable[[str], Action | None]
]
"""What may be played on one top card: each face's play of one copy, (face, copies held) ->
the plays of 1, 2, ... of them, and the first table's ``get`` (bound once, not per turn)."""


class _Tables:
    """What every game derives from the model once, by calling the rule functions."""

    def __init__(self, model: RpsFire) -> None:
        faces: list[RpsCard] = model.decks.main.cards
        self.cards: dict[str, RpsCard] = {c.id: c for c in faces}
        self.deck = [c.id for c in faces for _ in range(c.count)]
        self.sorted_deck = sorted(self.deck)
        self.alarms = frozenset(c.id for c in faces if c.is_fire_alarm)
        self.starts_pile = {c.id: rules.can_start_pile(model, c) for c in faces}
        # What may be played on each top card, on a closed pile (``plays_on``) and on an open
        # one (``open_plays_on``): a pair of tables whose actions are each checked with the rule
        # legal_play. The first holds each playable face's play of one copy: filtering a hand
        # by it (a loop in C, not in Python) leaves the playable cards in hand order, and it is
        # what a hand holding one copy of each may do. The second holds the plays of a face
        # held n times (1, 2, ... copies), by (face, n).
        self.plays_on = {top.id: self._plays(model, top, False) for top in faces}
        self.open_plays_on = {top.id: self._plays(model, top, True) for top in faces}
        # The rules of a play and of an alarm that depend only on a hand's size, for every size
        # a hand can reach.
        sizes = range(len(self.deck) + 1)
        self.ends_round = tuple(rules.play_ends_round(model, n) for n in sizes)
        self.goes_off = tuple(rules.alarm_goes_off(model, n) for n in sizes)
        self.give_count = tuple(rules.give_count(model, n) for n in sizes)
        self.play_of = {
            play_action(c.id, k): (c.id, k) for c in faces for k in range(1, c.count + 1)
        }
        seats = range(max(model.player_counts()))
        self.give = {c.id: [give_action(c.id, seat) for seat in seats] for c in faces}
        self.give_of = {self.give[c.id][seat]: (c.id, seat) for c in faces for seat in seats}
        # A fire alarm's effect, looked up rather than read off the models on every alarm.
        self.direction = {c.id: c.direction for c in faces if c.is_fire_alarm}
        self.alarm_draw = model.fire_alarm.draw
        self.effects = {k: rules.alarm_effects(model, k) for _, k in self.play_of.values()}

    def _plays(self, model: RpsFire, top: RpsCard, open_pile: bool) -> _Plays:
        """The two tables of what may be played on ``top`` (or on an open pile)."""
        table: dict[str, list[Action]] = {}
        for card in model.decks.main.cards:
            plays = [
                play_action(card.id, k)
                for k in range(1, card.count + 1)
                if rules.legal_play(model, [card] * k, top, open_pile)
            ]
            if plays:
                table[card.id] = plays
        first = {face: plays[0] for face, plays in table.items()}
        held = {
            (face, n): plays[:n]
            for face, plays in table.items()
            for n in range(1, self.cards[face].count + 1)
        }
        return first, held, first.get


class _Seating:
    """What a game derives once per player count: turn order, alarm takes, give recipients."""

    def __init__(self, model: RpsFire, tables: _Tables, players: int) -> None:
        self.hand = rules.hand_size(model, players)
        self.next = [rules.next_seat(model, seat, players) for seat in range(players)]
        self.recipients = [rules.give_recipients(model, seat, players) for seat in range(players)]
        # giver -> face -> the actions giving one such card to each recipient in turn (the
        # table's lookup, bound once)
        give = tables.give
        self.gives = [
            {face: [give[face][seat] for seat in recipients] for face in give}.__getitem__
            for recipients in self.recipients
        ]
        # direction -> for each giver, the takers in the rule's order
        self.takers: dict[str, list[list[int]]] = {}
        for direction in model.fire_alarm.takes:
            per_giver: list[list[int]] = [[] for _ in range(players)]
            for taker, giver in rules.alarm_takes(model, direction, players):
                per_giver[giver].append(taker)
            self.takers[direction] = per_giver
        # direction -> each giver's one taker, for the directions where each has one
        self.taker: dict[str, list[int]] = {
            direction: [taker for (taker,) in per_giver]
            for direction, per_giver in self.takers.items()
            if all(len(takers) == 1 for takers in per_giver)
        }
        # direction -> (each giver's two takers, in the order of the moves, and their givers),
        # for the directions where every giver has two takers (both ways)
        self.pairs: dict[str, tuple[list[int], list[int]]] = {
            direction: (
                list(chain.from_iterable(per_giver)),
                [giver for giver in range(players) for _ in range(2)],
            )
            for direction, per_giver in self.takers.items()
            if all(len(takers) == 2 for takers in per_giver)
        }
        self.seats = range(players)


class RpsFireState(SheddingState):
    """A game of Rock, Paper, Scissors, Fire in progress (seed: every section; clarifications
    in rules/rps-fire/clarifications.yaml)."""

    #: A round takes about 20 (2 players) to 35 (6 players) turns; drawing and the rare rounds
    #: where the deck runs dry make some much longer. The harness enforces this bound.
    max_actions_per_player: ClassVar[int] = 1500
    shared_attributes = ("model", "tables", "seating")

    def __init__(self, game: Game, players: int, seed: int, mode: str) -> None:
        super().__init__(game, players, seed, mode)
        model = game.model
        assert isinstance(model, RpsFire)
        self.model = model
        tables: _Tables = game.tables("rps-fire", lambda: _Tables(model))
        self.tables = tables
        self.seating: _Seating = game.tables(
            f"seating-{players}", lambda: _Seating(model, tables, players)
        )
        self.totals = [0] * players
        self.rounds_out = [0] * players
        self.history: list[list[int]] = []  # each round's points
        self.round = 0
        self.starter = rules.round_starter(model, 1, self.totals)
        self._start_round()

    # -- a round's setup (seed: "Get Rid of Your Cards"; clarifications new-round, hand-size,
    #    pile-start, round-starter) -----------------------------------------------------------
    def _start_round(self) -> None:
        self.round += 1
        self.deal_round(self.tables.deck, self.seating.hand, self.model.pile_start.cards)
        self.turn = self.starter
        self.phase = PLAY
        self.passes = 0
        self.open_pile = False
        self.gives_left = 0
        self.effects_left = 0
        self.event("round", round=self.round, starter=self.starter, top=self.pile[-1])

    # -- the API -------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        return list(self.totals)

    def winners(self) -> list[int]:
        if self.phase != OVER:
            return []
        return rules.game_winners(self.model, self.totals, self.rounds_out)

    def rounds_played(self) -> int:
        return len(self.history)

    def _legal_actions(self) -> list[Action]:
        hand = self.hands[self.turn]
        if self.phase == GIVE:  # every face held, to each recipient (tabled per giver)
            gives = self.seating.gives[self.turn]
            return [*chain.from_iterable(map(gives, dict.fromkeys(hand)))]
        # Seed "Turns are Simple"; clarification must-play: whoever can play must play. Each
        # playable face, in hand order, offers its plays of 1, 2, ... copies, as many as the
        # hand holds.
        tables = self.tables
        first, held_plays, playable = (tables.open_plays_on if self.open_pile else tables.plays_on)[
            self.pile[-1]
        ]
        plays = [*filter(None, map(playable, hand))]  # a play per playable card, in hand order
        if not plays:
            # Nothing beats the pile: draw one card at a time, or pass with nothing to draw
            # (clarifications draw-until-can, deck-runs-out). A card in the deck can be drawn.
            return [DRAW] if self.can_draw() else [PASS]
        if len(plays) == 1 or len({*plays}) == len(plays):  # one copy of each: one play each
            return plays
        faces = dict.fromkeys(filter(first.__contains__, hand))
        held = zip(faces, map(hand.count, faces), strict=True)  # (face, copies held)
        return list(chain.from_iterable(map(held_plays.__getitem__, held)))

    def _apply(self, action: Action) -> None:
        # A turn (seed: "Turns are Simple"; clarifications draw-until-can, deck-runs-out) or a
        # card given after a fire alarm. Plays, two actions in three, and gives are made here
        # rather than in methods of their own: a call costs as much as the move.
        seat = self.turn
        if self.phase == GIVE:  # one card of the alarm's give-away, a quarter of all actions
            face, recipient = self.tables.give_of[action]
            hands = self.hands
            hands[seat].remove(face)
            hands[recipient].append(face)
            self.gives_left -= 1
            if not self.gives_left:
                self._after_alarm(seat)
            return
        tables = self.tables
        play = tables.play_of.get(action)
        if play is None:
            if action is DRAW:
                self.draw(seat)
            else:
                self._pass()
            return
        face, copies = play
        hand = self.hands[seat]
        if copies == 1:
            hand.remove(face)
            self.pile.append(face)
        else:
            for _ in range(copies):
                hand.remove(face)
            self.pile += [face] * copies
        self.passes = 0
        self.open_pile = False
        if tables.ends_round[len(hand)]:
            self.went_out(seat)
        elif face in tables.alarms and tables.goes_off[len(hand)]:
            self.effects_left = tables.effects[copies]
            self._alarm(seat, face)
        else:
            self.turn = self.seating.next[seat]

    def can_refill(self) -> bool:
        return rules.drawable(self.model, 0, len(self.pile))

    def can_start_pile(self, card: str) -> bool:
        """A fire alarm turned up goes back (clarification pile-start)."""
        return self.tables.starts_pile[card]

    def _pass(self) -> None:
        """Nothing to play and nothing to draw (clarifications deck-runs-out and
        open-pile-until-played: the pile opens after a lap of passes and stays open until a
        card is played)."""
        self.passes += 1
        if not self.open_pile and rules.pile_opens(self.model, self.passes, self.players):
            self.open_pile = True
            self.event("open")
        self.turn = self.seating.next[self.turn]

    # -- fire alarms (seed: "But Then, Fire Alarms!"; clarifications alarm-takes,
    #    alarm-takes-short, alarm-two-players, alarm-draw-short, alarm-give-away) ------------
    def _alarm(self, seat: int, face: str) -> None:
        direction = self.tables.direction[face]
        moves = self._takes(direction)
        draw, deck, hand = self.tables.alarm_draw, self.deck, self.hands[seat]
        if len(deck) >= draw:  # the usual case: no refill on the way
            for _ in range(draw):
                hand.append(deck.pop())
            drew = draw
        else:
            drew = 0
            for _ in range(draw):
                if not self.draw(seat):
                    break
                drew += 1
        self.log.append(
            {"event": "alarm", "seat": seat, "direction": direction, "took": moves, "drew": drew}
        )
        self.gives_left = self.tables.give_count[len(hand)]
        self.phase = GIVE
        self.turn = seat
        if not self.gives_left:
            self._after_alarm(seat)

    def _takes(self, direction: str) -> list[list[Any]]:
        """Everyone takes a card at random from each neighbour the alarm points to, all at
        once, from the hands as they were: the moves made, ``[taker, giver, card]`` by giver.
        Each card taken is the one drawn, not another copy of its face (so what follows
        depends on no hidden card's place)."""
        hands, rng = self.hands, self.rng
        random = rng.random
        taker = self.seating.taker.get(direction)
        if taker is not None and all(hands):  # the usual case, made cheap: one card each
            cards = [hand.pop(int(random() * len(hand))) for hand in hands]
            _hand_out(hands, taker, cards)
            return list(map(list, zip(taker, self.seating.seats, cards, strict=True)))
        pairs = self.seating.pairs.get(direction)
        if pairs is not None and min(sizes := [*map(len, hands)]) >= 2 and max(sizes) <= 21:
            return self._pair_takes(*pairs)
        moves: list[list[Any]] = []
        for giver, takers in enumerate(self.seating.takers[direction]):
            hand = hands[giver]
            held = len(hand)
            if held < len(takers):  # handed out at random among the takers
                takers = rng.sample(takers, held)
            # one card as in the usual case, or the same draws as sampling the hand itself
            places = [int(random() * held)] if len(takers) == 1 else _places(rng, held, len(takers))
            for taker, i in zip(takers, places, strict=True):
                moves.append([taker, giver, hand[i]])
            for i in sorted(places, reverse=True):  # the giver's hand only: later picks
                del hand[i]  # come from later hands, which have received nothing yet
        for taker, _, card in moves:
            hands[taker].append(card)
        return moves

    def _pair_takes(self, takers: list[int], givers: list[int]) -> list[list[Any]]:
        """``_takes`` when everyone gives a card to each of two takers and every hand holds 2 to
        21 cards, the usual case of an alarm pointing both ways, made cheap: each hand's two
        places are drawn as ``_places`` draws them, inline."""
        getrandbits = self.rng.getrandbits
        cards: list[str] = []
        for hand in self.hands:
            held = len(hand)
            bits, last, last_bits = _TWO_PLACES[held]
            first = getrandbits(bits)
            while first >= held:
                first = getrandbits(bits)
            second = getrandbits(last_bits)
            while second >= last:
                second = getrandbits(last_bits)
            if second == first:  # the pool's last place stood in for the one picked first
                second = last
            cards += (hand[first], hand[second])
            if first > second:
                del hand[first], hand[second]
            else:
                del hand[second], hand[first]
        _hand_out(self.hands, takers, cards)
        return list(map(list, zip(takers, givers, cards, strict=True)))

    def _after_alarm(self, seat: int) -> None:
        self.effects_left -= 1
        if self.effects_left:
            self._alarm(seat, self.pile[-1])
            return
        self.phase = PLAY
        self.turn = self.seating.next[seat]

    # -- the round's end (seed: "Ending & Scoring the Round", "Crown a Champion") -------------
    def went_out(self, seat: int) -> None:
        """The round ends when a player goes out: it is scored, and the next dealt."""
        points = rules.round_scores(self.model, self.hands, seat)
        self.history.append(points)
        self.totals = [total + p for total, p in zip(self.totals, points, strict=True)]
        self.rounds_out[seat] += 1
        self.event(
            "scored",
            round=self.round,
            went_out=seat,
            hands=[list(hand) for hand in self.hands],
            points=points,
        )
        if self.round == self.model.rounds:
            self.phase = OVER
            return
        self.starter = rules.round_starter(self.model, self.round + 1, self.totals, self.starter)
        self._start_round()

    # -- what a seat may see (clarification hidden-information) -------------------------------
    def observation(self, player: int) -> dict[str, Any]:
        return {
            "round": self.round,
            "phase": self.phase,
            "seat": player,
            "to_play": self.current_player,
            "hand": list(self.hands[player]),
            "hand_sizes": [len(hand) for hand in self.hands],
            "deck_size": len(self.deck),
            "pile": list(self.pile),
            "open_pile": self.open_pile,
            "passes": self.passes,
            "gives_left": self.gives_left,
            "totals": list(self.totals),
            "rounds_out": list(self.rounds_out),
            "starter": self.starter,
        }

    def redact(self, entry: dict[str, Any], player: int) -> dict[str, Any]:
        """A card taken or given by a fire alarm is seen by its giver and its taker only (the
        others see that a card moved): ``give ? to 2``, and ``?`` in the alarm's ``took``."""
        if entry.get("event") == "alarm":
            took = [
                move if player in move[:2] else [move[0], move[1], HIDDEN] for move in entry["took"]
            ]
            return {**entry, "took": took}
        if entry.get("player", player) == player or not entry["action"].startswith("give "):
            return entry
        recipient = self.tables.give_of[Action.parse(entry["action"])][1]
        if recipient == player:
            return entry
        return {**entry, "action": str(give_action(HIDDEN, recipient))}

    def other_copies(self, action: Action) -> list[State]:
        """A play or give names a face, and the engine takes its first copies from the hand; the
        others could go instead, leaving the rest of the hand in another order."""
        if action is DRAW or action is PASS:
            return []
        if self.phase == GIVE:
            face, copies = self.tables.give_of[action][0], 1
        else:
            face, copies = self.tables.play_of[action]
        hand = self.hands[self.turn]
        places = [i for i, card in enumerate(hand) if card == face]
        states: list[State] = []
        seen: set[tuple[str, ...]] = set()
        for chosen in combinations(places, copies):  # the first: the engine's own
            kept = tuple(card for i, card in enumerate(hand) if i not in chosen)
            if kept in seen:  # alike copies side by side: the same hand either way
                continue
            if seen:
                state = self.clone()
                state.hands[self.turn] = [face] * copies + list(kept)  # taken first
                state.apply(action)
                states.append(state)
            seen.add(kept)
        return states

    def snapshot(self) -> Any:
        return (
            self.round,
            self.phase,
            self.turn,
            self.starter,
            self.passes,
            self.open_pile,
            self.gives_left,
            self.effects_left,
            tuple(tuple(hand) for hand in self.hands),
            tuple(self.deck),
            tuple(self.pile),
            tuple(self.totals),
            tuple(self.rounds_out),
            tuple(tuple(points) for points in self.history),
            self.rng.getstate(),
        )

    def clone(self) -> RpsFireState:
        copy = object.__new__(RpsFireState)
        copy.__dict__.update(self.__dict__)
        copy.hands = [list(hand) for hand in self.hands]
        copy.deck = list(self.deck)
        copy.pile = list(self.pile)
        copy.totals = list(self.totals)
        copy.rounds_out = list(self.rounds_out)
        copy.history = [list(points) for points in self.history]
        copy.log = list(self.log)
        copy.rng = random.Random()
        copy.rng.setstate(self.rng.getstate())
        copy._legal = None
        return copy

    def check_invariants(self) -> None:
        """Every card is in exactly one place; the phases, passes and totals add up."""
        held = [*self.deck, *self.pile, *chain.from_iterable(self.hands)]
        held.sort()
        assert held == self.tables.sorted_deck, "a card was created or lost"
        n = self.players
        sums = [0] * n
        for points in self.history:
            sums = [total + p for total, p in zip(sums, points, strict=True)]
        assert self.totals == sums, "the totals are the sums of the rounds' points"
        assert sum(self.rounds_out) == len(self.history)
        assert self.phase in (PLAY, GIVE, OVER)
        if self.phase == OVER:
            assert len(self.history) == self.model.rounds == self.round
            return
        assert len(self.history) == self.round - 1
        assert self.pile, "the pile is never empty during a round"
        assert 0 <= self.turn < n
        assert self.open_pile == (self.passes >= n), "the pile opens after everyone passed"
        assert self.passes < 2 * n, "someone with cards plays within a lap of the pile opening"
        if self.phase == GIVE:
            assert (
                1 <= self.gives_left <= min(self.model.fire_alarm.give, len(self.hands[self.turn]))
            )
            assert self.pile[-1] in self.tables.alarms
        else:
            assert self.gives_left == 0
