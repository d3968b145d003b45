"""A project's own files besides its games: its templates, over the package's defaults, and
``project.yaml`` (read by ``data.project_file``). Light: a build with nothing to do reads it.

The package ships every template a build needs (``gachapress/defaults/``); a file of the
project's ``templates/`` folder replaces the package's file of the same name, and the project's
``strings.yaml`` is merged over the package's key by key.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from gachapress.assembly.manifest import hash_file, hash_text, hash_tree

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


def project_digest(root: Path) -> str:
    """A content hash of the project's ``project.yaml`` (of where it points, for a link out of
    the project, which loading refuses; of nothing, without one)."""
    file = root / PROJECT_FILE
    real = file.resolve()
    if real.is_relative_to(root.resolve()) and real.is_file():
        return hash_file(real)
    return hash_text(os.readlink(file) if file.is_symlink() else "")
