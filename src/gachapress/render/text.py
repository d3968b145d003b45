"""Fitting text into a box: wrapped at spaces (anywhere in Japanese), shrunk until it fits,
with inline icons (``:rock:``) set on the baseline as if they were words."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Literal

from gachapress.render.metrics import Measure

PT = 25.4 / 72  # millimetres per point
ICON = re.compile(r":([a-z][a-z0-9-]*):")
#: Characters a Japanese line may not start with (kinsoku shori, the common set).
NO_LINE_START = set(
    "、。，．・：；？！ー）」』】〕〉》”’ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ"
)
#: Characters a Japanese line may not end with: opening brackets, and a currency sign
#: stays with its amount.
NO_LINE_END = set("（「『【〔〈《“‘¥￥")


@dataclass(frozen=True)
class Run:
    """A piece of a line: text, or an icon (``icon`` set, ``text`` empty), at ``x`` mm."""

    x: float
    width: float
    text: str = ""
    icon: str | None = None


@dataclass(frozen=True)
class Line:
    runs: tuple[Run, ...]
    baseline: float  # mm from the box's top


@dataclass(frozen=True)
class Fitted:
    lines: tuple[Line, ...]
    size: float  # the font size used, in points
    overflow: bool  # True when even the smallest size did not fit


def fit(
    measure: Measure,
    text: str,
    width: float,
    height: float,
    *,
    role: str,
    size: float,
    min_size: float,
    align: Literal["left", "center", "right"] = "left",
    valign: Literal["top", "middle", "bottom"] = "top",
    line_height: float = 1.2,
    japanese: bool = False,
) -> Fitted:
    """Lay ``text`` out in a ``width`` x ``height`` mm box, shrinking from ``size`` towards
    ``min_size`` (half a point at a time) until every line fits."""
    current = size
    while True:
        lines = _wrap(measure, text, width, role, current, japanese)
        leading = current * line_height * PT
        fits = len(lines) * leading <= height + 1e-6 and all(w <= width + 1e-6 for w, _ in lines)
        if fits or current - 0.5 < min_size:
            break
        current -= 0.5
    block = len(lines) * leading
    top = {"top": 0.0, "middle": (height - block) / 2, "bottom": height - block}[valign]
    ascent = current * 0.8 * PT  # the baseline sits about 0.8 em below the line's top
    placed = []
    for index, (line_width, runs) in enumerate(lines):
        shift = {"left": 0.0, "center": (width - line_width) / 2, "right": width - line_width}[
            align
        ]
        placed.append(
            Line(
                tuple(Run(r.x + shift, r.width, r.text, r.icon) for r in runs),
                top + index * leading + ascent + (leading - current * PT) / 2,
            )
        )
    return Fitted(tuple(placed), current, not fits)


def _tokens(text: str, japanese: bool) -> list[str]:
    """Words (with the space after them kept separate), icons, or single Japanese characters."""
    tokens: list[str] = []
    for part in re.split(r"(:[a-z][a-z0-9-]*:|\s+)", text):
        if not part:
            continue
        if japanese and not part.isspace() and not ICON.fullmatch(part):
            for char in part:  # a Japanese line may break between any two characters
                if tokens and (
                    char in NO_LINE_START or (_is_latin(char) and _is_latin(tokens[-1][-1:]))
                ):
                    tokens[-1] += char
                else:
                    tokens.append(char)
        else:
            tokens.append(part)
    return tokens


def is_cjk(char: str) -> bool:
    """A character of Japanese text (kana, kanji, full-width forms and punctuation)."""
    return ord(char) >= 0x2E80


def _is_latin(char: str) -> bool:
    return char.isascii() and char.isalnum()


def _glued(before: str, after: str) -> bool:
    """True when a Japanese line may not break between two tokens: after an opening bracket or
    a currency sign, or inside a number or Latin word with its signs ("1,000", "+10%")."""
    if not before or not after or before[-1].isspace() or after[0].isspace():
        return False
    last, first = before[-1], after[0]
    return last in NO_LINE_END or (_is_word(last) and _is_word(first))


def _is_word(char: str) -> bool:
    return char.isascii() and not char.isspace()


def _wrap(
    measure: Measure, text: str, width: float, role: str, size: float, japanese: bool
) -> list[tuple[float, list[Run]]]:
    lines: list[tuple[float, list[Run]]] = []
    for paragraph in text.split("\n"):
        runs: list[Run] = []
        tokens: list[str] = []  # of ``runs`` (with the space before them), for the glue
        x = 0.0
        previous = ""
        for token in _tokens(paragraph, japanese):
            if token.isspace():
                if runs:
                    x += measure.width(" ", role, size)
                previous = token
                continue
            icon = ICON.fullmatch(token)
            token_width = size * PT * 1.1 if icon else measure.width(token, role, size)
            if runs and x + token_width > width:
                keep = len(runs)
                if japanese and _glued(previous, token):  # break before the glued tokens
                    while keep > 1 and _glued(tokens[keep - 2], tokens[keep - 1]):
                        keep -= 1
                    keep -= 1
                carried = runs[keep:] if keep > 0 else []
                kept = runs[:keep] if keep > 0 else runs
                lines.append((_end(kept), kept))
                start = carried[0].x if carried else 0.0
                runs = [replace(run, x=run.x - start) for run in carried]
                tokens = [tokens[keep].lstrip(), *tokens[keep + 1 :]] if carried else []
                x = _end(runs)
            if icon:
                runs.append(Run(x, token_width, icon=icon.group(1)))
            else:
                runs.append(Run(x, token_width, text=token))
            tokens.append(token if not previous.isspace() else " " + token)
            x += token_width
            previous = token
        lines.append((_end(runs), runs))
    return [(line_width, _merge(runs)) for line_width, runs in lines]


def _end(runs: list[Run]) -> float:
    return runs[-1].x + runs[-1].width if runs else 0.0


def _merge(runs: list[Run]) -> list[Run]:
    """Join neighbouring text runs of a line into one, so each line draws as few strings."""
    merged: list[Run] = []
    for run in runs:
        if merged and run.icon is None and merged[-1].icon is None:
            last = merged[-1]
            gap = run.x - (last.x + last.width)
            joined = last.text + (" " if gap > 1e-9 else "") + run.text
            merged[-1] = Run(last.x, run.x + run.width - last.x, joined)
        else:
            merged.append(run)
    return merged
