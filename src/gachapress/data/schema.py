"""JSON Schemas of the rules files, so an editor can validate and complete them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gachapress.data.declared import sheets_allowed
from gachapress.data.files import file_kind
from gachapress.data.folders import find_games
from gachapress.data.load import data_spec, read_rules_data
from gachapress.errors import Problem, RulesError
from gachapress.registry import game_spec

SCHEMA_FILE = "schema.json"


def game_schema(game_id: str, rules_dir: Path) -> dict[str, Any]:
    """The schema of one game's files: its package's model, or the one its decks' declared
    fields make (RulesError when those declarations do not hold). Each file holds part of the
    document, so the top level requires nothing; `gachapress check` still insists on every
    required key."""
    spec = game_spec(game_id)
    if spec is not None and spec.model is not None:
        schema = spec.model.model_json_schema(by_alias=True, mode="validation")
    else:
        _, data, locations = read_rules_data(game_id, rules_dir)
        model = data_spec(game_id, data, locations).model
        schema = sheets_allowed(model.model_json_schema(by_alias=True, mode="validation"))
    schema.pop("required", None)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = f"gachapress rules: {game_id}"
    schema["description"] = (
        "One game's rules folder: game.yaml, decks.yaml, examples.yaml and clarifications.yaml "
        "each hold some of these top-level keys."
    )
    return schema


def schema_text(game_id: str, rules_dir: Path) -> str:
    schema = game_schema(game_id, rules_dir)
    return json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def stale_schemas(rules_dir: Path) -> list[Path]:
    """The schema files under ``rules_dir`` that differ from what the code generates
    (RulesError when a game's declared fields do not hold)."""
    return [
        rules_dir / game_id / SCHEMA_FILE
        for game_id in find_games(rules_dir)
        if _read(rules_dir / game_id / SCHEMA_FILE) != schema_text(game_id, rules_dir)
    ]


def write_schemas(rules_dir: Path) -> list[Path]:
    """Regenerate every stale schema file; return those written."""
    stale = stale_schemas(rules_dir)
    for path in stale:
        kind = file_kind(path)
        if kind not in (None, "is missing"):  # a folder, a named pipe, a link that loops
            raise RulesError([Problem(path, 1, 1, f"cannot write {path.name}: it {kind}")])
        try:
            path.write_text(schema_text(path.parent.name, rules_dir), encoding="utf-8")
        except OSError as exc:
            message = f"cannot write {path.name}: {exc.strerror or exc}"
            raise RulesError([Problem(path, 1, 1, message)]) from None
    return stale


def _read(path: Path) -> str | None:
    """The schema file's text; None when it is not a regular file that can be read (it is
    then stale: writing it says what it is)."""
    if file_kind(path) is not None:
        return None
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
