"""Edits of the rules' YAML text, for tests that change an input and rebuild.

The edits work on the file's own text (its comments, layout and the other languages stay as
they are), whatever the quoting of the value or the order of the languages, and fail at once
when they change nothing, so that a new layout of the rules fails here and not as a puzzling
assertion later."""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml


def rename(path: Path, old: str, new: str, lang: str = "en") -> int:
    """Give every ``name:`` whose ``lang`` text is ``old`` the text ``new``; the other
    languages' names are kept. Returns how many names changed (at least one)."""
    value = "|".join(
        (f'"{re.escape(old)}"', f"'{re.escape(old)}'", rf"{re.escape(old)}(?=\s*[,}}])")
    )
    pattern = re.compile(rf"(\bname:\s*\{{[^{{}}]*?\b{re.escape(lang)}:\s*)(?:{value})")
    text = path.read_text(encoding="utf-8")
    # a JSON string is a YAML double-quoted scalar: any text, quotes and all, stays one value
    edited, count = pattern.subn(lambda m: m.group(1) + json.dumps(new, ensure_ascii=False), text)
    assert count, f"no name with {lang} text {old!r} in {path}"
    yaml.safe_load(edited)  # still YAML
    path.write_text(edited, encoding="utf-8")
    return count
