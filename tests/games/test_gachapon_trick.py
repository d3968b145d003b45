"""Gachapon Trick: the data loads and checks, and the rule functions hold at their edges."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gachapress.checks import run_checks
from gachapress.data.load import load_rules
from gachapress.games.gachapon_trick import rules
from gachapress.games.gachapon_trick.model import GachaponTrick, ToyCard

GAME = load_rules("gachapon-trick")
MODEL: GachaponTrick = GAME.model  # type: ignore[assignment]
TOYS: list[ToyCard] = MODEL.decks.toys.faces()
CARDS = MODEL.cards()


def cards(*ids: str) -> list[ToyCard]:
    return [CARDS[i] for i in ids]  # type: ignore[misc]


def test_every_check_and_example_passes() -> None:
    failing = [p for report in run_checks(GAME) for p in report.problems]
    assert failing == []


def test_deck_is_the_declared_latin_square() -> None:
    assert len(TOYS) == 49 and MODEL.decks.refund.size() == 1
    assert len({card.id for card in TOYS}) == 49
    for key in ("color", "cost"):
        for value, group in _group(TOYS, key).items():
            assert sorted(c.toy for c in group) == sorted(t.id for t in MODEL.decks.toys.toys), (
                value
            )
    assert {c.cost for c in TOYS} == {200, 300, 400, 500, 600, 700, 800}


def _group(items: list[ToyCard], key: str) -> dict[object, list[ToyCard]]:
    groups: dict[object, list[ToyCard]] = {}
    for item in items:
        groups.setdefault(getattr(item, key), []).append(item)
    return groups


def test_seed_numbers_reach_the_model() -> None:
    assert MODEL.setup[3].hand == 12 and MODEL.setup[4].hand == 10
    assert MODEL.setup[2].money == 8000 and MODEL.setup[4].money == 5000
    assert MODEL.scoring.set_points == [1, 4, 9, 16, 25, 36, 49]
    assert MODEL.rounds == 3 and MODEL.purchase.top_of_deck_price == 500


def test_empty_trick_has_no_winner() -> None:
    with pytest.raises(ValueError):
        rules.trick_winner(MODEL, [])


def test_set_points_refuses_impossible_sets() -> None:
    with pytest.raises(ValueError):
        rules.set_points(MODEL, 8)
    with pytest.raises(ValueError):
        rules.set_points(MODEL, -1)


def test_money_points_boundaries() -> None:
    assert rules.money_points(MODEL, 0, False) == 0
    assert rules.money_points(MODEL, 199, False) == 0
    assert rules.money_points(MODEL, 200, False) == 1
    assert rules.money_points(MODEL, 0, True) == 5


trick = st.lists(st.sampled_from(TOYS), min_size=1, max_size=4, unique=True)


@given(trick)
def test_winner_is_of_a_most_played_suit_and_highest_there(plays: list[ToyCard]) -> None:
    winner = plays[rules.trick_winner(MODEL, plays)]
    counts = Counter(card.color for card in plays)
    assert counts[winner.color] == max(counts.values())
    tied = [c for c in plays if counts[c.color] == max(counts.values())]
    assert winner.cost == max(c.cost for c in tied)


@given(trick)
def test_win_order_is_a_permutation_starting_with_the_winner(plays: list[ToyCard]) -> None:
    order = rules.win_order(MODEL, plays)
    assert sorted(order) == list(range(len(plays)))
    assert order[0] == rules.trick_winner(MODEL, plays)


@given(
    st.lists(st.sampled_from(TOYS), max_size=10, unique=True),
    st.lists(st.sampled_from(TOYS), max_size=3, unique=True),
)
def test_legal_plays_follow_a_played_suit_when_possible(
    hand: list[ToyCard], played: list[ToyCard]
) -> None:
    legal = rules.legal_plays(MODEL, hand, played)
    suits = {c.color for c in played}
    can_follow = any(c.color in suits for c in hand)
    assert set(legal) <= {c.id for c in hand}
    if can_follow:
        assert all(CARDS[i].color in suits for i in legal)  # type: ignore[attr-defined]
    else:
        assert legal == [c.id for c in hand]


@given(
    st.lists(st.integers(0, 100), min_size=2, max_size=4),
    st.lists(st.integers(0, 80).map(lambda n: n * 100), min_size=4, max_size=4),
)
def test_winners_have_the_best_points_then_money(points: list[int], money: list[int]) -> None:
    money = money[: len(points)]
    winners = rules.game_winners(MODEL, points, money)
    best = max(points)
    assert all(points[w] == best for w in winners)
    assert len({money[w] for w in winners}) == 1
    assert money[winners[0]] == max(money[s] for s in range(len(points)) if points[s] == best)
