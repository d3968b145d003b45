"""A sweep varies a value the rules leave at its default, as it varies one written out."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from gachapress.errors import RulesError
from gachapress.sweep import load_sweep
from tests.conftest import ROOT

SWEEP = """\
game: gasha
players: [2]
games: 4
variants:
  - name: {name}
    set: {{decks.set-rewards.cards.reward-mg-ki-w.{key}: {value}}}
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(ROOT / "rules", tmp_path / "rules")
    return tmp_path


def test_a_count_left_at_its_default_can_be_varied(project: Path) -> None:
    """Gasha's Set Reward cards leave `count` out (one copy each)."""
    file = project / "one.yaml"
    file.write_text(SWEEP.format(name="one-copy", key="count", value=1))
    sweep = load_sweep(file, project / "rules")
    (cell,) = sweep.cells
    assert cell.variant.settings() == {"decks.set-rewards.cards.reward-mg-ki-w.count": 1}
    assert cell.variant.data["decks"]["set-rewards"]["cards"][0]["count"] == 1
    file.write_text(SWEEP.format(name="two-copies", key="count", value=2))
    with pytest.raises(RulesError) as caught:
        load_sweep(file, project / "rules")  # the deck then differs from its component count
    assert "the deck holds 36" in str(caught.value)


def test_a_key_no_card_has_is_refused_at_the_override(project: Path) -> None:
    file = project / "typo.yaml"
    file.write_text(SWEEP.format(name="typo", key="cuont", value=1))
    with pytest.raises(RulesError) as caught:
        load_sweep(file, project / "rules")
    (problem,) = caught.value.problems
    assert (problem.file, problem.line) == (file, 6)
    assert "unknown key 'cuont'" in problem.message
