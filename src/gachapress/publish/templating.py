"""The page templates (the project's own, then the package's), rendered in a sandbox.

Templates are project files anyone may edit, so they get jinja2's ``SandboxedEnvironment``
(no reaching Python internals such as ``__globals__`` or ``os``), autoescaping and strict
undefined names. Whatever goes wrong in a template (a syntax error, an undefined name, an unsafe
expression, a file outside the templates folders) is a RulesError located at the template's
line.
"""

from __future__ import annotations

import os
import traceback
from functools import cache
from pathlib import Path
from typing import Any

import jinja2
from jinja2.sandbox import SandboxedEnvironment

from gachapress.data.yamlsource import MAX_FILE_BYTES, read_limited
from gachapress.errors import Problem, RulesError
from gachapress.project import Templates

SUFFIX = ".j2"


class _ConfinedLoader(jinja2.FileSystemLoader):
    """Loads each template from the first folder holding it, and only from a file that resolves
    (symlinks followed) inside that folder."""

    def __init__(self, folders: tuple[Path, ...]) -> None:
        super().__init__([str(folder) for folder in folders])
        self.folders = [Path(os.path.normpath(folder)) for folder in folders]  # as jinja names

    def get_source(self, environment: jinja2.Environment, template: str) -> Any:
        source, filename, uptodate = super().get_source(environment, template)
        file = Path(filename)
        folder = next(f for f in self.folders if file.is_relative_to(f)).resolve()
        if not file.resolve().is_relative_to(folder):
            message = f"resolves outside the templates folder {folder}"
            raise RulesError([Problem(Path(filename), 1, 1, message)])
        return source, filename, uptodate


@cache  # one per project and process: templates compile once, and reload when edited
def environment(templates: Templates | Path) -> jinja2.Environment:
    """A sandboxed environment of a project's templates (or of one folder's) that escapes
    everything and refuses undefined names."""
    folders = templates.folders if isinstance(templates, Templates) else (templates,)
    return SandboxedEnvironment(
        loader=_ConfinedLoader(folders),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def render(env: jinja2.Environment, name: str, context: dict[str, Any]) -> str:
    """Render template ``name``; RulesError at the template's line when it fails."""
    template = load(env, name)
    try:
        return template.render(context)
    except jinja2.TemplateError as exc:
        raise RulesError([_problem(env, name, exc)]) from None


def load(env: jinja2.Environment, name: str) -> jinja2.Template:
    """Compile template ``name``; RulesError at the line of a syntax error."""
    try:
        return env.get_template(name)
    except jinja2.TemplateNotFound:
        raise RulesError([Problem(_path(env, name), 1, 1, "template not found")]) from None
    except jinja2.TemplateError as exc:
        raise RulesError([_problem(env, name, exc)]) from None


def check_templates(templates: Templates) -> list[Problem]:
    """Compile every template of both folders (a project's own in place of the package's of
    the same name); the problems found (syntax errors)."""
    env = environment(templates)
    names = {
        file.relative_to(folder).as_posix()
        for folder in templates.folders
        for file in folder.rglob(f"*{SUFFIX}")
    }
    problems = []
    for name in sorted(names):
        try:
            load(env, name)
        except RulesError as exc:
            problems.extend(exc.problems)
    return problems


def read_template(templates: Templates, name: str) -> str:
    """The text of a template file (a stylesheet), confined and size-limited."""
    file = templates.path(name)
    raw = read_limited(file, MAX_FILE_BYTES, inside=templates.inside(file))
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesError([Problem(file, 1, 1, f"not UTF-8 text ({exc.reason})")]) from None


def _problem(env: jinja2.Environment, name: str, exc: jinja2.TemplateError) -> Problem:
    file = _path(env, name)
    if isinstance(exc, jinja2.TemplateSyntaxError):
        file = Path(exc.filename) if exc.filename else file
        return Problem(file, exc.lineno or 1, 1, f"template syntax: {exc.message}")
    line = 1
    for frame in traceback.extract_tb(exc.__traceback__):  # jinja maps frames to template lines
        if frame.filename.endswith(SUFFIX) and frame.lineno:
            file, line = Path(frame.filename), frame.lineno
    kind = "unsafe" if isinstance(exc, jinja2.exceptions.SecurityError) else "template"
    return Problem(file, line, 1, f"{kind}: {exc.message or type(exc).__name__}")


def _path(env: jinja2.Environment, name: str) -> Path:
    loader = env.loader
    assert isinstance(loader, jinja2.FileSystemLoader)
    return Path(loader.searchpath[0]) / name
