"""Located problems and the exceptions that carry them."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Literal


@dataclass(frozen=True, order=True)
class Problem:
    """One finding, printed the way compilers print: ``PATH:LINE:COL: error: MESSAGE``."""

    file: Path
    line: int
    column: int
    message: str
    severity: Literal["error", "warning"] = "error"

    def format(self, relative_to: Path | None = None) -> str:
        base = relative_to or Path.cwd()
        try:
            shown = os.path.relpath(self.file, base)
        except ValueError:  # another drive on Windows
            shown = str(self.file)
        return f"{shown}:{self.line}:{self.column}: {self.severity}: {self.message}"

    def __str__(self) -> str:
        return self.format()


class GachapressError(Exception):
    """Base class of every error gachapress raises on purpose."""


class RulesError(GachapressError):
    """The rules files of a game are invalid; ``problems`` says where."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems)
        super().__init__("\n".join(p.format() for p in self.problems))
