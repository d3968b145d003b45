"""``project.yaml``: what every output of a project says about the project itself (the site's
title and introduction, the credits, the licence) and the order of its games."""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from gachapress.data.folders import find_games
from gachapress.data.model import Id, Line, Strict, Text
from gachapress.data.validate import located_problems
from gachapress.data.yamlsource import load_yaml
from gachapress.errors import RulesError
from gachapress.project import PROJECT_FILE


class ProjectFile(Strict):
    """``project.yaml``: what every output of the project says about the project itself."""

    title: Line | Text | None = None
    """The site's title."""
    intro: Line | Text | None = None
    """The site index's opening paragraph."""
    credits: Line | Text | None = None
    """Shown on the site index and in every rulebook's credits."""
    licence: Line | Text | None = None
    """The licence of the games, shown with the credits."""
    author: Line | Text | None = None
    """Who the PDFs name as their author (default: the title, else the folder's name)."""
    games: list[Id] = []
    """The order the site index and `list` show the games in; the others follow, sorted."""


@dataclass(frozen=True)
class Project:
    """A project's ``project.yaml`` (every field None without one) and the folder's name."""

    name: str
    file: ProjectFile

    def ordered(self, games: Iterable[str]) -> list[str]:
        """``games`` in the project's order: those ``games:`` names first, as it names them."""
        order = {game: i for i, game in enumerate(self.file.games)}
        return sorted(games, key=lambda game: (order.get(game, len(order)), game))

    def text(self, field: str, lang: str) -> str | None:
        """A field in ``lang`` (else in the first language it gives), or None when unset."""
        value = getattr(self.file, field)
        if isinstance(value, dict):
            return value.get(lang) or next(iter(value.values()), None)
        return value

    def author(self, lang: str) -> str:
        """The author every PDF of the project names, in ``lang``."""
        return self.text("author", lang) or self.text("title", lang) or self.name


def load_project(root: Path) -> Project:
    """The project at ``root``; RulesError (located) when its ``project.yaml`` is wrong."""
    name = root.resolve().name
    file = root / PROJECT_FILE
    if not os.path.lexists(file):
        return Project(name, ProjectFile())
    data, locations = load_yaml(file, inside=root)
    try:
        project = Project(name, ProjectFile.model_validate({} if data is None else data))
    except ValidationError as exc:
        raise RulesError(located_problems(exc, data, locations)) from None
    found = find_games(root / "rules")
    unknown = [
        locations.at(("games", i)).problem(f"games: {game!r} is no game of rules/")
        for i, game in enumerate(project.file.games)
        if game not in found
    ]
    if unknown:
        raise RulesError(unknown)
    return project
