"""GOTCHA!: the data loads and checks, and the rule functions hold at their edges."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gachapress.checks import run_checks
from gachapress.data.load import load_rules
from gachapress.data.model import Card
from gachapress.games.gotcha import rules
from gachapress.games.gotcha.model import GachaCard, Gotcha, ITunedCard, NoticeCard
from gachapress.render.faces import game_faces
from gachapress.render.layout import TextLine
from gachapress.render.metrics import Measure
from gachapress.render.presets import load_presets
from tests.conftest import ROOT, TEMPLATES

GAME = load_rules("gotcha")
MODEL: Gotcha = GAME.model  # type: ignore[assignment]
CARDS = MODEL.cards()
GACHA: list[GachaCard] = MODEL.decks.gacha.cards
ITUNED: list[ITunedCard] = MODEL.decks.ituned.cards
NOTICES: list[NoticeCard] = MODEL.decks.notices.cards
HAND_CARDS: list[Card] = [*ITUNED, *NOTICES]
ORDER_NOTICES = [n for n in NOTICES if n.effect.kind == "order"]
RATE_NOTICES = [n for n in NOTICES if n.effect.kind == "rate"]


def cards(*ids: str) -> list[Card]:
    return [CARDS[i] for i in ids]


def test_every_check_and_example_passes() -> None:
    failing = [p for report in run_checks(GAME) for p in report.problems]
    assert failing == []


def test_decks_hold_the_seeds_72_cards() -> None:
    assert (MODEL.decks.gacha.size(), MODEL.decks.ituned.size(), MODEL.decks.notices.size()) == (
        12,
        48,
        12,
    )
    assert all(card.count == 1 for card in NOTICES)
    assert {n.effect.kind for n in NOTICES} == {"rate", "order"}
    assert len({card.id for card in [*GACHA, *ITUNED, *NOTICES]}) == len(CARDS)


def test_seed_numbers_reach_the_model() -> None:
    assert MODEL.player_counts() == [3, 4, 5]
    assert all(MODEL.setup[n].hand == 7 for n in (3, 4, 5))
    assert (MODEL.die.faces, MODEL.die.percent_per_pip) == (10, 10)
    assert MODEL.scoring.ituned_divisor == 2
    assert MODEL.languages == ["ja", "en"]
    assert MODEL.end.final_refill is False


def test_every_seed_example_is_there() -> None:
    # The seed works three examples: the roll (ガチャの例: 30% and 83%), the announcements
    # (告知の例: A passes, B uses, C and D pass, then each way it goes on) and the seating
    # (ターンプレイヤーの例). Each is an example marked as worked in the seed, and only those are.
    worked = {(e.rule, repr(e.given)) for e in MODEL.examples if e.source == "seed-example"}
    announcements = ["pass", "use", "pass", "pass"]
    assert worked == {
        ("hit_faces", repr({"rate": 30})),
        ("hit_faces", repr({"rate": 83})),
        *(
            ("next_announcer", repr({"players": 4, "turn_player": 0, "actions": actions}))
            for actions in (
                announcements,
                [*announcements, "pass"],
                [*announcements, "pass", "use"],
                [*announcements, "pass", "pass"],
            )
        ),
        ("announcement_round_over", repr({"players": 4, "actions": announcements})),
        (
            "announcement_round_over",
            repr({"players": 4, "actions": [*announcements, "pass", "pass"]}),
        ),
        ("next_turn_player", repr({"players": 4, "turn_player": 0, "winner": 2})),
        ("next_turn_player", repr({"players": 4, "turn_player": 1, "winner": None})),
    }
    # Rules the seed states without working an example are checked as the seed's too.
    stated = {(e.rule, repr(e.given)) for e in MODEL.examples if e.source == "seed"}
    for rate, roll in ((30, 3), (30, 4), (83, 9), (83, 0)):  # the hit rule, 0 counting as 10
        assert ("gacha_hit", repr({"rate": rate, "roll": roll})) in stated
    assert ("game_over", repr({"gacha_left": 0})) in stated


def test_the_seating_example_seats_clockwise() -> None:
    # A B over C D: clockwise A=0, B=1, D=2, C=3.
    a, b, d, c = range(4)
    assert rules.next_turn_player(MODEL, 4, a, d) == c
    assert rules.next_turn_player(MODEL, 4, b, None) == d


def test_the_announcement_example_step_by_step() -> None:
    actions: list[rules.Announcement] = []
    script = ["pass", "use", "pass", "pass", "pass", "pass"]
    seen = []
    for action in script:
        seen.append(rules.next_announcer(MODEL, 4, 0, actions))
        actions.append(action)  # type: ignore[arg-type]
    assert seen == [0, 1, 2, 3, 0, 1]
    assert rules.next_announcer(MODEL, 4, 0, actions) is None


@pytest.mark.parametrize("roll", [-1, 10, 11])
def test_a_d10_has_no_such_face(roll: int) -> None:
    with pytest.raises(ValueError):
        rules.gacha_hit(MODEL, 50, roll)


@given(st.integers(-200, 300), st.integers(0, 9))
def test_hit_means_face_times_ten_reaches_the_rate(rate: int, roll: int) -> None:
    face = 10 if roll == 0 else roll
    assert rules.gacha_hit(MODEL, rate, roll) == (face * 10 <= rate)


@given(st.integers(-200, 300))
def test_hit_faces_count_is_the_tens_of_the_rate(rate: int) -> None:
    faces = rules.hit_faces(MODEL, rate)
    assert len(faces) == min(10, max(0, rate // 10))
    assert faces == [1, 2, 3, 4, 5, 6, 7, 8, 9, 0][: len(faces)]


@given(st.integers(-200, 300), st.integers(-200, 300), st.integers(0, 9))
def test_a_higher_rate_never_hurts(low: int, high: int, roll: int) -> None:
    low, high = min(low, high), max(low, high)
    assert rules.gacha_hit(MODEL, high, roll) or not rules.gacha_hit(MODEL, low, roll)


spend = st.one_of(
    st.just([0, 0]),
    st.tuples(st.integers(0, 40).map(lambda n: n * 1500), st.integers(1, 8)).map(list),
)


@given(st.lists(spend, min_size=3, max_size=5), st.data())
def test_spend_order_ranks_every_roller_once(spends: list[list[int]], data: st.DataObject) -> None:
    turn = data.draw(st.integers(0, len(spends) - 1))
    order = rules.spend_order(MODEL, spends, turn)
    assert sorted(order) == [s for s in range(len(spends)) if spends[s][1] > 0]
    for first, second in itertools.pairwise(order):
        a, b = spends[first], spends[second]
        assert a[0] > b[0] or (a[0] == b[0] and a[1] <= b[1])
        if a == b:
            assert (first - turn) % len(spends) < (second - turn) % len(spends)


def test_spend_order_full_tie_starts_at_the_turn_player_and_wraps() -> None:
    assert rules.spend_order(MODEL, [[3000, 1]] * 5, 3) == [3, 4, 0, 1, 2]


@pytest.mark.parametrize("spends", [[[1500]], [[1500, 1, 2]], [[-1500, 1]], [[0, -1]], [[3000, 0]]])
def test_spend_order_refuses_impossible_spends(spends: list[list[int]]) -> None:
    with pytest.raises(ValueError):
        rules.spend_order(MODEL, spends, 0)


def test_spend_order_refuses_a_turn_player_outside_the_table() -> None:
    with pytest.raises(ValueError):
        rules.spend_order(MODEL, [[0, 0], [1500, 1], [0, 0]], 3)


@given(st.lists(st.sampled_from(HAND_CARDS), max_size=10))
def test_spend_counts_yen_of_ituned_only(revealed: list[Card]) -> None:
    yen, count = rules.spend_of(MODEL, revealed)
    assert count == len(revealed)
    assert yen == sum(c.amount for c in revealed if isinstance(c, ITunedCard))


def test_gacha_cards_cannot_be_spent_or_scored_from_hand() -> None:
    with pytest.raises(ValueError):
        rules.spend_of(MODEL, cards("gacha-01"))
    with pytest.raises(ValueError):
        rules.final_score(MODEL, [], cards("gacha-01"))


@given(
    st.sampled_from(GACHA),
    st.lists(st.sampled_from(HAND_CARDS), max_size=7),
    st.lists(st.sampled_from(NOTICES), max_size=6, unique=True),
)
def test_total_rate_adds_card_own_bonuses_and_rate_notices(
    gacha: GachaCard, revealed: list[Card], notices: list[NoticeCard]
) -> None:
    bonus = sum(c.rate_bonus for c in revealed if isinstance(c, ITunedCard))
    deltas = sum(n.effect.delta for n in notices if n.effect.kind == "rate")
    assert rules.total_rate(MODEL, gacha, revealed, notices) == gacha.rate + bonus + deltas


@given(
    st.lists(st.integers(0, 4), max_size=5, unique=True),
    st.sampled_from(ORDER_NOTICES),
    st.integers(0, 4),
)
def test_order_notices_only_reorder(order: list[int], notice: NoticeCard, user: int) -> None:
    after = rules.reorder_rollers(MODEL, order, notice, user)
    assert sorted(after) == sorted(order)
    if notice.effect.move == "user-first" and user in order:  # type: ignore[union-attr]
        assert after[0] == user


def test_reorder_edges() -> None:
    for notice in ORDER_NOTICES:
        assert rules.reorder_rollers(MODEL, [], notice, 0) == []
    with pytest.raises(ValueError):
        rules.reorder_rollers(MODEL, [0, 1], RATE_NOTICES[0], 0)
    with pytest.raises(ValueError):
        rules.reorder_rollers(MODEL, [0, 0], ORDER_NOTICES[0], 0)


@given(st.integers(3, 5), st.data())
def test_announcements_end_exactly_after_a_full_circle_of_passes(
    players: int, data: st.DataObject
) -> None:
    actions = data.draw(st.lists(st.sampled_from(["use", "pass"]), max_size=20))
    turn = data.draw(st.integers(0, players - 1))
    over = rules.announcement_round_over(MODEL, players, actions)
    tail = 0
    for action in reversed(actions):
        if action != "pass":
            break
        tail += 1
    assert over == (tail >= players)
    nxt = rules.next_announcer(MODEL, players, turn, actions)
    assert nxt == (None if over else (turn + len(actions)) % players)


@pytest.mark.parametrize("players", [0, 2, 6])
def test_player_counts_outside_the_game_are_refused(players: int) -> None:
    with pytest.raises(ValueError):
        rules.next_turn_player(MODEL, players, 0, None)
    with pytest.raises(ValueError):
        rules.announcement_round_over(MODEL, players, [])


def test_next_turn_player_refuses_strangers() -> None:
    with pytest.raises(ValueError):
        rules.next_turn_player(MODEL, 3, 3, None)
    with pytest.raises(ValueError):
        rules.next_turn_player(MODEL, 3, 0, 5)


def test_spend_outcome_edges() -> None:
    assert rules.spend_outcome(MODEL, [], None) == "closed"
    assert rules.spend_outcome(MODEL, [[0, 1], [0, 0], [0, 0]], None) == "restart"
    with pytest.raises(ValueError):
        rules.spend_outcome(MODEL, [[0, 0], [1500, 1], [0, 0]], 0)  # seat 0 never rolled


@given(
    st.lists(st.sampled_from(GACHA), max_size=4, unique=True),
    st.lists(st.sampled_from(HAND_CARDS), max_size=12),
)
def test_final_score_is_points_plus_half_the_yen(gacha: list[GachaCard], hand: list[Card]) -> None:
    yen = sum(c.amount for c in hand if isinstance(c, ITunedCard))
    assert yen % 2 == 0
    assert rules.final_score(MODEL, gacha, hand) == sum(g.points for g in gacha) + yen // 2


def test_redraw_and_reshuffle_edges() -> None:
    assert rules.may_redraw(MODEL, []) is False
    assert rules.may_redraw(MODEL, list(NOTICES[:7])) is True
    assert rules.reshuffle_pool(MODEL, []) == []


@given(st.lists(st.tuples(st.integers(0, 60000), st.integers(0, 60000)), min_size=3, max_size=5))
def test_winners_have_the_best_score_then_gacha_points(pairs: list[tuple[int, int]]) -> None:
    points = [p for p, _ in pairs]
    gacha = [g for _, g in pairs]
    winners = rules.game_winners(MODEL, points, gacha)
    best = max(points)
    assert winners and all(points[w] == best for w in winners)
    assert len({gacha[w] for w in winners}) == 1
    assert gacha[winners[0]] == max(gacha[s] for s in range(len(points)) if points[s] == best)


def test_game_winners_refuses_mismatched_columns() -> None:
    with pytest.raises(ValueError):
        rules.game_winners(MODEL, [1, 2, 3], [1, 2])
    with pytest.raises(ValueError):
        rules.game_winners(MODEL, [], [])


def test_draw_order_starts_with_the_turn_player() -> None:
    for players in MODEL.player_counts():
        for turn in range(players):
            order = rules.draw_order(MODEL, players, turn)
            assert order[0] == turn and sorted(order) == list(range(players))


def test_rate_notice_faces_print_signed_amounts_that_their_text_explains() -> None:
    decks = game_faces(
        GAME,
        TEMPLATES,
        load_presets(TEMPLATES.path("print.yaml")),
        Measure(ROOT / "build" / "fonts"),
    )
    faces = {face.key: face for deck in decks for face, _ in deck.fronts}
    for notice in RATE_NOTICES:
        lines = {item.text for item in faces[notice.id].items if isinstance(item, TextLine)}
        sign = "+" if notice.effect.delta > 0 else "−"
        assert f"{sign}{abs(notice.effect.delta)}%" in lines, notice.id
        assert "a plus raises it, a minus lowers it" in notice.text["en"]
    bonus = next(card for card in ITUNED if card.rate_bonus)
    lines = {item.text for item in faces[bonus.id].items if isinstance(item, TextLine)}
    assert f"獲得率 +{bonus.rate_bonus}%" in lines
