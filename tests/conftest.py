"""Shared fixtures: the project's rules folder, scratch copies of it, running the CLI, and the
whole site built once per test run."""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from gachapress.data.folders import find_games
from gachapress.project import DEFAULTS, Templates

ROOT = Path(__file__).resolve().parents[1]
#: The example project's templates, over the package's.
TEMPLATES = Templates(ROOT)


def own_template(project: Path, name: str) -> Path:
    """The project's own template ``name``: a copy of the package's, made if the project has
    none (to be edited)."""
    target = project / "templates" / name
    if not target.exists():
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(DEFAULTS / name, target)
    return target


RULES = ROOT / "rules"
#: The example project's games, found as every project's are.
GAME_IDS = tuple(find_games(RULES))


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


#: Games simulated for the book statistics of the shared site (GACHAPRESS_BOOK_GAMES).
SITE_BOOK_GAMES = 24


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """out/ of a scratch project as a plain `gachapress build` publishes every game (with short
    book simulations): built once per test run, however many xdist workers, for every test that
    only reads it. Tests must not write into it (copy what they change)."""
    base = tmp_path_factory.getbasetemp()
    if "PYTEST_XDIST_WORKER" in os.environ:
        base = base.parent  # the run's folder, shared by its workers (each has one below it)
    root = base / "site"
    with (base / "site.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the first worker builds; the others wait and reuse
        if not (root / "built").exists():
            shutil.rmtree(root, ignore_errors=True)
            for folder in ("rules", "templates"):
                shutil.copytree(ROOT / folder, root / folder)
            result = run_cli(
                "build", "--root", str(root), "--jobs", "2", cwd=root,
                env={"GACHAPRESS_BOOK_GAMES": str(SITE_BOOK_GAMES)},
            )  # fmt: skip
            assert result.code == 0, result.err
            (root / "built").touch()
    return root / "out"
