"""GotchaCards Competitive's fast paths decide exactly as the plain ones they stand for.

The draft and placing moves leave the next legal actions in the core's cache as they go, and
the lanes are resolved by lean rule code; each test here checks one such path against the
state worked out afresh or against the rule functions, over many random games.
"""

from __future__ import annotations

import random

import pytest

from gachapress.engine import load_game
from gachapress.games.gotchacards.engine import KEEP, PICK, PLACE, CompetitiveState

GAME = load_game("gotchacards")


@pytest.mark.parametrize("beginner", [False, True])
def test_draft_and_placing_moves_leave_the_legal_actions_worked_out_afresh(
    beginner: bool,
) -> None:
    """After every move into a draft or placing step the cache already holds the legal
    actions (``_legal_actions`` is skipped), and they are those worked out from the state."""
    options = ("beginner",) if beginner else ()
    kept = 0
    for seed in range(40):
        state = GAME.new_game(2, seed, "competitive", options)
        assert isinstance(state, CompetitiveState)
        choose = random.Random(seed).random
        while not state.is_terminal():
            cached = state._legal
            if state.phase in (KEEP, PICK, PLACE):
                assert cached is not None, state.phase
                kept += 1
            if cached is not None:
                assert cached == state._legal_actions()
            legal = state.legal_actions()
            state.apply(legal[int(choose() * len(legal))])
    assert kept > 1000
