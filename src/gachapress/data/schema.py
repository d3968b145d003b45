"""JSON Schemas of the rules files, so an editor can validate and complete them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gachapress.data.declared import sheets_allowed
from gachapress.data.folders import find_games
from gachapress.data.load import data_spec, read_rules_data
from gachapress.registry import game_spec

SCHEMA_FILE = "schema.json"


def game_schema(game_id: str, rules_dir: Path) -> dict[str, Any]:
    """The schema of one game's files: its package's model, or the one its decks' declared
    fields make (RulesError when those declarations do not hold). Each file holds part of the
    document, so the top level requires nothing; `gachapress check` still insists on every
    required key."""
    spec = game_spec(game_id)
    if spec is not None:
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
        path.write_text(schema_text(path.parent.name, rules_dir), encoding="utf-8")
    return stale


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None
