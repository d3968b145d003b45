"""An extra examples file for `check --examples`: `game: ID` and an `examples:` list."""

from __future__ import annotations

from pathlib import Path

from pydantic import ValidationError

from gachapress.data.model import Example, ExampleSource, Id, Strict
from gachapress.data.validate import located_problems
from gachapress.data.yamlsource import Locations, load_yaml
from gachapress.errors import RulesError


class ExtraExample(Example):
    """A worked example of an extra file: one a user writes is the project's by default."""

    source: ExampleSource = "project"


class ExamplesFile(Strict):
    """The top of an examples file."""

    game: Id
    examples: list[ExtraExample]


def load_examples_file(file: Path) -> tuple[ExamplesFile, Locations]:
    """Read and validate an examples file; raise RulesError with located problems."""
    data, locations = load_yaml(file)
    if not isinstance(data, dict):
        raise RulesError(
            [locations.at(()).problem("expected a mapping with 'game' and 'examples'")]
        )
    try:
        return ExamplesFile.model_validate(data), locations
    except ValidationError as exc:
        raise RulesError(located_problems(exc, data, locations)) from None
