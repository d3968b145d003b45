"""The README's Python examples run, so the docs cannot drift from the code."""

from __future__ import annotations

import re

from tests.conftest import ROOT
from tests.harness import HARNESS_GAMES, THOROUGH_EVERY


def test_readme_python_blocks_run() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, "README.md", "exec"), {})


def test_readme_test_command_is_what_ci_runs() -> None:
    """The command README gives for the tests is, step by step, the end of .ci/run."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    command = re.search(r"^(python3 -m venv .*\[test\].*)$", text, flags=re.M)
    assert command
    steps = [step.strip() for step in command.group(1).split("&&")]
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").strip().splitlines()
    ci_steps = [line.replace(" --quiet", "") for line in ci[-len(steps) :]]
    assert ci_steps == steps


def test_readme_states_what_the_harness_plays() -> None:
    text = " ".join((ROOT / "README.md").read_text(encoding="utf-8").split())
    games = f"plays {HARNESS_GAMES:,} seeded random games for every game, mode and player count"
    assert games in text
    assert THOROUGH_EVERY == 10 and "after every action in one game of ten," in text
    calls = [
        line
        for path in sorted((ROOT / "tests" / "games").glob("test_*_engine.py"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if "games_per_count(" in line
    ]
    assert calls and all("games_per_count()" in line for line in calls)  # no run plays fewer


def test_readme_states_what_a_fresh_machine_needs() -> None:
    import tomllib

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    wanted = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert wanted == ">=3.11" and "Python 3.11 or newer" in text
    assert "apt-get update && apt-get install poppler-utils chromium" in text
    assert "Rough durations" in text
