"""GotchaCards' rule functions: pure, small, and each tied to the seed rule it implements.

Two resolvers do the heavy lifting and are shared with the engine: ``settle_field`` (a
Competitive turn: the effect step, the lanes, the after-scoring effects) and ``showdown_step``
(a Party turn). Each is a plain function that takes the holders' answers so far and returns the
next ``Choice`` (a Hammer's target, a Wildcard's type, a Party Swap Across's player) or the
outcome; ``resolve_field`` and ``resolve_showdown`` are their generator forms, which yield each
choice and receive the answer, and ``answer_all`` drives one from a list of answers.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import compress, repeat, zip_longest
from operator import attrgetter
from typing import Literal, TypeVar, get_args

from gachapress.games.gotchacards.model import (
    BonusEffect,
    CardType,
    Direction,
    Effect,
    EffectKind,
    FightType,
    GotchaCard,
    GotchaCards,
    Seat,
    SmashEffect,
    SwapEffect,
    WildEffect,
)
from gachapress.spec import RuleSet

RULES = RuleSet()
_Outcome = TypeVar("_Outcome")

Answer = str | int
"""A holder's decision: a lane number, a seat, or a fighting type."""


# ------------------------------------------------------------------------------ what beats what


@RULES.rule
def beats(game: GotchaCards, a: FightType, b: FightType) -> bool:
    """Whether type ``a`` beats type ``b``.

    Seed, "Summary": Rock beats Scissors, Scissors beats Paper, Paper beats Rock (the game's
    ``beats`` table). A type never beats itself: that is a tie.
    """
    return game.beats.get(a) == b


def fight_types(game: GotchaCards) -> list[FightType]:
    """The fighting types, in the order of the ``beats`` table."""
    return list(game.beats)


# ------------------------------------------------------------------------------ cards in play


def _bonus(game: GotchaCards, card: GotchaCard) -> int:
    """Cards the collector of ``card`` also takes from the deck (clarification lucky-bonus)."""
    effect = card.effect
    if isinstance(effect, BonusEffect) and game.effect_timing.of("bonus") == "collected":
        return effect.count
    return 0


@dataclass(frozen=True)
class Choice:
    """A decision a card's holder must make while a turn resolves."""

    player: int
    """The seat that decides (the card's holder; clarification competitive-priority-choices)."""
    kind: Literal["lane", "seat", "type"]
    """A lane number on the opponent's side, a seat, or a fighting type."""
    options: tuple[Answer, ...]
    card: str
    """The id of the card whose effect asks."""
    view: tuple[tuple[str | None, ...], ...] = ()
    """The cards in play when the choice is asked (ids, None for an empty place): Competitive,
    one row per side, Lane1 outward; Party, one row holding each seat's card. Every card is
    face-up by then, so the holder may look (clarification competitive-priority-choices)."""


def _lanes_view(
    lanes: Sequence[Sequence[GotchaCard | None]],
) -> tuple[tuple[str | None, ...], ...]:
    """Each side's card ids, None where a Hammer struck, read in C (no generator per side)."""
    first, second = lanes
    return tuple(map(getattr, first, _ID, _NONE)), tuple(map(getattr, second, _ID, _NONE))


def _slots_view(cards: Sequence[GotchaCard | None]) -> tuple[tuple[str | None, ...], ...]:
    return (tuple(map(getattr, cards, _ID, _NONE)),)


def _gain(
    game: GotchaCards, card: GotchaCard, timing: str, draws: list[int], steals: list[int], who: int
) -> None:
    """Apply a Gacha Capsule's or a Magnet's effect at ``timing`` for seat ``who``. The kind is
    asked first and read once: every read of a model's field is slow, and most effects are
    neither."""
    effect = card.effect
    if effect is None:
        return
    kind = effect.kind
    if kind in _GAINS and game.effect_timing.of(kind) == timing:
        _add_gain(effect, kind, draws, steals, who)


def _add_gain(effect: Effect, kind: str, draws: list[int], steals: list[int], who: int) -> None:
    """The cards an effect of ``kind`` (a draw, a steal; any other gains nothing) acting now
    adds to seat ``who``'s draws or steals."""
    if kind == "draw":
        draws[who] += effect.count  # type: ignore[union-attr]
    elif kind == "steal":
        steals[who] += effect.count  # type: ignore[union-attr]


#: The effects that gain cards: a Gacha Capsule's draw, a Magnet's steal.
_GAINS = frozenset({"draw", "steal"})


def effect_timings(game: GotchaCards) -> dict[EffectKind, str]:
    """When each kind of effect acts (``reveal``, ``after-scoring`` or ``collected``: clarification
    effect-priority-and-lanes), read from ``game.effect_timing`` into a plain dict: each read of
    a pydantic model's field is slow, and ``settle_field`` asks for every card with an effect."""
    return {kind: game.effect_timing.of(kind) for kind in get_args(EffectKind)}


# ------------------------------------------------------------------------------ Competitive


@RULES.rule
def swap_target_lane(game: GotchaCards, lane: int, direction: Direction) -> int | None:
    """The lane on the opponent's side that a swap card in ``lane`` trades with.

    Clarification swap-competitive: across is the same lane, left the lane one nearer the deck,
    right the lane one farther away; None when there is no such lane.
    """
    if lane < 1:
        raise ValueError("lanes are numbered from 1")
    if direction == "across":
        return lane
    if direction == "left":
        return lane - 1 if lane > 1 else None
    return lane + 1


@RULES.rule
def effect_order(game: GotchaCards, priority: Literal[0, 1], lanes: list[int]) -> list[list[int]]:
    """The ``[side, lane]`` positions in the order their effects resolve.

    Seed, "Game Flow": the effects of the player who started the turn have priority;
    clarification effect-priority-and-lanes: all of theirs from Lane1 outward, then the other's.
    """
    if len(lanes) != 2 or min(lanes) < 0:
        raise ValueError("give the number of cards on each of the two sides")
    return [[side, place + 1] for side, place in _effect_places(priority, *lanes)]


@functools.cache
def _effect_places(priority: int, first: int, second: int) -> tuple[tuple[int, int], ...]:
    """``effect_order`` with each lane as its index in a side (Lane1 is 0), made once for each
    priority and pair of lane counts (a few dozen): every Competitive turn with an effect asks,
    and making the list cost more than the rest of a turn's effect step."""
    lanes = (first, second)
    return tuple((side, place) for side in (priority, 1 - priority) for place in range(lanes[side]))


@dataclass(slots=True)
class FieldOutcome:
    """What a Competitive turn's resolution did, side by side (index 0 and 1 are seats);
    slotted, and every field given (no default factories to test for), as one is made every
    turn."""

    sides: list[list[GotchaCard | None]]
    """The cards in the lanes after the effect step (swaps and Hammers applied; None where a
    Hammer struck)."""
    fights: list[list[FightType | Literal["item"] | None]]
    """What each lane's card fights as, lane by lane like ``sides``: its type, ``item`` for an
    item that does not fight (clarification item-in-lane), the type a Wildcard named
    (clarification wildcard-type), None for an empty lane."""
    taken: list[list[GotchaCard]]
    """Cards each side collects from the lanes into its victory pile."""
    bonus: list[int]
    """Cards each side also takes from the top of the deck (lucky cards)."""
    draws: list[int]
    """Cards each side draws into its hand (Gacha Capsules)."""
    steals: list[int]
    """Cards each side's Magnets take from the other side's victory pile, as far as it holds."""
    trashed: list[GotchaCard]
    """Cards that go to the trash: ties, items, Hammer victims."""


_TYPE_OF, _EFFECT_OF = attrgetter("type"), attrgetter("effect")
"""A card's type and effect, read in C by ``map`` (a comprehension costs a frame)."""

#: What a place's card fights as when nothing fights there: no card (an empty lane, a Party
#: seat without one), or an item (clarifications item-in-lane, party-items).
_IDLE = frozenset({None, "item"})


def _score_lanes(game: GotchaCards, out: FieldOutcome) -> None:
    """Each lane's fight, Lane1 outward (seed, "Earning Points"): the winner takes both cards,
    a tie trashes both; otherwise each fighting card is unopposed and its owner takes it back,
    and an item, which does not fight, goes to the trash (clarification item-in-lane). Only a
    card with an effect can bring a lucky bonus, so ``_bonus`` is asked of those alone.

    One loop over every lane, with no call per lane or per unopposed card (each Python call
    costs about as much as the lane's own work): a turn's resolution is a good part of a
    Competitive game's cost."""
    taken, bonus, trashed = out.taken, out.bonus, out.trashed
    (first, second), (fights_first, fights_second) = out.sides, out.fights
    # lane by lane; None where a side has no card
    for a, b, fa, fb in zip_longest(first, second, fights_first, fights_second):
        if fa not in _IDLE and fb not in _IDLE:  # two fighting cards
            pair = (a, b)
            if fa == fb:
                trashed += pair
                continue
            winner = 0 if beats(game, fa, fb) else 1
            taken[winner] += pair
            if a.effect is not None or b.effect is not None:
                bonus[winner] += _bonus(game, a) + _bonus(game, b)
            continue
        # unopposed: its owner takes a fighting card back, an item goes to the trash
        for side, card, fight in ((0, a, fa), (1, b, fb)):
            if card is None:
                continue
            if fight in _IDLE:
                trashed.append(card)
                continue
            taken[side].append(card)
            if card.effect is not None:
                bonus[side] += _bonus(game, card)


def resolve_field(
    game: GotchaCards, priority: int, sides: Sequence[Sequence[GotchaCard]]
) -> Generator[Choice, Answer, FieldOutcome]:
    """Resolve a Competitive turn once every card is revealed, as a resolver: it yields each
    ``Choice`` a holder must make and receives the answer (``settle_field`` given the answers
    so far, run afresh for each; the rules are there).
    """
    return (yield from _answered(lambda answers: settle_field(game, priority, sides, answers)))


def settle_field(
    game: GotchaCards,
    priority: int,
    sides: Sequence[Iterable[GotchaCard]],
    answers: Sequence[Answer] = (),
    timing: Mapping[EffectKind, str] | None = None,
) -> FieldOutcome | Choice:
    """A Competitive turn once every card is revealed: ``sides`` holds each seat's cards, Lane1
    outward (seed: lanes fill without gaps), ``answers`` the holders' decisions so far in the
    order they are asked. Returns the outcome, or the next ``Choice`` when an effect asks
    beyond them. ``timing`` is ``effect_timings(game)``, which a caller may read once and pass.

    Seed, "Game Flow" (lanes in order, the starting player's effects first) and "Earning
    Points"; clarifications effect-priority-and-lanes, swap-competitive, swap-chain,
    effect-holder, item-in-lane, hammer-target, wildcard-type, lucky-bonus.

    The field is kept by position: each lane's card, what it fights as and whether its effect
    has resolved, in three side-by-side rows that a swap trades together; a swapped-in card
    resolves right away, for its new holder (swap-chain). A plain function, not a generator
    (``resolve_field`` is that): a turn's resolution is a good part of a Competitive game's
    cost, and most turns ask nothing.
    """
    if priority not in (0, 1) or len(sides) != 2:
        raise ValueError("a Competitive field has two sides and priority 0 or 1")
    if timing is None:
        timing = effect_timings(game)
    lanes: list[list[GotchaCard | None]] = [list(sides[0]), list(sides[1])]
    fights: list[list[FightType | Literal["item"] | None]]
    fights = [list(map(_TYPE_OF, lanes[0])), list(map(_TYPE_OF, lanes[1]))]
    out = FieldOutcome(lanes, fights, [[], []], [0, 0], [0, 0], [0, 0], [])
    after: Sequence[tuple[int, GotchaCard]] = ()  # a list only when some gain acts later
    # each card's effect, in effect order (clarification effect-priority-and-lanes: the
    # starting player's from Lane1 outward, then the other's); an effect is never false
    effects = list(map(_EFFECT_OF, lanes[priority] + lanes[1 - priority]))
    if any(effects):
        resolved = [[False] * len(lanes[0]), [False] * len(lanes[1])]
        asked = 0  # the answers used so far
        later = False  # a gain that acts after scoring (a Magnet's)
        order = _effect_places(priority, len(lanes[0]), len(lanes[1]))  # effect_order
        # Only the places whose cards have an effect at the start are visited, in order: a card
        # moves only in a swap, and the one that lands away from the swap's place is the swap
        # card, resolved already (the card landing in its place resolves there and then).
        for side, lane in compress(order, effects):
            here, other = lanes[side], lanes[1 - side]
            card = here[lane]  # None if a Hammer struck it
            while card is not None and not resolved[side][lane]:
                resolved[side][lane] = True
                effect = card.effect
                if effect is None:  # a plain card swapped in does nothing
                    break
                kind = effect.kind
                if timing[kind] != "reveal":  # a lucky card's bonus comes as it is collected
                    later = later or kind in _GAINS
                    break
                if kind == "swap" and isinstance(effect, SwapEffect):
                    target = swap_target_lane(game, lane + 1, effect.direction)
                    if target is None or target > len(other) or other[target - 1] is None:
                        break
                    there = target - 1
                    for row in (lanes, fights, resolved):
                        mine, theirs = row[side], row[1 - side]
                        mine[lane], theirs[there] = theirs[there], mine[lane]  # type: ignore[assignment]
                    card = here[lane]  # the card that arrived resolves next, for its new holder
                    continue
                if kind == "smash" and isinstance(effect, SmashEffect):
                    # the lanes opposite still holding a card (a card is always true), in C
                    options = tuple(compress(range(1, len(other) + 1), other))
                    if not options:
                        break
                    if len(options) == 1:
                        hit = options[0]
                    elif asked < len(answers):
                        hit, asked = int(answers[asked]), asked + 1
                    else:
                        return Choice(side, "lane", options, card.id, _lanes_view(lanes))
                    out.trashed.append(other[hit - 1])  # type: ignore[arg-type]
                    other[hit - 1] = fights[1 - side][hit - 1] = None
                elif kind == "wild" and isinstance(effect, WildEffect):
                    if asked == len(answers):
                        types = tuple(fight_types(game))
                        return Choice(side, "type", types, card.id, _lanes_view(lanes))
                    fights[side][lane] = answers[asked]  # type: ignore[assignment]
                    asked += 1
                else:  # it acts now: no need to ask its kind and timing again
                    _add_gain(effect, kind, out.draws, out.steals, side)
                break
        if later:  # every card left with an effect has resolved: some act after scoring
            after = [  # the cards with an effect, where the effect step left them
                (side, card)
                for side, lane in order
                if (card := lanes[side][lane]) is not None and card.effect is not None
            ]
    _score_lanes(game, out)
    for side, card in after:  # ``_gain`` after scoring, with the timings read once
        effect = card.effect
        kind = effect.kind  # type: ignore[union-attr]
        if kind in _GAINS and timing[kind] == "after-scoring":
            _add_gain(effect, kind, out.draws, out.steals, side)  # type: ignore[arg-type]
    return out


def _answered(
    step: Callable[[list[Answer]], Choice | _Outcome],
) -> Generator[Choice, Answer, _Outcome]:
    """A plain resolver ``step`` (given the answers so far: the next choice or the outcome) as
    a generator that yields each choice and receives its answer (``resolve_field``,
    ``resolve_showdown``)."""
    answers: list[Answer] = []
    while True:
        found = step(answers)
        if not isinstance(found, Choice):
            return found
        answers.append((yield found))


def answer_all(resolver: Generator[Choice, Answer, object], answers: Sequence[Answer]) -> object:
    """Run a resolver, giving it ``answers`` in order; ValueError if they do not fit."""
    pending = list(answers)
    try:
        choice = next(resolver)
        while True:
            if not pending:
                raise ValueError(
                    f"seat {choice.player} must choose a {choice.kind} for {choice.card} "
                    f"from {list(choice.options)}, but no choice is left"
                )
            answer = pending.pop(0)
            if not any(answer == o and type(answer) is type(o) for o in choice.options):
                raise ValueError(
                    f"{answer!r} is not a {choice.kind} {choice.card} can choose "
                    f"(options: {list(choice.options)})"
                )
            choice = resolver.send(answer)
    except StopIteration as done:
        if pending:
            raise ValueError(f"choices left over: {pending}") from None
        return done.value


@RULES.rule
def lane_points(game: GotchaCards, a: GotchaCard, b: GotchaCard) -> list[int]:
    """Points each side of one lane scores from the fight of cards ``a`` and ``b``.

    Seed, "Earning Points": the winner takes both cards, a tie sends both to the trash;
    clarification item-in-lane: an item does not fight, so the card opposite is unopposed and
    its owner takes it back; lucky-bonus adds the deck card a lucky card's collector takes.
    Effects that act on reveal (swaps, Hammer, Wildcard) are not applied here: see
    ``resolve_lanes``.
    """
    out = FieldOutcome([[a], [b]], [[a.type], [b.type]], [[], []], [0, 0], [0, 0], [0, 0], [])
    _score_lanes(game, out)
    return [(len(out.taken[s]) + out.bonus[s]) * game.points_per_card for s in (0, 1)]


@RULES.rule
def resolve_lanes(
    game: GotchaCards,
    priority: Literal[0, 1],
    first: list[GotchaCard],
    second: list[GotchaCard],
    choices: list[Answer],
) -> dict[str, object]:
    """A whole Competitive turn: ``first`` and ``second`` are the cards of seat 0 and seat 1 in
    Lane1, Lane2, ...; ``priority`` the seat whose effects resolve first; ``choices`` the holders'
    decisions in the order they are asked.

    Returns the points each seat scores from the lanes (lucky bonuses included), how many cards
    go to the trash, the cards each seat draws, and the cards each seat's Magnets try to take.
    Seed, "Game Flow" and "Earning Points"; clarification effect-priority-and-lanes.
    """
    out = answer_all(resolve_field(game, priority, [first, second]), choices)
    assert isinstance(out, FieldOutcome)
    return {
        "points": [(len(out.taken[s]) + out.bonus[s]) * game.points_per_card for s in (0, 1)],
        "trashed": len(out.trashed),
        "draws": out.draws,
        "steals": out.steals,
    }


def _role(seat: Seat) -> int:
    return 0 if seat == "player1" else 1


@RULES.rule
def turn_leader(game: GotchaCards, turn: int) -> int:
    """Who places first on ``turn`` and has effect priority: 0 for Player1, 1 for Player2.

    Seed, "Game Flow": Player1 on turn one, Player2 on turn two, Player1 on turn three.
    """
    turns = game.competitive.turns
    if not 1 <= turn <= len(turns):
        raise ValueError(f"a round has turns 1 to {len(turns)}")
    return _role(turns[turn - 1].first)


@RULES.rule
def draft_hands(game: GotchaCards, drawn: int) -> dict[str, list[int]]:
    """Hand sizes of Player1 and Player2 after the picks, and after Player2's extra draw.

    Seed, Competitive "Setting Up": Player1 keeps some of the drawn cards, the rest are picked
    alternately (``first_pick`` first), then Player2 draws.
    """
    draft = game.competitive.draft
    if drawn < draft.keep:
        raise ValueError(f"Player1 must draw at least the {draft.keep} card(s) they keep")
    picks = drawn - draft.keep
    first, second = (picks + 1) // 2, picks // 2
    p1, p2 = (second, first) if draft.first_pick == "player2" else (first, second)
    hands = [draft.keep + p1, p2]
    return {"after_picks": hands, "after_draw": [hands[0], hands[1] + draft.player2_draw]}


@RULES.rule
def overtime_draw(game: GotchaCards, overtime_turn: int) -> int:
    """Cards each player draws on the ``overtime_turn``-th overtime turn of a round.

    Seed, "Overtime Turns": two on the first, one more on each further one.
    """
    if overtime_turn < 1:
        raise ValueError("overtime turns are numbered from 1")
    ot = game.competitive.overtime
    return ot.first_draw + (overtime_turn - 1) * ot.draw_increment


@RULES.rule
def turn_start_check(game: GotchaCards, turn: int, hands: list[int]) -> int | str | None:
    """At the start of ``turn``, with ``hands`` cards in each seat's hand: None to play the
    turn, a seat that wins the round at once, or ``"points"`` when the round ends on points.

    Seed, "Game Flow": a player who cannot play a card loses the round; if both are out of
    cards, the points decide. Clarification turn-start-check: checked at the start of turns
    two and three (``forfeit_check_turns``).
    """
    if len(hands) != 2 or min(hands) < 0:
        raise ValueError("give the hand size of each of the two seats")
    if not 1 <= turn <= len(game.competitive.turns):
        raise ValueError(f"a round has turns 1 to {len(game.competitive.turns)}")
    if turn not in game.competitive.forfeit_check_turns:
        return None
    empty = [h == 0 for h in hands]
    if all(empty):
        return "points"
    if any(empty):
        return empty.index(False)
    return None


@RULES.rule
def round_winner(game: GotchaCards, points: list[int]) -> int | None:
    """The seat with more points, or None when tied (overtime follows).

    Seed, "Win Conditions" and "Overtime Turns".
    """
    if len(points) != 2 or min(points) < 0:
        raise ValueError("give the points of each of the two seats")
    if points[0] == points[1]:
        return None
    return 0 if points[0] > points[1] else 1


@RULES.rule
def match_winner(game: GotchaCards, round_wins: list[int]) -> int | None:
    """The seat that has won the game, or None while another round is needed.

    Seed, "Win Conditions": the first player to win two rounds (``rounds_to_win``).
    """
    need = game.competitive.rounds_to_win
    if len(round_wins) != 2 or min(round_wins) < 0 or max(round_wins) > need:
        raise ValueError("impossible round wins")
    if min(round_wins) >= need:
        raise ValueError("only one player can win the game")
    if sum(round_wins) > game.competitive.max_rounds:
        raise ValueError(f"a game has at most {game.competitive.max_rounds} rounds")
    for seat, wins in enumerate(round_wins):
        if wins >= need:
            return seat
    return None


@RULES.rule
def deck_size(game: GotchaCards, beginner: bool) -> int:
    """Cards in the deck; the beginner deck leaves out every advanced (black-symbol) card.

    Seed, Competitive "Setting Up"; clarification advanced-cards.
    """
    return game.deck_size(beginner=beginner)


@RULES.rule
def draft_picker(game: GotchaCards, picks: int) -> int:
    """Who takes the next face-up card of the draft after ``picks`` picks: 0 for Player1, 1 for
    Player2.

    Seed, Competitive "Setting Up": Player2 chooses first from the face-up cards, then the
    players alternate (``first_pick``).
    """
    if picks < 0:
        raise ValueError("picks are counted from 0")
    first = _role(game.competitive.draft.first_pick)
    return first if picks % 2 == 0 else 1 - first


@RULES.rule
def place_limits(game: GotchaCards, turn: int, hand: int, overtime: bool = False) -> list[int]:
    """The fewest and the most cards a player holding ``hand`` cards places on ``turn``.

    Seed, "Game Flow": at least one card on turns one and two, every card on turn three;
    clarification placing-limits (up to the whole hand); seed "Overtime Turns" and
    clarification overtime-play-all (every card in hand). A player cannot place more than
    they hold.
    """
    if hand < 0:
        raise ValueError("a hand holds no fewer than 0 cards")
    if overtime:
        return [hand, hand]
    turns = game.competitive.turns
    if not 1 <= turn <= len(turns):
        raise ValueError(f"a round has turns 1 to {len(turns)}")
    rule = turns[turn - 1]
    if rule.play_all:
        return [hand, hand]
    return [min(rule.min_cards, hand), hand]


@RULES.rule
def role_chooser(game: GotchaCards, round_winner: int) -> int:
    """The seat that chooses to be Player1 or Player2 for the next round.

    Seed, "Continuing the Game": the player that lost the round (``next_round_player1``).
    """
    if round_winner not in (0, 1):
        raise ValueError("the round winner is seat 0 or seat 1")
    return 1 - round_winner


@RULES.rule
def refill_deck(game: GotchaCards, deck: int, trash: int) -> bool:
    """Whether a draw must first shuffle the trash to form a new deck.

    Seed, "Continuing the Game": the deck is not shuffled between rounds; clarification
    deck-runs-out (``deck_empty: shuffle-trash``, both modes): only when the deck is empty and
    the trash is not. With both empty the draw gets nothing.
    """
    if deck < 0 or trash < 0:
        raise ValueError("card counts are non-negative")
    return deck == 0 and trash > 0


@RULES.rule
def overtime_goes_on(game: GotchaCards, mode: Literal["competitive", "party"], tied: int) -> bool:
    """Whether another overtime turn is played after ``tied`` tied overtime turns; if not, a
    coin decides.

    Seed, "Overtime Turns" (Competitive and Party): repeat until there is a clear winner;
    clarification safety-valves (``overtime.max_turns`` of each mode).
    """
    if tied < 0:
        raise ValueError("overtime turns are counted from 0")
    limit = (game.competitive if mode == "competitive" else game.party).overtime.max_turns
    return tied < limit


@RULES.rule
def overtime_short(game: GotchaCards, hands: list[int]) -> bool:
    """Whether an overtime turn, its cards drawn, has left a player with no card to play, so a
    coin settles the round (Competitive) or the game (Party). Clarification deck-runs-out."""
    if not hands or min(hands) < 0:
        raise ValueError("give the hand size of each player in the overtime turn")
    return min(hands) == 0


@RULES.rule
def steal_targets(game: GotchaCards, seat: int, piles: list[int]) -> list[int]:
    """The seats a Magnet in ``seat`` can take a card from: every other seat whose victory pile
    (``piles``: sizes) is not empty. In Competitive mode that is the opponent or nobody.

    Clarification magnet-target (the holder picks when there are several), item-effects.
    """
    if not 0 <= seat < len(piles) or min(piles) < 0:
        raise ValueError("seat must be a seat and pile sizes non-negative")
    return [other for other, size in enumerate(piles) if other != seat and size > 0]


# ------------------------------------------------------------------------------ Party


@RULES.rule
def party_deal(game: GotchaCards, players: int) -> int:
    """Cards dealt to each player in Party mode (seed, Party "Setting Up": five each)."""
    if players not in game.party.deal:
        raise ValueError(f"Party mode is for {sorted(game.party.deal)} players")
    return game.party.deal[players]


def _best(game: GotchaCards, fights: Sequence[CardType | FightType | None]) -> FightType | None:
    """The type that wins a Party showdown of ``fights`` (the seats' types), None when every
    card goes to the trash (see ``party_winners``)."""
    kinds = set(fights) - _IDLE  # the types that fight
    if len(kinds) == 1:
        (kind,) = kinds
        # unopposed (clarification party-items), else all the same type: no clear winner
        return kind if fights.count(kind) == 1 else None  # type: ignore[return-value]
    if len(kinds) != 2:
        return None  # nobody fights, or all three types: no clear winner
    a, b = sorted(kinds)
    return a if beats(game, a, b) else b  # type: ignore[arg-type,return-value]


def _winners(game: GotchaCards, plays: Sequence[CardType | FightType | None]) -> list[int]:
    """The seats whose type wins (``_best``), in seat order."""
    best = _best(game, plays)
    return [] if best is None else [seat for seat, t in enumerate(plays) if t == best]


@RULES.rule
def party_winners(game: GotchaCards, plays: list[CardType]) -> list[int]:
    """The seats that win a Party showdown, from the types played in seat order; empty when
    every card goes to the trash.

    Seed, Party "Game Flow": one type beating the other type present wins (one or several
    winners); the same type everywhere or all three types means no winner. Clarification
    party-items: items are set aside, and a single fighting card among them is unopposed.
    """
    return _winners(game, plays)


@RULES.rule
def party_shares(game: GotchaCards, plays: list[CardType]) -> dict[str, object]:
    """Cards each seat takes from a Party showdown, and how many go to the trash.

    Seed, Party "Game Flow": one winner takes every card; several winners share, each taking
    the same number, the rest trashed. Clarifications party-shares (rounded down) and
    party-items (items never score). Lucky bonuses are left out here: see ``party_resolve``.
    """
    winners = _winners(game, plays)
    fighting = sum(1 for t in plays if t != "item")
    takes = [0] * len(plays)
    if not winners:
        return {"takes": takes, "trashed": len(plays)}
    each = fighting // len(winners)
    for seat in winners:
        takes[seat] = each
    return {"takes": takes, "trashed": len(plays) - each * len(winners)}


@RULES.rule
def party_swap_target(
    game: GotchaCards, seat: int, direction: Direction, in_play: list[int]
) -> int | str | None:
    """The seat a Party swap card in ``seat`` trades with, among the seats with a card in play:
    a seat, ``"choose"`` when the holder must pick one, or None when nobody else has a card.

    Seed, Party "Setting Up": Swap Left reaches the player on the left, Swap Right the player on
    the right, Swap Across a player of the holder's choice. Clarification party-swap-targets:
    left is the next seat in play clockwise (seat + 1), right the next counter-clockwise.
    """
    seats = sorted(set(in_play))
    if seat not in seats:
        raise ValueError(f"seat {seat} has no card in play")
    if len(seats) == 1:
        return None  # nobody else has a card
    at = seats.index(seat)
    if direction == "across":
        return seats[1 - at] if len(seats) == 2 else "choose"  # the only other, else a choice
    step = 1 if direction == "left" else -1
    return seats[(at + step) % len(seats)]


@dataclass(slots=True)
class ShowdownOutcome:
    """What a Party turn's resolution did, seat by seat; slotted, and every field given (no
    default factories to test for), as one is made every turn."""

    fights: list[FightType | Literal["item"] | None]
    """What each seat's card fought as after the effect step (None: no card)."""
    winners: list[int]
    """The seats that win, in effect-priority order."""
    taken: list[list[GotchaCard]]
    """Cards each seat collects into its victory pile."""
    bonus: list[int]
    """Cards each seat also takes from the top of the deck (lucky cards)."""
    draws: list[int]
    steals: list[int]
    """Cards each seat's Magnets take (the holder picks the player when there is a choice)."""
    trashed: list[GotchaCard]


def clockwise(players: int, first: int) -> list[int]:
    """Every seat clockwise from ``first`` (effect priority order)."""
    return [*range(first, players), *range(first)]


def showdown_step(
    game: GotchaCards,
    priority: int,
    plays: Sequence[GotchaCard | None],
    answers: Sequence[Answer] = (),
) -> Choice | ShowdownOutcome:
    """Resolve a Party turn once every card is revealed, given the holders' ``answers`` so far
    in the order they were asked: the next ``Choice`` to ask, or the outcome once every choice
    is answered. ``plays`` has one entry per seat (None for a seat without a card this turn).

    Seed, Party "Setting Up" (effects from Player 1 clockwise; swaps; a swapped unresolved card
    resolves after the swap) and "Game Flow" (the three outcomes); clarifications party-items,
    party-shares, party-shared-effects, party-swap-targets, swap-chain, effect-holder.

    A plain function, run again from the start with each new answer (a turn asks few
    questions), so that a paused turn is only its answers; ``resolve_showdown`` is its
    generator form. Each seat's type and effect are read in C (``map`` over ``getattr``): the
    engine runs this for most Party turns.
    """
    n = len(plays)
    if not 0 <= priority < n or plays[priority] is None:
        raise ValueError("priority must be a seat with a card in play")
    order = clockwise(n, priority)
    cards = list(plays)
    fights: list[FightType | Literal["item"] | None] = list(map(getattr, cards, _TYPE, _NONE))
    draws, steals, trashed = [0] * n, [0] * n, []
    effects: list[Effect | None] = list(map(getattr, cards, _EFFECT, _NONE))
    some = any(effects)  # some card has an effect (an effect is always true)
    if some:
        choice = _effect_step(game, order, cards, fights, effects, answers, draws, steals, trashed)
        if choice is not None:
            return choice
    out = _score_showdown(game, order, cards, fights, draws, steals, trashed)
    if some:  # the effects that did not act on reveal, where the step left them
        for seat in compress(range(n), effects):
            _gain(game, cards[seat], "after-scoring", draws, steals, seat)  # type: ignore[arg-type]
    return out


#: ``map(getattr, cards, _TYPE, _NONE)``: each card's type, None for a seat without a card,
#: read in C (likewise ids and effects).
_ID, _TYPE, _EFFECT, _NONE = repeat("id"), repeat("type"), repeat("effect"), repeat(None)


def _in_play(cards: Sequence[GotchaCard | None]) -> list[int]:
    """The seats with a card (a card is always true), found in C."""
    return list(compress(range(len(cards)), cards))


def resolve_showdown(
    game: GotchaCards, priority: int, plays: Sequence[GotchaCard | None]
) -> Generator[Choice, Answer, ShowdownOutcome]:
    """``showdown_step`` as a resolver: it yields each choice and receives the answer (see
    ``answer_all``)."""
    return (yield from _answered(lambda answers: showdown_step(game, priority, plays, answers)))


def _effect_step(
    game: GotchaCards,
    order: list[int],
    cards: list[GotchaCard | None],
    fights: list[FightType | Literal["item"] | None],
    effects: list[Effect | None],
    answers: Sequence[Answer],
    draws: list[int],
    steals: list[int],
    trashed: list[GotchaCard],
) -> Choice | None:
    """A Party turn's effect step on each seat's card, what it fights as and its effect (``cards``,
    ``fights`` and ``effects``, changed in place: a swap trades all three, a Hammer's victim
    leaves its seat empty for ``trashed``, a Wildcard fights as the type named, an effect that
    has resolved is cleared and the others are left for after scoring). Each card's effect
    that acts on reveal resolves in priority order, a swapped-in card that has not resolved
    yet right after its swap; lucky cards and after-scoring effects do nothing here. The
    choices take ``answers`` in order; the first choice beyond them is returned, None once the
    step is done. See ``showdown_step``.

    Only the seats whose card has an effect are visited: a card that a swap moves has resolved
    by the end of the swap (the swap card itself, and each card arriving in the swapper's
    seat), so no unresolved effect ever arrives in another seat."""
    timing = game.effect_timing
    pending = iter(answers)
    for seat in compress(order, map(effects.__getitem__, order)):
        effect = effects[seat]
        while effect is not None:
            kind = effect.kind
            if getattr(timing, kind) != "reveal":  # EffectTiming.of, read in C
                break  # kept for after scoring
            effects[seat] = None  # resolved
            card = cards[seat]
            assert card is not None
            if kind == "swap" and isinstance(effect, SwapEffect):
                in_play = _in_play(cards)
                target = party_swap_target(game, seat, effect.direction, in_play)
                if target is None:
                    break
                if target == "choose":
                    in_play.remove(seat)
                    options = tuple(in_play)
                    target = next(pending, None)
                    if target is None:
                        return Choice(seat, "seat", options, card.id, _slots_view(cards))
                t = int(target)
                cards[seat], cards[t] = cards[t], card
                fights[seat], fights[t] = fights[t], fights[seat]
                effects[seat], effects[t] = effects[t], None  # the swap card's, resolved
                effect = effects[seat]  # the card that arrived resolves for its new holder
                continue
            if kind == "smash":
                others = _in_play(cards)
                others.remove(seat)
                options = tuple(others)
                hit = options[0] if len(options) == 1 else None
                if len(options) > 1:
                    hit = next(pending, None)
                    if hit is None:
                        return Choice(seat, "seat", options, card.id, _slots_view(cards))
                if hit is not None:
                    victim, cards[int(hit)], fights[int(hit)] = cards[int(hit)], None, None
                    effects[int(hit)] = None  # its effect is lost
                    if victim is not None:
                        trashed.append(victim)
            elif kind == "wild":
                named = next(pending, None)
                if named is None:
                    options = tuple(fight_types(game))
                    return Choice(seat, "type", options, card.id, _slots_view(cards))
                fights[seat] = named  # type: ignore[assignment]
            else:
                _gain(game, card, "reveal", draws, steals, seat)
            break
    return None


def _score_showdown(
    game: GotchaCards,
    order: list[int],
    cards: list[GotchaCard | None],
    fights: list[FightType | Literal["item"] | None],
    draws: list[int],
    steals: list[int],
    trashed: list[GotchaCard],
) -> ShowdownOutcome:
    """A Party showdown after its effect step: the fight and the shares (seed, Party "Game
    Flow"; clarifications party-items, party-shares, party-shared-effects), with the draws and
    steals so far. See ``showdown_step``."""
    n = len(cards)
    taken: list[list[GotchaCard]] = list(map(list, repeat((), n)))  # an empty list each, in C
    bonus = [0] * n
    best = _best(game, fights)
    winners: list[int] = []
    losing: list[GotchaCard] = []
    items: list[int] = []
    for seat in order:
        fight = fights[seat]
        if fight in _IDLE:  # no card, or an item
            if fight is not None:
                items.append(seat)
        elif fight == best:
            winners.append(seat)
        else:
            losing.append(cards[seat])  # type: ignore[arg-type]
    if items:  # party-items: an item that does not fight goes to the trash, in seat order
        items.sort()
        trashed += map(cards.__getitem__, items)  # type: ignore[arg-type]
    if winners:
        each = (len(winners) + len(losing)) // len(winners)
        shared = 0  # party-shared-effects: every winner also gets the losing lucky cards' bonus
        for card in losing:
            if card.effect is not None:
                shared += _bonus(game, card)
        for seat in winners:
            own = cards[seat]
            assert own is not None
            taken[seat] = [own, *losing[: each - 1]]
            del losing[: each - 1]
            bonus[seat] = _bonus(game, own) + shared if own.effect is not None else shared
    trashed += losing
    return ShowdownOutcome(fights, winners, taken, bonus, draws, steals, trashed)


@RULES.rule
def party_resolve(
    game: GotchaCards, priority: int, plays: list[GotchaCard], choices: list[Answer]
) -> dict[str, object]:
    """A whole Party turn: ``plays`` are the cards of the seats in play in seat order,
    ``priority`` the seat whose effect resolves first, ``choices`` the holders' decisions.

    Returns the winners, the points each seat scores (lucky bonuses included), the cards
    trashed, the cards each seat draws and the cards each seat's Magnets take.
    Seed, Party "Setting Up" and "Game Flow"; see ``resolve_showdown``.
    """
    out = answer_all(resolve_showdown(game, priority, plays), choices)
    assert isinstance(out, ShowdownOutcome)
    return {
        "winners": out.winners,
        "takes": [
            (len(t) + b) * game.points_per_card for t, b in zip(out.taken, out.bonus, strict=True)
        ],
        "trashed": len(out.trashed),
        "draws": out.draws,
        "steals": out.steals,
    }


def _holding(current: int, hands: Sequence[int]) -> list[int]:
    """The seats holding cards, clockwise from the one after ``current``."""
    n = len(hands)
    return [seat for seat in clockwise(n, (current + 1) % n) if hands[seat]]


def _check_hands(current: int, hands: Sequence[int]) -> None:
    if not 0 <= current < len(hands) or min(hands, default=0) < 0:
        raise ValueError("current must be a seat and hand sizes non-negative")


@RULES.rule
def party_next_priority(game: GotchaCards, current: int, hands: list[int]) -> int | None:
    """Who has effect priority next turn: the next seat clockwise from ``current`` that still
    holds cards, or None when nobody does.

    Seed, Party "Game Flow": at the end of the turn priority passes to the next active
    clockwise player.
    """
    _check_hands(current, hands)
    seats = _holding(current, hands)
    return seats[0] if seats else None


@RULES.rule
def party_active(game: GotchaCards, hands: list[int]) -> bool:
    """Whether the Party game goes on: at least ``min_active`` players hold cards.

    Seed, Party "Game Flow": play continues while at least two players are active.
    """
    if min(hands, default=0) < 0:
        raise ValueError("hand sizes are non-negative")
    return sum(1 for h in hands if h > 0) >= game.party.min_active


@RULES.rule
def party_turn_order(game: GotchaCards, current: int, hands: list[int]) -> list[int]:
    """The seats that play the Party turn after the one ``current`` had priority in, in the
    order they place: everyone still holding cards, starting with the next of them clockwise,
    who has effect priority (``party_next_priority``). Empty when the game does not go on
    (``party_active``).

    Seed, Party "Game Flow"; clarification party-face-down (cards are placed in priority
    order).
    """
    _check_hands(current, hands)
    seats = _holding(current, hands)
    return seats if len(seats) >= game.party.min_active else []


@RULES.rule
def party_leaders(game: GotchaCards, piles: list[int]) -> list[int]:
    """The seats with the most cards in their victory pile: one seat is the winner, several go
    to overtime (seed, Party "Win Conditions"; clarification party-overtime)."""
    if not piles or min(piles) < 0:
        raise ValueError("give each seat's victory pile size")
    best = max(piles)
    return [seat for seat, size in enumerate(piles) if size == best]


@RULES.rule
def party_overtime_priority(
    game: GotchaCards, previous: int | None, tied: list[int], players: int
) -> int:
    """Who has effect priority in a Party overtime turn among the ``tied`` seats: the first of
    them clockwise from seat 0 in the first overtime turn (``previous`` None), then the next of
    them clockwise after ``previous``.

    Seed, Party "Setting Up" (effects from Player 1 clockwise) and "Game Flow" (priority passes
    clockwise); clarification party-overtime.
    """
    if not tied or min(tied) < 0 or max(tied) >= players:
        raise ValueError("give the tied seats of the players")
    if previous is None:
        return min(tied)
    marks = [1 if seat in tied else 0 for seat in range(players)]
    seat = party_next_priority(game, previous, marks)
    assert seat is not None
    return seat
