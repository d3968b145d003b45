"""The README's Python examples run, so the docs cannot drift from the code."""

from __future__ import annotations

import re

from tests.conftest import ROOT


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
