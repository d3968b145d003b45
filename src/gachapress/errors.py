"""Located problems and the exceptions that carry them."""

from __future__ import annotations

import os
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

#: Characters that change how a terminal shows what follows instead of showing themselves: the
#: control characters (C0, DEL, C1; a tab and a line break aside) and the bidirectional
#: overrides and isolates, which reorder a line.
_UNPRINTABLE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]"
)


def unprintable(text: str) -> str | None:
    """The first character of ``text`` that a terminal or a page would not show as itself
    (a control character, a bidirectional override), named for a message (``U+001B (ESCAPE)``);
    None when every character prints."""
    found = _UNPRINTABLE.search(text)
    if found is None:
        return None
    char = found.group(0)
    name = unicodedata.name(char, "") or _C0_NAMES.get(ord(char), "a control character")
    return f"U+{ord(char):04X} ({name})"


_C0_NAMES = {0: "NULL", 7: "BELL", 8: "BACKSPACE", 0x0D: "CARRIAGE RETURN", 0x1B: "ESCAPE"}


def printable(text: str) -> str:
    """``text`` safe to print on a terminal: every character ``unprintable`` finds written as
    an escape (``\\x1b``, ``\\u202e``), everything else as it is."""
    return _UNPRINTABLE.sub(lambda m: _escape(m.group(0)), text)


def _escape(char: str) -> str:
    code = ord(char)
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


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
        line = f"{shown}:{self.line}:{self.column}: {self.severity}: {self.message}"
        return printable(line)  # a file name or a quoted value may hold anything

    def __str__(self) -> str:
        return self.format()


class GachapressError(Exception):
    """Base class of every error gachapress raises on purpose."""


class RulesError(GachapressError):
    """The rules files of a game are invalid; ``problems`` says where."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems)
        super().__init__("\n".join(p.format() for p in self.problems))
