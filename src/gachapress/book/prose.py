"""Prose of the book data as blocks: paragraphs and lists of text runs (``**strong**``)."""

from __future__ import annotations

import re

from gachapress.book.model import Blocks, Inline, ListBlock, Paragraph, Strong, Text

_LIST_ITEM = re.compile(r"^(?:(-)|(\d+)[.)])\s+")
_STRONG = re.compile(r"\*\*(.+?)\*\*")


def runs(line: str) -> tuple[Inline, ...]:
    """A line of prose as text runs; ``**words**`` are emphasised."""
    nodes: list[Inline] = []
    position = 0
    for match in _STRONG.finditer(line):
        if match.start() > position:
            nodes.append(Text(line[position : match.start()]))
        nodes.append(Strong(match.group(1)))
        position = match.end()
    if position < len(line):
        nodes.append(Text(line[position:]))
    return tuple(nodes)


def blocks(filled: str, lang: str) -> Blocks:
    """Paragraphs (separated by blank lines) and lists (lines starting ``-`` or ``1.``)."""
    joiner = "" if lang in {"ja", "zh"} else " "
    result: list[Paragraph | ListBlock] = []
    for chunk in re.split(r"\n\s*\n", filled.strip()):
        lines = [line.strip() for line in chunk.splitlines() if line.strip()]
        if not lines:
            continue
        first = _LIST_ITEM.match(lines[0])
        if first is None:
            result.append(Paragraph((runs(joiner.join(lines)),)))
            continue
        kind = "ul" if first.group(1) else "ol"
        items: list[str] = []
        for line in lines:
            marker = _LIST_ITEM.match(line)
            if marker is not None:
                items.append(line[marker.end() :])
            elif items:
                items[-1] += joiner + line
        result.append(ListBlock(kind, tuple(runs(item) for item in items)))
    return tuple(result)


_CJK = r"\u3000-\u30ff\u3400-\u9fff\uff00-\uffef"
_CJK_GAP = re.compile(rf"(?<=[{_CJK}]) +(?=[{_CJK}])")


def tidy(value: str, lang: str) -> str:
    """Japanese text without the spaces YAML's folded lines leave between characters."""
    if lang != "ja":
        return value
    return _CJK_GAP.sub("", value)
