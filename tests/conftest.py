"""Shared fixtures: the project's rules folder, scratch copies of it, and running the CLI."""

from __future__ import annotations

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


def run_cli(*args: str, cwd: Path = ROOT) -> Run:
    """Run `gachapress ARGS` as a user would, in ``cwd``."""
    done = subprocess.run(
        [sys.executable, "-m", "gachapress.cli.main", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    return Run(done.returncode, done.stdout, done.stderr)


@pytest.fixture
def project_copy(tmp_path: Path) -> Path:
    """A scratch project whose rules/ is a copy of the real one."""
    shutil.copytree(RULES, tmp_path / "rules")
    return tmp_path
