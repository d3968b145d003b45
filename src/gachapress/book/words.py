"""The words of a book that are not the game's own (``strings.yaml``: the package's, with the
project's own merged over it): section titles, labels, the names of rule functions and of their
inputs, in every language."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from gachapress.data.load import GameData
from gachapress.data.yamlsource import Locations, PathKey, load_yaml
from gachapress.errors import Problem, RulesError
from gachapress.project import DEFAULTS, Templates

STRINGS = "strings.yaml"


@dataclass(frozen=True)
class StringTable:
    """``strings.yaml``: the words of the pages that are not the game's own, in every language
    (section titles, labels, the names of rule functions and of their inputs)."""

    data: dict[str, Any]
    locations: Locations

    @classmethod
    def load(cls, templates: Templates) -> StringTable:
        """The package's table with the project's ``strings.yaml`` (if any) merged over it key
        by key, parsed once per content of the file in a process (a preview's rebuilds share
        it; the data is shared: never modify it)."""
        base = _package_table()
        file = templates.own(STRINGS)
        if file is None:
            return base
        key, content = file.resolve(), _read(file)
        if content is not None and key in _LOADED and _LOADED[key][0] == content:
            return _LOADED[key][1]
        own = _parse(file, templates.folder)
        located = Locations(dict(base.locations.values), dict(base.locations.keys))
        located.update(own.locations)
        table = cls(_merged(base.data, own.data), located)
        if content is not None and _read(file) == content:  # not saved while it was parsed
            _LOADED[key] = (content, table)
        return table

    def lookup(self, path: PathKey, lang: str) -> str | None:
        node: Any = self.data
        for part in path:
            if not isinstance(node, dict) or part not in node:
                return None
            node = node[part]
        if isinstance(node, dict) and isinstance(node.get(lang), str):
            return node[lang]
        return None

    def problem(self, path: PathKey, message: str) -> Problem:
        return self.locations.at(path).problem(message)


def _parse(file: Path, folder: Path) -> StringTable:
    data, locations = load_yaml(file, inside=folder)  # says where a problem is
    if not isinstance(data, dict):
        raise RulesError([locations.at(()).problem("expected a mapping of strings")])
    return StringTable(data, locations)


@cache
def _package_table() -> StringTable:
    """The package's own table, parsed once per process (its file never changes)."""
    return _parse(DEFAULTS / STRINGS, DEFAULTS)


def _merged(base: dict[str, Any], own: dict[str, Any]) -> dict[str, Any]:
    """``own`` over ``base``: mappings merged key by key, anything else replaced."""
    merged = dict(base)
    for key, value in own.items():
        below = merged.get(key)
        both = isinstance(below, dict) and isinstance(value, dict)
        merged[key] = _merged(below, value) if both else value
    return merged


def _read(file: Path) -> bytes | None:
    try:
        return file.read_bytes()
    except OSError:
        return None


#: The project tables parsed in this process, by file: the bytes they were parsed from, and the
#: table merged over the package's.
_LOADED: dict[Path, tuple[bytes, StringTable]] = {}


class Words:
    """The strings of one page: one language, one game."""

    def __init__(self, table: StringTable, lang: str, game_id: str) -> None:
        self.table = table
        self.lang = lang
        self.game_id = game_id

    def ui(self, key: str, **values: Any) -> str:
        """A UI string, with ``{name}`` fields filled; missing in this language is an error."""
        text = self.table.lookup(("ui", key), self.lang)
        if text is None:
            raise RulesError(
                [self.table.problem(("ui", key), f"no {self.lang!r} text for UI string {key!r}")]
            )
        return text.format(**values) if values else text

    def optional(self, group: str, key: str) -> str | None:
        """A game's own label, else the shared one, else None."""
        return self.table.lookup(("games", self.game_id, group, key), self.lang) or (
            self.table.lookup((group, key), self.lang)
        )

    def holds_players(self, group: str, key: str) -> bool:
        """True when the game's strings list ``key`` under ``group`` (``player_keys``,
        ``by_player_keys``, ``player_answers``, ``by_player_answers``): its values are players
        (seat indices) or one value per player, shown as "Player 1"..."""
        listed = self.table.data.get("games", {}).get(self.game_id, {}).get(group, [])
        return key in listed or key.rpartition(".")[2] in listed

    def answer_parts(self, rule: str) -> list[str] | None:
        """The input labels naming each value of ``rule``'s answer, when the strings give them."""
        parts = self.table.data.get("games", {}).get(self.game_id, {}).get("answer_parts", {})
        return parts.get(rule)

    def unit(self, group: str, key: str | None) -> str | None:
        """The unit a game's strings give the numbers of ``key`` (an input, or a rule's answer)
        under ``group`` (``units``, ``answer_units``): a placeholder format such as ``yen`` or
        ``percent``, or a UI counter such as ``points``."""
        if key is None:
            return None
        units = self.table.data.get("games", {}).get(self.game_id, {}).get(group, {})
        return units.get(key) or units.get(key.rpartition(".")[2])

    def card_answer(self, rule: str) -> str | None:
        """The input whose cards ``rule``'s answer points at by index (the winning play...)."""
        answers = self.table.data.get("games", {}).get(self.game_id, {}).get("card_answers", {})
        return answers.get(rule)

    def label(self, group: str, key: str) -> str:
        """A label of ``group`` (rules, given, fields, values), falling back to the key itself,
        made readable; the tests make sure no page needs the fallback."""
        return self.optional(group, key) or humanise(key)

    def all_ui(self) -> dict[str, str]:
        """Every UI string this language has, unformatted, by key (for a backend's labels)."""
        keys = self.table.data.get("ui", {})
        return {k: v for k in keys if (v := self.table.lookup(("ui", k), self.lang)) is not None}


def _result_keys(value: Any) -> Iterator[str]:
    """The keys of the mappings inside an example's expected result (shown as labels)."""
    if isinstance(value, dict):
        for key, item in value.items():
            yield str(key)
            yield from _result_keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from _result_keys(item)


def humanise(key: str) -> str:
    words = re.sub(r"[_-]+", " ", key).strip()
    return words[:1].upper() + words[1:]


def missing_labels(game: GameData, table: StringTable) -> list[str]:
    """The labels a game's pages would have to make up (for the tests)."""
    missing = []
    for lang in game.model.languages:
        words = Words(table, lang, game.id)
        for example in game.model.examples:
            if words.optional("rules", example.rule) is None:
                missing.append(f"{lang}: rules.{example.rule}")
            for key in [*example.given, *_result_keys(example.expect)]:
                if words.optional("given", key) is None:
                    missing.append(f"{lang}: given.{key}")
    return sorted(set(missing))
