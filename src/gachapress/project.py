"""A project's own files besides its games: its templates, over the package's defaults, and
``project.yaml`` (the site's title, the credits and the licence every output carries).

The package ships every template a build needs (``gachapress/defaults/``); a file of the
project's ``templates/`` folder replaces the package's file of the same name, and the project's
``strings.yaml`` is merged over the package's key by key.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from gachapress.build.manifest import hash_file, hash_text, hash_tree
from gachapress.data.model import Line, Strict, Text
from gachapress.data.validate import located_problems
from gachapress.data.yamlsource import load_yaml
from gachapress.errors import RulesError

#: The templates, presets and strings shipped inside the package.
DEFAULTS = Path(__file__).resolve().parent / "defaults"
TEMPLATES = "templates"
PROJECT_FILE = "project.yaml"


@dataclass(frozen=True)
class Templates:
    """The templates of the project at ``root``: its own ``templates/`` folder, then the
    package's defaults."""

    root: Path

    @property
    def folder(self) -> Path:
        """The project's own templates folder (it may not exist)."""
        return self.root / TEMPLATES

    @property
    def folders(self) -> tuple[Path, Path]:
        """Where a template is looked for, first to last."""
        return self.folder, DEFAULTS

    def own(self, name: str) -> Path | None:
        """The project's own file ``name`` (a link too, which loading then judges), if any."""
        file = self.folder / name
        return file if os.path.lexists(file) else None

    def path(self, name: str) -> Path:
        """The file ``name``: the project's own if it has one, else the package's."""
        return self.own(name) or DEFAULTS / name

    def inside(self, file: Path) -> Path:
        """The folder of ``folders`` that ``file`` (a path from ``path``) must stay inside."""
        return self.folder if file.is_relative_to(self.folder) else DEFAULTS

    def digest(self, skip: tuple[str, ...] = ()) -> str:
        """A content hash of every file a build may read from either folder (but for the names
        of ``skip`` at their top): editing any template changes it."""
        return hash_text(
            hash_tree(self.folder, self.root, skip=skip), hash_tree(DEFAULTS, DEFAULTS, skip=skip)
        )


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


@dataclass(frozen=True)
class Project:
    """A project's ``project.yaml`` (every field None without one) and the folder's name."""

    name: str
    file: ProjectFile

    def text(self, field: str, lang: str) -> str | None:
        """A field in ``lang`` (else in the first language it gives), or None when unset."""
        value = getattr(self.file, field)
        if isinstance(value, dict):
            return value.get(lang) or next(iter(value.values()), None)
        return value


def load_project(root: Path) -> Project:
    """The project at ``root``; RulesError (located) when its ``project.yaml`` is wrong."""
    name = root.resolve().name
    file = root / PROJECT_FILE
    if not os.path.lexists(file):
        return Project(name, ProjectFile())
    data, locations = load_yaml(file, inside=root)
    try:
        return Project(name, ProjectFile.model_validate({} if data is None else data))
    except ValidationError as exc:
        raise RulesError(located_problems(exc, data, locations)) from None


def project_digest(root: Path) -> str:
    """A content hash of the project's ``project.yaml`` (of where it points, for a link out of
    the project, which loading refuses; of nothing, without one)."""
    file = root / PROJECT_FILE
    real = file.resolve()
    if real.is_relative_to(root.resolve()) and real.is_file():
        return hash_file(real)
    return hash_text(os.readlink(file) if file.is_symlink() else "")
