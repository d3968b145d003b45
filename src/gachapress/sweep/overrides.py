"""Vary a game's rules data by dotted path (``setup.3.money``, a card's ``count``) and check the
varied rules as strictly as ``rules/``, locating every problem in the sweep file."""

from __future__ import annotations

import copy
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from gachapress.checks import deck_checks
from gachapress.checks.playtest import playtest
from gachapress.data.load import GameData, rules_from_data
from gachapress.data.yamlsource import Locations, Mark, PathKey
from gachapress.errors import Problem, RulesError


@dataclass(frozen=True)
class Override:
    """One value set at a dotted path of the rules data, and where the sweep file says so."""

    path: str
    value: Any
    mark: Mark
    """Where the value is written."""
    path_mark: Mark
    """Where the path is written."""


def resolve(data: Any, dotted: str) -> PathKey:
    """The data path a dotted path names: a mapping's key (a number may name a numeric key), a
    list's index, or the item of a list whose ``id`` is that word; its last part may be a key
    the mapping leaves at its default (a card's ``count`` not written out: the model says
    whether it has such a key). ValueError if it names nothing."""
    path: list[str | int] = []
    node = data
    parts = dotted.split(".")
    for i, part in enumerate(parts):
        key = _step(node, part)
        if key is None and i == len(parts) - 1 and isinstance(node, dict):
            return (*path, part)  # a value left at its default
        if key is None:
            where = ".".join(map(str, path)) or "the top of the rules"
            raise ValueError(f"no {part!r} in {where}{_choices(node)}")
        path.append(key)
        node = node[key]
    return tuple(path)


def _step(node: Any, part: str) -> str | int | None:
    if isinstance(node, dict):
        if part in node:
            return part
        if part.lstrip("-").isdigit() and int(part) in node:
            return int(part)
        return None
    if isinstance(node, list):
        if part.isdigit() and int(part) < len(node):
            return int(part)
        ids = [
            i for i, item in enumerate(node) if isinstance(item, dict) and item.get("id") == part
        ]
        return ids[0] if ids else None
    return None


def _choices(node: Any) -> str:
    if isinstance(node, dict):
        return f" (it has: {', '.join(map(str, node))})"
    if isinstance(node, list):
        ids = [str(item["id"]) for item in node if isinstance(item, dict) and "id" in item]
        return f" (items 0-{len(node) - 1}{': ' + ', '.join(ids) if ids else ''})"
    return f" (it is {node!r}, which has no parts)"


def vary(
    data: dict[str, Any], locations: Locations, overrides: Sequence[Override]
) -> tuple[dict[str, Any], Locations]:
    """A copy of the data with the overrides set, and locations in which each overridden value
    (and everything under it) points at its override. ValueError for a path that names nothing,
    RulesError (located at the override) naming it."""
    varied = copy.deepcopy(data)
    marks = Locations(dict(locations.values), dict(locations.keys))
    for override in overrides:
        try:
            path = resolve(varied, override.path)
        except ValueError as exc:
            raise RulesError([override.path_mark.problem(str(exc))]) from None
        parent = varied
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = copy.deepcopy(override.value)
        for table in (marks.values, marks.keys):
            for known in [p for p in table if p[: len(path)] == path and p != path]:
                del table[known]
        marks.values[path] = override.mark
    return varied, marks


def check_variant(
    game_id: str, folder: Path, data: dict[str, Any], locations: Locations, anchor: Mark | None
) -> GameData:
    """Build the varied rules through the model, the deck checks and a few random games, as
    ``check`` would (the worked examples, written for the published numbers, are left out).
    RulesError when anything fails, each problem in the sweep file: at its override, or at
    ``anchor`` (the variant's first override) with the rules file's place in the message;
    where they are in the rules files when there is no anchor (the rules as written)."""
    try:
        game = rules_from_data(game_id, folder, data, locations)
    except RulesError as exc:
        raise RulesError([_relocate(p, anchor) for p in exc.problems]) from None
    checks = deck_checks(game).values()
    errors = [p for check in checks for p in check(game) if p.severity == "error"]
    if not errors:
        errors = list(playtest(game))
    if errors:
        raise RulesError([_relocate(p, anchor) for p in errors])
    return game


def _relocate(problem: Problem, anchor: Mark | None) -> Problem:
    if anchor is None or problem.file == anchor.file:
        return problem
    shown = os.path.relpath(problem.file)
    message = f"with this variant, {shown}:{problem.line}:{problem.column}: {problem.message}"
    return anchor.problem(message)
