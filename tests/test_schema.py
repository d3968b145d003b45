"""The checked-in JSON Schemas are current and accept the real rules files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from gachapress.data.load import RULES_FILES
from gachapress.data.schema import SCHEMA_FILE, schema_text
from gachapress.data.yamlsource import load_yaml
from tests.conftest import RULES, run_cli

GAMES = sorted(p.name for p in RULES.iterdir() if (p / "game.yaml").is_file())


@pytest.mark.parametrize("game_id", GAMES)
def test_checked_in_schema_is_current(game_id: str) -> None:
    written = (RULES / game_id / SCHEMA_FILE).read_text(encoding="utf-8")
    assert written == schema_text(game_id, RULES), "run `gachapress schema`"


@pytest.mark.parametrize("game_id", GAMES)
def test_rules_files_validate_against_their_schema(game_id: str) -> None:
    schema = json.loads((RULES / game_id / SCHEMA_FILE).read_text(encoding="utf-8"))
    for name in RULES_FILES:
        file = RULES / game_id / name
        if file.is_file():
            data, _ = load_yaml(file)
            jsonschema.validate(_json_keys(data), schema)


def test_schema_rejects_an_unknown_key() -> None:
    schema = json.loads((RULES / "gachapon-trick" / SCHEMA_FILE).read_text(encoding="utf-8"))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({"rounds": 3, "rouds": 4}, schema)


def test_schema_command_regenerates_and_checks(project_copy: Path) -> None:
    target = project_copy / "rules" / "gachapon-trick" / SCHEMA_FILE
    target.write_text("{}", encoding="utf-8")
    assert run_cli("schema", "--check", cwd=project_copy).code == 1
    assert run_cli("schema", cwd=project_copy).code == 0
    assert run_cli("schema", "--check", cwd=project_copy).code == 0


def _json_keys(value: Any) -> Any:
    """YAML allows integer keys; JSON (and so JSON Schema) sees them as strings."""
    if isinstance(value, dict):
        return {str(k): _json_keys(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_json_keys(v) for v in value]
    return value


def test_a_schema_file_that_is_a_folder_is_a_located_error(project_copy: Path) -> None:
    """Issue 31, item 18: `gachapress schema` where rules/<game>/schema.json is a folder."""
    target = project_copy / "rules" / "gasha" / "schema.json"
    target.unlink()
    target.mkdir()
    result = run_cli("schema", cwd=project_copy)
    assert result.code == 1 and "Traceback" not in result.err
    assert result.err.splitlines() == [
        "rules/gasha/schema.json:1:1: error: cannot write schema.json: it is a folder, not a file"
    ]
