"""Turn pydantic's validation errors into located problems, one per defect."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from gachapress.data.yamlsource import Locations, PathKey
from gachapress.errors import Problem

_MESSAGES = {
    "int_type": "expected an integer",
    "string_type": "expected text",
    "bool_type": "expected true or false",
    "list_type": "expected a list",
    "dict_type": "expected a mapping",
    "model_type": "expected a mapping",
    "model_attributes_type": "expected a mapping",
    "float_type": "expected a number",
}


def located_problems(exc: ValidationError, data: Any, locations: Locations) -> list[Problem]:
    """One problem per distinct failing place, pointing at the offending YAML node."""
    problems: dict[PathKey, Problem] = {}
    for error in exc.errors(include_url=False):
        path, rest = _data_path(data, error["loc"])
        kind = error["type"]
        if kind == "extra_forbidden":
            message = f"unknown key {path[-1]!r}" if path else "unknown key"
            mark = locations.at(path, key=True)
        elif kind == "missing":
            name = next((str(part) for part in rest if isinstance(part, str)), "?")
            where = f" in {locations.name(path) or _dotted(path)}" if path else ""
            message = f"missing required key {name!r}{where}"
            mark = locations.at((*path, name)) if locations.name(path) else locations.at(path)
        else:
            message = f"{locations.name(path) or _dotted(path) or 'document'}: {_message(error)}"
            mark = locations.at(path)
        problems.setdefault(path, mark.problem(message))
    return sorted(problems.values())


def _data_path(data: Any, loc: tuple[Any, ...]) -> tuple[PathKey, tuple[Any, ...]]:
    """Follow ``loc`` through the data, skipping pydantic's own steps (union members, [key])."""
    path: list[str | int] = []
    node = data
    for i, part in enumerate(loc):
        if _has(node, part):
            path.append(part)
            node = node[part]
        elif _is_internal(part) or any(_has(node, later) for later in loc[i + 1 :]):
            continue  # a step of pydantic's own (a union member or tag), not of the data
        else:
            return tuple(path), tuple(loc[i:])
    return tuple(path), ()


def _has(node: Any, part: Any) -> bool:
    if isinstance(node, dict):
        return part in node
    return isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node)


def _is_internal(part: Any) -> bool:
    return isinstance(part, str) and (
        part.startswith(("function-", "tagged-union[", "json-or-python", "lax-or-strict"))
        or part in {"[key]", "str", "int", "constrained-str", "none", "list", "dict"}
        or part[:1].isupper()
    )


def _message(error: dict[str, Any]) -> str:
    kind = error["type"]
    got = error.get("input")
    if kind in _MESSAGES:
        return f"{_MESSAGES[kind]}, got {_describe(got)}"
    bounds = error.get("ctx") or {}
    if kind == "less_than_equal":
        return f"{got!r} is above the maximum {bounds['le']!r}"
    if kind == "greater_than_equal":
        return f"{got!r} is below the minimum {bounds['ge']!r}"
    if kind == "literal_error":
        expected = str(bounds["expected"])
        return f"{got!r} is not {'one of ' if ' or ' in expected else ''}{expected}"
    message = str(error["msg"])
    if message.startswith("Value error, "):
        message = message[len("Value error, ") :]
    return message[0].lower() + message[1:] if message else kind


def _describe(value: Any) -> str:
    if value is None:
        return "nothing"
    if isinstance(value, bool):
        return f"{str(value).lower()} (a boolean)"
    if isinstance(value, dict):
        return "a mapping"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, str):
        return f"text {value[:40]!r}"
    return repr(value)


def _dotted(path: PathKey) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text
