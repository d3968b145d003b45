"""JSON Schemas of the rules files, so an editor can validate and complete them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from gachapress.games import GAME_IDS, game_spec

SCHEMA_FILE = "schema.json"


def game_schema(game_id: str) -> dict[str, Any]:
    """The schema of one game's files. Each file holds part of the document, so the top level
    requires nothing; `gachapress check` still insists on every required key."""
    schema = game_spec(game_id).model.model_json_schema(by_alias=True, mode="validation")
    schema.pop("required", None)
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = f"gachapress rules: {game_id}"
    schema["description"] = (
        "One game's rules folder: game.yaml, decks.yaml, examples.yaml and clarifications.yaml "
        "each hold some of these top-level keys."
    )
    return schema


def schema_text(game_id: str) -> str:
    return json.dumps(game_schema(game_id), indent=2, ensure_ascii=False, sort_keys=True) + "\n"


def stale_schemas(rules_dir: Path) -> list[Path]:
    """The schema files under ``rules_dir`` that differ from what the code generates."""
    return [
        rules_dir / game_id / SCHEMA_FILE
        for game_id in GAME_IDS
        if (rules_dir / game_id).is_dir()
        and _read(rules_dir / game_id / SCHEMA_FILE) != schema_text(game_id)
    ]


def write_schemas(rules_dir: Path) -> list[Path]:
    """Regenerate every stale schema file; return those written."""
    stale = stale_schemas(rules_dir)
    for path in stale:
        path.write_text(schema_text(path.parent.name), encoding="utf-8")
    return stale


def _read(path: Path) -> str | None:
    return path.read_text(encoding="utf-8") if path.is_file() else None
