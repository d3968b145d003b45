"""Gasha's rule functions: pure, small, and each tied to the seed rule it implements."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from itertools import compress
from operator import getitem, le
from typing import Any, NamedTuple, get_args

from gachapress.games.gasha.model import (
    BonusToken,
    EndTrigger,
    Gasha,
    Kind,
    SetRewardCard,
    SetupRow,
    TicketColour,
)
from gachapress.spec import RuleSet

RULES = RuleSet()

WILD: TicketColour = "wild"


def _setup(game: Gasha, players: int) -> SetupRow:
    return game.setup_row(players)


def _kind_order(game: Gasha) -> dict[str, int]:
    """Each kind's place in the game's kinds table (kinds missing from it go last)."""
    order: dict[str, int] = {}
    for kind in [k.id for k in game.kinds] + list(get_args(Kind)):
        order.setdefault(kind, len(order))
    return order


def kinds_in_order(game: Gasha) -> list[Kind]:
    """The kinds of Gasha in the game's order (seed: "Contents"); index i of every count of
    kinds the engine keeps is the i-th kind of this list."""
    return list(_kind_order(game))  # type: ignore[arg-type]


# --- trading -----------------------------------------------------------------------------------


def fits(reward: SetRewardCard, cards: list[Kind] | tuple[Kind, ...]) -> bool:
    """Whether ``cards`` can all be placed on the reward's requirement (maybe not filling it)."""
    counts = Counter(cards)
    if reward.identical is not None:
        return len(counts) <= 1 and len(cards) <= reward.identical
    overflow = sum(max(0, n - reward.needs.get(kind, 0)) for kind, n in counts.items())
    return overflow <= reward.wild and len(cards) <= reward.size()


def _sub_multisets(game: Gasha, hand: list[Kind]) -> Iterator[tuple[Kind, ...]]:
    """Every sub-multiset of ``hand``, each once, kinds in the game's order."""
    order = _kind_order(game)
    have = Counter(hand)
    kinds = sorted(have, key=order.__getitem__)

    def pick(i: int) -> Iterator[tuple[Kind, ...]]:
        if i == len(kinds):
            yield ()
            return
        for rest in pick(i + 1):
            for n in range(have[kinds[i]] + 1):
                yield (kinds[i],) * n + rest

    yield from pick(0)


@RULES.rule
def reward_payments(
    game: Gasha, reward: SetRewardCard, hand: list[Kind], wild_tokens: int
) -> list[list[Any]]:
    """Every way to pay for ``reward``: ``[cards, tokens]`` pairs, none when it cannot be taken.

    Seed, "Trade Gasha cards for a Set Reward card": the matching Gasha cards go to the discard
    pile; "2 Wild Gashas!" is worth two wild Gashas in a later trade. ``cards`` is a multiset of
    the hand (kinds in the game's order) and ``tokens`` the fewest of the player's
    ``wild_tokens`` unspent 2 Wild Gashas! tokens that complete it; each token is spent whole
    (clarifications trade-payment, two-wild-use). Sorted by tokens, then by cards.
    """
    if wild_tokens < 0:
        raise ValueError("a player cannot hold a negative number of tokens")
    wilds_per_token = wild_gashas_per_token(game)
    order = _kind_order(game)
    payments = []
    for cards in _sub_multisets(game, hand):
        if not fits(reward, cards):
            continue
        missing = reward.size() - len(cards)
        if missing and not wilds_per_token:
            continue
        tokens = -(-missing // wilds_per_token) if missing else 0
        if tokens <= wild_tokens:
            payments.append((tokens, [order[c] for c in cards], list(cards)))
    return [[cards, tokens] for tokens, _, cards in sorted(payments)]


def wild_gashas_per_token(game: Gasha) -> int:
    """Wild Gashas one 2 Wild Gashas! token gives (seed, "Bonus Token Abilities"; the
    bonus-tokens check makes the tokens agree; should they not, the smallest is the safe
    reading)."""
    amounts = [
        token.effect.amount
        for token in game.decks.bonus_tokens.cards
        if token.effect.kind == "wild-gashas"
    ]
    return min(amounts, default=0)


@RULES.rule
def reward_satisfied(
    game: Gasha, reward: SetRewardCard, hand: list[Kind], wild_tokens: int
) -> bool:
    """Whether a player holding ``hand`` (Gasha kinds) and ``wild_tokens`` unspent 2 Wild
    Gashas! tokens may trade for ``reward``.

    Seed, "Trade Gasha cards for a Set Reward card" and "Card notes": named Gashas must be
    matched; a wild Gasha on the card is any Gasha; a card with no ticket half needs identical
    Gashas (clarification identical-any-kind); each token adds two wild Gashas.
    """
    if wild_tokens < 0:
        raise ValueError("a player cannot hold a negative number of tokens")
    req = requirement(game, reward)
    short = wilds_short(req, (0,) * len(req.needs), kind_counts(game, hand), 0)
    return short is not None and tokens_for(short, wild_gashas_per_token(game)) <= wild_tokens


@RULES.rule
def wild_gashas_missing(game: Gasha, reward: SetRewardCard, hand: list[Kind]) -> int:
    """How many wild Gashas (from 2 Wild Gashas! tokens) a trade for ``reward`` still needs
    after the best use of the Gasha cards in ``hand``; 0 when the cards alone pay for it.

    Seed, "Trade Gasha cards for a Set Reward card" and "Card notes": each named Gasha is
    matched by a card of its kind, each wild slot by any card; what no card can fill must come
    from a token's wild Gashas (clarifications wild-slot, identical-any-kind, two-wild-use).
    """
    req = requirement(game, reward)
    short = wilds_short(req, (0,) * len(req.needs), kind_counts(game, hand), 0)
    assert short is not None  # nothing placed yet always fits
    return short


# --- trading, counted: what the engine calls on its hot path ------------------------------------
#
# The engine keeps hands as counts per kind, in the game's kind order, and pays for a reward one
# step at a time: Gasha cards first, in the kind order (so every payment has one sequence of
# steps), then 2 Wild Gashas! tokens. These functions decide each step from those counts; they
# state the same rule as ``reward_payments`` and the tests compare the two exhaustively.


class Requirement(NamedTuple):
    """A Set Reward's requirement as numbers: ``needs`` per kind in the game's kind order (and
    as ``named`` pairs of kind index and count, for the kinds it names), ``wild`` slots,
    ``identical`` Gashas of one kind (0 for a card naming kinds), ``size`` in all."""

    needs: tuple[int, ...]
    named: tuple[tuple[int, int], ...]
    wild: int
    identical: int
    size: int


def requirement(game: Gasha, reward: SetRewardCard) -> Requirement:
    """The requirement printed on ``reward`` (seed, "Card notes"), counted per kind."""
    order = _kind_order(game)
    needs = [0] * len(order)
    for kind, n in reward.needs.items():
        needs[order[kind]] += n
    named = tuple((k, n) for k, n in enumerate(needs) if n)
    return Requirement(tuple(needs), named, reward.wild, reward.identical or 0, reward.size())


def kind_counts(game: Gasha, hand: list[Kind] | tuple[Kind, ...]) -> tuple[int, ...]:
    """``hand`` (Gasha kinds) as counts per kind, in the game's kind order."""
    order = _kind_order(game)
    counts = [0] * len(order)
    for kind in hand:
        counts[order[kind]] += 1
    return tuple(counts)


def tokens_for(short: int, per_token: int) -> int:
    """The fewest 2 Wild Gashas! tokens that give ``short`` wild Gashas; each is spent whole
    (clarification two-wild-use). A huge number when tokens give no wilds at all."""
    if short <= 0:
        return 0
    if per_token <= 0:
        return 1 << 30
    return -(-short // per_token)


def wilds_short(
    req: Requirement, placed: Sequence[int], hand: Sequence[int], first: int
) -> int | None:
    """How many wild Gashas a payment still lacks: ``placed`` cards are on the reward already,
    and the rest of it is filled as far as possible with cards of ``hand`` whose kind index is
    ``first`` or later. None when ``placed`` does not fit the reward.

    Seed, "Card notes": a named Gasha takes a card of its kind, a wild Gasha any card; a card
    with no ticket half takes identical Gashas of one kind (clarification identical-any-kind).
    """
    if req.identical:
        total = sum(placed)
        if total:
            kind = next(i for i, n in enumerate(placed) if n)
            if total != placed[kind] or total > req.identical:
                return None
            room = req.identical - total
            return room - min(hand[kind], room) if kind >= first else room
        best = max(hand[first:], default=0)
        return req.identical - min(best, req.identical)
    overflow = short = spare = 0
    for k, need in enumerate(req.needs):
        have = placed[k]
        if have > need:
            overflow += have - need
            need = 0
        else:
            need -= have
        avail = hand[k] if k >= first else 0
        if avail >= need:
            spare += avail - need
        else:
            short += need - avail
    room = req.wild - overflow
    if room < 0:
        return None
    return short + room - spare if spare < room else short


def trade_short(req: Requirement, hand: Sequence[int], cards: int) -> int:
    """``wilds_short`` for a payment not started yet, counted quickly: the wild Gashas that
    ``hand`` (``cards`` Gasha cards in all) leaves missing (seed, "Card notes")."""
    if req.identical:
        return req.identical - min(max(hand), req.identical)
    short = used = 0
    for k, need in req.named:
        have = hand[k]
        if have >= need:
            used += need
        else:
            used += have
            short += need - have
    spare = cards - used
    return short + req.wild - spare if spare < req.wild else short


def affordable(
    reqs: Sequence[Requirement], hand: Sequence[int], tokens: int, per_token: int
) -> list[int]:
    """The indices of the requirements in ``reqs`` that ``hand`` and ``tokens`` unspent
    2 Wild Gashas! tokens can pay for: ``reward_satisfied`` for a whole row at once.

    Counted quickly: ``trade_short`` (named Gashas missing, plus wild slots the spare cards
    leave open) is the larger of the named Gashas missing and the cards missing in all, and
    the tokens give ``tokens * per_token`` wilds to cover it; without tokens, every named
    Gasha must be in the hand."""
    wilds = tokens * per_token
    most = sum(hand) + wilds  # the largest reward the hand can pay for
    best = max(hand) + wilds  # the most identical Gashas it can give
    found = []
    for index, req in enumerate(reqs):
        if req.identical:
            if req.identical <= best:
                found.append(index)
        elif req.size > most:
            continue
        elif not wilds:
            if all(map(le, req.needs, hand)):
                found.append(index)
        else:
            missing = 0  # named Gashas the hand lacks (a loop: a generator costs more)
            for k, need in req.named:
                if hand[k] < need:
                    missing += need - hand[k]
            if missing <= wilds:
                found.append(index)
    return found


class TradeSets(NamedTuple):
    """``affordable`` without tokens, tabulated once per game so that a hand is checked against
    every reward at once, with a lookup per kind and one sum, instead of reward by reward.

    Each requirement has a field of ``width`` bits in the numbers below, counting its votes: a
    kind holding enough cards gives a reward naming kinds 1 vote, and the hand's size gives it
    1 more when it is large enough; a kind holding enough identical Gashas gives a reward
    asking for them as many votes as there are kinds, plus one. A reward is paid for when it
    has more votes than kinds, which sets the top bit of its field (``bits``) once every field
    starts at ``2 ** (width - 1)`` less that many votes; the fields are wide enough never to
    carry into the next.

    ``kinds[k][n]``: the votes of kind k holding n cards; ``size[n]``: the votes of a hand of
    n cards, plus every field's start; ``bits[i]``: the bit that stands for the i-th
    requirement in a set of rewards; ``mask``: every one of them.
    """

    kinds: tuple[tuple[int, ...], ...]
    size: tuple[int, ...]
    bits: tuple[int, ...]
    mask: int


def trade_sets(reqs: Sequence[Requirement], most: int) -> TradeSets:
    """The ``TradeSets`` of ``reqs`` for hands of at most ``most`` Gasha cards (seed, "Card
    notes"): without tokens, every named Gasha must be matched by a card of its kind and the
    wild slots by any other cards; identical Gashas need that many cards of one kind."""
    counts = range(most + 1)
    kinds = len(reqs[0].needs) if reqs else 0
    needed = kinds + 1  # votes that pay for a reward
    width = (kinds * needed).bit_length() + 1  # the most votes, plus the start, stay below
    shifts = [width * i for i in range(len(reqs))]
    start = sum((1 << (width - 1)) - needed << shift for shift in shifts)

    def votes(vote: Callable[[Requirement, int], int]) -> tuple[int, ...]:
        pairs = list(zip(reqs, shifts, strict=True))
        return tuple(sum(vote(req, n) << shift for req, shift in pairs) for n in counts)

    def kind(k: int) -> Callable[[Requirement, int], int]:
        def vote(req: Requirement, n: int) -> int:
            if req.identical:
                return needed if n >= req.identical else 0
            return 1 if n >= req.needs[k] else 0

        return vote

    bits = tuple(1 << shift + width - 1 for shift in shifts)
    return TradeSets(
        kinds=tuple(votes(kind(k)) for k in range(kinds)),
        size=tuple(start + n for n in votes(lambda req, n: not req.identical and n >= req.size)),
        bits=bits,
        mask=sum(bits),
    )


def affordable_set(sets: TradeSets, hand: Sequence[int]) -> int:
    """The rewards (``sets.bits``) that ``hand`` pays for without tokens: ``affordable`` with
    no tokens (seed, "Trade Gasha cards for a Set Reward card"). A reward naming kinds needs
    enough cards of each kind it names, and enough in all; identical Gashas need enough cards
    of one kind (``TradeSets`` counts these as votes)."""
    return sum(map(getitem, sets.kinds, hand), sets.size[sum(hand)]) & sets.mask


def payment_start(req: Requirement, tokens: int) -> tuple[int, ...]:
    """The cards that go on the reward as soon as a trade starts, per kind.

    Without 2 Wild Gashas! tokens, each named Gasha can only be paid with a card of its kind
    (seed, "Card notes"), so those cards are placed at once and the payment's steps only choose
    the cards for the wild slots. With tokens, whose wilds may stand for named Gashas too
    (clarification two-wild-use), nothing is placed in advance.
    """
    if tokens or req.identical:
        return (0,) * len(req.needs)
    return req.needs


def payment_steps(
    req: Requirement,
    placed: Sequence[int],
    hand: Sequence[int],
    last: int,
    spent: int,
    tokens: int,
    per_token: int,
) -> tuple[list[int], bool]:
    """The next steps of a payment that is not complete yet: the kind indices whose card may
    go on the reward now, and whether a 2 Wild Gashas! token may be spent now.

    After ``payment_start``, cards come first, in the kind order (``last`` is the kind of the
    last card chosen, -1 for none); once a token is spent (``spent`` of them so far) only
    tokens follow. A step is offered only when the payment can still be completed with the
    rest of ``hand`` and the ``tokens`` left (``wilds_short`` after the step, computed here in
    one pass), so every sequence of steps ends in one of the ``reward_payments``, each
    payment reached by exactly one sequence (clarifications trade-payment, two-wild-use).
    """
    kinds: list[int] = []
    first = last if last > 0 else 0
    if spent:
        pass
    elif not tokens and not req.identical:
        # The usual case, counted quickly: no token can help, so ``payment_start`` put every
        # named Gasha on the reward (``placed`` covers ``req.needs``: not checked again), and a
        # card of any kind may fill the next wild slot if the cards of its kind and later ones
        # can fill the slots left (``room`` of them).
        room = req.size - sum(placed)
        if room == 1:  # the last slot: a card of any kind left in hand fills it
            return list(compress(range(first, len(hand)), hand[first:])), False
        left = sum(hand[first:])
        for k in range(first, len(hand)):
            if left < room:
                break
            have = hand[k]
            if have:
                kinds.append(k)
                left -= have
        return kinds, False
    elif req.identical:
        total = sum(placed)
        if total:
            if total in placed:  # all the cards placed are of one kind (else they do not fit)
                kind = placed.index(total)
                room = req.identical - total - 1
                if (
                    kind >= first
                    and hand[kind]
                    and room >= 0
                    and tokens_for(room - min(hand[kind] - 1, room), per_token) <= tokens
                ):
                    kinds.append(kind)
        else:  # a first card of a kind that, with the tokens' wilds, can fill the reward
            least = max(1, req.identical - tokens * max(per_token, 0))
            kinds = [k for k in range(first, len(hand)) if hand[k] >= least]
    else:
        needs = req.needs
        rest: list[int] = []  # named Gashas still open, per kind
        open_named = overflow = 0
        for k, need in enumerate(needs):
            d = need - placed[k]
            if d >= 0:
                rest.append(d)
                open_named += d
            else:
                rest.append(0)
                overflow -= d
        room = req.wild - overflow
        filled = spare = 0  # by cards of the kinds after k: named Gashas filled, cards left
        for k in range(len(hand) - 1, first - 1, -1):
            have, need = hand[k], rest[k]
            if have and (need or room > 0):
                if need:  # the card fills a named Gasha of its kind
                    need2, room2, open2 = need - 1, room, open_named - 1
                else:  # the card fills a wild slot
                    need2, room2, open2 = 0, room - 1, open_named
                have2 = have - 1
                if have2 >= need2:
                    short, left = open2 - filled - need2, spare + have2 - need2
                else:
                    short, left = open2 - filled - have2, spare
                if room2 > left:
                    short += room2 - left
                if tokens_for(short, per_token) <= tokens:
                    kinds.append(k)
            if have >= need:
                filled += need
                spare += have - need
            else:
                filled += have
        kinds.reverse()
    owed = sum(placed) + per_token * spent
    token = tokens > 0 and tokens_for(req.size - owed - per_token, per_token) <= tokens - 1
    return kinds, token


def payment_take(req: Requirement, cards: int, tokens: int) -> int:
    """How many cards of the kind chosen go on the reward with one step, ``cards`` being on it
    already: one, except for a card asking for identical Gashas paid without 2 Wild Gashas!
    tokens, which takes all its cards of the kind of the first (seed, "Card notes";
    clarification identical-any-kind): ``payment_steps`` would offer that kind alone for each
    of them (a first card is offered only when its kind fills the reward)."""
    return req.identical - cards if req.identical and not tokens else 1


def payment_complete(req: Requirement, cards: int, spent: int, per_token: int) -> bool:
    """Whether ``cards`` Gasha cards (that fit) and ``spent`` tokens fill the whole reward."""
    return cards + per_token * spent >= req.size


# --- setup -------------------------------------------------------------------------------------


@RULES.rule
def reward_in_play(game: Gasha, reward: SetRewardCard, players: int) -> bool:
    """Whether ``reward`` is shuffled into the reward deck for ``players`` players.

    Seed, "Setup" 2: with 5 or 6 players, cards with the 5+ symbol are added, and with 6 the
    cards with the 6 symbol too (clarification player-markers).
    """
    return game.reward_in_play(reward, players)


@RULES.rule
def rewards_in_play(game: Gasha, players: int) -> int:
    """How many Set Reward cards are used with ``players`` players (seed, "Setup" 2)."""
    return game.rewards_in_play(players)


@RULES.rule
def bonus_tokens_in_play(game: Gasha, players: int) -> int:
    """How many Bonus tokens are placed face down (seed, "Setup" 3: 5, 6, 8, 10, 12)."""
    return _setup(game, players).bonus_tokens


def token_choice(game: Gasha, options: Sequence[str]) -> str | None:
    """The token choice among a game's switched-on ``options``, if any; at most one may be on,
    since each names every face-down token (clarification token-selection)."""
    chosen = [name for name in options if name in game.token_choices]
    if len(chosen) > 1:
        raise ValueError(f"choose one set of Bonus tokens, not {' and '.join(chosen)}")
    return chosen[0] if chosen else None


def face_down_tokens(
    game: Gasha, shuffled: Sequence[BonusToken], players: int, choice: str | None
) -> tuple[list[BonusToken], list[BonusToken]]:
    """Seed, "Setup" 3: the shuffled tokens split into those set out face down and those left in
    the box. At random, the first ones, as many as the player count sets out; with a token
    choice, the ones it names for the player count, kept in their shuffled order."""
    if choice is None:
        placed = bonus_tokens_in_play(game, players)
        return list(shuffled[:placed]), list(shuffled[placed:])
    wanted = Counter(game.token_choices[choice].tokens[players])
    pool, box = [], []
    for token in shuffled:
        if wanted[token.id]:
            wanted[token.id] -= 1
            pool.append(token)
        else:
            box.append(token)
    return pool, box


@RULES.rule
def gasha_deck_sizes(game: Gasha, players: int) -> list[int]:
    """The sizes of the draw decks after each player is dealt their hand.

    Seed, "Setup" 1: deal the hands, then make roughly equal decks of the rest; dealt one card
    at a time, so the first decks get the extra cards (clarification deck-sizes).
    """
    return game.gasha_deck_sizes(players)


# --- drawing -----------------------------------------------------------------------------------


@RULES.rule
def rebuild_gasha_decks(game: Gasha, sizes: list[int], discard: int) -> dict[str, Any]:
    """How to rebuild empty draw decks, step by step: ``{steps, formed}``.

    Seed, "Draw two Gasha cards": when a deck runs out, cut the biggest remaining deck in half
    to make a new one; if 4 decks cannot be made so, shuffle the discard pile to form new decks;
    no deck's top card may change. Each step is ``{cut: i, to: j}``: deck ``i``, the biggest
    (the first among equals), keeps its top half, rounded up, and its bottom half moves in the
    same order to the empty place ``j`` (clarification deck-split); or ``{deal: [places]}``:
    when no deck has 2 cards, the shuffled discard pile is dealt one card at a time into the
    empty places only, in their order (discard-reshuffle). ``formed`` is False when even that
    cannot give every place a card (decks-unformable), which triggers the end of the game; the
    discard pile is then left alone. Places are counted from 0.
    """
    if min(sizes, default=0) < 0 or discard < 0:
        raise ValueError("deck and discard sizes cannot be negative")
    sizes = list(sizes)
    steps: list[dict[str, Any]] = []
    while 0 in sizes:
        empty = sizes.index(0)
        biggest = max(sizes)
        if biggest >= 2:
            cut = sizes.index(biggest)
            sizes[cut], sizes[empty] = (biggest + 1) // 2, biggest // 2
            steps.append({"cut": cut, "to": empty})
            continue
        empties = [i for i, n in enumerate(sizes) if n == 0]
        if discard < len(empties):
            return {"steps": steps, "formed": False}
        steps.append({"deal": empties})
        for k, i in enumerate(empties):
            sizes[i] = discard // len(empties) + (1 if k < discard % len(empties) else 0)
        discard = 0
    return {"steps": steps, "formed": True}


def rebuild_reads(sizes: Sequence[int], discard: int) -> tuple[Any, ...]:
    """What ``rebuild_gasha_decks`` reads of the deck sizes and the discard pile's size (not
    negative): every two calls with the same reads give the same steps (seed, "Draw two Gasha
    cards"; clarification deck-split). With one empty place and a deck of 2 cards or more,
    that place and the biggest deck (the first among equals): one cut fills it. Otherwise the
    sizes, and the discard pile's size up to the number of places: the rule only compares it
    with the number of empty places."""
    biggest = max(sizes, default=0)
    if biggest >= 2 and sizes.count(0) == 1:
        return sizes.index(0), sizes.index(biggest)
    return tuple(sizes), min(discard, len(sizes))


@RULES.rule
def refill_gasha_decks(game: Gasha, sizes: list[int], discard: int) -> dict[str, Any]:
    """The draw decks after rebuilding: ``{sizes, discard, formed}``.

    The sizes that the steps of ``rebuild_gasha_decks`` leave (seed, "Draw two Gasha cards";
    clarifications deck-split, discard-reshuffle, decks-unformable).
    """
    plan = rebuild_gasha_decks(game, sizes, discard)
    sizes = list(sizes)
    for step in plan["steps"]:
        if "cut" in step:
            cut, to = step["cut"], step["to"]
            sizes[cut], sizes[to] = sizes[cut] - sizes[cut] // 2, sizes[cut] // 2
        else:
            places = step["deal"]
            for k, i in enumerate(places):
                sizes[i] = discard // len(places) + (1 if k < discard % len(places) else 0)
            discard = 0
    return {"sizes": sizes, "discard": discard, "formed": plan["formed"]}


# --- tickets and bonuses -----------------------------------------------------------------------


@RULES.rule
def same_colour(game: Gasha, a: TicketColour, b: TicketColour) -> bool:
    """Whether two ticket halves count as the same colour.

    Seed, "How do I get Bonus tokens?" and "Card notes": a wild half counts as any colour.
    """
    return WILD in (a, b) or a == b


@RULES.rule
def complete_tickets(game: Gasha, rewards: list[SetRewardCard]) -> dict[str, Any]:
    """The tickets a player has completed: ``{tickets: [{pair, extra_gasha}], unpaired}``.

    Seed, "How do I get Bonus tokens?": two Set Rewards with a ticket half each make a ticket,
    worth a Bonus token, plus a Gasha card when the halves share a colour; those two cards
    cannot make another ticket. ``rewards`` are the player's Set Rewards in the order taken:
    each new half pairs at once with the one waiting (clarification ticket-pairing); cards with
    no half never pair.
    """
    halves = [card for card in rewards if card.ticket is not None]
    size = game.tickets.halves
    tickets = []
    for start in range(0, len(halves) - size + 1, size):
        group = halves[start : start + size]
        colours = {card.ticket for card in group} - {WILD}
        tickets.append({"pair": [card.id for card in group], "extra_gasha": len(colours) <= 1})
    paired = len(tickets) * size
    return {"tickets": tickets, "unpaired": [card.id for card in halves[paired:]]}


@RULES.rule
def extra_turns(game: Gasha, token: BonusToken) -> int:
    """How many turns a just-taken token adds right after the current one.

    Seed, "Bonus Token Abilities": One more turn! lets the player play again immediately, also
    once the end of the game is triggered (clarification one-more-turn-timing).
    """
    if token.effect.kind != "extra-turn":
        return 0
    return token.effect.amount


# --- end and scoring ---------------------------------------------------------------------------


@RULES.rule
def end_reasons(
    game: Gasha, tokens_left: int, reward_pile: int, decks_formed: bool
) -> list[EndTrigger]:
    """Which conditions that trigger the end of the game hold (seed, "End of the Game"), in
    the order the game lists them.

    ``tokens_left``: face-down Bonus tokens left; ``reward_pile``: cards left in the face-down
    Set Reward pile (clarification reward-pile-trigger); ``decks_formed``: whether the draw
    decks could all be made (clarification decks-unformable).
    """
    if tokens_left < 0 or reward_pile < 0:
        raise ValueError("counts of tokens and cards cannot be negative")
    if tokens_left and reward_pile and decks_formed:
        return []
    reached = {
        "last-bonus-token": tokens_left == 0,
        "reward-pile-empty": reward_pile == 0,
        "gasha-decks-impossible": not decks_formed,
    }
    return [trigger for trigger in game.end.triggers if reached[trigger]]


@RULES.rule
def end_triggered(game: Gasha, tokens_left: int, reward_pile: int, decks_formed: bool) -> bool:
    """Whether the end of the game is triggered (seed, "End of the Game"): any of
    ``end_reasons`` holds."""
    return bool(end_reasons(game, tokens_left, reward_pile, decks_formed))


@RULES.rule
def last_turns(game: Gasha, trigger_player: int, players: int) -> list[int]:
    """The seats that still play, in order, after ``trigger_player`` triggers the end.

    Seed, "End of the Game": all other players play a last turn, clockwise from the trigger
    player's left (clarification last-turns).
    """
    _setup(game, players)
    if not 0 <= trigger_player < players:
        raise ValueError(f"no seat {trigger_player} with {players} players")
    return [(trigger_player + step) % players for step in range(1, players)]


@RULES.rule
def final_score(
    game: Gasha, rewards: list[SetRewardCard], hand: list[Kind], tokens: list[BonusToken]
) -> int:
    """A player's final score (seed, "Scoring").

    ``tokens`` are the player's Bonus tokens not yet flipped. Set Reward points, plus each
    points token's value, plus one point for each Gasha card in hand and for each wild Gasha of
    an unspent 2 Wild Gashas! token (clarifications unused-wild-token, token-end-values).
    """
    unused = game.scoring.per_unused_gasha
    score = sum(card.points for card in rewards) + unused * len(hand)
    for token in tokens:
        if token.effect.kind == "points":
            score += token.effect.amount
        elif token.effect.kind == "wild-gashas":
            score += unused * token.effect.amount
    return score


@RULES.rule
def winners(game: Gasha, scores: list[int], bonus_tokens: list[int]) -> list[int]:
    """The winning seats: highest score, then most Bonus tokens; still tied, they share.

    Seed, "Scoring"; every token taken counts, flipped or not (clarification tie-break-tokens).
    """
    if not scores or len(scores) != len(bonus_tokens):
        raise ValueError("give one score and one token count per player")
    columns = {"most-points": scores, "most-bonus-tokens": bonus_tokens}
    keys = [tuple(columns[c][seat] for c in game.ranking) for seat in range(len(scores))]
    best = max(keys)
    return [seat for seat, key in enumerate(keys) if key == best]
