"""Rock, Paper, Scissors, Fire: the data loads and checks, and the rule functions hold at their
edges."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gachapress.checks import run_checks
from gachapress.data.load import load_rules
from gachapress.games.rps_fire import rules
from gachapress.games.rps_fire.model import RpsCard, RpsFire

GAME = load_rules("rps-fire")
MODEL: RpsFire = GAME.model  # type: ignore[assignment]
FACES: list[RpsCard] = MODEL.decks.main.cards
CARDS = {card.id: card for card in FACES}
ORDINARY = [card for card in FACES if not card.is_fire_alarm]
ALARMS = [card for card in FACES if card.is_fire_alarm]
DECK = [card for card in FACES for _ in range(card.count)]
PLAYERS = MODEL.player_counts()


def cards(*ids: str) -> list[RpsCard]:
    return [CARDS[i] for i in ids]


def test_every_check_and_example_passes() -> None:
    failing = [p for report in run_checks(GAME) for p in report.problems]
    assert failing == []


def test_deck_makeup() -> None:
    assert MODEL.decks.main.size() == 57 and len(FACES) == 27
    assert len({card.id for card in FACES}) == len(FACES)
    for kind in ("rock", "paper", "scissors"):
        faces = [c for c in ORDINARY if c.type == kind]
        assert sorted(c.value for c in faces) == list(range(8))
        assert all(c.count == 2 and c.id == f"{kind}-{c.value}" for c in faces)
    assert Counter(c.direction for c in DECK if c.is_fire_alarm) == {
        "left": 3,
        "right": 3,
        "both": 3,
    }


def test_seed_numbers_reach_the_model() -> None:
    assert MODEL.rounds == 3
    assert (MODEL.values.min, MODEL.values.max) == (0, 7)
    assert MODEL.scoring.fire_alarm_multiplier == 2
    assert MODEL.scoring.only_fire_alarms_each == 10
    assert MODEL.scoring.went_out == 0
    assert (MODEL.fire_alarm.draw, MODEL.fire_alarm.give) == (2, 2)
    assert PLAYERS == [2, 3, 4, 5, 6]
    assert MODEL.type_beats == {"rock": "scissors", "scissors": "paper", "paper": "rock"}


@pytest.mark.parametrize("players", PLAYERS)
def test_every_count_leaves_a_deck_to_draw_from(players: int) -> None:
    left = len(DECK) - players * rules.hand_size(MODEL, players) - MODEL.pile_start.cards
    assert left >= 20


@pytest.mark.parametrize("players", [0, 1, 7, 12])
def test_unsupported_player_counts_are_refused(players: int) -> None:
    with pytest.raises(ValueError):
        rules.hand_size(MODEL, players)
    with pytest.raises(ValueError):
        rules.alarm_takes(MODEL, "left", players)


# --- beats -----------------------------------------------------------------------------------


@given(st.sampled_from(ORDINARY), st.sampled_from(ORDINARY))
def test_ordinary_cards_tie_or_exactly_one_beats(a: RpsCard, b: RpsCard) -> None:
    tie = a.type == b.type and a.value == b.value
    outcomes = [rules.beats(MODEL, a, b), rules.beats(MODEL, b, a)]
    assert outcomes == [False, False] if tie else sorted(outcomes) == [False, True]


@given(st.sampled_from(ORDINARY), st.sampled_from(ORDINARY))
def test_value_matters_only_within_a_type(a: RpsCard, b: RpsCard) -> None:
    if a.type != b.type:
        same_types = [c for c in ORDINARY if c.type == a.type]
        verdicts = {rules.beats(MODEL, c, b) for c in same_types}
        assert verdicts == {rules.beats(MODEL, a, b)}


@given(st.sampled_from(ALARMS), st.sampled_from(FACES))
def test_alarms_beat_everything_and_anything_follows_them(alarm: RpsCard, card: RpsCard) -> None:
    assert rules.beats(MODEL, alarm, card)
    assert rules.beats(MODEL, card, alarm)


def test_every_ordinary_card_beats_a_third_of_the_types_at_least() -> None:
    for card in ORDINARY:
        victims = {c.type for c in ORDINARY if rules.beats(MODEL, card, c)}
        assert MODEL.type_beats[card.type] in victims  # type: ignore[index]


# --- plays -----------------------------------------------------------------------------------


def test_legal_play_edges() -> None:
    top = CARDS["rock-4"]
    assert not rules.legal_play(MODEL, [], top)
    assert not rules.legal_play(MODEL, [], top, open_pile=True)
    assert rules.legal_play(MODEL, cards("rock-5", "rock-5"), top)
    assert not rules.legal_play(MODEL, cards("rock-5", "rock-6"), top)
    assert rules.legal_play(MODEL, cards("rock-0"), top, open_pile=True)
    assert not rules.legal_play(MODEL, cards("rock-0", "paper-0"), top, open_pile=True)


@given(st.sampled_from(FACES), st.integers(1, 3), st.sampled_from(FACES), st.booleans())
def test_copies_play_like_one_card(card: RpsCard, n: int, top: RpsCard, open_pile: bool) -> None:
    single = rules.legal_play(MODEL, [card], top, open_pile)
    assert rules.legal_play(MODEL, [card] * n, top, open_pile) == single


@given(st.lists(st.sampled_from(DECK), max_size=12), st.sampled_from(FACES))
def test_playable_faces_are_exactly_the_beating_faces_in_hand(
    hand: list[RpsCard], top: RpsCard
) -> None:
    faces = rules.playable(MODEL, hand, top)
    assert len(faces) == len(set(faces))
    assert set(faces) == {c.id for c in hand if rules.beats(MODEL, c, top)}
    assert rules.has_legal_play(MODEL, hand, top) == bool(faces)
    assert rules.playable(MODEL, hand, top, open_pile=True) == list(
        dict.fromkeys(c.id for c in hand)
    )


def test_empty_hand_has_nothing_to_play() -> None:
    assert rules.playable(MODEL, [], CARDS["rock-0"], open_pile=True) == []
    assert not rules.has_legal_play(MODEL, [], CARDS["fire-alarm-both"])


# --- scoring ---------------------------------------------------------------------------------


def test_round_score_edges() -> None:
    assert rules.round_score(MODEL, []) == 0
    assert rules.round_score(MODEL, cards("rock-0")) == 0
    assert rules.round_score(MODEL, cards("fire-alarm-left")) == 10
    assert rules.round_score(MODEL, cards("rock-0", "fire-alarm-left")) == 10
    assert rules.round_score(MODEL, cards("rock-7", "fire-alarm-left", "fire-alarm-right")) == 34
    assert rules.round_score(MODEL, DECK) == 2 * sum(c.value for c in DECK)


@given(st.lists(st.sampled_from(DECK), max_size=10), st.sampled_from(FACES))
def test_adding_a_card_never_lowers_a_score(hand: list[RpsCard], extra: RpsCard) -> None:
    assert rules.round_score(MODEL, [*hand, extra]) >= rules.round_score(MODEL, hand) >= 0


@given(st.lists(st.sampled_from(DECK), max_size=10))
def test_score_is_order_free_and_matches_the_seed_wording(hand: list[RpsCard]) -> None:
    score = rules.round_score(MODEL, hand)
    assert rules.round_score(MODEL, list(reversed(hand))) == score
    alarms = [c for c in hand if c.is_fire_alarm]
    if not alarms:
        assert score == sum(c.value for c in hand)
    elif len(alarms) == len(hand):
        assert score == 10 * len(hand)
    else:
        assert score == 2 * sum(c.value for c in hand)


def test_round_scores_refuses_impossible_tables() -> None:
    with pytest.raises(ValueError):
        rules.round_scores(MODEL, [["rock-1"], []], 0)  # the player out still holds a card
    with pytest.raises(ValueError):
        rules.round_scores(MODEL, [[], []], 2)
    with pytest.raises(ValueError):
        rules.round_scores(MODEL, [[], ["lizard-3"]], 0)
    assert rules.round_scores(MODEL, [[], ["fire-alarm-both"]], 0) == [0, 10]


# --- fire alarms -----------------------------------------------------------------------------


@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("direction", ["left", "right", "both"])
def test_every_player_takes_and_gives_as_often_as_the_alarm_says(
    direction: str, players: int
) -> None:
    pairs = rules.alarm_takes(MODEL, direction, players)  # type: ignore[arg-type]
    per_player = 2 if direction == "both" else 1
    takers = Counter(t for t, _ in pairs)
    givers = Counter(g for _, g in pairs)
    assert takers == givers == dict.fromkeys(range(players), per_player)
    assert all(t != g for t, g in pairs)
    assert all((g - t) % players in (1, players - 1) for t, g in pairs)


@pytest.mark.parametrize("players", PLAYERS)
def test_left_and_right_mirror_each_other(players: int) -> None:
    left = rules.alarm_takes(MODEL, "left", players)
    right = rules.alarm_takes(MODEL, "right", players)
    assert sorted([g, t] for t, g in left) == sorted(right)
    assert all(g == (t + 1) % players for t, g in left)


def test_give_away_edges() -> None:
    assert rules.give_away_legal(MODEL, 2, [0, 0], 3, 2)
    assert rules.give_away_legal(MODEL, 2, [1, 0], 3, 9)
    assert not rules.give_away_legal(MODEL, 2, [1, 0, 1], 3, 9)
    assert not rules.give_away_legal(MODEL, 2, [-1, 0], 3, 9)
    assert not rules.give_away_legal(MODEL, 2, [], 3, 1)
    assert rules.give_away_legal(MODEL, 2, [], 3, 0)
    with pytest.raises(ValueError):
        rules.give_away_legal(MODEL, 3, [0, 1], 3, 2)
    with pytest.raises(ValueError):
        rules.give_away_legal(MODEL, 0, [1, 1], 2, -1)


@given(st.integers(0, 60), st.integers(0, 60))
def test_drawable_never_counts_the_top_card(deck: int, pile: int) -> None:
    assert rules.drawable(MODEL, deck, pile) == deck + max(pile - 1, 0)
    assert rules.drawable(MODEL, deck, pile) >= deck


def test_drawable_refuses_negative_piles() -> None:
    with pytest.raises(ValueError):
        rules.drawable(MODEL, -1, 3)
    with pytest.raises(ValueError):
        rules.drawable(MODEL, 3, -1)


# --- rounds and the winner -------------------------------------------------------------------


@given(
    st.integers(2, 6).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 120), min_size=n, max_size=n), st.integers(0, n - 1)
        )
    ),
    st.integers(2, 3),
)
def test_later_starter_has_the_most_points(table: tuple[list[int], int], round_number: int) -> None:
    totals, previous = table
    seat = rules.round_starter(MODEL, round_number, totals, previous)
    players = len(totals)
    order = [(previous + k) % players for k in range(1, players + 1)]
    assert seat == next(s for s in order if totals[s] == max(totals))


def test_round_starter_refuses_impossible_rounds() -> None:
    assert rules.round_starter(MODEL, 1, [30, 0, 0]) == 0
    with pytest.raises(ValueError):
        rules.round_starter(MODEL, 0, [0, 0])
    with pytest.raises(ValueError):
        rules.round_starter(MODEL, MODEL.rounds + 1, [0, 0], 0)
    with pytest.raises(ValueError):
        rules.round_starter(MODEL, 2, [5, 0])  # who started round 1?
    with pytest.raises(ValueError):
        rules.round_starter(MODEL, 2, [5, 0], 2)


@given(
    st.integers(2, 6).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 150), min_size=n, max_size=n),
            st.lists(st.integers(0, 3), min_size=n, max_size=n),
        )
    )
)
def test_winners_have_fewest_points_then_most_rounds_out(
    table: tuple[list[int], list[int]],
) -> None:
    totals, outs = table
    winners = rules.game_winners(MODEL, totals, outs)
    assert winners and winners == sorted(winners)
    assert all(totals[w] == min(totals) for w in winners)
    tied = [s for s in range(len(totals)) if totals[s] == min(totals)]
    assert all(outs[w] == max(outs[s] for s in tied) for w in winners)


def test_winners_refuse_mismatched_tables() -> None:
    with pytest.raises(ValueError):
        rules.game_winners(MODEL, [1, 2, 3], [1, 2])
    with pytest.raises(ValueError):
        rules.game_winners(MODEL, [4], [3])
