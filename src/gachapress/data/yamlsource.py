"""Read YAML into plain data while remembering where every node came from.

Only the safe subset is accepted: mappings, sequences, strings, integers, floats, booleans and
null. Nothing is constructed from tags, duplicate keys are refused, and a document whose aliases
would expand into a huge structure is refused before it is expanded.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from yaml.nodes import MappingNode, Node, ScalarNode, SequenceNode

from gachapress.data.files import file_kind, resolved
from gachapress.errors import Problem, RulesError, unprintable

#: Largest number of nodes a document may expand to once its aliases are followed.
MAX_EXPANDED_NODES = 100_000
#: Largest rules file read, in bytes.
MAX_FILE_BYTES = 2_000_000
#: Most digits an integer may have: no field takes more than a 64-bit number.
MAX_INT_DIGITS = 19

_SCALAR_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
}
_TAG_NAMES = {"tag:yaml.org,2002:timestamp": "a date", "tag:yaml.org,2002:binary": "binary data"}

#: The plain scalars read as numbers or booleans: YAML 1.2's core schema. PyYAML resolves
#: YAML 1.1's as well (``0x3``, ``0o7``, ``010``, ``1_000``, ``1:30``, ``yes``, ``off``), which
#: a designer does not mean as numbers: those are refused, saying how to write the value.
_PLAIN_INT = re.compile(r"[-+]?[0-9]+")
_PLAIN_FLOAT = re.compile(r"[-+]?([0-9]+\.[0-9]*|\.[0-9]+)([eE][-+]?[0-9]+)?")
_PLAIN_BOOL = {"true", "True", "TRUE", "false", "False", "FALSE"}

PathKey = tuple[str | int, ...]
#: libyaml's parser where PyYAML was built with it (several times faster), else pure Python;
#: either way only the composer runs: nothing is constructed from tags.
_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


@dataclass(frozen=True)
class Mark:
    """A position in a file: 1-based line and column."""

    file: Path
    line: int
    column: int

    @classmethod
    def of(cls, file: Path, node: Node) -> Mark:
        return cls(file, node.start_mark.line + 1, node.start_mark.column + 1)

    def problem(self, message: str, severity: str = "error") -> Problem:
        return Problem(self.file, self.line, self.column, message, severity)  # type: ignore[arg-type]


@dataclass
class Locations:
    """Where each value (and each mapping key) of a loaded document sits in its file."""

    values: dict[PathKey, Mark] = field(default_factory=dict)
    keys: dict[PathKey, Mark] = field(default_factory=dict)
    names: dict[PathKey, str] = field(default_factory=dict)
    """How a message names a place where its data path means nothing to the reader (a
    spreadsheet's cell is its column's header; its row, the file and row number)."""

    def at(self, path: PathKey, *, key: bool = False) -> Mark:
        """The mark of ``path``, or of its nearest ancestor that exists."""
        path = tuple(path)
        if key and path in self.keys:
            return self.keys[path]
        while path not in self.values:
            if not path:
                raise KeyError("empty location index")
            path = path[:-1]
        return self.values[path]

    def update(self, other: Locations) -> None:
        self.values.update(other.values)
        self.keys.update(other.keys)
        self.names.update(other.names)

    def name(self, path: PathKey) -> str | None:
        """The name ``names`` gives ``path``, or None."""
        return self.names.get(tuple(path))


def load_yaml(
    file: Path, prefix: PathKey = (), *, inside: Path | None = None
) -> tuple[Any, Locations]:
    """Parse one YAML file into plain data and its locations; raise RulesError on any problem
    (``inside``: a folder the file must resolve into, symlinks followed)."""
    raw = read_limited(file, MAX_FILE_BYTES, inside=inside)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RulesError([Problem(file, 1, 1, f"not UTF-8 text ({exc.reason})")]) from None
    try:
        root = yaml.compose(text, Loader=_LOADER)
    except yaml.MarkedYAMLError as exc:
        raise RulesError([_syntax_problem(file, exc)]) from None
    except yaml.YAMLError as exc:
        raise RulesError([Problem(file, 1, 1, f"invalid YAML: {exc}")]) from None
    if root is None:
        return None, Locations({prefix: Mark(file, 1, 1)})
    _refuse_alias_bombs(file, root)
    reader = _Reader(file)
    data = reader.convert(root, prefix)
    if reader.problems:
        raise RulesError(reader.problems)
    return data, reader.locations


#: What PyYAML's contexts ("while parsing a flow sequence") are, in a designer's words.
_CONTEXTS = {
    "while parsing a flow sequence": "the [ list that opens here",
    "while parsing a flow mapping": "the { mapping that opens here",
    "while scanning a quoted scalar": "the quoted text that opens here",
    "while parsing a block mapping": "the mapping that starts here",
    "while parsing a block collection": "the list that starts here",
    "while parsing a flow node": "the value that starts here",
    "while parsing a block node": "the value that starts here",
}


def _syntax_problem(file: Path, exc: yaml.MarkedYAMLError) -> Problem:
    """A YAML syntax error, located where the broken construct opens (an unclosed ``[`` on
    the line it is on, not where the parser gave up on it, maybe lines later), saying both."""
    problem, context = exc.problem_mark, exc.context_mark
    what = exc.problem or exc.context
    if (
        context is None
        or problem is None
        or (context.line, context.column)
        == (
            problem.line,
            problem.column,
        )
    ):
        mark = problem or context
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        return Problem(file, line, col, f"invalid YAML: {what}")
    where = _CONTEXTS.get(exc.context or "", "what starts here")
    at = f"line {problem.line + 1}, column {problem.column + 1}"
    message = f"invalid YAML in {where}: {what} (at {at})"
    return Problem(file, context.line + 1, context.column + 1, message)


def read_limited(file: Path, limit: int, *, inside: Path | None = None) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, checked before reading (and
    never reading more than one byte past it), that resolves into the folder ``inside`` when
    given; RulesError otherwise."""
    too_big = f"file is larger than {limit:,} bytes"
    real = resolved(file)
    if inside is not None and real is not None and not real.is_relative_to(inside.resolve()):
        message = f"resolves to {real}, outside {inside.resolve()}"
        raise RulesError([Problem(file, 1, 1, message)])
    kind = file_kind(file)  # missing, a folder, a named pipe, a link that loops: say which
    if kind is not None:
        raise RulesError([Problem(file, 1, 1, f"cannot read {file.name}: it {kind}")])
    try:
        if file.stat().st_size > limit:
            raise RulesError([Problem(file, 1, 1, too_big)])
        with file.open("rb") as handle:
            raw = handle.read(limit + 1)
    except OSError as exc:
        raise RulesError([Problem(file, 1, 1, f"cannot read file: {exc.strerror}")]) from None
    if len(raw) > limit:
        raise RulesError([Problem(file, 1, 1, too_big)])
    return raw


def _refuse_alias_bombs(file: Path, root: Node) -> None:
    """Refuse a document that aliases expand past MAX_EXPANDED_NODES, or that holds itself."""
    sizes: dict[int, int] = {}
    active: set[int] = set()

    def size(node: Node) -> int:
        key = id(node)
        if key in sizes:
            return sizes[key]
        if key in active:
            raise RulesError(
                [Mark.of(file, node).problem("recursive alias: a node contains itself")]
            )
        active.add(key)
        total = 1 + sum(size(child) for child in _children(node))
        active.discard(key)
        sizes[key] = total
        return total

    if size(root) <= MAX_EXPANDED_NODES:
        return
    node = root
    while True:  # descend to where the blow-up happens
        big = next((c for c in _children(node) if sizes[id(c)] > MAX_EXPANDED_NODES), None)
        if big is None:
            break
        node = big
    message = (
        f"aliases would expand this document past {MAX_EXPANDED_NODES} nodes "
        f"({sizes[id(root)]}); refused"
    )
    raise RulesError([Mark.of(file, node).problem(message)])


def _yaml11_value(node: ScalarNode) -> str | None:
    """Why a plain scalar that PyYAML reads as a number or a boolean the YAML 1.1 way is
    refused (None: it is an ordinary value)."""
    text = node.value
    quote = "or quote it to make it text"
    if node.tag == "tag:yaml.org,2002:int":
        digits = text.lstrip("+-").lower()
        if _PLAIN_INT.fullmatch(text) and not (len(digits) > 1 and digits.startswith("0")):
            return None
        if digits.startswith("0x"):
            how = "a hexadecimal number"
        elif digits.startswith("0b"):
            how = "a binary number"
        elif ":" in digits:
            how = "a number in base 60 (1:30 is 90)"
        elif "_" in digits:
            how = "a number with its digits grouped by _"
        else:
            how = "an octal number (it starts with 0)"
        return f"{text!r} is read as {how}; write the number in plain decimal digits, {quote}"
    if node.tag == "tag:yaml.org,2002:float" and not _PLAIN_FLOAT.fullmatch(text):
        return f"{text!r} is not a plain decimal number; write digits and a decimal point, {quote}"
    if node.tag == "tag:yaml.org,2002:bool" and text not in _PLAIN_BOOL:
        return f"{text!r} is read as a yes/no value; write true or false, {quote}"
    return None


def _children(node: Node) -> Iterator[Node]:
    if isinstance(node, SequenceNode):
        yield from node.value
    elif isinstance(node, MappingNode):
        for key, value in node.value:
            yield key
            yield value


class _Reader:
    """Turns a composed node tree into plain Python data, recording marks as it goes."""

    def __init__(self, file: Path) -> None:
        self.file = file
        self.locations = Locations()
        self.problems: list[Problem] = []
        self._scalars = yaml.SafeLoader("")

    def convert(self, node: Node, path: PathKey) -> Any:
        self.locations.values[path] = Mark.of(self.file, node)
        if isinstance(node, MappingNode):
            return self._mapping(node, path)
        if isinstance(node, SequenceNode):
            if node.tag != "tag:yaml.org,2002:seq":
                return self._bad_tag(node)
            return [self.convert(child, (*path, i)) for i, child in enumerate(node.value)]
        return self._scalar(node)

    def _mapping(self, node: MappingNode, path: PathKey) -> dict[Any, Any] | None:
        if node.tag != "tag:yaml.org,2002:map":
            return self._bad_tag(node)
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":
                self._error(key_node, "merge keys (<<) are not supported; write the keys out")
                continue
            if not isinstance(key_node, ScalarNode):
                self._error(key_node, "a mapping key must be a plain string or number")
                continue
            known = len(self.problems)
            key = self._scalar(key_node)
            if len(self.problems) > known:  # the key itself is refused, and said why
                continue
            if not isinstance(key, str | int) or isinstance(key, bool):
                self._error(key_node, "a mapping key must be a plain string or number")
                continue
            if key in result:
                self._error(key_node, f"duplicate key {key!r}")
                continue
            self.locations.keys[(*path, key)] = Mark.of(self.file, key_node)
            result[key] = self.convert(value_node, (*path, key))
        return result

    def _scalar(self, node: Node) -> Any:
        if not isinstance(node, ScalarNode) or node.tag not in _SCALAR_TAGS:
            return self._bad_tag(node)
        unusual = _yaml11_value(node)
        if unusual:
            self._error(node, unusual)
            return None
        if node.tag == "tag:yaml.org,2002:int":
            digits = sum(ch.isdigit() for ch in node.value)
            if digits > MAX_INT_DIGITS:
                self._error(
                    node,
                    f"an integer of {digits:,} digits is out of range (at most {MAX_INT_DIGITS})",
                )
                return None
        value = self._scalars.construct_object(node, deep=True)
        if isinstance(value, str) and (char := unprintable(value)):
            self._error(node, f"text holds the control character {char}; remove it")
            return None
        return value

    def _bad_tag(self, node: Node) -> None:
        what = _TAG_NAMES.get(node.tag)
        if what:
            self._error(node, f"{what} is not a supported value here; quote it to make it text")
        else:
            self._error(node, f"tag {node.tag!r} is not allowed in rules files")
        return None

    def _error(self, node: Node, message: str) -> None:
        self.problems.append(Mark.of(self.file, node).problem(message))
