"""docs/engine.md, followed as a designer would: `new --engine`, the engine it shows, `check`,
`sim` printing the figures the guide quotes, and the guide's bot added to the engine."""

from __future__ import annotations

import json
import re
from importlib.resources import files
from pathlib import Path
from string import Template

import pytest

from tests.conftest import ROOT, run_cli

GUIDE = ROOT / "docs" / "engine.md"
GAME = "harbor"


def blocks(kind: str) -> list[str]:
    """The guide's code blocks of one kind (python, sh, text), in order."""
    text = GUIDE.read_text(encoding="utf-8")
    return re.findall(rf"```{kind}\n(.*?)```", text, flags=re.S)


def commands() -> list[list[str]]:
    """The `gachapress` commands of the guide's shell blocks, in order."""
    lines = [line for block in blocks("sh") for line in block.splitlines()]
    return [line.split()[1:] for line in lines if line.startswith("gachapress ")]


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A project made by the guide's first command."""
    root = tmp_path_factory.mktemp("guide")
    first = commands()[0]
    assert first == ["new", GAME, "--engine"]
    made = run_cli(*first, cwd=root)
    assert made.code == 0, made.err
    return root


def test_the_guide_shows_the_engine_new_writes(project: Path) -> None:
    written = (project / "rules" / GAME / "engine.py").read_text(encoding="utf-8")
    assert blocks("python")[0] == written
    scaffold = files("gachapress.scaffold").joinpath("engine.py.txt").read_text(encoding="utf-8")
    assert Template(scaffold).substitute(id=GAME, name="Harbor") == written


def test_check_passes_and_names_the_local_engine(project: Path) -> None:
    checked = run_cli("check", GAME, cwd=project)
    assert checked.code == 0, checked.out + checked.err
    assert f"{GAME}: ok" in checked.out
    assert "2 worked examples" in checked.out
    assert f"{GAME}: local engine rules/{GAME}/engine.py" in checked.out + checked.err


def test_sim_prints_the_figures_the_guide_quotes(project: Path) -> None:
    assert ["sim", GAME, "--players", "3"] in commands()
    played = run_cli("sim", GAME, "--players", "3", cwd=project)
    assert played.code == 0, played.err
    quoted = next(block for block in blocks("text") if block.startswith(f"{GAME} 3 players"))
    without_speed = re.sub(r"\s+\([\d,.]+ games/s\)", "", played.out)
    assert quoted.strip() in without_speed


def test_the_guides_bot_plays_against_random_players(project: Path) -> None:
    engine = project / "rules" / GAME / "engine.py"
    bot = blocks("python")[1]
    engine.write_text(engine.read_text(encoding="utf-8") + "\n\n" + bot, encoding="utf-8")
    assert run_cli("check", GAME, cwd=project).code == 0
    command = ["sim", GAME, "--players", "3", "--bots", "taker,random"]
    assert command in commands()
    played = run_cli(*command, "--json", cwd=project)
    assert played.code == 0, played.err
    result = json.loads(played.out)
    assert result["bots"] == ["taker", "random"]
    taker, *randoms = (seat["rate"] for seat in result["win_rate"])
    assert all(taker > rate for rate in randoms), result["win_rate"]  # a plan beats chance
    alone = json.loads(run_cli("sim", GAME, "--players", "3", "--json", cwd=project).out)
    guide = " ".join(GUIDE.read_text(encoding="utf-8").split())
    before = alone["win_rate"][0]["rate"]
    assert f"wins {taker:.1%} of the games instead of {before:.1%}" in guide


def test_the_package_example_is_what_the_test_package_does() -> None:
    """The guide's pyproject and __init__ follow the installable package the suite tests."""
    toml = next(block for block in blocks("toml"))
    assert '[project.entry-points."gachapress.games"]' in toml
    package = (ROOT / "tests" / "plugin_game" / "tide_game" / "__init__.py").read_text()
    assert "SPEC = GameSpec(rules=RULES, engine=ENGINE)" in package
    assert "SPEC = GameSpec(rules=RULES, engine=ENGINE)" in blocks("python")[2]


#: The faults the guide plants in its engine, as (the text replaced, its replacement).
FAULTS = {
    "player 0's observation shows": (
        '            "hand": [card.id for card in self.hands[player]],\n',
        '            "hand": [card.id for card in self.hands[player]],\n'
        '            "next hand": [card.id for card in self.hands[(player + 1) % self.players]],\n',
    ),
    "Python's global random": (
        "        hand_size = len(cards) // players\n",
        "        __import__('random').shuffle(cards)\n        hand_size = len(cards) // players\n",
    ),
}


@pytest.mark.parametrize("fault", FAULTS)
def test_check_says_what_the_guide_says_of_a_broken_engine(tmp_path: Path, fault: str) -> None:
    assert run_cli("new", GAME, "--engine", cwd=tmp_path).code == 0
    engine = tmp_path / "rules" / GAME / "engine.py"
    text = engine.read_text(encoding="utf-8")
    old, new = FAULTS[fault]
    assert old in text
    engine.write_text(text.replace(old, new), encoding="utf-8")
    checked = run_cli("check", GAME, cwd=tmp_path)
    assert checked.code == 1
    quoted = next(block.strip() for block in blocks("text") if fault in block)
    assert quoted in checked.out + checked.err
    played = run_cli("sim", GAME, "--players", "2", cwd=tmp_path)
    assert played.code == 1 and quoted in played.err and "Traceback" not in played.err
