"""Gasha: the data loads and checks, and the rule functions hold at their edges."""

from __future__ import annotations

from collections import Counter
from itertools import product
from typing import get_args

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gachapress.checks import run_checks
from gachapress.data.load import load_rules
from gachapress.games.gasha import rules
from gachapress.games.gasha.model import BonusToken, Gasha, Kind, SetRewardCard

GAME = load_rules("gasha")
MODEL: Gasha = GAME.model  # type: ignore[assignment]
CARDS = MODEL.cards()
REWARDS: list[SetRewardCard] = MODEL.decks.set_rewards.cards
KINDS: list[Kind] = list(get_args(Kind))
WILD_PER_TOKEN = 2


def reward(card_id: str) -> SetRewardCard:
    card = CARDS[card_id]
    assert isinstance(card, SetRewardCard)
    return card


def token(card_id: str) -> BonusToken:
    card = CARDS[card_id]
    assert isinstance(card, BonusToken)
    return card


def test_every_check_and_example_passes() -> None:
    failing = [p for report in run_checks(GAME) for p in report.problems]
    assert failing == []


def test_seed_numbers_reach_the_model() -> None:
    gasha = MODEL.decks.gasha
    assert gasha.size() == 75
    assert Counter({c.kind: c.count for c in gasha.cards}) == Counter(dict.fromkeys(KINDS, 15))
    assert MODEL.decks.set_rewards.size() == 35
    assert MODEL.decks.bonus_tokens.size() == 15
    assert {n: row.bonus_tokens for n, row in MODEL.setup.items()} == {
        2: 5,
        3: 6,
        4: 8,
        5: 10,
        6: 12,
    }
    for row in MODEL.setup.values():
        assert (row.hand, row.gasha_decks, row.reward_row) == (4, 4, 4)
    assert MODEL.turn.draw == 2 and MODEL.tickets.halves == 2
    assert MODEL.modes["standard"].players == [2, 3, 4, 5, 6]


def test_reward_design_totals() -> None:
    assert [rules.rewards_in_play(MODEL, n) for n in (2, 3, 4, 5, 6)] == [25, 25, 25, 30, 35]
    marked = Counter(card.marker for card in REWARDS for _ in range(card.count))
    assert marked == {None: 25, "5+": 5, "6": 5}
    effects = Counter(t.effect.kind for t in MODEL.decks.bonus_tokens.cards for _ in range(t.count))
    assert effects == {"extra-turn": 5, "wild-gashas": 5, "points": 5}
    for card in REWARDS:
        assert (card.ticket is None) == (card.identical is not None), card.id
        assert 3 <= card.size() <= 6, card.id
        assert card.points > card.size(), f"{card.id}: a trade must beat keeping the cards"


def test_wild_halves_sit_on_slow_cards_and_triple_pull_is_single() -> None:
    # Clarifications ticket-colours and reward-card-list (simulated completion times).
    wild = {card.id: card.size() for card in REWARDS if card.ticket == "wild"}
    assert min(wild.values()) >= 5 and "reward-mg-ki-ro-ra-su" not in wild
    assert reward("reward-mg-ki-ro-ra-su").ticket != "wild"
    assert [c.count for c in REWARDS if c.identical == 3] == [1]


def test_every_kind_is_asked_for_equally_often() -> None:
    # Clarification reward-card-list: the named Gashas of all the rewards, kind by kind.
    asked = Counter()
    for card in REWARDS:
        for kind, n in card.needs.items():
            asked[kind] += n * card.count
    assert set(asked) == set(KINDS) and len(set(asked.values())) == 1, asked


def test_every_reward_is_payable_from_the_deck() -> None:
    for card in REWARDS:
        kind_for_identical = KINDS[0]
        hand = [k for k, n in card.needs.items() for _ in range(n)] + [KINDS[0]] * card.wild
        if card.identical is not None:
            hand = [kind_for_identical] * card.identical
        assert rules.reward_satisfied(MODEL, card, hand, 0), card.id
        assert all(n <= 15 for n in Counter(hand).values())


# --- trading -----------------------------------------------------------------------------------


def reference_satisfied(card: SetRewardCard, hand: list[Kind], tokens: int) -> bool:
    """An independent statement of the trade rule, for comparison."""
    wilds = WILD_PER_TOKEN * tokens
    have = Counter(hand)
    if card.identical is not None:
        return max(have.values(), default=0) + wilds >= card.identical
    deficit = sum(max(0, n - have[k]) for k, n in card.needs.items())
    return deficit <= wilds and len(hand) + wilds >= card.size()


hands = st.lists(st.sampled_from(KINDS), max_size=10)
cards = st.sampled_from(REWARDS)
token_counts = st.integers(0, 3)


@given(cards, hands, token_counts)
def test_reward_satisfied_matches_the_reference(
    card: SetRewardCard, hand: list[Kind], tokens: int
) -> None:
    assert rules.reward_satisfied(MODEL, card, hand, tokens) == reference_satisfied(
        card, hand, tokens
    )


@given(cards, hands, token_counts, st.sampled_from(KINDS))
def test_more_cards_or_tokens_never_hurt(
    card: SetRewardCard, hand: list[Kind], tokens: int, extra: Kind
) -> None:
    if rules.reward_satisfied(MODEL, card, hand, tokens):
        assert rules.reward_satisfied(MODEL, card, [*hand, extra], tokens)
        assert rules.reward_satisfied(MODEL, card, hand, tokens + 1)


@given(cards, hands, token_counts)
def test_every_payment_is_legal_and_minimal(
    card: SetRewardCard, hand: list[Kind], tokens: int
) -> None:
    payments = rules.reward_payments(MODEL, card, hand, tokens)
    seen = set()
    for paid, spent in payments:
        assert not Counter(paid) - Counter(hand), "pays with cards not in hand"
        assert rules.fits(card, paid)
        assert 0 <= spent <= tokens
        assert len(paid) + WILD_PER_TOKEN * spent >= card.size()
        assert spent == 0 or len(paid) + WILD_PER_TOKEN * (spent - 1) < card.size()
        seen.add((tuple(paid), spent))
    assert len(seen) == len(payments)
    assert bool(payments) == rules.reward_satisfied(MODEL, card, hand, tokens)


def test_trade_edges() -> None:
    same3 = reward("reward-same-3")
    assert not rules.reward_satisfied(MODEL, same3, [], 0)
    assert not rules.reward_satisfied(MODEL, same3, [], 1)
    assert rules.reward_satisfied(MODEL, same3, [], 2)  # four wilds, one of them wasted
    assert rules.reward_payments(MODEL, same3, ["sushi"], 1) == [[["sushi"], 1]]
    five = reward("reward-mg-ki-ro-ra-su")
    assert not rules.reward_satisfied(MODEL, five, ["magical-girl"] * 5, 0)
    assert rules.reward_satisfied(MODEL, five, KINDS, 0)
    with pytest.raises(ValueError):
        rules.reward_payments(MODEL, same3, ["robot"] * 3, -1)


def test_payment_keeps_unneeded_cards() -> None:
    card = reward("reward-2mg-ro-w")
    hand: list[Kind] = ["magical-girl", "magical-girl", "robot", "robot", "sushi"]
    payments = rules.reward_payments(MODEL, card, hand, 0)
    assert payments == [
        [["magical-girl", "magical-girl", "robot", "robot"], 0],
        [["magical-girl", "magical-girl", "robot", "sushi"], 0],
    ]


# --- setup and decks ---------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deck_sizes_add_up(players: int) -> None:
    sizes = rules.gasha_deck_sizes(MODEL, players)
    assert len(sizes) == 4 and sum(sizes) == 75 - 4 * players
    assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)


@pytest.mark.parametrize("players", [0, 1, 7])
def test_unsupported_player_counts_are_refused(players: int) -> None:
    for rule in (rules.gasha_deck_sizes, rules.bonus_tokens_in_play, rules.rewards_in_play):
        with pytest.raises(ValueError):
            rule(MODEL, players)


def _walk_takes(
    req: rules.Requirement, placed: list[int], hand: list[int], last: int, tokens: int
) -> int:
    """Follow every sequence of payment steps made with ``rules.payment_take`` cards each;
    check that each card but the first is what ``payment_steps`` alone would offer. The
    steps that placed more than one card."""
    if rules.payment_complete(req, sum(placed), 0, PER_TOKEN):
        return 0
    kinds, _ = rules.payment_steps(req, placed, hand, last, 0, tokens, PER_TOKEN)
    several = 0
    for k in kinds:
        more, less = list(placed), list(hand)
        take = rules.payment_take(req, sum(placed), tokens)
        for i in range(take):
            if i:
                steps = rules.payment_steps(req, more, less, k, 0, tokens, PER_TOKEN)
                assert steps == ([k], False), "a card taken that was not the only step"
            more[k] += 1
            less[k] -= 1
        several += (take > 1) + _walk_takes(req, more, less, k, tokens)
    return several


@given(cards, hands, token_counts)
def test_a_step_takes_only_cards_that_are_the_only_step(
    card: SetRewardCard, hand: list[Kind], tokens: int
) -> None:
    """The engine places ``payment_take`` cards with one step (GashaState._place_card): every
    card after the first must be the only step ``payment_steps`` offers, and an
    identical-Gashas reward paid without tokens takes all its cards with its first step."""
    req = rules.requirement(MODEL, card)
    counts = list(rules.kind_counts(MODEL, hand))
    if not rules.reward_satisfied(MODEL, card, hand, tokens):
        return
    start = list(rules.payment_start(req, tokens))
    rest = [h - s for h, s in zip(counts, start, strict=True)]
    several = _walk_takes(req, start, rest, -1, tokens)
    assert several == (
        0
        if tokens or not req.identical
        else len(rules.payment_steps(req, start, rest, -1, 0, tokens, PER_TOKEN)[0])
    )


@given(st.lists(st.integers(0, 20), min_size=4, max_size=4), st.integers(0, 40))
def test_refill_keeps_cards_and_top_cards(sizes: list[int], discard: int) -> None:
    result = rules.refill_gasha_decks(MODEL, sizes, discard)
    after = result["sizes"]
    assert sum(after) + result["discard"] == sum(sizes) + discard
    assert all(a >= 1 for s, a in zip(sizes, after, strict=True) if s >= 1)
    if result["formed"]:
        assert all(a >= 1 for a in after)
        if 0 not in sizes:
            assert after == sizes and result["discard"] == discard
    else:
        assert 0 in after and max(after) <= 1 and result["discard"] < after.count(0)


def test_refill_edges() -> None:
    assert rules.refill_gasha_decks(MODEL, [0, 0, 0, 0], 0) == {
        "sizes": [0, 0, 0, 0],
        "discard": 0,
        "formed": False,
    }
    assert rules.refill_gasha_decks(MODEL, [0, 0, 0, 0], 4)["sizes"] == [1, 1, 1, 1]
    assert rules.refill_gasha_decks(MODEL, [0, 0, 0, 2], 0) == {
        "sizes": [1, 0, 0, 1],
        "discard": 0,
        "formed": False,
    }
    with pytest.raises(ValueError):
        rules.refill_gasha_decks(MODEL, [-1, 3, 3, 3], 0)


# --- tickets, tokens, end ----------------------------------------------------------------------


@given(st.lists(cards, max_size=12))
def test_tickets_pair_every_two_halves(taken: list[SetRewardCard]) -> None:
    result = rules.complete_tickets(MODEL, taken)
    halves = [c.id for c in taken if c.ticket is not None]
    assert len(result["tickets"]) == len(halves) // 2
    assert len(result["unpaired"]) == len(halves) % 2
    flat = [i for t in result["tickets"] for i in t["pair"]] + result["unpaired"]
    assert flat == halves
    for t in result["tickets"]:
        a, b = (reward(i).ticket for i in t["pair"])
        assert t["extra_gasha"] == (a == b or "wild" in (a, b))


def test_same_colour_is_symmetric_and_wild_matches_all() -> None:
    colours = [c.id for c in MODEL.ticket_colours]
    for a in colours:
        assert rules.same_colour(MODEL, a, "wild")
        for b in colours:
            assert rules.same_colour(MODEL, a, b) == rules.same_colour(MODEL, b, a)
    assert rules.same_colour(MODEL, "wild", "wild")


def test_extra_turns() -> None:
    again = token("bonus-one-more-turn")
    assert rules.extra_turns(MODEL, again) == 1
    assert rules.extra_turns(MODEL, token("bonus-two-wild-gashas")) == 0
    assert rules.extra_turns(MODEL, token("bonus-three-points")) == 0


def test_end_triggers() -> None:
    assert not rules.end_triggered(MODEL, 1, 1, True)
    assert rules.end_triggered(MODEL, 0, 0, False)
    with pytest.raises(ValueError):
        rules.end_triggered(MODEL, -1, 3, True)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_last_turns_give_everyone_else_one_turn(players: int) -> None:
    for seat in range(players):
        order = rules.last_turns(MODEL, seat, players)
        assert sorted(order) == sorted(set(range(players)) - {seat})
        assert order[0] == (seat + 1) % players
    with pytest.raises(ValueError):
        rules.last_turns(MODEL, players, players)


# --- scoring -----------------------------------------------------------------------------------


@given(
    st.lists(cards, max_size=8),
    hands,
    st.lists(st.sampled_from(MODEL.decks.bonus_tokens.cards), max_size=6),
)
def test_final_score_adds_up(
    taken: list[SetRewardCard], hand: list[Kind], held: list[BonusToken]
) -> None:
    expected = sum(c.points for c in taken) + len(hand)
    expected += sum(3 for t in held if t.id == "bonus-three-points")
    expected += sum(2 for t in held if t.id == "bonus-two-wild-gashas")
    assert rules.final_score(MODEL, taken, hand, held) == expected


@given(st.lists(st.tuples(st.integers(0, 60), st.integers(0, 12)), min_size=1, max_size=6))
def test_winners_have_the_best_score_then_most_tokens(rows: list[tuple[int, int]]) -> None:
    scores = [s for s, _ in rows]
    tokens = [t for _, t in rows]
    won = rules.winners(MODEL, scores, tokens)
    assert won and all(scores[w] == max(scores) for w in won)
    best_tokens = max(tokens[s] for s in range(len(rows)) if scores[s] == max(scores))
    assert won == [
        s for s in range(len(rows)) if (scores[s], tokens[s]) == (max(scores), best_tokens)
    ]


def test_winners_refuse_bad_input() -> None:
    with pytest.raises(ValueError):
        rules.winners(MODEL, [], [])
    with pytest.raises(ValueError):
        rules.winners(MODEL, [3, 4], [1])


# --- the counted trade rules the engine runs on --------------------------------------------------

PER_TOKEN = rules.wild_gashas_per_token(MODEL)


def _walk(
    req: rules.Requirement,
    placed: list[int],
    hand: list[int],
    last: int,
    spent: int,
    tokens: int,
    out: list[tuple[tuple[int, ...], int]],
) -> None:
    """Follow every sequence of payment steps; record where each one ends."""
    if rules.payment_complete(req, sum(placed), spent, PER_TOKEN):
        out.append((tuple(k for k, n in enumerate(placed) for _ in range(n)), spent))
        return
    kinds, token = rules.payment_steps(req, placed, hand, last, spent, tokens, PER_TOKEN)
    assert kinds or token, "a payment step that leads nowhere"
    for k in kinds:
        assert hand[k] > 0 and k >= last
        more, less = list(placed), list(hand)
        more[k] += 1
        less[k] -= 1
        _walk(req, more, less, k, spent, tokens, out)
    if token:
        _walk(req, placed, hand, last, spent + 1, tokens - 1, out)


@given(cards, hands, token_counts)
def test_payment_steps_reach_every_payment_once(
    card: SetRewardCard, hand: list[Kind], tokens: int
) -> None:
    req = rules.requirement(MODEL, card)
    counts = list(rules.kind_counts(MODEL, hand))
    satisfied = rules.reward_satisfied(MODEL, card, hand, tokens)
    assert (rules.affordable([req], counts, tokens, PER_TOKEN) == [0]) == satisfied
    short = rules.wild_gashas_missing(MODEL, card, hand)
    assert rules.trade_short(req, counts, len(hand)) == short
    assert satisfied == (rules.tokens_for(short, PER_TOKEN) <= tokens)
    if not satisfied:
        return
    start = list(rules.payment_start(req, tokens))
    out: list[tuple[tuple[int, ...], int]] = []
    _walk(req, start, [h - s for h, s in zip(counts, start, strict=True)], -1, 0, tokens, out)
    order = {kind: i for i, kind in enumerate(rules.kinds_in_order(MODEL))}
    expected = [
        (tuple(order[k] for k in paid), spent)
        for paid, spent in rules.reward_payments(MODEL, card, hand, tokens)
    ]
    assert sorted(out) == sorted(expected) and len(set(out)) == len(out)


@given(st.lists(st.integers(0, 20), min_size=4, max_size=4), st.integers(0, 40))
def test_rebuild_steps_explain_the_refill(sizes: list[int], discard: int) -> None:
    plan = rules.rebuild_gasha_decks(MODEL, sizes, discard)
    result = rules.refill_gasha_decks(MODEL, sizes, discard)
    assert plan["formed"] == result["formed"]
    cuts = [s for s in plan["steps"] if "cut" in s]
    deals = [s for s in plan["steps"] if "deal" in s]
    assert len(deals) <= 1 and plan["steps"][: len(cuts)] == cuts  # cuts first, one deal last
    for step in cuts:
        assert sizes[step["to"]] == 0 or step["to"] in [c["cut"] for c in cuts]
    if deals:
        assert result["discard"] == 0 and all(result["sizes"][i] for i in deals[0]["deal"])
    if 0 not in sizes:
        assert plan == {"steps": [], "formed": True}


def test_end_reasons_list_every_trigger_reached() -> None:
    assert rules.end_reasons(MODEL, 2, 5, True) == []
    assert rules.end_reasons(MODEL, 0, 0, False) == [
        "last-bonus-token",
        "reward-pile-empty",
        "gasha-decks-impossible",
    ]
    assert rules.end_reasons(MODEL, 1, 3, False) == ["gasha-decks-impossible"]
    with pytest.raises(ValueError):
        rules.end_reasons(MODEL, 1, -1, True)


TRADE_SETS = rules.trade_sets(
    [rules.requirement(MODEL, card) for card in REWARDS], MODEL.decks.gasha.size()
)


@given(hands)
def test_trade_sets_find_the_rewards_a_hand_pays_for_without_tokens(hand: list[Kind]) -> None:
    counts = list(rules.kind_counts(MODEL, hand))
    found = rules.affordable_set(TRADE_SETS, counts)
    expected = [rules.reward_satisfied(MODEL, card, hand, 0) for card in REWARDS]
    assert [bool(found & bit) for bit in TRADE_SETS.bits] == expected


def test_trade_sets_agree_with_affordable_for_every_hand_of_up_to_seven_of_each_kind() -> None:
    """Every hand of 0 to 7 cards of each kind (past 6, no requirement asks for more): the
    sets' votes never carry from one reward's field into the next."""
    reqs = [rules.requirement(MODEL, card) for card in REWARDS]
    assert max(max(r.needs) for r in reqs) <= 6 and max(r.identical for r in reqs) <= 6
    for counts in product(range(8), repeat=5):
        found = rules.affordable_set(TRADE_SETS, counts)
        expected = rules.affordable(reqs, counts, 0, PER_TOKEN)
        assert [i for i, bit in enumerate(TRADE_SETS.bits) if found & bit] == expected


def test_trade_sets_cover_a_hand_of_every_card() -> None:
    every = [kind for card in MODEL.decks.gasha.cards for kind in [card.kind] * card.count]
    counts = list(rules.kind_counts(MODEL, every))
    assert rules.affordable_set(TRADE_SETS, counts) == TRADE_SETS.mask
