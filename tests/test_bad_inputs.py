"""The bad-input corpus: each case breaks a copy of the project and expects one located error.

Cases live in tests/bad_inputs/<game-id>.yaml (format at the top of gachapon-trick.yaml).
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.conftest import ROOT, run_cli

CASES_DIR = Path(__file__).parent / "bad_inputs"


def _cases() -> list[Any]:
    cases = []
    for file in sorted(CASES_DIR.glob("*.yaml")):
        for case in yaml.safe_load(file.read_text(encoding="utf-8")) or []:
            cases.append(pytest.param(case, id=f"{file.stem}:{case['id']}"))
    return cases


def _position(text: str, needle: str, start: int) -> tuple[int, int]:
    index = text.find(needle, start)
    if index < 0:
        index = text.find(needle)
    assert index >= 0, f"marker {needle!r} not found"
    line = text.count("\n", 0, index) + 1
    column = index - (text.rfind("\n", 0, index) + 1) + 1
    return line, column


def _apply(root: Path, case: dict[str, Any]) -> tuple[str, int]:
    """Break the project as the case says; return the new text of the file and where it changed."""
    path = root / case["file"]
    if "content" in case:
        data = case["content"]
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, str):
            path.write_text(data, encoding="utf-8")
            return data, 0
        path.write_bytes(bytes(data))
        return "", 0
    if case.get("delete"):
        path.unlink()
        return "", 0
    if "rename" in case:
        path.rename(path.with_name(case["rename"]))
        return "", 0
    text = path.read_text(encoding="utf-8")
    old, new = case["replace"]
    assert text.count(old) >= 1, f"{case['id']}: {old!r} not in {case['file']}"
    start = text.index(old)
    text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    return text, start


@pytest.mark.parametrize("case", _cases())
def test_bad_input_gives_exactly_the_located_error(
    case: dict[str, Any], project_copy: Path
) -> None:
    if case["file"].startswith("templates/"):
        shutil.copytree(ROOT / "templates", project_copy / "templates")
    text, start = _apply(project_copy, case)
    game = case["file"].split("/")[1] if case["file"].startswith("rules/") else None
    args = case.get("args") or ["check", game]
    result = run_cli(*args, cwd=project_copy)
    expected = []
    for error in case["errors"]:
        at_file = error.get("file", case["file"])
        if "line" in error:
            line, column = error["line"], error["column"]
        else:
            source = text if at_file == case["file"] else (project_copy / at_file).read_text()
            line, column = _position(source, error["at"], start if at_file == case["file"] else 0)
        expected.append(f"{at_file}:{line}:{column}: error: {error['message']}")
    reported = [line for line in result.err.splitlines() if ": error: " in line]
    assert "Traceback" not in result.err + result.out
    assert result.code == case.get("exit", 1), result.err
    assert reported == expected
