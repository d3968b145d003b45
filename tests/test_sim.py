"""`gachapress sim` and its statistics: deterministic whatever the split, and correct."""

from __future__ import annotations

import json
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gachapress.engine.play import GameResult
from gachapress.sim import SimSpec, run_sim
from gachapress.sim.stats import Summary, distribution, wilson
from tests.conftest import run_cli

ARGS = ["sim", "gachapon-trick", "--players", "3", "--games", "300", "--json"]


@pytest.mark.parametrize("players", ["2", "3", "4"])
def test_same_seed_same_bytes_whatever_the_jobs(players: str) -> None:
    args = ["sim", "gachapon-trick", "--players", players, "--games", "450", "--json"]
    one = run_cli(*args, "--seed", "1", "--jobs", "1")
    again = run_cli(*args, "--seed", "1", "--jobs", "1")
    two = run_cli(*args, "--seed", "1", "--jobs", "2")
    other = run_cli(*args, "--seed", "2")
    assert one.code == 0, one.err
    assert one.out == again.out == two.out
    assert other.out != one.out


def test_report_shape_and_sense() -> None:
    report = json.loads(run_cli(*ARGS, "--seed", "4", "--bots", "greedy,random").out)
    assert report["games"] == 300 and report["players"] == 3
    assert report["bots"] == ["greedy", "random"]
    rates = [seat["rate"] for seat in report["win_rate"]]
    assert abs(sum(rates) - 1) < 1e-3
    for seat in report["win_rate"]:
        low, high = seat["ci95"]
        assert low <= seat["rate"] <= high
    assert rates[0] > max(rates[1:])  # the greedy bot beats random ones
    assert report["length"]["rounds"]["min"] == 3
    assert report["end_conditions"] == {"finished": 1.0}


def test_an_option_changes_the_games_and_is_reported() -> None:
    args = ["sim", "gotchacards", "--players", "2", "--mode", "party", "--games", "200", "--json"]
    plain = json.loads(run_cli(*args).out)
    beginner = json.loads(run_cli(*args, "--option", "beginner").out)
    assert plain["options"] == [] and beginner["options"] == ["beginner"]
    assert beginner["games"] == 200
    assert {k: v for k, v in plain.items() if k != "options"} != {
        k: v for k, v in beginner.items() if k != "options"
    }
    text = run_cli(*args[:-1], "--option", "beginner")
    assert text.code == 0 and "gotchacards party beginner 2 players" in text.out


def test_usage_errors() -> None:
    assert run_cli("sim", "gachapon-trick", "--players", "7", "--games", "1").code == 2
    assert run_cli("sim", "gachapon-trick", "--players", "3", "--bots", "genius").code == 2
    assert run_cli("sim", "gachapon-trick", "--players", "3", "--mode", "party").code == 2
    unknown = run_cli("sim", "gachapon-trick", "--players", "3", "--option", "beginner")
    assert unknown.code == 2 and "no option 'beginner'" in unknown.err


def test_run_sim_merges_chunks_like_one_pass() -> None:
    spec = SimSpec("gachapon-trick", 4, 450, seed=9)
    assert run_sim(spec, jobs=1).report() == run_sim(spec, jobs=2).report()


def test_wilson_interval() -> None:
    low, high = wilson(50, 100)
    assert round(low, 3) == 0.404 and round(high, 3) == 0.596
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(3, 10)[0] < 0.3 < wilson(3, 10)[1]


def test_distribution_quantiles() -> None:
    counts = Counter({1: 1, 2: 1, 3: 1, 4: 1, 5: 1, 6: 1, 7: 1, 8: 1, 9: 1, 10: 1})
    d = distribution(counts)
    assert (d["min"], d["p10"], d["p50"], d["p90"], d["max"]) == (1, 1, 5, 9, 10)
    assert d["mean"] == 5.5


results = st.builds(
    GameResult,
    seed=st.just(0),
    scores=st.lists(st.integers(0, 99), min_size=3, max_size=3),
    winners=st.lists(st.integers(0, 2), min_size=1, max_size=3, unique=True),
    actions=st.integers(1, 500),
    rounds=st.integers(1, 3),
    end_condition=st.sampled_from(["finished", "deck-empty"]),
)


@given(st.lists(results, max_size=30), st.integers(0, 30))
def test_merging_in_any_split_gives_the_same_summary(games: list[GameResult], cut: int) -> None:
    whole, left, right = Summary(3), Summary(3), Summary(3)
    for index, result in enumerate(games):
        whole.add(result)
        (left if index < cut else right).add(result)
    right.merge(left)
    if games:
        assert right.report() == whole.report()


def test_more_bots_than_players_is_a_usage_error() -> None:  # issue 31, item 17
    bots = ",".join(["random"] * 9)
    result = run_cli("sim", "gachapon-trick", "--players", "2", "--games", "1", "--bots", bots)
    assert result.code == 2 and "Traceback" not in result.err
    assert "9 bots for 2 players" in " ".join(result.err.replace("│", " ").split())
