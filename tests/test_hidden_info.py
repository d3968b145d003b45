"""Hidden information in every game and mode: what a seat sees never depends on the cards it
never sees. The re-deal test (``gachapress.engine.contract.redeal``) at full strength: more
windows, from random steps too, and more re-deals tried, than ``check`` plays.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from gachapress.engine import load_game
from gachapress.engine.contract import Breach
from gachapress.engine.contract.redeal import (
    Coverage,
    Setup,
    check_window,
    choose,
    play,
    redeal_test,
)
from gachapress.engine.core import HIDDEN
from gachapress.games.rps_fire.engine import RpsFireState
from tests.conftest import GAME_IDS
from tests.harness import games_per_count

#: The windows a re-dealt game is played against the original: (start, steps), from the deal
#: and from random steps. Some are short: over a long one a seat sees most faces.
WINDOWS = ((0, 80), (0, 16), (None, 12), (None, 12), (None, 40))
#: Re-deals tried per window.
ATTEMPTS = 4


def _cases() -> Iterator[tuple[str, str, int]]:
    for game_id in GAME_IDS:
        for mode, counts in load_game(game_id).modes.items():
            for players in counts:
                yield game_id, mode, players


CASES = list(_cases())


@pytest.mark.parametrize(("game_id", "mode", "players"), CASES)
def test_a_redeal_of_unseen_cards_looks_the_same(game_id: str, mode: str, players: int) -> None:
    game = load_game(game_id)
    coverage = Coverage()
    for index in range(games_per_count(4)):
        setup = Setup(players, mode, players * 1000 + index)
        coverage += redeal_test(game, setup, WINDOWS, ATTEMPTS)
    # Coverage: a re-deal changes nothing when the seat has seen every face by the window's
    # end (Rock, Paper, Scissors, Fire's pile shows most of the deck within a round).
    steps, compared, whole = coverage.steps, coverage.compared, coverage.whole
    assert whole and compared * 50 >= steps, f"{compared} of {steps} steps compared, {whole} whole"


def test_the_start_entry_of_a_log_view_keeps_the_seed_secret() -> None:
    state = load_game("gasha").new_game(players=3, seed=12345)
    view = state.log_view(1)
    assert "seed" in state.log[0] and "seed" not in view[0]
    assert view[0] == {key: value for key, value in state.log[0].items() if key != "seed"}
    assert state.log_view(1, start=1) == view[1:]


def test_rps_fire_shows_alarm_moves_to_their_giver_and_taker_only() -> None:
    game = load_game("rps-fire")
    for seed in range(200):
        state = game.new_game(players=4, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal() and not any(e.get("event") == "alarm" for e in state.log):
            state.apply(choose(rng, state.legal_actions()))
        alarms = [i for i, e in enumerate(state.log) if e.get("event") == "alarm"]
        if alarms:
            break
    else:
        pytest.fail("no fire alarm went off in 200 games")
    entry = state.log[alarms[0]]
    for player in range(4):
        seen = state.log_view(player)[alarms[0]]["took"]
        for move, shown in zip(entry["took"], seen, strict=True):
            assert shown == (move if player in move[:2] else [*move[:2], HIDDEN])


@pytest.mark.parametrize(("seed", "pair"), [(16, "ituned-10000"), (18, "ituned-5000")])
def test_gotcha_placing_ends_on_what_the_others_see(seed: int, pair: str) -> None:
    """Seat 1 swaps a face-down card for an identical one from hand, the only move of round
    2. Seat 0, who sees no copy of it, cannot tell that from a swap of two different cards:
    in these re-deals seat 1 holds no two alike cards, and placing must go on (or stop) the
    same way."""
    game = load_game("gotcha")
    script = ["keep"] * 3 + ["done", "adjust", f"place {pair}", "done", "done"]
    script += ["done", "adjust", f"place {pair}", f"take {pair}", "done", "done"]
    setup = Setup(3, "standard", seed)
    played = play(game, setup, script)
    assert pair not in played.seen[0][-1]
    assert check_window(game, setup, played, 0, 0, len(script)) == len(script)


def test_rps_fire_alarm_takes_the_very_card_drawn() -> None:
    """A fire alarm draws a place in a hand; the card there is the one that moves, not the
    first copy of its face, so what a later alarm draws does not hang on where unseen cards
    lie (in this re-deal seat 2 holds two alike cards that seat 1 never sees)."""
    game = load_game("rps-fire")
    setup = Setup(4, "standard", 4012)
    assert check_window(game, setup, play(game, setup), 1, 0, 16) == 16


def test_rps_fire_a_give_may_hand_over_any_copy() -> None:
    """Seat 4's fire alarm takes the last card of seat 3, who drew it and gave two others away.
    In this re-deal seat 3 holds two alike cards that seat 4 never sees, one dealt and one
    drawn; which of them went is not to be told at the table, and only the drawn one going
    leaves seat 3's hand as it was (the engine gives the first copy)."""
    game = load_game("rps-fire")
    setup = Setup(5, "standard", 5032)
    assert check_window(game, setup, play(game, setup), 4, 0, 16) == 16


def test_a_leak_through_a_fire_alarm_fails_the_redeal_test(monkeypatch: pytest.MonkeyPatch) -> None:
    """Injected leak: an alarm uses up a random number when the left neighbour of its player
    holds a card seat 4 never sees, so the cards seat 4 takes later hang on where that card
    lies. The search (with any copy of a card given) finds no re-deal to explain it."""
    game, secret = load_game("rps-fire"), "paper-7"
    alarm = RpsFireState._alarm

    def leaky(self: RpsFireState, seat: int, face: str) -> None:
        if secret in self.hands[(seat + 1) % self.players]:
            self.rng.random()
        alarm(self, seat, face)

    monkeypatch.setattr(RpsFireState, "_alarm", leaky)
    setup = Setup(5, "standard", 5032)
    played = play(game, setup)
    assert secret not in played.seen[4][16]
    with pytest.raises(Breach, match="no way of playing the re-dealt game") as caught:
        check_window(game, setup, played, 4, 0, 16)
    assert caught.value.step is not None and 0 < caught.value.step < 16
