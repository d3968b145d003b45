"""Shared fixtures: the project's rules folder, scratch copies of it, and running the CLI."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "rules"


@dataclass
class Run:
    code: int
    out: str
    err: str


def run_cli(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None) -> Run:
    """Run `gachapress ARGS` as a user would, in ``cwd`` (``env`` adds to the environment)."""
    done = subprocess.run(
        [sys.executable, "-m", "gachapress.cli.main", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env={**os.environ, **(env or {})},
    )
    return Run(done.returncode, done.stdout, done.stderr)


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    """A scratch project whose rules/ is a copy of the real one."""
    shutil.copytree(RULES, tmp_path / "rules")
    return tmp_path
