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


def test_readme_states_what_a_fresh_machine_needs() -> None:
    import tomllib

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    wanted = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert wanted == ">=3.11" and "Python 3.11 or newer" in text
    assert "apt-get update && apt-get install poppler-utils chromium" in text
    assert "Rough durations" in text
